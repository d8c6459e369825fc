"""How large a report may be, and the one function that cuts a report to that size.

Every length a report's fields may have is a field of :class:`ReportLimits`, and
:func:`fit` is the only place a report is cut: the builders (:mod:`reference.reporting`)
make values of full meaning, the service stores the fitted report as it is (its columns
are as wide as these limits, see :attr:`ReportLimits.stored_value`), and the pages show
it as stored. A text cut here ends with one ``…``; a replay cut says ``truncated``; what a
report over its total size lost is said in its ``cut``.

(What the untrusted child may send over the wire is bounded in
:mod:`worker.sandbox.reports`: a security bound at the trust boundary, not a report's size.)
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable, MutableMapping
from dataclasses import dataclass
from typing import Any

from reference.feedback.verdicts import GOOD_VERDICTS
from reference.report import Report

MARK = "…"
"""The end of a text that was cut."""


@dataclass(frozen=True, slots=True)
class ReportLimits:
    """Every length a report's fields may have, in characters (but ``total_bytes``)."""

    value_text: int = 40
    """A value's text (a fraction can have thousands of digits): the values compared at
    a node and at the root, a step's window and value, the move chosen."""
    message: int = 500
    """A sentence: the report's, a tree's, a node's, a divergence's, a cut-off's rule."""
    name: int = 200
    """A tree's name."""
    node_name: int = 1000
    """A node's name, wherever the report names one."""
    implementation_name: int = 99
    """A library implementation's name (``family/stem``): two of them, joined by ``+``,
    name a composed misconception in one column of ``name`` characters and more."""
    replay_steps: int = 2000
    """Steps of each search kept in a public tree's replay."""
    stdout_kept: int = 8 * 1024
    """Characters of the public trees' printed output kept; the rest is counted in
    ``Report.stdout_dropped`` and does not change the verdict."""
    total_bytes: int = 1024 * 1024
    """The most a report may hold, as JSON."""
    replay_steps_when_large: int = 200
    """Steps a replay keeps when the report is over ``total_bytes``."""
    nodes_when_large: int = 2000
    """Node verdicts a tree keeps when the report is over ``total_bytes`` (the ones that
    are not ok, pruned or not observed)."""

    @property
    def stored_value(self) -> int:
        """The longest a value of ``value_text`` characters is as JSON text (a control
        character is written as six, ``\\u0001``; with its quotes): a node row's column."""
        return 6 * self.value_text + 2


LIMITS = ReportLimits()
"""The limits every report is fitted to."""


def short(text: str, limit: int) -> str:
    """``text`` cut to ``limit`` characters, the last of them ``…`` to say so."""
    return text if len(text) <= limit else text[: limit - 1] + MARK


def fit(model: Report, limits: ReportLimits = LIMITS) -> Report:
    """``model`` with every field within ``limits``: each text to its length (see
    :class:`ReportLimits`), each replay to ``replay_steps`` (``truncated``), the printed
    output to ``stdout_kept`` (the rest counted in ``stdout_dropped``); then, if it is
    still over ``total_bytes`` of JSON, first each replay to ``replay_steps_when_large``
    steps, then each tree's node verdicts to the ones that are not ok, pruned or not
    observed (``nodes_when_large`` at most; ``nodes_omitted`` counts the rest by verdict),
    then the printed output, then the replays and node lists; what was cut for size is
    said in the report (``cut``). A fitted report comes out of it as it went in."""
    report = model.to_json()
    changed = _cut_fields(report, limits)
    if _size(report) > limits.total_bytes:
        _cut_for_size(report, limits)
    elif not changed:
        return model
    return Report.model_validate(report)


Document = MutableMapping[str, Any]


