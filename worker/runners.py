"""The in-process runners of the grader's tasks, for eager mode (tests, the command line).

Importing this module registers them in :data:`grader.services.tasks.LOCAL_RUNNERS`; the
grader sends tasks by name and never imports the worker itself.
"""

from __future__ import annotations

from grader.config import Settings
from grader.db import Database
from grader.lti.lineitems import read_due
from grader.services.analyses import analyse
from grader.services.queue import Queue
from grader.services.tasks import (
    ANALYSE_TASK,
    CHECK_ADDED_TASK,
    DELIVER_TASK,
    GRADE_TASK,
    LINEITEM_TASK,
    LOCAL_RUNNERS,
)
from worker.added_check import check_added
from worker.execute import execute_run
from worker.outbound import deliver_now


def grade_here(database: Database, settings: Settings, run_id: int) -> str:
    """Grade run ``run_id`` in this process."""
    return execute_run(database, settings, run_id, worker="eager", task_id="eager")


def deliver_here(database: Database, _settings: Settings, delivery_id: int) -> float | None:
    """Make one attempt of outbound delivery ``delivery_id`` in this process."""
    return deliver_now(database, delivery_id)


def analyse_here(database: Database, settings: Settings, version_id: int) -> str:
    """Analyse exercise version ``version_id`` in this process."""
    return analyse(database, settings, version_id, task_id="eager")


def check_added_here(database: Database, settings: Settings, added_id: int) -> str:
    """Check added implementation ``added_id`` in this process, once (no later try)."""
    return check_added(database, settings, added_id, last_try=True)


def read_lineitem_here(database: Database, settings: Settings, launch_id: int) -> str:
    """Read launch ``launch_id``'s line item (its due date) in this process, once."""
    return read_due(database, Queue(settings, database), launch_id).summary


LOCAL_RUNNERS[GRADE_TASK] = grade_here
LOCAL_RUNNERS[ANALYSE_TASK] = analyse_here
LOCAL_RUNNERS[DELIVER_TASK] = deliver_here
LOCAL_RUNNERS[LINEITEM_TASK] = read_lineitem_here
LOCAL_RUNNERS[CHECK_ADDED_TASK] = check_added_here
