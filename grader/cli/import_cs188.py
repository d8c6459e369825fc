"""``grader exercises import-cs188``: turn a CS188 game-tree test into one of our tree files."""

from __future__ import annotations

from pathlib import Path

import click

from reference.cs188 import import_file
from reference.problems import FileProblems
from reference.treefile import render


@click.command("import-cs188")
@click.argument("file", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option(
    "-o",
    "--output",
    type=click.Path(dir_okay=False, writable=True, path_type=Path),
    help="Write the tree file here instead of to standard output.",
)
def import_cs188(file: Path, output: Path | None) -> None:
    """Convert FILE, a Berkeley CS188 GraphGameTreeTest file, into a tree file.

    Pacman's layers become MAX nodes and every ghost's layers MIN nodes. On a bad file,
    every problem is printed as file:line:column: message and the exit status is 1.
    """
    try:
        result = import_file(file)
    except FileProblems as error:
        for problem in error.problems:
            click.echo(str(problem), err=True)
        click.get_current_context().exit(1)
    except OSError as error:
        raise click.ClickException(f"cannot read {file}: {error.strerror or error}") from None
    text = render(result.tree)
    if output is None:
        click.echo(text, nl=not text.endswith("\n"))
        return
    try:
        output.write_text(text, encoding="utf-8")
    except OSError as error:
        raise click.ClickException(f"cannot write {output}: {error.strerror or error}") from None