def _cut_fields(report: Document, limits: ReportLimits) -> bool:
    """Cut each field of the JSON document ``report`` to its length; whether any was."""
    cutter = _Cutter()
    value, message, node = (
        cutter.texts(limits.value_text),
        cutter.texts(limits.message),
        cutter.texts(limits.node_name),
    )
    message(report, "message")
    stdout = report.get("stdout", "")
    if len(stdout) > limits.stdout_kept:
        kept = stdout[: limits.stdout_kept]
        dropped = len(stdout.encode()) - len(kept.encode())
        report["stdout"] = kept
        report["stdout_dropped"] = (report.get("stdout_dropped") or 0) + dropped
        cutter.changed = True
    for case in report["cases"]:
        cutter.texts(limits.name)(case, "name")
        message(case, "message")
        for pair in (case.get("value"), case.get("decision")):
            value(pair, "expected", "actual")
        for found in case.get("nodes") or ():
            node(found, "node")
            value(found, "expected", "actual")
            message(found, "message")
        divergence = case.get("first_divergence")
        node(divergence, "node")
        message(divergence, "message")
        replay = case.get("replay")
        if replay is not None:
            cutter.steps(replay, limits.replay_steps)
            for step in (*replay["student"], *replay["reference"]):
                node(step, "node")
                value(step, "alpha", "beta", "value")
                message(step, "cutoff")
                pruned = step.get("pruned")
                if pruned:
                    step["pruned"] = [cutter.text(name, limits.node_name) for name in pruned]
    diagnosis = report.get("diagnosis")
    if diagnosis is not None:
        composed = diagnosis.get("composed") or {}
        for told in (*diagnosis["misconceptions"], *composed.get("misconceptions", ())):
            names = told["implementations"]
            told["implementations"] = [
                cutter.text(name, limits.implementation_name) for name in names
            ]
    return cutter.changed


class _Cutter:
    """Cuts texts of a document, remembering whether it cut any."""

    def __init__(self) -> None:
        self.changed = False

    def text(self, text: str, limit: int) -> str:
        if len(text) <= limit:
            return text
        self.changed = True
        return short(text, limit)

    def texts(self, limit: int) -> Callable[..., None]:
        """A function cutting the text fields named of a mapping (None: no mapping)."""

        def cut(found: Document | None, *keys: str) -> None:
            if found is None:
                return
            for key in keys:
                text = found.get(key)
                if isinstance(text, str):
                    found[key] = self.text(text, limit)

        return cut

    def steps(self, replay: Document, limit: int) -> None:
        if len(replay["student"]) > limit or len(replay["reference"]) > limit:
            replay["student"] = replay["student"][:limit]
            replay["reference"] = replay["reference"][:limit]
            replay["truncated"] = True
            self.changed = True


def _cut_for_size(report: Document, limits: ReportLimits) -> None:
    """Cut the document ``report``, over ``limits.total_bytes``, down to it."""
    cut: list[str] = []
    steps = limits.replay_steps_when_large
    for case in report["cases"]:
        replay = case.get("replay")
        if replay and (len(replay["student"]) > steps or len(replay["reference"]) > steps):
            _Cutter().steps(replay, steps)
            cut.append(f"replays to {steps} steps")
    if _size(report) > limits.total_bytes:
        for case in report["cases"]:
            nodes = case.get("nodes") or []
            kept = [node for node in nodes if node["verdict"] not in GOOD_VERDICTS]
            kept = kept[: limits.nodes_when_large]
            if len(kept) < len(nodes):
                omitted = Counter(node["verdict"] for node in nodes) - Counter(
                    node["verdict"] for node in kept
                )
                case["nodes"] = kept
                case["nodes_omitted"] = dict(omitted)
                cut.append("node lists to the nodes that are wrong")
    if _size(report) > limits.total_bytes:
        dropped = len(report.get("stdout", "").encode()) + (report.get("stdout_dropped") or 0)
        report["stdout"] = ""
        report["stdout_dropped"] = dropped or None
        cut.append("printed output")
    if _size(report) > limits.total_bytes:
        for case in report["cases"]:
            case.pop("replay", None)
            if case.get("nodes"):
                case["nodes_omitted"] = dict(
                    Counter(node["verdict"] for node in case["nodes"])
                    + Counter(case.get("nodes_omitted") or {})
                )
                case["nodes"] = []
        cut.append("replays and node lists")
    report["cut"] = "the report was too large: cut " + ", ".join(dict.fromkeys(cut))


def _size(report: Document) -> int:
    return len(json.dumps(report, allow_nan=False, ensure_ascii=False).encode())
