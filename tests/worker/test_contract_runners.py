"""Every course contract of reference.contracts has its runner in the harness."""

from __future__ import annotations

from reference.contracts import CONTRACTS
from worker.harness.contracts import RUNNERS
from worker.harness.student import run_student


def test_every_contract_has_a_runner_in_the_harness() -> None:
    assert run_student  # the runners register where they are written, beside it
    assert set(RUNNERS) == set(CONTRACTS)
