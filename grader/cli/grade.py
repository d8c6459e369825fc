"""``grader grade --exercise SLUG FILE``: grade a submission on this machine, no server needed."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import click

from grader.cli.exercises import _exercise
from grader.config import Settings
from reference.drawing import draw
from reference.tree import Node
from worker.grading import grade as grade_submission
from worker.sandbox import SandboxOptions, SandboxUnavailable

MARKS = {
    "ok": "ok",
    "pruned": "pruned",
    "not_observed": "(not observed)",
}


@click.command()
@click.option("--exercise", "slug", required=True, help="The exercise's slug.")
@click.argument("file", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--json", "as_json", is_flag=True, help="Print the JSON report instead.")
def grade(slug: str, file: Path, as_json: bool) -> None:
    """Grade FILE, a student's implementation, on every tree of the exercise SLUG."""
    settings = Settings.from_env()
    exercise = _exercise(slug)
    data = file.read_bytes()
    try:
        source = data.decode("utf-8")
    except UnicodeDecodeError as error:
        line = data[: error.start].count(b"\n") + 1
        raise click.ClickException(f"{file}: line {line} is not valid UTF-8") from None
    options = SandboxOptions(allow_unconfined=settings.sandbox_allow_unconfined)
    try:
        report = grade_submission(
            exercise,
            source,
            file.name,
            key=settings.hidden_tree_key,
            exercises_dir=settings.exercises_dir,
            options=options,
        )
    except SandboxUnavailable as error:
        raise click.ClickException(f"cannot grade here: {error}") from None
    if as_json:
        click.echo(json.dumps(report, indent=2))
        return
    _print(report, exercise)


def _print(report: dict[str, Any], exercise: Any) -> None:
    click.echo(
        f"{report['exercise']}: {report['verdict']}, score {report['score']}/{report['max_score']}"
    )
    click.echo(report["message"])
    for case in report["cases"]:
        if case["hidden"]:
            reason = f": {case['message']}" if case.get("message") else ""
            click.echo(f"\nhidden tree {case['name']}: {case['verdict']}{reason}")
            continue
        click.echo(f"\ntree {case['name']}: {case['verdict']}")
        if not case.get("nodes"):
            if case.get("message"):
                click.echo(f"  {case['message']}")
            continue
        verdicts = {node["node"]: node for node in case["nodes"]}

        def note(node: Node, verdicts: dict[str, Any] = verdicts) -> str:
            item = verdicts[node.name]
            mark: str = MARKS.get(item["verdict"], item["verdict"].upper())
            if item["verdict"] in MARKS:
                return mark
            return f"{mark}: {item['message']!s}"

        click.echo(draw(exercise.tree(case["name"]).tree, note))
        value = case["value"]
        click.echo(f"value: expected {value['expected']}, yours {value['actual']}")
        if case["first_divergence"]:
            divergence = case["first_divergence"]
            click.echo(f"first divergence at {divergence['node']}: {divergence['message']}")
    if report["stdout"]:
        click.echo("\nprinted output:\n" + report["stdout"])
