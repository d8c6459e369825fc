"""Loading a student's module and running its search on the root, as the student wrote it.

This code runs inside the student's process (in the sandbox) or in process for trusted
implementations. It wraps the module's entry functions so that each call and return is
noted to the backend, finds the textbook decision-function form when the entry functions
are absent (and then notes what the file's own functions return for a state, see
:mod:`worker.harness.observer`), and reports compile and runtime errors with lines of the
student's own file.
"""

from __future__ import annotations

import contextlib
import math
import random
import sys
import traceback
import types
from collections.abc import Callable
from typing import Any

from reference.algorithms import ALGORITHMS, ROLE_BY_KIND, call_decision, find_decision
from worker.harness import mit6034
from worker.harness.backend import Backend
from worker.harness.contracts import RUNNERS, course_modules, register
from worker.harness.cs188 import GameState, agent_for
from worker.harness.game import Game, State, token_of
from worker.harness.mit6034 import AbstractGameState
from worker.harness.observer import observing
from worker.harness.results import EntrySpec, StudentError, StudentResult
from worker.harness.stand_ins import (
    cs188_game,
    cs188_pacman,
    cs188_util,
    mit_boards,
    mit_game_api,
    mit_toytree,
)
from worker.harness.values import describe_value

_last_compiled: dict[tuple[str, str], types.CodeType] = {}
"""The last source compiled here: a sandboxed child searches tree after tree with the same
source, and compiling it again would cost more than some searches (a code object is
immutable: executing it again makes a fresh module all the same)."""


def load_module(source: str, filename: str) -> types.ModuleType | StudentError:
    """The student's module, executed fresh, or the error that prevented it."""
    try:
        code = _last_compiled.get((source, filename))
        if code is None:
            code = compile(source, filename, "exec", dont_inherit=True)
            _last_compiled.clear()
            _last_compiled[source, filename] = code
    except SyntaxError as error:
        message = f"{type(error).__name__}: {error.msg}"
        return StudentError("compile", message, error.lineno, error.offset, type(error).__name__)
    except ValueError as error:  # e.g. null bytes in the source
        return StudentError("compile", f"cannot compile the file: {error}", 1, 1, "ValueError")
    except (RecursionError, OverflowError) as error:
        # The file compiles where the trusted side compiled it (see worker.sandbox.compiled);
        # here the process's own limits stopped it. (A MemoryError goes up, as any other.)
        return runtime_error(error, filename, source)
    module = types.ModuleType(module_name(filename))
    module.__file__ = filename
    # A real module: the standard library finds it where it finds any imported one
    # (dataclasses, typing.get_type_hints, pickle and enum look it up in sys.modules).
    sys.modules[module.__name__] = module
    try:
        exec(code, module.__dict__)
    except BaseException as error:  # the module's top level failed; report it as theirs
        unload(module)
        return runtime_error(error, filename, source)
    return module


def module_name(filename: str) -> str:
    """The name the student's module is loaded under: its file's stem when that is an
    identifier naming no module already loaded (``random.py`` must not replace the
    standard library's ``random``), else ``submission``."""
    stem = filename.rsplit("/", 1)[-1].removesuffix(".py")
    if stem.isidentifier() and stem not in sys.modules and stem not in sys.stdlib_module_names:
        return stem
    return "submission"


def unload(module: types.ModuleType) -> None:
    """Take the student's module out of ``sys.modules`` (if it is still the one there)."""
    if sys.modules.get(module.__name__) is module:
        del sys.modules[module.__name__]


def runtime_error(error: BaseException, filename: str, source: str) -> StudentError:
    """An exception from the student's code, with traceback lines of their file only."""
    lines = source.splitlines()
    frames = [
        frame for frame in traceback.extract_tb(error.__traceback__) if frame.filename == filename
    ]
    shown = []
    for frame in frames[-8:]:
        lineno = frame.lineno or 0
        code = lines[lineno - 1].strip() if 0 < lineno <= len(lines) else ""
        shown.append(f"line {lineno}, in {frame.name}: {code}")
    name = type(error).__name__
    try:
        detail = str(error)[:300]
    except BaseException:  # a student's exception whose __str__ fails
        detail = "(the message could not be shown)"
    last = frames[-1].lineno if frames else None
    message = f"{name}: {detail}" if detail else name
    return StudentError("runtime", message, last, None, name, tuple(shown))


def _defined_functions(module: types.ModuleType) -> tuple[str, ...]:
    """The callables the student's file itself defines (not the ones it imports)."""
    return tuple(
        sorted(
            name
            for name, value in vars(module).items()
            if callable(value)
            and not name.startswith("__")
            and not isinstance(value, types.ModuleType)
            and getattr(value, "__module__", module.__name__) == module.__name__
        )
    )


