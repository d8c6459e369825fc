"""The service's tables (SQLAlchemy 2 typed models); migrations live in ``grader/migrations``."""

from grader.models.base import Base, utcnow
from grader.models.exercises import Exercise, ExerciseVersion
from grader.models.people import Course, Membership, Role, User
from grader.models.submissions import GradingRun, NodeResult, RunState, Submission, TreeResult

__all__ = [
    "Base",
    "Course",
    "Exercise",
    "ExerciseVersion",
    "GradingRun",
    "Membership",
    "NodeResult",
    "Role",
    "RunState",
    "Submission",
    "TreeResult",
    "User",
    "utcnow",
]
