"""``prctl(2)`` through ctypes: the process attributes the child sets on itself.

The function object is made when this module is imported (in the fork-server), so the child
only calls it.
"""

from __future__ import annotations

import ctypes
import os

PR_SET_PDEATHSIG = 1
PR_SET_DUMPABLE = 4
PR_SET_SECCOMP = 22
PR_SET_NO_NEW_PRIVS = 38
SECCOMP_MODE_FILTER = 2

_libc = ctypes.CDLL(None, use_errno=True)
_prctl = _libc.prctl
_prctl.argtypes = (ctypes.c_int, ctypes.c_ulong, ctypes.c_void_p, ctypes.c_ulong, ctypes.c_ulong)
_prctl.restype = ctypes.c_int


def prctl(option: int, value: int, pointer: ctypes.c_void_p | None = None) -> None:
    """Call ``prctl(option, value, pointer, 0, 0)``; raises OSError when the kernel refuses."""
    if _prctl(option, value, pointer, 0, 0) != 0:
        number = ctypes.get_errno()
        raise OSError(number, f"prctl({option}) refused: {os.strerror(number)}")
