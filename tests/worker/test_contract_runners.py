"""Every course contract of reference.contracts has its runner in the harness."""

from __future__ import annotations

from reference.contracts import CONTRACTS
from worker.harness import student
from worker.harness.contracts import RUNNERS


def test_every_contract_has_a_runner_in_the_harness() -> None:
    # The runners register where they are written, beside run_student.
    assert student.run_student.__module__ == "worker.harness.student"
    assert set(RUNNERS) == set(CONTRACTS)
