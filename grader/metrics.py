"""Prometheus metrics.

The grading figures (submissions, runs, verdicts, grading and queue times) are counted from
the database at each scrape: web processes and workers are separate processes, and the
database is the one place that knows every run. Request counts and latencies are kept in
memory and describe only the process that answers the scrape.
"""

from __future__ import annotations

import logging
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

from grader.models import GradingRun, RunState, Submission

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


def render_metrics(session: Session) -> tuple[bytes, str]:
    """The text exposition of every metric, and its content type."""
    registry = CollectorRegistry(auto_describe=False)
    registry.register(DatabaseCollector(session))
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


class _Forward:
    """Another registry's metrics, collected into this one."""

    def __init__(self, registry: CollectorRegistry) -> None:
        self.registry = registry

    def collect(self) -> Iterable[Metric]:
        return self.registry.collect()