CALLER_FRAMES = 4
"""Frames above an entry function's wrapper searched for the student's file: a call made
through a decorator or a helper of the standard library still finds its line."""


def caller_line(filename: str) -> int | None:
    """The line of ``filename`` (the student's file) from which the entry function whose
    wrapper calls this was called: the first of the frames above the wrapper that runs that
    file's code; None when there is none (the harness's call of the root)."""
    frame = sys._getframe(2)
    for _ in range(CALLER_FRAMES):
        if frame.f_code.co_filename == filename:
            return frame.f_lineno
        back = frame.f_back
        if back is None:
            return None
        frame = back
    return None


def _wrap(
    function: Callable[..., Any], name: str, spec: EntrySpec, backend: Backend, filename: str
) -> Callable[..., Any]:
    windowed = ALGORITHMS[spec.algorithm].windowed
    depth_limited = spec.depth_limit is not None
    # The depth follows the window: (game, state, alpha, beta, depth) or (game, state, depth).
    at = 2 if windowed else 0
    lines = spec.call_lines

    def entry(game: Any, state: Any, *args: Any, **kwargs: Any) -> Any:
        alpha = describe_value(args[0]) if windowed and len(args) > 0 else None
        beta = describe_value(args[1]) if windowed and len(args) > 1 else None
        depth = describe_value(args[at]) if depth_limited and len(args) > at else None
        token = token_of(state)
        line = caller_line(filename) if lines else None
        backend.note_call(name, token, alpha, beta, depth, line)
        value = function(game, state, *args, **kwargs)
        backend.note_return(name, token, describe_value(value), line)
        return value

    entry.__name__ = name
    entry.__qualname__ = name
    return entry


def run_student(
    source: str,
    filename: str,
    spec: EntrySpec,
    backend: Backend,
    root_token: str,
    game: Game | None = None,
) -> StudentResult:
    """Load the student's module and search the root ``root_token`` with it, through
    ``game`` (default: a plain :class:`Game` over ``backend``)."""
    runner = RUNNERS[spec.contract]
    if spec.seed is not None:
        # A search that shuffles its moves or breaks ties at random gets the same verdict
        # at every grading of the same draw.
        random.seed(spec.seed)
    with course_modules(runner.modules):
        module = load_module(source, filename)
        if isinstance(module, StudentError):
            return StudentResult(error=module)
        defines = _defined_functions(module)
        if game is None:
            game = Game(backend)
        old_limit = sys.getrecursionlimit()
        sys.setrecursionlimit(max(old_limit, spec.recursion_limit))
        try:
            return runner.search(module, spec, backend, game, root_token, defines)
        except BaseException as error:
            return StudentResult(error=runtime_error(error, filename, source), defines=defines)
        finally:
            sys.setrecursionlimit(old_limit)
            unload(module)


@register("textbook")
def _search_textbook(
    module: types.ModuleType,
    spec: EntrySpec,
    backend: Backend,
    game: Game,
    root_token: str,
    defines: tuple[str, ...],
) -> StudentResult:
    """The textbook's contract: the module's entry functions (noted at every call and
    return), or else its decision function (what the file's own functions return for a
    state is noted, see :mod:`worker.harness.observer`)."""
    root = State(root_token, game)
    entries = [getattr(module, name, None) for name in spec.entry_points]
    filename = module.__file__ or ""
    # Any callable will do: a function, a decorated one (lru_cache), a bound method, an
    # object with __call__.
    functions = [entry for entry in entries if callable(entry)]
    if len(functions) == len(entries):
        for name, function in zip(spec.entry_points, functions, strict=True):
            _install(module, name, _wrap(function, name, spec, backend, filename), function)
        return _search_root(module, spec, game, root, defines)
    found = find_decision(ALGORITHMS[spec.algorithm], lambda name: getattr(module, name, None))
    if found is not None:
        # No entry function to wrap: the values the file's own functions return are noted.
        with observing(backend, filename):
            action = call_decision(*found, root, game, spec.depth_limit)
        text = action if type(action) is str else None
        return StudentResult(decision=text, decision_style=True, defines=defines)
    return StudentResult(error=_missing(spec, defines, module), defines=defines)


