"""The grader's handle on its fork-server: start it, ask it to spawn and reap children, stop it.

Students' processes are never forked from the grader (which holds the database, the broker
connection and the hidden trees) but from a small, freshly exec'd ``python -I -S`` that
holds nothing (:mod:`worker.sandbox.forkserver_process`). It stays up ("warm") and keeps a
confined child ready, so a run costs neither an interpreter start nor a fork.
"""

from __future__ import annotations

import contextlib
import importlib.util
import json
import os
import select
import signal
import socket
import subprocess
import sys
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from worker.sandbox.importable import PRELOADED, THIRD_PARTY
from worker.sandbox.limits import ChildPlan
from worker.sandbox.seccomp_filter import binding_path

NOBODY = 65534
START_TIMEOUT = 30.0
REPLY_TIMEOUT = 30.0

_BOOT = (
    "import sys, json; config = json.loads(sys.argv[1]); sys.path[:0] = config['path']; "
    "from worker.sandbox.forkserver_process import main; main(config)"
)


def _library_paths() -> list[str]:
    """Where the third-party modules students may import live (the fork-server runs with
    ``-I -S``: no site-packages of its own)."""
    found = []
    for name in THIRD_PARTY:
        spec = importlib.util.find_spec(name)
        if spec is not None and spec.submodule_search_locations:
            found.append(str(Path(next(iter(spec.submodule_search_locations))).parent))
    return sorted(set(found))


_BLAS_SETTINGS = ("OPENBLAS_CORETYPE", "OPENBLAS_L2_SIZE")
"""Settings some processors need for OpenBLAS to compute right, passed on when set."""


def _blas_environment() -> dict[str, str]:
    """The fork-server's environment: nothing of the grader's but the BLAS settings, and a
    single BLAS thread (a confined child may not start threads, and gains nothing by it)."""
    environment = {name: os.environ[name] for name in _BLAS_SETTINGS if name in os.environ}
    environment.update(OPENBLAS_NUM_THREADS="1", OMP_NUM_THREADS="1", MKL_NUM_THREADS="1")
    return environment


class SandboxUnavailable(RuntimeError):
    """The sandbox cannot confine students' code here (and unconfined runs are not allowed)."""


@dataclass(frozen=True, slots=True)
class ChildExit:
    """How a child ended, as the fork-server saw it."""

    status: int
    """The wait status (see os.WIFSIGNALED and friends)."""
    killed: bool
    """True when the child was still running and the fork-server killed it."""
    cpu_seconds: float
    max_rss_kb: int


@dataclass(frozen=True, slots=True)
class Spawned:
    """A child handed out for one run, waiting for its job."""

    pid: int
    answers_fd: int
    """Write the job and the answers here (the grader's to close)."""
    requests_fd: int
    """Read the child's messages here (the grader's to close)."""


