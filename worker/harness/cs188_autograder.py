"""What CS188's autograder sees of an agent on a game-tree test, run in this process: to
check this project's verdicts against CS188's own semantics (the tests and
``bench/cs188_agreement.py``), never to grade a student's code (that runs in the sandbox,
see :mod:`worker.harness.cs188`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from reference.cs188 import TestState, Touched
from reference.tree import Tree
from worker.harness.contracts import course_modules
from worker.harness.stand_ins import cs188_game, cs188_pacman, cs188_util


@dataclass(frozen=True)
class AutograderRun:
    """What CS188's autograder sees of an agent on a game-tree test: the action it chose
    (None: it raised, ``error`` says what) and the states it touched, counted both ways."""

    action: str | None
    generated: frozenset[str]
    expanded: frozenset[str]
    error: str = ""


def autograder_run(
    source: str, agent_class: str, depth: int | None, agents: int, tree: Tree
) -> AutograderRun:
    """Run the agent of ``source`` (a whole ``multiAgents.py``) in this process on the
    root of ``tree`` as CS188's autograder does, on :class:`reference.cs188.TestState`: to
    check this project's verdicts against CS188's semantics (tests and
    ``bench/cs188_agreement.py``), never for a student's code."""
    touched = Touched(generated={tree.root.name})
    namespace: dict[str, Any] = {"__name__": "multiAgents"}
    modules = {"util": cs188_util, "game": cs188_game, "pacman": cs188_pacman}
    try:
        with course_modules(modules):
            exec(compile(source, "multiAgents.py", "exec"), namespace)
            built = namespace[agent_class](depth=depth)
            action = built.getAction(TestState(tree, tree.root.name, agents, touched))
    except Exception as error:
        return AutograderRun(None, frozenset(), frozenset(), f"{type(error).__name__}: {error}")
    return AutograderRun(
        None if action is None else str(action),
        frozenset(touched.generated),
        frozenset(touched.expanded),
    )