@register("cs188", {"util": cs188_util, "game": cs188_game, "pacman": cs188_pacman})
def _search_cs188(
    module: types.ModuleType,
    spec: EntrySpec,
    backend: Backend,
    game: Game,
    root_token: str,
    defines: tuple[str, ...],
) -> StudentResult:
    """CS188's contract: the question's agent class, built with the exercise's depth, and
    its ``getAction`` on the root's :class:`~worker.harness.cs188.GameState` (what the
    file's own methods return for a state is noted, see :mod:`worker.harness.observer`)."""
    options = dict(spec.contract_options)
    agent_class = str(options.get("agent_class") or "")
    agents = options.get("agents")
    depth = options.get("depth")
    root = GameState(root_token, game, agents if type(agents) is int else 2)
    try:
        agent = agent_for(module, agent_class, depth if type(depth) is int else None)
    except LookupError:
        found = ", ".join(f"{name}()" for name in defines) or "no functions or classes"
        message = f"missing the agent class {agent_class}; your file defines {found}"
        return StudentResult(error=StudentError("runtime", message), defines=defines)
    with observing(backend, module.__file__ or ""):
        action = agent.getAction(root)
    text = action if type(action) is str else None
    return StudentResult(decision=text, decision_style=True, defines=defines)


@register(
    "mit-6.034",
    {"game_api": mit_game_api, "boards": mit_boards, "toytree": mit_toytree},
)
def _search_mit6034(
    module: types.ModuleType,
    spec: EntrySpec,
    backend: Backend,
    game: Game,
    root_token: str,
    defines: tuple[str, ...],
) -> StudentResult:
    """MIT 6.034's contract: the lab's function for the algorithm on the root's
    :class:`~worker.harness.mit6034.AbstractGameState`, maximizing when MAX moves there; its
    ``(path, score, evaluations)`` gives the root's value, the move and the count."""
    root = AbstractGameState(root_token, game)
    try:
        # The score each call of the lab's functions returns for its state is noted.
        with observing(backend, module.__file__ or ""):
            returned = mit6034.search(
                module,
                spec.algorithm,
                root,
                game,
                spec.depth_limit,
                maximize=spec.root_kind != "MIN",
            )
    except LookupError as missing:
        found = ", ".join(f"{name}()" for name in defines) or "no functions"
        message = f"missing the lab's function {missing.args[0]}(); your file defines {found}"
        return StudentResult(error=StudentError("runtime", message), defines=defines)
    score, move, evaluations = mit6034.read_answer(returned, root)
    return StudentResult(
        value=describe_value(score),
        decision=move,
        defines=defines,
        evaluations=describe_value(evaluations),
    )


def _install(
    module: types.ModuleType, name: str, wrapped: Callable[..., Any], function: object
) -> None:
    """Put the noting wrapper where the student's search calls ``name``: the module's
    global, and, for a bound method, the instance's attribute too (its recursion goes
    through ``self.min_value``, not through the module)."""
    setattr(module, name, wrapped)
    owner = getattr(function, "__self__", None)
    method = getattr(function, "__name__", None)
    if isinstance(function, types.MethodType) and owner is not None and method is not None:
        # An instance attribute is not bound: it takes the same arguments as the method.
        # Without an instance dictionary, the module's name is all there is to replace.
        with contextlib.suppress(AttributeError, TypeError):
            setattr(owner, method, wrapped)


def _search_root(
    module: types.ModuleType, spec: EntrySpec, game: Game, root: State, defines: tuple[str, ...]
) -> StudentResult:
    searched = ALGORITHMS[spec.algorithm]
    if searched.negamax:
        entry = getattr(module, spec.entry_points[0])
    else:
        entry = getattr(module, spec.entry_points[ROLE_BY_KIND[spec.root_kind]])
    args: list[Any] = [game, root]
    if searched.windowed:
        args += [-math.inf, math.inf]
    if spec.depth_limit is not None:
        args.append(spec.depth_limit)
    value = entry(*args)
    return StudentResult(value=describe_value(value), defines=defines)


def _missing(spec: EntrySpec, defines: tuple[str, ...], module: types.ModuleType) -> StudentError:
    absent = [name for name in spec.entry_points if not callable(getattr(module, name, None))]
    wanted = ", ".join(f"{name}()" for name in absent)
    decisions = [
        f"{decision.name}({'state, game' if decision.state_first else 'game, state'})"
        for decision in ALGORITHMS[spec.algorithm].decisions
    ]
    found = ", ".join(f"{name}()" for name in defines) or "no functions"
    message = f"missing entry point{'s' if len(absent) > 1 else ''} {wanted}"
    if decisions:
        alternatives = ", ".join(decisions[:-1]) + " or " + decisions[-1]
        message += f" (or the textbook's {alternatives if len(decisions) > 1 else decisions[0]})"
    message += f"; your file defines {found}"
    # Found only once the module has run (its top level may define anything): an error of
    # the run, not of the file's compiling.
    return StudentError("runtime", message, None, None, None)
