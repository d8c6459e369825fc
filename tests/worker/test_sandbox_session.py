"""A submission's trees in one session: one child while it reports, a fresh module per
tree, each tree's own CPU share, and a new child when one ends any other way."""

from __future__ import annotations

import textwrap

import pytest

from reference.exercises.model import Limits
from reference.tree import Tree
from reference.treefile import parse_compact
from tests.worker.test_sandbox_support import ALPHABETA, FIG52, leftover_processes, server
from worker.harness.local import entry_spec
from worker.sandbox import (
    ForkServer,
    RunRecord,
    SandboxOptions,
    SandboxVerdict,
    run_sandboxed_trees,
)
from worker.sandbox.session import TREES_PER_CHILD

TWO_WAY = "MAX[ MIN[1 5] MIN[4 7] ]"
"""A root with two actions (Figure 5.2's has three); value 4."""


def run_trees(
    source: str, trees: list[Tree], limits: Limits, forkserver: ForkServer
) -> list[RunRecord]:
    runs = [(tree, entry_spec("alphabeta", ("max_value", "min_value"), tree)) for tree in trees]
    options = SandboxOptions(forkserver=forkserver)
    return run_sandboxed_trees(
        runs, textwrap.dedent(source), "submission.py", limits, options=options
    )


@pytest.fixture
def spawns(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The pids of the children the tests' fork-server hands out."""
    forkserver = server()
    handed_out: list[int] = []
    spawn = forkserver.spawn

    def counting(plan: object) -> object:
        child = spawn(plan)  # type: ignore[arg-type]
        handed_out.append(child.pid)
        return child

    monkeypatch.setattr(forkserver, "spawn", counting)
    return handed_out


def test_one_child_searches_every_tree_while_each_ends_with_a_report(spawns: list[int]) -> None:
    trees = [parse_compact(FIG52), parse_compact(TWO_WAY), parse_compact(FIG52)]
    records = run_trees(ALPHABETA, trees, Limits(), server())
    assert [record.outcome.verdict for record in records] == [SandboxVerdict.COMPLETED] * 3
    assert [record.observed.root_value for record in records] == [3, 4, 3]
    assert len(spawns) == 1
    assert all(record.usage.max_rss_kb > 0 for record in records)
    assert leftover_processes(server()) == []


def test_every_tree_gets_a_freshly_loaded_module(spawns: list[int]) -> None:
    # Every tree has a game object of its own: a module kept from an earlier tree would
    # have seen two, and answered wrongly.
    source = "GAMES = []\n" + ALPHABETA.replace(
        "def max_value(game, state, alpha, beta):\n",
        "def max_value(game, state, alpha, beta):\n"
        "    if game not in GAMES:\n"
        "        GAMES.append(game)\n"
        "    if len(GAMES) > 1:\n"
        "        return 12345\n",
    )
    records = run_trees(source, [parse_compact(FIG52)] * 3, Limits(), server())
    assert [record.observed.root_value for record in records] == [3, 3, 3]
    assert len(spawns) == 1


def test_each_tree_has_its_own_cpu_share(spawns: list[int]) -> None:
    # 0.6 s of CPU per tree: 1.8 s in all, within a 1 s limit per tree.
    burn = (
        "import time\n"
        "_end = time.process_time() + 0.6\n"
        "while time.process_time() < _end:\n"
        "    pass\n"
    )
    limits = Limits(cpu_seconds=1, wall_seconds=3, memory_mb=64)
    records = run_trees(burn + ALPHABETA, [parse_compact(FIG52)] * 3, limits, server())
    assert [record.outcome.verdict for record in records] == [SandboxVerdict.COMPLETED] * 3
    assert all(500 <= record.usage.cpu_ms < 1000 for record in records)
    assert len(spawns) == 1


def on_the_two_way_tree(body: str) -> str:
    """The correct search, doing ``body`` first on a root with two actions."""
    return ALPHABETA.replace(
        "def max_value(game, state, alpha, beta):\n",
        "def max_value(game, state, alpha, beta):\n"
        "    if len(game.actions(state)) == 2:\n"
        f"        {body}\n",
    )


def test_a_tree_over_its_cpu_share_ends_the_submission(spawns: list[int]) -> None:
    limits = Limits(cpu_seconds=1, wall_seconds=3, memory_mb=64)
    trees = [parse_compact(FIG52), parse_compact(TWO_WAY), parse_compact(FIG52)]
    records = run_trees(on_the_two_way_tree("while True: pass"), trees, limits, server())
    assert [record.outcome.verdict for record in records] == [
        SandboxVerdict.COMPLETED,
        SandboxVerdict.TIME_LIMIT,
    ]
    # Stopped for CPU, not at the wall-clock limit (said by the verdict's sentence: its real
    # time depends on the machine's load, see tests/worker/test_sandbox_idle.py).
    assert "CPU time" in records[1].outcome.message
    assert "real time" not in records[1].outcome.message
    assert 1000 <= records[1].usage.cpu_ms < 2000
    assert len(spawns) == 1
    assert leftover_processes(server()) == []


def test_a_cpu_limit_by_size_stops_a_loop_on_a_small_tree_at_its_own_share(
    spawns: list[int],
) -> None:
    # The fast lane's kind of limit: 20 ms and 0.1 ms a node, at most 1 s. The two-way tree
    # (a handful of nodes) gets about 20 ms; a search of a big tree would get the second.
    limits = Limits(cpu_seconds=1, wall_seconds=3, memory_mb=64, cpu_seconds_by_size=(0.02, 1e-4))
    two_way = parse_compact(TWO_WAY)
    assert limits.for_tree(len(two_way)).cpu_seconds < 0.025
    assert limits.for_tree(20_000).cpu_seconds == 1
    trees = [parse_compact(FIG52), two_way]
    records = run_trees(on_the_two_way_tree("while True: pass"), trees, limits, server())
    assert [record.outcome.verdict for record in records] == [
        SandboxVerdict.COMPLETED,
        SandboxVerdict.TIME_LIMIT,
    ]
    assert f"{limits.for_tree(len(two_way)).cpu_seconds:g} s of CPU time" in (
        records[1].outcome.message
    )
    # Stopped soon after its 20 ms (the check comes every quarter of the limit), far from
    # the flat second.
    assert 20 <= records[1].usage.cpu_ms < 200
    assert leftover_processes(server()) == []


def test_a_tree_that_crashes_ends_alone_and_the_next_gets_a_new_child(
    spawns: list[int],
) -> None:
    source = on_the_two_way_tree("import ctypes; ctypes.string_at(1, 16)")
    trees = [parse_compact(FIG52), parse_compact(TWO_WAY), parse_compact(FIG52)]
    records = run_trees(source, trees, Limits(), server())
    assert [record.outcome.verdict for record in records] == [
        SandboxVerdict.COMPLETED,
        SandboxVerdict.RUNTIME_ERROR,
        SandboxVerdict.COMPLETED,
    ]
    assert "SIGSEGV" in records[1].outcome.message
    assert len(spawns) == 2
    assert leftover_processes(server()) == []


def test_a_child_broken_by_its_last_tree_is_replaced_not_blamed(spawns: list[int]) -> None:
    # The module breaks the harness's job reading for the next tree: that child then ends
    # before it starts the next tree, which runs again in a new child.
    sabotage = (
        "import sys\n"
        "_child = sys.modules.get('worker.sandbox.child')\n"
        "if _child is not None:\n"
        "    _child.decode_job = None\n"
    )
    records = run_trees(sabotage + ALPHABETA, [parse_compact(FIG52)] * 3, Limits(), server())
    assert [record.outcome.verdict for record in records] == [SandboxVerdict.COMPLETED] * 3
    assert [record.observed.root_value for record in records] == [3, 3, 3]
    assert len(spawns) == 3
    assert leftover_processes(server()) == []


def test_a_compile_error_is_found_before_any_child_runs(spawns: list[int]) -> None:
    records = run_trees("def max_value(:\n", [parse_compact(FIG52)] * 3, Limits(), server())
    assert [record.outcome.verdict for record in records] == [SandboxVerdict.COMPILE_ERROR]
    assert (records[0].outcome.line, records[0].outcome.column) == (1, 15)
    assert spawns == []


def test_a_long_session_takes_a_new_child_after_its_share_of_trees(spawns: list[int]) -> None:
    trees = [parse_compact(FIG52)] * (TREES_PER_CHILD + 4)
    records = run_trees(ALPHABETA, trees, Limits(), server())
    assert [record.observed.root_value for record in records] == [3] * len(trees)
    assert len(spawns) == 2
    assert leftover_processes(server()) == []