class ForkServer:
    """A warm fork-server process; thread-safe, one request at a time.

    ``allow_unconfined`` lets it run children without seccomp or without the user change
    (when the machine cannot provide them): for development only.
    """

    def __init__(
        self,
        *,
        allow_unconfined: bool = False,
        uid: int = NOBODY,
        gid: int = NOBODY,
        python: str = sys.executable,
        preload: tuple[str, ...] = PRELOADED,
    ) -> None:
        self.allow_unconfined = allow_unconfined
        self.preload = preload
        """The modules the server loads for the children (all a student may import)."""
        self.uid = uid
        self.gid = gid
        self.python = python
        self.problems: list[str] = []
        """Why children run less confined than designed (empty when fully confined)."""
        self._process: subprocess.Popen[bytes] | None = None
        self._control: socket.socket | None = None
        self._lock = threading.Lock()
        self._ready: dict[ChildPlan, Spawned] = {}
        """Children sent ahead of their runs, one per plan, waiting for their jobs."""
        self._coming: set[ChildPlan] = set()
        """Plans whose next child is on its way."""
        self.owner = os.getpid()

    @property
    def pid(self) -> int | None:
        """The server's process id while it runs."""
        return None if self._process is None else self._process.pid

    @property
    def running(self) -> bool:
        """True while the server process is up."""
        return self._process is not None and self._process.poll() is None

    def start(self) -> None:
        """Start the server and check that it can confine children; idempotent."""
        with self._lock:
            if self.running:
                return
            self._close()
            ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
            config = {
                "control_fd": theirs.fileno(),
                "uid": self.uid,
                "gid": self.gid,
                "path": [str(Path(__file__).resolve().parents[2]), *_library_paths()],
                "seccomp_binding": binding_path(),
                "preload": list(self.preload),
                # Read by numpy's BLAS when it loads, then taken away: children start with
                # an empty environment.
                "unset_after_preload": sorted(_blas_environment()),
            }
            try:
                self._process = subprocess.Popen(
                    [self.python, "-I", "-S", "-c", _BOOT, json.dumps(config)],
                    stdin=subprocess.DEVNULL,
                    stdout=subprocess.DEVNULL,
                    stderr=subprocess.DEVNULL,
                    env=_blas_environment(),
                    cwd="/",
                    pass_fds=(theirs.fileno(),),
                    start_new_session=True,
                )
            finally:
                theirs.close()
            self._control = ours
            ours.settimeout(START_TIMEOUT)
            try:
                hello, _ = self._receive()
            except (OSError, ValueError) as error:
                self._close()
                raise SandboxUnavailable(f"the fork-server did not start: {error}") from error
            ours.settimeout(REPLY_TIMEOUT)
            self.problems = list(hello.get("problems", []))
        if self.problems and not self.allow_unconfined:
            self.stop()
            raise SandboxUnavailable(
                "cannot confine students' code: "
                + "; ".join(self.problems)
                + " (set GRADER_SANDBOX_ALLOW_UNCONFINED=1 for development only)"
            )

    def stop(self) -> None:
        """Stop the server; its running children are killed."""
        with self._lock:
            self._close()

    def spawn(self, plan: ChildPlan) -> Spawned:
        """A child confined for ``plan``, waiting for its job on its pipes: the one the
        fork-server sent ahead for this plan if any (and it is asked for the next), else
        one forked now."""
        wire = plan.to_wire()
        with self._lock:
            self._check()
            self._collect(block=False)
            while plan in self._coming and plan not in self._ready:
                self._collect(block=True)
            child = self._ready.pop(plan, None)
            if child is not None:
                self._tell({"op": "next", "plan": wire})
                self._coming.add(plan)
                return child
            self._tell({"op": "spawn", "plan": wire})
            reply, fds = self._reply()
            self._coming.add(plan)
        if len(fds) != 2 or "pid" not in reply:
            _close_all(fds)
            raise RuntimeError(f"the fork-server did not hand out a child: {reply}")
        return Spawned(int(reply["pid"]), fds[0], fds[1])

    def reap(self, pid: int, grace: float = 0.0) -> ChildExit:
        """Wait up to ``grace`` seconds for the child to end, kill its group, and report."""
        reply, _ = self._ask({"op": "reap", "pid": pid, "grace": grace})
        return ChildExit(
            int(reply["status"]),
            bool(reply["killed"]),
            float(reply["cpu_seconds"]),
            int(reply["max_rss_kb"]),
        )

    def release(self, pid: int, cpu: int | None = None) -> ChildExit:
        """End a child that has sent its report: read its usage from /proc while it waits,
        kill its process group, and leave the wait for its exit to the fork-server. Falls
        back to :meth:`reap` when the child is already gone or cannot be killed from here.

        A child pinned to ``cpu`` (the calling thread's) is first let off it where this
        process may (CAP_SYS_NICE; not under Docker's default capabilities): its exit, the
        unmapping of its memory, then runs on another CPU instead of delaying the thread's
        next run.

        The child is never reaped before the fork-server reads the release, so ``pid`` is
        still the child's when it is killed.
        """
        usage = process_usage(pid)
        if usage is None:
            return self.reap(pid)
        if cpu is not None:
            with contextlib.suppress(OSError):
                os.sched_setaffinity(pid, _all_but(cpu))
        try:
            os.killpg(pid, signal.SIGKILL)
        except OSError:
            return self.reap(pid)
        with self._lock:
            self._check()
            self._tell({"op": "release", "pid": pid})
        return ChildExit(int(signal.SIGKILL), True, *usage)

    def settle(self) -> set[int]:
        """Wait until every released child is reaped; the pids of the children standing by
        for the next runs (confined, waiting for a job, holding nothing)."""
        self._ask({"op": "settle"})
        with self._lock:
            return {child.pid for child in self._ready.values()}

    def __enter__(self) -> ForkServer:
        self.start()
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.stop()

    def _ask(self, request: dict[str, Any]) -> tuple[dict[str, Any], list[int]]:
        with self._lock:
            self._check()
            self._tell(request)
            reply, fds = self._reply()
        if "error" in reply:
            _close_all(fds)
            raise RuntimeError(f"the fork-server refused: {reply['error']}")
        return reply, fds

    def _check(self) -> None:
        if self._control is None or not self.running:
            raise RuntimeError("the fork-server is not running")

    def _tell(self, request: dict[str, Any]) -> None:
        assert self._control is not None
        self._control.send(json.dumps(request).encode())

    def _reply(self) -> tuple[dict[str, Any], list[int]]:
        """The reply to the last request; children sent ahead on the way are kept."""
        while True:
            message, fds = self._receive()
            if "ready" not in message:
                return message, fds
            self._keep(message, fds)

    def _collect(self, *, block: bool) -> None:
        """Keep the children sent ahead that have arrived (wait for one if ``block``)."""
        assert self._control is not None
        poller = select.poll()
        poller.register(self._control, select.POLLIN)
        while block or poller.poll(0):
            message, fds = self._receive()
            if "ready" not in message:
                _close_all(fds)
                raise RuntimeError(f"an unexpected message from the fork-server: {message}")
            self._keep(message, fds)
            block = False

    def _keep(self, message: dict[str, Any], fds: list[int]) -> None:
        plan = ChildPlan.from_wire(message["plan"])
        self._coming.discard(plan)
        child = Spawned(int(message["ready"]), *fds) if len(fds) == 2 else None
        if child is None:
            _close_all(fds)
            return
        stale = [self._ready.pop(plan)] if plan in self._ready else []
        if len(self._ready) >= _READY_KEPT:
            stale.append(self._ready.pop(next(iter(self._ready))))
        self._ready[plan] = child
        for old in stale:
            _close_all([old.answers_fd, old.requests_fd])
            self._tell({"op": "release", "pid": old.pid})

    def _receive(self) -> tuple[dict[str, Any], list[int]]:
        assert self._control is not None
        message, fds, _flags, _address = socket.recv_fds(
            self._control, 65536, 2, socket.MSG_CMSG_CLOEXEC
        )
        try:
            if not message:
                raise OSError("the fork-server closed its control socket")
            reply = json.loads(message)
            if type(reply) is not dict:
                raise ValueError("a malformed reply from the fork-server")
        except BaseException:
            _close_all(fds)
            raise
        return reply, fds

    def _close(self) -> None:
        for child in self._ready.values():
            _close_all([child.answers_fd, child.requests_fd])
        self._ready.clear()
        self._coming.clear()
        if self._control is not None:
            self._control.close()
            self._control = None
        if self._process is not None:
            try:
                self._process.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self._process.kill()
                self._process.wait()
            self._process = None


