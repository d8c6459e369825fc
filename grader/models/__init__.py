"""The service's tables (SQLAlchemy 2 typed models); migrations live in ``grader/migrations``."""

from grader.models import accounts, workers  # noqa: F401  (their tables)
from grader.models.base import Base, utcnow
from grader.models.exercises import Exercise, ExerciseVersion
from grader.models.integrations import (
    CallbackEndpoint,
    Delivery,
    DeliveryAttempt,
    DeliveryKind,
    DeliveryState,
    ExternalIdentity,
    Integration,
    LmsSubmission,
    WebhookReceipt,
)
from grader.models.lti import LtiContext, LtiLaunch, LtiPlatform
from grader.models.people import Course, Membership, Role, User
from grader.models.submissions import GradingRun, NodeResult, RunState, Submission, TreeResult

__all__ = [
    "Base",
    "CallbackEndpoint",
    "Course",
    "Delivery",
    "DeliveryAttempt",
    "DeliveryKind",
    "DeliveryState",
    "Exercise",
    "ExerciseVersion",
    "ExternalIdentity",
    "GradingRun",
    "Integration",
    "LmsSubmission",
    "LtiContext",
    "LtiLaunch",
    "LtiPlatform",
    "Membership",
    "NodeResult",
    "Role",
    "RunState",
    "Submission",
    "TreeResult",
    "User",
    "WebhookReceipt",
    "utcnow",
]
