"""Prometheus metrics.

The grading figures (submissions, runs, verdicts, grading and queue times) are counted from
the database at each scrape: web processes and workers are separate processes, and the
database is the one place that knows every run. Request counts and latencies are kept in
memory and describe only the process that answers the scrape. The depth of each Celery
queue is read from the broker (Redis, or the SQLite broker's message table).
"""

from __future__ import annotations

import logging
import sqlite3
import time
from collections.abc import Iterable, Iterator
from datetime import datetime

from flask import Flask, Response, g, request
from prometheus_client import (
    CONTENT_TYPE_LATEST,
    CollectorRegistry,
    Counter,
    Histogram,
    generate_latest,
)
from prometheus_client.core import (
    CounterMetricFamily,
    GaugeMetricFamily,
    HistogramMetricFamily,
    Metric,
)
from prometheus_client.gc_collector import GCCollector
from prometheus_client.platform_collector import PlatformCollector
from prometheus_client.process_collector import ProcessCollector
from sqlalchemy import ColumnElement, Float, case, cast, extract, func, select
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.orm import QueryableAttribute, Session

from grader.config import Settings
from grader.models import GradingRun, RunState, Submission, utcnow
from grader.models.base import aware
from grader.services.tasks import QUEUES

log = logging.getLogger(__name__)

_Column = QueryableAttribute[datetime | None] | QueryableAttribute[datetime]

DURATION_BUCKETS = (0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 30, 60)
"""Upper bounds in seconds of the grading and queue-wait histograms (+Inf is implied)."""

PROCESS = CollectorRegistry()
"""This process's own metrics: requests it answered, its memory, CPU and collector."""
ProcessCollector(registry=PROCESS)
PlatformCollector(registry=PROCESS)
GCCollector(registry=PROCESS)

HTTP_REQUESTS = Counter(
    "grader_http_requests",
    "HTTP requests answered by this process.",
    ["method", "endpoint", "status"],
    registry=PROCESS,
)
HTTP_SECONDS = Histogram(
    "grader_http_request_duration_seconds",
    "Time this process took to answer HTTP requests.",
    ["method", "endpoint"],
    registry=PROCESS,
)


BROKER_TIMEOUT_SECONDS = 2.0
REDIS_PRIORITY_SUFFIXES = ("", "\x06\x163", "\x06\x166", "\x06\x169")
"""Celery keeps a queue's messages of each priority in a Redis list of its own."""


def render_metrics(session: Session, settings: Settings | None = None) -> tuple[bytes, str]:
    """The text exposition of every metric, and its content type (the queues' depths too
    when ``settings`` say where the broker is)."""
    registry = CollectorRegistry(auto_describe=False)
    registry.register(DatabaseCollector(session))
    if settings is not None:
        registry.register(BrokerCollector(settings))
    registry.register(_Forward(PROCESS))
    return generate_latest(registry), CONTENT_TYPE_LATEST


def install(app: Flask) -> None:
    """Count and time every request this app answers."""
    if app.extensions.get("grader.metrics"):
        return
    app.extensions["grader.metrics"] = True

    def start() -> None:
        g.metrics_started = time.perf_counter()

    def finish(response: Response) -> Response:
        started = g.get("metrics_started")
        # The rule, not the path: one series per page, however many ids appear in URLs.
        endpoint = request.endpoint or "unmatched"
        HTTP_REQUESTS.labels(request.method, endpoint, str(response.status_code)).inc()
        if started is not None:
            HTTP_SECONDS.labels(request.method, endpoint).observe(time.perf_counter() - started)
        return response

    app.before_request_funcs.setdefault(None, []).insert(0, start)
    app.after_request(finish)


