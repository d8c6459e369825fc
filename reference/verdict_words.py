"""Verdicts in words: the one table the pages and the command line say a verdict with.

Every table here is keyed by a verdict's value (``"wrong_value"``), so a ``StrEnum``
member (:class:`reference.report.RunVerdict`, the node verdict) and a stored string find
the same words. A value the table does not know (a run's state, a verdict added later) is
said as it is written, underscores as spaces.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

WORDS: Mapping[str, str] = MappingProxyType(
    {
        # A submission's or a tree's verdict.
        "passed": "passed",
        "failed": "failed",
        "completed": "completed",
        "compile_error": "compile error",
        "runtime_error": "runtime error",
        "time_limit": "time limit",
        "memory_limit": "memory limit",
        "output_limit": "output limit",
        "protocol_violation": "protocol violation",
        "internal_error": "internal error",
        "not_run": "not run",
        # A node's verdict.
        "ok": "ok",
        "pruned": "pruned",
        "extra": "extra",
        "missed": "missed",
        "wrong_value": "wrong value",
        "wrong_bounds": "wrong bounds",
        "out_of_order": "out of order",
        "repeated": "repeated",
        "not_observed": "not observed",
    }
)
"""Each verdict's word, as a page or the command line shows it."""

QUIET: Mapping[str, str] = MappingProxyType(
    {"ok": "ok", "pruned": "pruned", "not_observed": "(not observed)"}
)
"""The node verdicts that need no sentence next to a node of a drawn tree, with their mark."""


def verdict_word(verdict: str) -> str:
    """``verdict`` (a value or a member of a verdict enum) in words."""
    value = str(verdict)
    return WORDS.get(value) or value.replace("_", " ")


def node_mark(verdict: str, message: str) -> str:
    """What the command line writes next to a node of a drawn tree: the mark of a quiet
    verdict, else the verdict in capitals with its sentence."""
    value = str(verdict)
    quiet = QUIET.get(value)
    if quiet is not None:
        return quiet
    return f"{value.upper()}: {message}"


def verdict_legend(*, windowed: bool, depth_limited: bool) -> dict[str, str]:
    """Each node verdict in words, for the legend of an exercise's report.

    The words speak of what the exercise's search does: pruning and alpha-beta windows
    only for an alpha-beta search, the depth limit only for a depth-limited one (a
    depth-limited minimax never prunes: a node it does not visit lies below the limit).
    """
    skipped = {
        (True, True): ("pruned, or below the depth limit", "prunes it or stops above it"),
        (True, False): ("pruned by both searches", "prunes it"),
        (False, True): ("below the depth limit: neither search goes there", ""),
        (False, False): ("visited by neither search", "never visits it"),
    }
    unvisited, why = skipped[windowed, depth_limited]
    extra = (
        "searched below the depth limit"
        if depth_limited and not windowed
        else f"visited, but the reference {why}"
    )
    arguments = {
        (True, True): "searched with the wrong alpha-beta window or depth",
        (True, False): "searched with the wrong alpha-beta window",
        (False, True): "called with the wrong depth",
        (False, False): "called with the wrong arguments",
    }
    return {
        "ok": "as the reference search",
        "pruned": unvisited,
        "extra": extra,
        "missed": "not visited, or its value never asked, but the reference does",
        "wrong_value": "returned a value outside what is allowed",
        "wrong_bounds": arguments[windowed, depth_limited],
        "out_of_order": "visited out of order",
        "repeated": "searched more than once",
        "not_observed": "value not observable (decision-function style)",
    }
