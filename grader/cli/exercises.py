"""``grader exercises ...``: list, show, validate and trace exercises and tree files."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from pathlib import Path

import click

from grader.cli.generate import generate
from grader.cli.import_cs188 import import_cs188
from grader.config import ConfigError, Settings
from grader.services.authoring import conventions
from reference import treefile
from reference.algorithms import ALGORITHMS
from reference.drawing import draw
from reference.exercises import Catalog, Exercise, load_catalog, load_exercise
from reference.exercises.loader import EXERCISE_FILE
from reference.hidden import LIBRARY_FOLDER, load_library
from reference.problems import FileProblems, Problem
from reference.search import SearchError, SearchResult
from reference.starter import entry_text
from reference.tree import Node, Tree
from reference.values import format_value


def _catalog() -> Catalog:
    return load_catalog(Settings.from_env().exercises_dir)


def grading_settings() -> Settings:
    """The settings from the environment for commands that draw hidden trees: refused
    (exit 1, saying how to make a key) outside development with a weak hidden-tree key."""
    try:
        return Settings.from_env().checked(needs_secret_key=False, needs_public_url=False)
    except ConfigError as error:
        raise click.ClickException(str(error)) from None


def _exercise(slug: str) -> Exercise:
    catalog = _catalog()
    try:
        return catalog.get(slug)
    except KeyError:
        known = ", ".join(catalog.slugs()) or "none"
        raise click.ClickException(f"no exercise {slug!r} (known: {known})") from None
    except FileProblems as problems:
        raise click.ClickException(f"exercise {slug!r} is invalid:\n{problems}") from None


@click.group()
def exercises() -> None:
    """Work with exercises and tree files."""


@exercises.command("list")
def list_exercises() -> None:
    """List the exercises with their algorithm, trees and root values."""
    catalog = _catalog()
    broken = 0
    for slug in catalog.slugs():
        loaded = catalog.load(slug)
        if isinstance(loaded, FileProblems):
            broken += 1
            click.echo(f"{slug}  INVALID ({len(loaded.problems)} problems; run validate)")
            continue
        values = ", ".join(
            f"{tree.name}={format_value(loaded.reference(tree).value)}" for tree in loaded.trees
        )
        click.echo(f"{slug}  [{loaded.algorithm}]  {loaded.title}  ({values})")
    if broken:
        raise SystemExit(1)


@exercises.command()
@click.argument("slug")
@click.option("--depth", type=click.IntRange(min=0), help="Draw only this many levels.")
def show(slug: str, depth: int | None) -> None:
    """Draw an exercise's trees with names, actions and the reference's values."""
    exercise = _exercise(slug)
    click.echo(f"{exercise.slug}: {exercise.title}")
    click.echo(f"algorithm: {exercise.algorithm}  {conventions(exercise.options)}")
    click.echo(f"entry points: {entry_text(exercise)}")
    for entry in exercise.trees:
        result = exercise.reference(entry)
        note = _reference_notes(entry.tree, result)
        click.echo(f"\ntree {entry.name} ({entry.source}, {len(entry.tree)} nodes)")
        click.echo(draw(entry.tree, note, max_depth=depth))
        click.echo(_outcome(result))


@exercises.command()
@click.argument("paths", nargs=-1, required=True, type=click.Path(path_type=Path))
def validate(paths: tuple[Path, ...]) -> None:
    """Check tree files and exercise folders; list every problem, exit 1 if any."""
    problems: list[Problem] = []
    for path in paths:
        problems += _problems_of(path)
    for problem in problems:
        click.echo(str(problem), err=True)
    if problems:
        click.echo(f"{len(problems)} problem(s) found", err=True)
        raise SystemExit(1)
    click.echo(f"{len(paths)} file(s) valid")


def _problems_of(path: Path) -> list[Problem]:
    if path.is_dir() and path.name == LIBRARY_FOLDER:
        try:
            load_library(path)  # the implementation library: check its file headers
        except FileProblems as error:
            return error.problems
        return []
    if path.is_dir() and (path / EXERCISE_FILE).is_file():
        folder = path
    elif path.name == EXERCISE_FILE:
        folder = path.parent
    else:
        return treefile.validate(path, max_nodes=Settings.from_env().max_tree_nodes)
    try:
        load_exercise(folder)
    except FileProblems as error:
        return error.problems
    return []


@exercises.command()
@click.argument("slug")
@click.option(
    "--algorithm",
    type=click.Choice(sorted(ALGORITHMS)),
    help="Trace another algorithm than the exercise's.",
)
@click.option(
    "--prune-on-equality/--strict",
    "on_equality",
    default=None,
    help="Prune on v >= beta (AIMA) or only on v > beta (CS188); default: the exercise's.",
)
@click.option("--tree", "tree_name", help="Only this public tree.")
def trace(
    slug: str, algorithm: str | None, on_equality: bool | None, tree_name: str | None
) -> None:
    """Print the reference trace of an exercise, one event per line."""
    exercise = _exercise(slug)
    options = exercise.options
    if on_equality is not None:
        options = dataclasses.replace(options, prune_on_equality=on_equality)
    name = algorithm or exercise.algorithm
    for entry in exercise.trees:
        if tree_name is not None and entry.name != tree_name:
            continue
        try:
            result = ALGORITHMS[name].reference(options).run(entry.tree)
        except SearchError as error:
            raise click.ClickException(str(error)) from None
        click.echo(f"# {exercise.slug} / {entry.name}: {name}, {conventions(options)}")
        for line in result.trace.lines():
            click.echo(line)
        click.echo(_outcome(result))


def _reference_notes(tree: Tree, result: SearchResult) -> Callable[[Node], str]:
    """Each node's backed-up value, or why the reference search never reached it."""
    values = result.trace.values()
    pruned = set(result.trace.pruned())

    def note(node: Node) -> str:
        if node.name in values:
            return "" if node.is_leaf else f"v={format_value(values[node.name])}"
        ancestor: Node | None = node
        while ancestor is not None:
            if ancestor.name in pruned:
                return "pruned"
            ancestor = tree.parent(ancestor.name)
        return "not searched"

    return note


def _outcome(result: SearchResult) -> str:
    visited = len(result.trace.visited())
    decision = result.decision or "-"
    return f"value {format_value(result.value)}, decision {decision}, {visited} nodes visited"


exercises.add_command(generate)
exercises.add_command(import_cs188)
