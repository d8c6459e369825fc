"""Seeing the values a student's own functions return for a state, where no entry function
is wrapped: the textbook's decision functions (helpers nested in ``minmax_decision``) and
course contracts (CS188's agent methods).

While the student's search runs, a trace function (``sys.settrace``) looks at every call of
a function whose code is in the student's file: one called with a game state among its
arguments (the first such argument names it) is followed to its return, and the return is
noted to the backend with the number it returned, if any (a ``(value, action)`` pair gives
its number). Which of these returns is a node's value is decided on the trusted side
(:meth:`worker.harness.host.TreeHost.helper_returned`): this side only says what came back,
after how many game calls the function began, and whether it was the outermost of the
file's functions open on that state.

Nothing else is traced: a frame of any other file costs one call of the trace function and
no more, and a traced frame reports no lines. A student's code that sets a trace function
of its own (or ``sys.settrace(None)``) only loses the observation of what it runs after.
"""

from __future__ import annotations

import sys
import types
from collections.abc import Iterator
from contextlib import contextmanager
from inspect import CO_ASYNC_GENERATOR, CO_COROUTINE, CO_GENERATOR, CO_ITERABLE_COROUTINE
from typing import Any

from worker.harness.backend import Backend
from worker.harness.cs188 import GameState
from worker.harness.game import State
from worker.harness.mit6034 import AbstractGameState
from worker.harness.values import Described, describe_value

_NOT_FOLLOWED = CO_GENERATOR | CO_COROUTINE | CO_ASYNC_GENERATOR | CO_ITERABLE_COROUTINE
"""A generator's frame is entered again at every resumption: it is not a call returning a
value."""
NAME_LIMIT = 64
"""A function's name as noted: a longer one, or one that is not printable ASCII (a code
object's name is the student's to choose), is noted as ``?``."""

Tracer = Any
"""A trace function (``sys.settrace``'s type is not spelled out by the standard library)."""


def helper_name(name: str) -> str:
    """``name`` as it is noted (see :data:`NAME_LIMIT`)."""
    if len(name) <= NAME_LIMIT and name.isascii() and name.isprintable() and name:
        return name
    return "?"


def returned_number(value: object) -> Described | None:
    """What a helper returned, as a number (None: not a number). A pair of a number and an
    action (a string, or None where there is no move, as the 4th edition's helpers return
    at a terminal state), in either order, gives its number; so does the answer of MIT
    6.034's lab functions, ``(path, score, evaluations)``, its score."""
    if type(value) is tuple and len(value) == 3 and type(value[0]) in (list, tuple):
        value = value[1]
    elif type(value) is tuple and len(value) == 2:
        first, second = value
        if type(second) is str or second is None:
            value = first
        elif type(first) is str or first is None:
            value = second
        else:
            return None
    described = describe_value(value)
    return described if described[1] is None else None


@contextmanager
def observing(backend: Backend, filename: str) -> Iterator[None]:
    """While the block runs, note to ``backend`` what the functions of ``filename`` (the
    student's file) return for a state; the trace function in place before is put back
    after, whatever the student's code did with it."""
    previous = sys.gettrace()
    sys.settrace(_tracer(backend, filename))
    try:
        yield
    finally:
        sys.settrace(previous)


def _tracer(backend: Backend, filename: str) -> Tracer:
    """The global trace function: see the module's docstring."""
    open_on: dict[str, int] = {}
    """How many followed frames are open on each state (by handle)."""
    noted: set[str] = set()
    """The states whose open outermost frame has had a value noted inside it: its return is
    noted whatever it returns, so that the trusted side knows the outermost frame ended."""
    note = backend.note_helper
    state_type, game_state_type, lab_state_type = State, GameState, AbstractGameState

    def on_call(frame: types.FrameType, event: str, arg: object) -> Tracer:
        code = frame.f_code
        if code.co_filename != filename or code.co_flags & _NOT_FOLLOWED:
            return None
        count = code.co_argcount + code.co_kwonlyargcount
        if not count:
            return None
        arguments = frame.f_locals
        token = None
        for name in code.co_varnames[:count]:
            kind = type(arguments.get(name))
            # Exact types, not isinstance: a student's class could answer for __class__.
            if kind is state_type or kind is game_state_type or kind is lab_state_type:
                token = arguments[name]._token
                break
        if type(token) is not str:
            return None
        start = backend.game_calls
        depth = open_on.get(token, 0)
        open_on[token] = depth + 1
        outermost = not depth
        function = code.co_name
        frame.f_trace_lines = False

        def on_event(frame: types.FrameType, event: str, arg: object) -> Tracer:
            if event != "return":
                return on_event  # an exception passing through: its return comes next
            left = open_on.get(token, 1) - 1
            if left > 0:
                open_on[token] = left
            else:
                open_on.pop(token, None)
            value = returned_number(arg)
            if value is not None:
                note(helper_name(function), token, start, value, outermost)
                if outermost:
                    noted.discard(token)
                else:
                    noted.add(token)
            elif outermost and token in noted:
                noted.discard(token)
                note(helper_name(function), token, start, None, True)
            return None

        return on_event

    return on_call