class DatabaseCollector:
    """The grading figures, counted from the database when collected."""

    def __init__(self, session: Session) -> None:
        self.session = session

    def collect(self) -> Iterable[Metric]:
        up = GaugeMetricFamily(
            "grader_database_up", "Whether the grading figures could be read (1) or not (0)."
        )
        try:
            families = list(self._families())
        except SQLAlchemyError as error:
            self.session.rollback()
            log.warning("metrics: cannot read the database: %s", error.__class__.__name__)
            up.add_metric([], 0)
            yield up
            return
        up.add_metric([], 1)
        yield up
        yield from families

    def _families(self) -> Iterator[Metric]:
        session = self.session
        submissions = CounterMetricFamily(
            "grader_submissions", "Submissions received, by origin.", labels=["origin"]
        )
        for origin, count in session.execute(
            select(Submission.origin, func.count()).group_by(Submission.origin)
        ):
            submissions.add_metric([origin or ""], count)
        yield submissions

        runs = GaugeMetricFamily("grader_runs", "Grading runs in each state.", labels=["state"])
        by_state = {state.value: 0 for state in RunState}
        for state, count in session.execute(
            select(GradingRun.state, func.count()).group_by(GradingRun.state)
        ):
            by_state[state] = count
        for state, count in sorted(by_state.items()):
            runs.add_metric([state], count)
        yield runs

        verdicts = CounterMetricFamily(
            "grader_verdicts", "Finished grading runs, by verdict.", labels=["verdict"]
        )
        for verdict, count in session.execute(
            select(GradingRun.verdict, func.count())
            .where(GradingRun.verdict.is_not(None))
            .group_by(GradingRun.verdict)
        ):
            verdicts.add_metric([verdict or ""], count)
        yield verdicts

        oldest = session.scalar(
            select(func.min(GradingRun.queued_at)).where(GradingRun.state == RunState.QUEUED)
        )
        age = GaugeMetricFamily(
            "grader_oldest_queued_run_seconds",
            "How long the oldest queued run has waited since it was first queued (0: none).",
        )
        age.add_metric([], max((utcnow() - aware(oldest)).total_seconds(), 0.0) if oldest else 0)
        yield age

        yield self._histogram(
            "grader_grading_seconds",
            "Time from a run's start to its end, over finished runs.",
            GradingRun.started_at,
            GradingRun.finished_at,
        )
        yield self._histogram(
            "grader_queue_wait_seconds",
            "Time a run waited in the queue before a worker started it.",
            GradingRun.queued_at,
            GradingRun.started_at,
        )

    def _histogram(
        self,
        name: str,
        documentation: str,
        start: _Column,
        end: _Column,
    ) -> HistogramMetricFamily:
        """A histogram of ``end - start`` over the runs that have both, in one query."""
        seconds = _seconds_between(self.session, start, end).label("seconds")
        durations = select(seconds).where(start.is_not(None), end.is_not(None)).subquery()
        value = durations.c.seconds
        # Each bucket counts the runs at or below its bound, so the counts are cumulative.
        columns = [func.count(), func.coalesce(func.sum(value), 0.0)] + [
            func.coalesce(func.sum(case((value <= bound, 1), else_=0)), 0)
            for bound in DURATION_BUCKETS
        ]
        row = self.session.execute(select(*columns).select_from(durations)).one()
        total, seconds_sum, *counts = row
        buckets = [
            (_bound(bound), count) for bound, count in zip(DURATION_BUCKETS, counts, strict=True)
        ]
        buckets.append(("+Inf", total))
        histogram = HistogramMetricFamily(name, documentation)
        histogram.add_metric([], buckets, float(seconds_sum))
        return histogram


def _seconds_between(session: Session, start: _Column, end: _Column) -> ColumnElement[float]:
    """``end - start`` in seconds, written the way the session's database counts time."""
    if session.get_bind().dialect.name == "sqlite":
        return (func.julianday(end) - func.julianday(start)) * 86400.0
    return cast(extract("epoch", end - start), Float)


def _bound(value: float) -> str:
    return str(float(value))


class BrokerCollector:
    """The number of messages waiting in each Celery queue, read from the broker."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings

    def collect(self) -> Iterable[Metric]:
        up = GaugeMetricFamily(
            "grader_broker_up", "Whether the queues' depths could be read (1) or not (0)."
        )
        try:
            depths = self._depths()
        except Exception as error:
            log.warning("metrics: cannot read the broker: %s", error.__class__.__name__)
            up.add_metric([], 0)
            yield up
            return
        up.add_metric([], 1)
        yield up
        depth = GaugeMetricFamily(
            "grader_queue_depth", "Messages waiting in each Celery queue.", labels=["queue"]
        )
        for queue in QUEUES:
            depth.add_metric([queue], depths.get(queue, 0))
        yield depth

    def _depths(self) -> dict[str, int]:
        if self.settings.redis_url:
            return _redis_depths(self.settings.redis_url)
        return _sqlite_depths(self.settings.instance_dir / "broker.db")


def _redis_depths(url: str) -> dict[str, int]:
    import redis

    client = redis.Redis.from_url(
        url, socket_connect_timeout=BROKER_TIMEOUT_SECONDS, socket_timeout=BROKER_TIMEOUT_SECONDS
    )
    try:
        pipeline = client.pipeline(transaction=False)
        for queue in QUEUES:
            for suffix in REDIS_PRIORITY_SUFFIXES:
                pipeline.llen(queue + suffix)
        lengths = iter(pipeline.execute())
    finally:
        client.close()
    return {queue: sum(next(lengths) for _ in REDIS_PRIORITY_SUFFIXES) for queue in QUEUES}


def _sqlite_depths(path: object) -> dict[str, int]:
    """The visible messages of each queue in kombu's tables (none before the file exists)."""
    try:
        connection = sqlite3.connect(
            f"file:{path}?mode=ro", uri=True, timeout=BROKER_TIMEOUT_SECONDS
        )
    except sqlite3.OperationalError:
        return {}  # no broker file yet: nothing was ever sent
    try:
        rows = connection.execute(
            "SELECT q.name, count(m.id) FROM kombu_queue q JOIN kombu_message m"
            " ON m.queue_id = q.id WHERE m.visible GROUP BY q.name"
        ).fetchall()
    except sqlite3.OperationalError as error:
        if "no such table" in str(error):
            return {}
        raise
    finally:
        connection.close()
    return {str(name): int(count) for name, count in rows}


class _Forward:
    """Another registry's metrics, collected into this one."""

    def __init__(self, registry: CollectorRegistry) -> None:
        self.registry = registry

    def collect(self) -> Iterable[Metric]:
        return self.registry.collect()
