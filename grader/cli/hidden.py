"""``grader exercises check-hidden SLUG`` and ``grader exercises starter SLUG``."""

from __future__ import annotations

import click

from grader.cli.exercises import _exercise, exercises, grading_settings
from reference.hidden import LIBRARY_FOLDER, load_library, reference_judge, wrong_for
from reference.hidden.pools import reference_pool
from reference.hidden.selection import catch_table, select_hidden_trees
from reference.starter import starter_source


@exercises.command("check-hidden")
@click.argument("slug")
def check_hidden(slug: str) -> None:
    """Show which hidden tree catches which wrong implementation (exit 1 if one escapes).
    The trees are those of the service's own key, which no course draws under: a course's
    exercise draws under a key of its own (see grader.services.hidden_keys)."""
    settings = grading_settings()
    exercise = _exercise(slug)
    wrong = wrong_for(exercise, load_library(settings.exercises_dir / LIBRARY_FOLDER))
    fails = reference_judge(exercise)
    key = settings.hidden_tree_key
    pool = reference_pool(exercise, key, wrong)
    selection = select_hidden_trees(exercise, key, wrong, fails, pool=pool)
    table = catch_table(selection.trees, wrong, fails)
    for line in table.lines():
        click.echo(line)
    if pool.cut_short:
        click.echo(f"the search for catchers stopped early: {pool.cut_short}", err=True)
    escaped = table.uncaught()
    if escaped:
        click.echo(f"not caught by any hidden tree: {', '.join(escaped)}", err=True)
        raise SystemExit(1)
    click.echo(f"all {len(wrong)} wrong implementations fail at least one hidden tree")


@exercises.command()
@click.argument("slug")
def starter(slug: str) -> None:
    """Print a starter file for SLUG: the entry points to fill in, with the game interface."""
    click.echo(starter_source(_exercise(slug)), nl=False)
