"""Signatures kept outside the process: a tree's key, and a signature as JSON.

An instructor's wrong implementation runs in the sandbox once, when it is added, on the
exercise's public trees and the hidden pool's catchers; its signature on each is stored
(by the tree's :func:`tree_key`) and read back when a student's search is diagnosed on the
same tree.
"""

from __future__ import annotations

import hashlib
import json
from fractions import Fraction
from typing import Any

from reference.diagnosis.signature import Signature, Step, Value
from reference.tree import Number, Tree


def tree_key(tree: Tree) -> str:
    """A key naming ``tree`` by its content (root, nodes, edges, values, in order): two
    equal trees have the same key, whatever their objects."""
    parts: list[object] = [tree.root.name]
    for node in tree:
        parts.append(
            [
                node.name,
                str(node.kind),
                [[edge.action, edge.child, _number(edge.probability)] for edge in node.edges],
                _number(node.utility),
                _number(node.heuristic),
            ]
        )
    text = json.dumps(parts, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _number(value: Number | Fraction | None) -> object:
    if value is None or isinstance(value, bool):
        return value
    if isinstance(value, Fraction):
        return f"{value.numerator}/{value.denominator}"
    if isinstance(value, int):
        return value
    return repr(float(value))


def _value_json(value: Value) -> object:
    if value is None or isinstance(value, str):
        return value
    if isinstance(value, Fraction):
        return {"fraction": [value.numerator, value.denominator]}
    if isinstance(value, float) and (value != value or value in (float("inf"), float("-inf"))):
        return {"float": repr(value)}
    return value


def _value(data: object) -> Value:
    if isinstance(data, dict):
        if "fraction" in data:
            numerator, denominator = data["fraction"]
            return Fraction(int(numerator), int(denominator))
        return float(str(data["float"]))
    if data is None or (isinstance(data, str | int | float) and not isinstance(data, bool)):
        return data
    raise ValueError(f"not a stored value: {data!r}")


def signature_to_json(signature: Signature) -> dict[str, Any]:
    """A JSON document of ``signature`` (:func:`signature_from_json` reads it back)."""
    return {
        "steps": [
            [
                step.event,
                step.node,
                _value_json(step.alpha),
                _value_json(step.beta),
                step.depth,
                _value_json(step.value),
            ]
            for step in signature.steps
        ],
        "decisions": sorted(signature.decisions),
        "decision_style": signature.decision_style,
        "failed": signature.failed,
    }


def signature_from_json(data: dict[str, Any]) -> Signature:
    """The signature :func:`signature_to_json` wrote."""
    steps = []
    for event, node, alpha, beta, depth, value in data["steps"]:
        if event not in ("enter", "exit", "leaf"):
            raise ValueError(f"not a step: {event!r}")
        steps.append(
            Step(
                event,
                str(node),
                _bound(_value(alpha)),
                _bound(_value(beta)),
                None if depth is None else int(depth),
                _value(value),
            )
        )
    return Signature(
        tuple(steps),
        decisions=frozenset(str(decision) for decision in data.get("decisions", ())),
        decision_style=bool(data.get("decision_style", False)),
        failed=bool(data.get("failed", False)),
    )


def _bound(value: Value) -> Number | None:
    if isinstance(value, str):
        raise ValueError(f"not a bound: {value!r}")
    return value
