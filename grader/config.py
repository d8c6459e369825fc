"""Configuration, read in one place: environment variables prefixed ``GRADER_``."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

from reference.hidden import DEVELOPMENT_KEY

PREFIX = "GRADER_"
PROJECT_ROOT = Path(__file__).resolve().parents[1]
DEFAULT_INSTANCE = PROJECT_ROOT / "instance"
_TRUE = ("1", "true", "yes", "on")
HIDDEN_KEY_BYTES = 32
"""The shortest hidden-tree key accepted outside development."""
MAKE_KEY = 'python3 -c "import secrets; print(secrets.token_hex(32))"'
"""A command that prints a good hidden-tree key."""
PUBLIC_URL_EXAMPLE = "GRADER_PUBLIC_URL=https://grader.example.edu"


class ConfigError(RuntimeError):
    """The configuration cannot be used (for example no secret key in production)."""


@dataclass(frozen=True, slots=True)
class Settings:
    """The service's settings; tests pass overrides instead of touching the environment."""

    exercises_dir: Path = PROJECT_ROOT / "exercises"
    max_tree_nodes: int = 1_000_000
    hidden_tree_key: bytes = DEVELOPMENT_KEY
    """The secret from which hidden trees are drawn; outside development, 32 bytes at least
    and not the built-in development key (see :meth:`checked`)."""
    sandbox_allow_unconfined: bool = False
    """Grade even where seccomp or the uid drop is unavailable (development only)."""
    env: str = "production"
    """"development" allows a built-in secret key and insecure cookies; anything else is
    production."""
    secret_key: str = ""
    instance_dir: Path = DEFAULT_INSTANCE
    """Where the embedded SQLite database and broker live."""
    database_url: str = ""
    """SQLAlchemy URL; empty: SQLite in ``instance_dir``."""
    redis_url: str = ""
    """Celery's broker and result backend; empty: a broker on SQLite in ``instance_dir``."""
    upload_limit_bytes: int = 256 * 1024
    submission_min_gap_seconds: int = 10
    submissions_per_hour: int = 30
    check_min_gap_seconds: int = 3
    checks_per_hour: int = 120
    """Checks of a draft on the public trees (not attempts) allowed per student and
    exercise: looser than the attempts' limits, counted apart from them."""
    added_seconds_per_grading: float = 2.0
    """Real time the wrong implementations a course's instructors added may take in all,
    per grading, when the diagnosis runs them on a grading's fresh hidden trees (in the
    slow lane only; what the budget cannot pay for is left out of the diagnosis)."""
    added_check_seconds: float = 30.0
    """Real time the check of one added implementation may take over all its trees (in
    the slow lane), whatever the exercise's own limits."""
    run_timeout_seconds: int = 900
    """A run queued or running this long is re-enqueued by the reaper (the last resort:
    a lost worker or a lost message is found much sooner)."""
    reaper_interval_seconds: int = 15
    """How often the beat process runs the reaper and the deliveries' sweep."""
    heartbeat_seconds: float = 10.0
    """How often a worker reports that it is alive."""
    worker_gone_seconds: int = 40
    """A worker silent this long is gone: the reaper takes back the runs it held."""
    unsent_grace_seconds: int = 30
    """A queued run whose task never reached the broker (it was down, or lost the message)
    is sent again by the reaper after this long."""
    max_run_attempts: int = 3
    """Claims on a run (tasks that start grading it) before it ends as internal_error."""
    node_rows_limit: int = 20000
    """Trees with more nodes store only the nodes that are not ok, pruned or not observed, up
    to this many (a report holds at most ``reference.reporting.limits.LIMITS.total_bytes``
    bytes anyway)."""
    node_rows_keep_days: int = 0
    """Days a superseded attempt keeps its node rows once a later attempt of the same
    student on the same exercise is graded (see :mod:`grader.services.retention`); 0: kept
    for ever."""
    callbacks_allow_private: bool = False
    """Let result callbacks reach loopback and private addresses (tests only)."""
    eager_tasks: bool = False
    """Run Celery tasks in process (unit tests only)."""
    public_url: str = ""
    """The service's address as its users reach it (``https://grader.example``): every
    absolute link it hands out (mail, the API's URLs, the LTI tool's URLs) starts with it
    (see ``grader.web.links``). Required for the web app outside development (see
    :meth:`checked`); in development, empty means the request's own host, checked against
    ``trusted_hosts`` when set."""
    trusted_hosts: tuple[str, ...] = ()
    """Host names the web app answers to (``GRADER_TRUSTED_HOSTS``, comma-separated); the
    host of ``public_url`` is always one. Empty and no ``public_url``: any host
    (development only)."""
    proxy_hops: int = 0
    """How many reverse proxies in front of the web app append to ``X-Forwarded-For`` (and
    set ``X-Forwarded-Proto``): the client's address is read that many hops back. 0: the
    connection's own address, and no forwarding header is believed (any client can send
    one). Set it only when the web app cannot be reached but through those proxies."""
    session_hours: int = 12
    """How long a sign-in lasts without being used again."""
    password_hash: str = "scrypt"
    """How passwords are hashed (a method of ``werkzeug.security.generate_password_hash``:
    ``scrypt``, about 0.16 s of a core per sign-in, or ``scrypt:N:r:p``, ``pbkdf2:sha256:I``).
    A stored hash names its own method, so a change applies as passwords are set again."""
    login_limits: str = "5 per minute;30 per hour"
    """Failed sign-ins allowed per account, and per client address for failures that name
    no account (Flask-Limiter notation; see ``grader.web.sign_in_throttle``); also the
    registration and reset requests allowed per client address."""
    login_address_limits: str = "300 per hour"
    """Failed sign-ins of any kind allowed per client address: far above what a class
    behind one NAT or proxy gets wrong; past it, every sign-in from there waits."""
    integration_limits: str = "120 per minute"
    """Webhook calls allowed per LMS integration."""
    mail_url: str = ""
    """Where messages (password resets) go: ``smtp://host:port``; empty: the log."""
    mail_from: str = "grader@localhost"
    metrics_token: str = ""
    """A bearer token that opens ``/metrics``; without it only ``metrics_allow`` may read."""
    metrics_allow: tuple[str, ...] = ("127.0.0.1", "::1")
    """Addresses that may read ``/metrics`` without the token."""
    worker_stale_seconds: int = 120
    """``/readyz`` fails when no worker of a grading lane has reported in this long."""
    readiness_min_free_bytes: int = 64 * 2**20
    """``/readyz`` fails when the disk of the embedded database or broker has less room."""
    callback_connect_seconds: float = 3.0
    callback_read_seconds: float = 5.0
    extra: dict[str, str] = field(default_factory=dict)

    @property
    def development(self) -> bool:
        return self.env == "development"

    @property
    def sqlalchemy_url(self) -> str:
        return self.database_url or f"sqlite:///{self.instance_dir / 'grader.db'}"

    @property
    def broker_url(self) -> str:
        return self.redis_url or f"sqla+sqlite:///{self.instance_dir / 'broker.db'}"

    @property
    def result_backend(self) -> str:
        return self.redis_url or f"db+sqlite:///{self.instance_dir / 'results.db'}"

    def checked(self, *, needs_secret_key: bool = True, needs_public_url: bool = True) -> Settings:
        """These settings, or ConfigError when they are unsafe outside development: a
        hidden-tree key that is the built-in one or too short (anyone could draw the
        hidden trees); unless ``needs_secret_key`` is False (the worker and the command
        line sign nothing) a missing or short secret key; and unless ``needs_public_url``
        is False (they mail no links) a missing public URL. A negative ``proxy_hops`` is
        refused everywhere."""
        if self.proxy_hops < 0:
            raise ConfigError(f"GRADER_PROXY_HOPS must be 0 or more, not {self.proxy_hops}")
        if self.node_rows_keep_days < 0:
            raise ConfigError(
                f"GRADER_NODE_ROWS_KEEP_DAYS must be 0 (kept for ever) or more, "
                f"not {self.node_rows_keep_days}"
            )
        if self.public_url:
            _check_public_url(self.public_url)
        if self.development:
            return self
        if needs_secret_key:
            if not self.secret_key:
                raise ConfigError(
                    "GRADER_SECRET_KEY is not set: the service refuses to start without a "
                    "secret key outside development (GRADER_ENV=development)"
                )
            if len(self.secret_key) < 16:
                raise ConfigError("GRADER_SECRET_KEY is too short (16 characters at least)")
        if needs_public_url and not self.public_url:
            raise ConfigError(
                "GRADER_PUBLIC_URL is not set: outside development (GRADER_ENV=development) "
                "the web app refuses to start without it, since the links it mails (password "
                "resets, registrations) would otherwise follow whatever Host header a request "
                "names. Set it to the address people open the grader at, for example\n  "
                f"{PUBLIC_URL_EXAMPLE}\n(other host names it must answer to go in "
                "GRADER_TRUSTED_HOSTS, comma-separated)"
            )
        if self.hidden_tree_key == DEVELOPMENT_KEY:
            problem = "is unset or the built-in development key, which is public"
        elif len(self.hidden_tree_key) < HIDDEN_KEY_BYTES:
            problem = f"is too short ({HIDDEN_KEY_BYTES} bytes at least)"
        else:
            return self
        raise ConfigError(
            f"GRADER_HIDDEN_TREE_KEY {problem}: whoever knows the key can draw the hidden "
            f"trees. Make one with\n  {MAKE_KEY}\nand set it in GRADER_HIDDEN_TREE_KEY, the "
            "same for the web app and every worker (or set GRADER_ENV=development to try the "
            "grader out)"
        )

    @property
    def effective_secret_key(self) -> str:
        return self.secret_key or "development-only-secret-key"

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None) -> Settings:
        """Settings from ``GRADER_*`` variables, defaults for the rest."""
        env = os.environ if environ is None else environ
        d = cls()

        def get(name: str, default: object) -> str:
            return env.get(f"{PREFIX}{name}", str(default))

        return cls(
            exercises_dir=Path(get("EXERCISES_DIR", d.exercises_dir)),
            max_tree_nodes=int(get("MAX_TREE_NODES", d.max_tree_nodes)),
            hidden_tree_key=env.get(f"{PREFIX}HIDDEN_TREE_KEY", "").encode() or d.hidden_tree_key,
            sandbox_allow_unconfined=get("SANDBOX_ALLOW_UNCONFINED", "").lower() in _TRUE,
            env=get("ENV", d.env).lower(),
            secret_key=get("SECRET_KEY", ""),
            instance_dir=Path(get("INSTANCE_DIR", d.instance_dir)),
            database_url=get("DATABASE_URL", ""),
            redis_url=get("REDIS_URL", ""),
            upload_limit_bytes=int(get("UPLOAD_LIMIT_BYTES", d.upload_limit_bytes)),
            submission_min_gap_seconds=int(
                get("SUBMISSION_MIN_GAP_SECONDS", d.submission_min_gap_seconds)
            ),
            submissions_per_hour=int(get("SUBMISSIONS_PER_HOUR", d.submissions_per_hour)),
            check_min_gap_seconds=int(get("CHECK_MIN_GAP_SECONDS", d.check_min_gap_seconds)),
            checks_per_hour=int(get("CHECKS_PER_HOUR", d.checks_per_hour)),
            added_seconds_per_grading=float(
                get("ADDED_SECONDS_PER_GRADING", d.added_seconds_per_grading)
            ),
            added_check_seconds=float(get("ADDED_CHECK_SECONDS", d.added_check_seconds)),
            run_timeout_seconds=int(get("RUN_TIMEOUT_SECONDS", d.run_timeout_seconds)),
            reaper_interval_seconds=int(get("REAPER_INTERVAL_SECONDS", d.reaper_interval_seconds)),
            heartbeat_seconds=float(get("HEARTBEAT_SECONDS", d.heartbeat_seconds)),
            worker_gone_seconds=int(get("WORKER_GONE_SECONDS", d.worker_gone_seconds)),
            unsent_grace_seconds=int(get("UNSENT_GRACE_SECONDS", d.unsent_grace_seconds)),
            max_run_attempts=int(get("MAX_RUN_ATTEMPTS", d.max_run_attempts)),
            node_rows_limit=int(get("NODE_ROWS_LIMIT", d.node_rows_limit)),
            node_rows_keep_days=int(get("NODE_ROWS_KEEP_DAYS", d.node_rows_keep_days)),
            callbacks_allow_private=get("CALLBACKS_ALLOW_PRIVATE", "").lower() in _TRUE,
            public_url=get("PUBLIC_URL", "").rstrip("/"),
            trusted_hosts=_names(get("TRUSTED_HOSTS", "")),
            proxy_hops=int(get("PROXY_HOPS", d.proxy_hops)),
            session_hours=int(get("SESSION_HOURS", d.session_hours)),
            password_hash=get("PASSWORD_HASH", d.password_hash),
            login_limits=get("LOGIN_LIMITS", d.login_limits),
            login_address_limits=get("LOGIN_ADDRESS_LIMITS", d.login_address_limits),
            integration_limits=get("INTEGRATION_LIMITS", d.integration_limits),
            mail_url=get("MAIL_URL", ""),
            mail_from=get("MAIL_FROM", d.mail_from),
            metrics_token=get("METRICS_TOKEN", ""),
            metrics_allow=_names(get("METRICS_ALLOW", ",".join(d.metrics_allow))),
            worker_stale_seconds=int(get("WORKER_STALE_SECONDS", d.worker_stale_seconds)),
            readiness_min_free_bytes=int(
                get("READINESS_MIN_FREE_BYTES", d.readiness_min_free_bytes)
            ),
            callback_connect_seconds=float(
                get("CALLBACK_CONNECT_SECONDS", d.callback_connect_seconds)
            ),
            callback_read_seconds=float(get("CALLBACK_READ_SECONDS", d.callback_read_seconds)),
        )


def _check_public_url(url: str) -> None:
    """ConfigError unless ``url`` is an http(s) address with a host and nothing after it
    but a path (links are made by appending the page's path)."""
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname or parts.query or parts.fragment:
        raise ConfigError(
            f"GRADER_PUBLIC_URL must be an http:// or https:// address with a host name, "
            f"like {PUBLIC_URL_EXAMPLE.partition('=')[2]}, not {url!r}"
        )


def _names(value: str) -> tuple[str, ...]:
    """A comma-separated list, without blanks."""
    return tuple(part.strip() for part in value.split(",") if part.strip())