_READY_KEPT = 4
"""Children kept ready at most, one per plan (grader threads on different CPUs differ)."""


def _all_but(cpu: int) -> set[int]:
    return set(range(os.cpu_count() or 1)) - {cpu} or {cpu}


def _close_all(fds: list[int]) -> None:
    for fd in fds:
        os.close(fd)


def process_usage(pid: int) -> tuple[float, int] | None:
    """(CPU seconds, peak resident kB) of a live process, as the kernel counts them; None
    when it has ended (a zombie has no memory to report) or /proc cannot tell."""
    try:
        schedstat = _read(f"/proc/{pid}/schedstat")
        status = _read(f"/proc/{pid}/status")
        start = status.index(b"\nVmHWM:") + 7
        peak_kb = int(status[start : status.index(b"kB", start)])
        return int(schedstat.split()[0]) / 1e9, peak_kb
    except (OSError, ValueError, IndexError):
        return None


def _read(path: str) -> bytes:
    descriptor = os.open(path, os.O_RDONLY)
    try:
        return os.read(descriptor, 65536)
    finally:
        os.close(descriptor)


_shared: dict[tuple[bool, tuple[str, ...]], ForkServer] = {}
_shared_lock = threading.Lock()


def shared_forkserver(
    *, allow_unconfined: bool = False, preload: tuple[str, ...] = PRELOADED
) -> ForkServer:
    """This process's fork-server preloading ``preload``, started on first use (and again
    after a fork or a crash)."""
    with _shared_lock:
        server = _shared.get((allow_unconfined, preload))
        if server is None or server.owner != os.getpid():
            server = ForkServer(allow_unconfined=allow_unconfined, preload=preload)
            _shared[allow_unconfined, preload] = server
        server.start()
        return server
