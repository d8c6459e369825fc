"""The grader's handle on its fork-server: start it, ask it to spawn and reap children, stop it.

Students' processes are never forked from the grader (which holds the database, the broker
connection and the hidden trees) but from a small, freshly exec'd ``python -I -S`` that
holds nothing (:mod:`worker.sandbox.forkserver_process`). It stays up ("warm"), so a run
costs a fork, not an interpreter start.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from worker.sandbox.limits import ChildPlan
from worker.sandbox.seccomp_filter import binding_path

NOBODY = 65534
START_TIMEOUT = 30.0
REPLY_TIMEOUT = 30.0

_BOOT = (
    "import sys, json; config = json.loads(sys.argv[1]); sys.path[:0] = config['path']; "
    "from worker.sandbox.forkserver_process import main; main(config)"
)


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
    ) -> None:
        self.allow_unconfined = allow_unconfined
        self.uid = uid
        self.gid = gid
        self.python = python
        self.problems: list[str] = []
        """Why children run less confined than designed (empty when fully confined)."""
        self._process: subprocess.Popen[bytes] | None = None
        self._control: socket.socket | None = None
        self._lock = threading.Lock()
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
                "path": [str(Path(__file__).resolve().parents[2])],
                "seccomp_binding": binding_path(),
            }
            try:
                self._process = subprocess.Popen(
                    [self.python, "-I", "-S", "-c", _BOOT, json.dumps(config)],
                    stdin=subprocess.DEVNULL,
                    stdout=subprocess.DEVNULL,
                    stderr=subprocess.DEVNULL,
                    env={},
                    cwd="/",
                    pass_fds=(theirs.fileno(),),
                    start_new_session=True,
                )
            finally:
                theirs.close()
            self._control = ours
            ours.settimeout(START_TIMEOUT)
            try:
                hello = self._receive()
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

    def spawn(self, answers_fd: int, requests_fd: int, plan: ChildPlan) -> int:
        """Fork a child that reads ``answers_fd`` and writes ``requests_fd``; its pid."""
        reply = self._ask({"op": "spawn", "plan": plan.to_wire()}, (answers_fd, requests_fd))
        return int(reply["pid"])

    def reap(self, pid: int, grace: float = 0.0) -> ChildExit:
        """Wait up to ``grace`` seconds for the child to end, kill its group, and report."""
        reply = self._ask({"op": "reap", "pid": pid, "grace": grace}, ())
        return ChildExit(
            int(reply["status"]),
            bool(reply["killed"]),
            float(reply["cpu_seconds"]),
            int(reply["max_rss_kb"]),
        )

    def __enter__(self) -> ForkServer:
        self.start()
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.stop()

    def _ask(self, request: dict[str, Any], fds: tuple[int, ...]) -> dict[str, Any]:
        with self._lock:
            if self._control is None or not self.running:
                raise RuntimeError("the fork-server is not running")
            socket.send_fds(self._control, [json.dumps(request).encode()], list(fds))
            reply = self._receive()
        if "error" in reply:
            raise RuntimeError(f"the fork-server refused: {reply['error']}")
        return reply

    def _receive(self) -> dict[str, Any]:
        assert self._control is not None
        message = self._control.recv(65536)
        if not message:
            raise OSError("the fork-server closed its control socket")
        reply = json.loads(message)
        if type(reply) is not dict:
            raise ValueError("a malformed reply from the fork-server")
        return reply

    def _close(self) -> None:
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


_shared: dict[bool, ForkServer] = {}
_shared_lock = threading.Lock()


def shared_forkserver(*, allow_unconfined: bool = False) -> ForkServer:
    """This process's fork-server, started on first use (and again after a fork or a crash)."""
    with _shared_lock:
        server = _shared.get(allow_unconfined)
        if server is None or server.owner != os.getpid():
            server = ForkServer(allow_unconfined=allow_unconfined)
            _shared[allow_unconfined] = server
        server.start()
        return server
