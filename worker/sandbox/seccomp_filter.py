"""The system-call allow-list of a student's process, compiled once and installed per child.

Deny by default: a system call not named here fails with EPERM, which the student sees as a
clean Python error (``PermissionError``, ``RuntimeError: can't start new thread``). A few
calls that no honest Python search ever makes, and that are only useful to an attack, kill
the process instead. The list was measured with ``strace -f`` on children running the
exercise solutions and the hostile corpus (see ``tests/worker/hostile``).

The filter is compiled with libseccomp (PyPI ``pyseccomp``, a ctypes wrapper around the
system's ``libseccomp.so.2``) in the fork-server, exported as raw BPF, and installed in the
child with one ``prctl``: the child never loads libseccomp itself.
"""

from __future__ import annotations

import ctypes
import errno
import importlib
import importlib.util
import os
from typing import Any

from worker.sandbox.prctl import PR_SET_NO_NEW_PRIVS, PR_SET_SECCOMP, SECCOMP_MODE_FILTER, prctl

ALLOWED = (
    # Memory: CPython's allocators and the interpreter's own bookkeeping.
    "brk",
    "munmap",
    "mremap",
    "madvise",
    # Locks: uncontended locks make no system call, but the GIL's condition may.
    "futex",
    # Signals: the interpreter installs handlers and returns from them; a student's own
    # signal.signal() only concerns its own process.
    "rt_sigaction",
    "rt_sigprocmask",
    "rt_sigreturn",
    "sigaltstack",
    "restart_syscall",
    # Time: time.time(), time.perf_counter(), time.process_time(), time.sleep().
    "clock_gettime",
    "clock_getres",
    "gettimeofday",
    "clock_nanosleep",
    "nanosleep",
    "sched_yield",
    "getrusage",
    # random and secrets seed from the kernel.
    "getrandom",
    # Harmless questions about the process itself.
    "getpid",
    "gettid",
    "getppid",
    "getuid",
    "geteuid",
    "getgid",
    "getegid",
    "getgroups",
    # The only files the child has are its channel and output pipe; closing or seeking them
    # hurts nobody else.
    "close",
    "lseek",
    "exit",
    "exit_group",
)

KILLED = (
    # Only an attack asks for these: the process is killed (SIGSYS) rather than warned.
    "ptrace",
    "process_vm_readv",
    "process_vm_writev",
    "execve",
    "execveat",
    "bpf",
    "perf_event_open",
    "userfaultfd",
    "io_uring_setup",
    "io_uring_enter",
    "io_uring_register",
    "keyctl",
    "add_key",
    "request_key",
    "kexec_load",
    "kexec_file_load",
    "init_module",
    "finit_module",
    "delete_module",
    "mount",
    "umount2",
    "pivot_root",
    "chroot",
    "unshare",
    "setns",
    "personality",
    "modify_ldt",
    "iopl",
    "ioperm",
    "open_by_handle_at",
    "name_to_handle_at",
)

ANSWERS_FD = 3
"""The child reads the job and the answers from this pipe."""
REQUESTS_FD = 4
"""The child writes its requests, notes, output and report to this pipe."""
NULL_FDS = (1, 2)
"""/dev/null, inherited from the fork-server (C-level messages go there); 0 is closed."""

_PROT_EXEC = 0x4
_F_GETFD, _F_SETFD, _F_GETFL, _F_SETFL = 1, 2, 3, 4


class SeccompUnavailable(RuntimeError):
    """libseccomp or its Python binding is missing, or the kernel refused the filter."""


def compile_filter(binding: str | None = None) -> bytes:
    """The allow-list as raw BPF (``struct sock_filter[]``) for this machine's architecture.

    ``binding`` is the path of ``pyseccomp.py`` (the fork-server imports it from there, not
    from a whole site-packages directory); None imports it by name.
    """
    try:
        seccomp = _load_binding(binding)
    except (ImportError, RuntimeError, OSError) as error:
        raise SeccompUnavailable(f"cannot load libseccomp: {error}") from error
    rules = seccomp.SyscallFilter(seccomp.ERRNO(errno.EPERM))
    arg = seccomp.Arg

    def add(action: int, name: str, *conditions: Any) -> None:
        if seccomp.resolve_syscall(seccomp.Arch.NATIVE, name) < 0:
            return  # not a system call on this architecture
        rules.add_rule(action, name, *conditions)

    for name in ALLOWED:
        add(seccomp.ALLOW, name)
    for name in KILLED:
        add(seccomp.KILL_PROCESS, name)
    # Reads of the answers, writes of requests and to /dev/null: nothing else is open.
    add(seccomp.ALLOW, "read", arg(0, seccomp.EQ, ANSWERS_FD))
    for fd in (*NULL_FDS, REQUESTS_FD):
        add(seccomp.ALLOW, "write", arg(0, seccomp.EQ, fd))
    # Memory may be mapped and protected, never made executable: no new machine code.
    for name in ("mmap", "mprotect"):
        add(seccomp.ALLOW, name, arg(2, seccomp.MASKED_EQ, _PROT_EXEC, 0))
    # fcntl only to read or set flags (io checks them); F_DUPFD would make new descriptors.
    for command in (_F_GETFD, _F_SETFD, _F_GETFL, _F_SETFL):
        add(seccomp.ALLOW, "fcntl", arg(1, seccomp.EQ, command))
    read_end, write_end = os.pipe()
    try:
        with os.fdopen(write_end, "wb", closefd=True) as sink:
            rules.export_bpf(sink)
        chunks = []
        while chunk := os.read(read_end, 65536):
            chunks.append(chunk)
    finally:
        os.close(read_end)
    program = b"".join(chunks)
    if not program or len(program) % 8:
        raise SeccompUnavailable("libseccomp exported an empty or malformed program")
    return program


def binding_path() -> str | None:
    """Where ``pyseccomp`` is installed, or None."""
    spec = importlib.util.find_spec("pyseccomp")
    return spec.origin if spec is not None else None


def _load_binding(path: str | None) -> Any:
    if path is None:
        return importlib.import_module("pyseccomp")
    spec = importlib.util.spec_from_file_location("pyseccomp", path)
    if spec is None or spec.loader is None:
        raise ImportError(f"cannot import pyseccomp from {path}")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class _SockFprog(ctypes.Structure):
    _fields_ = (("len", ctypes.c_ushort), ("filter", ctypes.c_void_p))


class Installer:
    """Installs a compiled filter in the calling process; built before fork, used after it.

    The program buffer is prepared here, in the fork-server, so that the child does a single
    ``prctl`` at the moment it confines itself.
    """

    def __init__(self, program: bytes) -> None:
        self._buffer = ctypes.create_string_buffer(program, len(program))
        self._program = _SockFprog(len(program) // 8, ctypes.addressof(self._buffer))
        self._pointer = ctypes.cast(ctypes.pointer(self._program), ctypes.c_void_p)

    def install(self) -> None:
        """Set no-new-privileges and load the filter; raises OSError if the kernel refuses."""
        prctl(PR_SET_NO_NEW_PRIVS, 1)
        prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, self._pointer)
