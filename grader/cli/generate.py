"""``grader exercises generate GAME [OPTIONS]``: write the game tree of a registered game.

One subcommand per registered game, built from the options the game declares, so a new
game gets its command without any code here.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from reference.games import GAMES, AnyGame, Option, expand, make_game
from reference.games.expand import DEFAULT_MAX_NODES
from reference.games.options import Boolean
from reference.treefile import render

_COMMON = {"max_depth", "max_nodes", "no_dedupe", "output"}
"""Parameters every subcommand has; no game option may take these names."""


class _GameOption(click.ParamType[Any]):
    """Converts command-line text with the game option's own type (errors exit with 2)."""

    def __init__(self, option: Option) -> None:
        self.option = option
        self.name = option.type.metavar

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        try:
            return self.option.type.coerce(value)
        except ValueError as error:
            self.fail(str(error), param, ctx)


def _click_option(option: Option) -> click.Option:
    flag = "--" + option.name.replace("_", "-")
    if isinstance(option.type, Boolean):
        return click.Option(
            [f"{flag}/--no-{flag[2:]}", option.name],
            default=option.default,
            show_default=True,
            help=option.help,
        )
    return click.Option(
        [flag, option.name],
        type=_GameOption(option),
        default=None if option.default is None else _as_text(option.default),
        metavar=option.type.metavar,
        show_default=True,
        help=option.help,
    )


def _as_text(value: object) -> str:
    """A default as it would be typed: "1,3" for numbers, "1,1;2,3" for cells."""
    if isinstance(value, tuple):
        separator = ";" if any(isinstance(item, tuple) for item in value) else ","
        return separator.join(map(_as_text, value))
    return str(value)


def _game_command(name: str, cls: type[AnyGame]) -> click.Command:
    options = cls.options()
    clashes = _COMMON & {option.name for option in options}
    if clashes:
        raise RuntimeError(f"game {name!r} declares options reserved by the CLI: {clashes}")

    def run(
        max_depth: int | None, max_nodes: int, no_dedupe: bool, output: Path | None, **values: Any
    ) -> None:
        given = {key: value for key, value in values.items() if value is not None}
        try:
            game = make_game(name, **given)
            tree = expand(
                game, max_depth=max_depth, max_nodes=max_nodes, dedupe_children=not no_dedupe
            )
        except ValueError as error:
            raise click.UsageError(str(error)) from None
        text = render(tree)
        if output is None:
            click.echo(text, nl=not text.endswith("\n"))
        else:
            output.write_text(text, encoding="utf-8")

    doc = (cls.__doc__ or name).strip()
    return click.Command(
        name,
        callback=run,
        help=doc,
        short_help=doc.splitlines()[0],
        params=[
            *(_click_option(option) for option in options),
            click.Option(
                ["--max-depth"],
                type=click.IntRange(min=0),
                help="cut the tree at this depth: deeper states become frontier nodes",
            ),
            click.Option(
                ["--max-nodes"],
                type=click.IntRange(min=1),
                default=DEFAULT_MAX_NODES,
                show_default=True,
                help="refuse to build a bigger tree",
            ),
            click.Option(
                ["--no-dedupe"],
                is_flag=True,
                help="keep children that repeat an earlier sibling's state",
            ),
            click.Option(
                ["-o", "--output"],
                type=click.Path(dir_okay=False, writable=True, path_type=Path),
                help="write the tree file here instead of to standard output",
            ),
        ],
    )


@click.group()
def generate() -> None:
    """Write the game tree of a rule-defined game as a tree file."""


for _name, _cls in GAMES.items():
    generate.add_command(_game_command(_name, _cls))
