"""``grader exercises generate``: one subcommand per game, built from the option declarations.

The written tree files are read back with the real tree-file parser and compared with the
trees the games expand to.
"""

from __future__ import annotations

import re
from pathlib import Path

import click
import pytest
from click.testing import CliRunner, Result

from grader.cli.generate import generate as generate_command
from reference.games import GAMES, generate
from reference.treefile import parse, render


@pytest.fixture
def cli() -> click.Group:
    return generate_command


def run(cli: click.Group, *args: str) -> Result:
    return CliRunner().invoke(cli, list(args))


def test_there_is_one_subcommand_per_registered_game(cli: click.Group) -> None:
    assert set(cli.commands) == set(GAMES)


def test_subcommand_options_come_from_the_game_declarations(cli: click.Group) -> None:
    for name, game in GAMES.items():
        command = cli.commands[name]
        params = {param.name for param in command.params}
        assert {option.name for option in game.options()} <= params
        assert {"max_depth", "max_nodes", "no_dedupe", "output"} <= params


def test_the_tree_goes_to_standard_output_by_default(cli: click.Group) -> None:
    result = run(cli, "grundy")

    assert result.exit_code == 0, result.output
    assert result.stdout == render(generate("grundy"))
    assert len(parse(result.stdout)) == 24


def test_options_are_parsed_from_text(cli: click.Group) -> None:
    result = run(cli, "nim", "--compartments", "1,3", "--misere")

    assert result.exit_code == 0, result.output
    assert parse(result.stdout) == generate("nim", compartments=(1, 3), misere=True)


def test_every_kind_of_option_can_be_given(cli: click.Group) -> None:
    args = ["--rows", "2", "--cols", "3", "--blocked", "1,2", "--first", "Horizontal"]
    result = run(cli, "domineering", *args, "--max-player", "vertical")

    assert result.exit_code == 0, result.output
    expected = generate(
        "domineering", rows=2, cols=3, blocked=[(1, 2)], first="horizontal", max_player="vertical"
    )
    assert parse(result.stdout) == expected


def test_tic_tac_toe_positions_and_movers(cli: click.Group) -> None:
    result = run(cli, "tictactoe", "--position", "XO./.../...", "--to-move", "o")

    assert result.exit_code == 0, result.output
    assert parse(result.stdout) == generate("tictactoe", position="XO./.../...", to_move="O")


def test_limits_and_deduplication(cli: click.Group) -> None:
    cut = run(cli, "tictactoe", "--max-depth", "1")
    full = run(cli, "grundy", "--no-dedupe")

    assert parse(cut.stdout) == generate("tictactoe", max_depth=1)
    assert parse(full.stdout) == generate("grundy", dedupe_children=False)


def test_the_tree_can_be_written_to_a_file(cli: click.Group, tmp_path: Path) -> None:
    output = tmp_path / "grundy.tree"

    result = run(cli, "grundy", "--pile", "5", "-o", str(output))

    assert result.exit_code == 0, result.output
    assert result.output == ""
    assert parse(output.read_text(encoding="utf-8")) == generate("grundy", pile=5)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["grundy", "--pile", "many"], "Invalid value for '--pile': expected a whole number"),
        (["grundy", "--pile", "99"], "must be from 1 to 30, got 99"),
        (["nim", "--compartments", "1,,3"], "expected a whole number, got ''"),
        (["nim", "--compartments", "0,0"], "at least one compartment must hold a match"),
        (["tictactoe", "--position", "XXX/XXX/XXX"], "impossible position: 9 X and 0 O"),
        (["tictactoe", "--to-move", "Z"], "expected one of X, O"),
        (["domineering", "--blocked", "9,9"], r"cell \(9,9\) is off the 2x4 board"),
        (["hexapawn", "--rows", "1"], "must be from 3 to 8"),
        (["grundy", "--max-depth", "2"], "has no heuristic"),
        (["grundy", "--max-depth", "-1"], "Invalid value for '--max-depth'"),
        (["tictactoe", "--max-nodes", "50"], "more than 50 nodes"),
        (["grundy", "--size", "3"], "No such option '--size'"),
    ],
)
def test_bad_values_are_usage_errors(cli: click.Group, args: list[str], message: str) -> None:
    result = run(cli, *args)

    assert result.exit_code == 2, result.output
    assert isinstance(result.exception, SystemExit)  # a click error, not a traceback
    assert re.search(message, result.output), result.output
    assert result.stdout == ""


def test_help_shows_each_option_with_its_default(cli: click.Group) -> None:
    result = run(cli, "nim", "--help")

    assert result.exit_code == 0
    assert "--compartments N,N,..." in result.output
    assert "[default: 1,3]" in result.output
    assert "--misere / --no-misere" in result.output


def test_a_written_file_passes_validation(cli: click.Group, tmp_path: Path) -> None:
    output = tmp_path / "fantan.tree.yaml"

    result = CliRunner().invoke(cli, ["fantan", "-o", str(output)])

    assert result.exit_code == 0, result.output
    assert parse(output.read_text(encoding="utf-8")) == generate("fantan")
