"""``grader grade --exercise SLUG FILE``: grade a submission on this machine, no server needed.

Everything the student's code chose (exception text, printed output, node messages and
names, decisions) is printed through :func:`reference.safe_json.terminal_text`, so that
escape sequences in it cannot move the cursor or rewrite what the terminal shows; the JSON
report is the :class:`reference.report.Report`'s document, strict JSON (no NaN or Infinity
tokens)."""

from __future__ import annotations

import json
import secrets
from pathlib import Path
from typing import Any

import click

from grader.cli.exercises import _exercise, grading_settings
from reference.drawing import draw as draw_tree
from reference.report import NodeReport, Report
from reference.safe_json import terminal_text
from reference.tree import Node
from reference.verdict_words import node_mark
from worker.grading import grade as grade_submission
from worker.sandbox import SandboxOptions, SandboxUnavailable


@click.command()
@click.option("--exercise", "slug", required=True, help="The exercise's slug.")
@click.argument("file", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--json", "as_json", is_flag=True, help="Print the JSON report instead.")
@click.option(
    "--draw",
    "draw",
    metavar="TEXT",
    help="Name the draw of hidden trees (the same name draws the same trees); "
    "default: a random one, printed first.",
)
def grade(slug: str, file: Path, as_json: bool, draw: str | None) -> None:
    """Grade FILE, a student's implementation, on every tree of the exercise SLUG."""
    settings = grading_settings()
    exercise = _exercise(slug)
    data = file.read_bytes()
    try:
        source = data.decode("utf-8")
    except UnicodeDecodeError as error:
        line = data[: error.start].count(b"\n") + 1
        raise click.ClickException(f"{file}: line {line} is not valid UTF-8") from None
    draw = secrets.token_hex(8) if draw is None else draw
    options = SandboxOptions(allow_unconfined=settings.sandbox_allow_unconfined)
    try:
        report = grade_submission(
            exercise,
            source,
            file.name,
            key=settings.hidden_tree_key,
            exercises_dir=settings.exercises_dir,
            options=options,
            draw=draw,
        )
    except SandboxUnavailable as error:
        raise click.ClickException(f"cannot grade here: {error}") from None
    drawn = f"hidden trees: draw {terminal_text(draw)}"
    if as_json:
        click.echo(drawn, err=True)  # stdout holds the report alone
        click.echo(json.dumps(report.to_json(), indent=2, allow_nan=False))
        return
    _echo(drawn)
    _print(report, exercise)


def _echo(text: str) -> None:
    click.echo(terminal_text(text))


def _print(report: Report, exercise: Any) -> None:
    _echo(f"{report.exercise}: {report.verdict}, score {report.score}/{report.max_score}")
    _echo(report.message)
    for case in report.cases:
        if case.hidden:
            reason = f": {case.message}" if case.message else ""
            _echo(f"\nhidden tree {case.name}: {case.verdict}{reason}")
            continue
        _echo(f"\ntree {case.name}: {case.verdict}")
        if not case.nodes:
            if case.message:
                _echo(f"  {case.message}")
            continue
        verdicts = {node.node: node for node in case.nodes}

        def note(node: Node, verdicts: dict[str, NodeReport] = verdicts) -> str:
            item = verdicts[node.name]
            return node_mark(item.verdict, item.message)

        _echo(draw_tree(exercise.tree(case.name).tree, note))
        if case.value is not None:
            _echo(f"value: expected {case.value.expected}, yours {case.value.actual}")
        decision = case.decision
        if decision is not None and (decision.expected is not None or decision.actual is not None):
            yours = decision.actual or "not observed"
            _echo(f"decision: expected {decision.expected}, yours {yours}")
        if case.first_divergence:
            divergence = case.first_divergence
            _echo(f"first divergence at {divergence.node}: {divergence.message}")
    if report.diagnosis is not None:
        # What the feedback page shows beside the first divergence, in the same words.
        _echo(f"\n{report.diagnosis.summary}")
        composed = report.diagnosis.composed
        told = (
            composed.misconceptions if composed is not None else report.diagnosis.misconceptions[:1]
        )
        for nearest in told:
            _echo(f"  the mistake: {nearest.name}")
            _echo(f"  why it matters: {nearest.explanation}")
            _echo(f"  the textbook's line: {nearest.pseudocode}")
            _echo(f"  hint: {nearest.hint}")
    if report.stdout:
        _echo("\nprinted output:\n" + report.stdout)
