"""The service's tables (SQLAlchemy 2 typed models); migrations live in ``grader/migrations``."""

from grader.models import accounts, workers  # noqa: F401  (their tables)
from grader.models.base import Base, utcnow
from grader.models.course_work import (
    AnalysisState,
    AuditEvent,
    ExerciseStatus,
    Extension,
    GradeOverride,
    LatePolicy,
    Notice,
    Regrade,
    RegradeState,
    Section,
    VersionAnalysis,
)
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
from grader.models.library import AddedImplementation, AddedState
from grader.models.lti import LtiContext, LtiLaunch, LtiPlatform
from grader.models.people import Course, Membership, Role, User
from grader.models.submissions import GradingRun, NodeResult, RunState, Submission, TreeResult

__all__ = [
    "AddedImplementation",
    "AddedState",
    "AnalysisState",
    "AuditEvent",
    "Base",
    "CallbackEndpoint",
    "Course",
    "Delivery",
    "DeliveryAttempt",
    "DeliveryKind",
    "DeliveryState",
    "Exercise",
    "ExerciseStatus",
    "ExerciseVersion",
    "Extension",
    "ExternalIdentity",
    "GradeOverride",
    "GradingRun",
    "Integration",
    "LatePolicy",
    "LmsSubmission",
    "LtiContext",
    "LtiLaunch",
    "LtiPlatform",
    "Membership",
    "NodeResult",
    "Notice",
    "Regrade",
    "RegradeState",
    "Role",
    "RunState",
    "Section",
    "Submission",
    "TreeResult",
    "User",
    "VersionAnalysis",
    "WebhookReceipt",
    "utcnow",
]
