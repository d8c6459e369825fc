"""Running trusted implementations in process, through the same harness as the sandbox:
the tests and bench scripts use it for the shipped correct and wrong solutions (hidden-tree
selection has its own in-process runner, :mod:`reference.hidden.trusted`). Never use this
for a student's code: it is not isolated."""

from __future__ import annotations

import contextlib
import hashlib
import io
from dataclasses import dataclass

from reference.contracts import ContractChoice
from reference.observed import Observed
from reference.tree import Kind, Tree
from worker.harness.host import TreeHost, conclude
from worker.harness.results import EntrySpec, StudentResult
from worker.harness.student import run_student
from worker.harness.values import Described


@dataclass(frozen=True, slots=True)
class LocalRun:
    """What an in-process run observed, returned and printed."""

    observed: Observed
    result: StudentResult
    stdout: str


class LocalBackend:
    """A backend that hands requests straight to a :class:`TreeHost`."""

    def __init__(self, host: TreeHost) -> None:
        self.host = host

    @property
    def game_calls(self) -> int:
        return self.host.requests

    def request(self, method: str, token: str, argument: str | None) -> object:
        return self.host.request(method, token, argument)

    def note_call(
        self,
        function: str,
        token: str | None,
        alpha: Described | None,
        beta: Described | None,
        depth: Described | None,
        line: int | None = None,
    ) -> None:
        self.host.note_call(function, token, alpha, beta, depth, line)

    def note_return(
        self, function: str, token: str | None, value: Described, line: int | None = None
    ) -> None:
        self.host.note_return(function, token, value, line)

    def note_helper(
        self, function: str, token: str, start: int, value: Described | None, outermost: bool
    ) -> None:
        self.host.note_helper(function, token, start, value, outermost)


def entry_spec(
    algorithm: str,
    entry_points: tuple[str, ...],
    tree: Tree,
    depth_limit: int | None = None,
    *,
    contract: ContractChoice | None = None,
    seed: str | None = None,
) -> EntrySpec:
    """The call of an exercise's entry point on the root of ``tree``, under ``contract``
    (the textbook's when None); ``seed`` names the run whose ``random`` is seeded from it
    (None: not seeded)."""
    kind = tree.root.kind
    root_kind = "MAX" if kind is Kind.LEAF else str(kind)
    recursion = max(10_000, 4 * tree.height() + 200)
    contract = contract or ContractChoice()
    options = (
        ("agent_class", contract.agent_class),
        ("agents", contract.agents),
        ("depth", contract.depth),
    )
    number = None
    if seed is not None:
        number = int.from_bytes(hashlib.sha256(seed.encode()).digest()[:8], "big")
    return EntrySpec(
        algorithm,
        entry_points,
        root_kind,
        depth_limit,
        recursion,
        contract=contract.name,
        contract_options=options,
        seed=number,
    )


def run_local(
    tree: Tree, source: str, spec: EntrySpec, filename: str = "submission.py"
) -> LocalRun:
    """Run trusted ``source`` on ``tree`` in this process and record what it asked."""
    host = TreeHost(tree)
    output = io.StringIO()
    with contextlib.redirect_stdout(output):
        result = run_student(source, filename, spec, LocalBackend(host), host.root_token)
    conclude(host.observed, result)
    return LocalRun(host.observed, result, output.getvalue())
