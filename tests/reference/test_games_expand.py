"""Expanding games to trees, the registry and option declarations, on small toy games."""

from __future__ import annotations

import sys
from dataclasses import dataclass

import pytest

from reference.games import GAMES, Game, Player, expand, generate, make_game, register
from reference.games.options import Integer, option
from reference.naming import child_names
from reference.tree import Kind


@dataclass(frozen=True)
class Countdown(Game[int, int]):
    """From ``start``, a move takes 1 to ``most`` away; whoever reaches 0 wins."""

    start: int = option(3, Integer(0, 10_000), "where the count starts")
    most: int = option(2, Integer(1, 50), "the most a move may take")
    same_result: bool = False  # every move takes 1, to test de-duplication
    scored: bool = False  # with an evaluation: the count itself

    def initial_state(self) -> int:
        return self.start * 2  # even: MAX to move; the count is state // 2

    def to_move(self, state: int) -> Player:
        return Kind.MAX if state % 2 == 0 else Kind.MIN

    def actions(self, state: int) -> list[int]:
        return list(range(1, min(self.most, state // 2) + 1))

    def result(self, state: int, action: int) -> int:
        count = state // 2 - (1 if self.same_result else action)
        return count * 2 + (1 - state % 2)

    def is_terminal(self, state: int) -> bool:
        return state // 2 == 0

    def utility(self, state: int) -> int:
        return -1 if self.to_move(state) is Kind.MAX else 1  # the mover did not reach 0

    def evaluate(self, state: int) -> int | None:
        return state // 2 if self.scored else None

    def describe(self, state: int) -> str:
        return str(state // 2)

    def action_label(self, state: int, action: int) -> str:
        return f"-{action}"


def test_terminal_states_become_leaves_and_others_max_or_min_nodes() -> None:
    tree = expand(Countdown(start=2))

    assert [(node.name, node.kind, node.label) for node in tree] == [
        ("A", Kind.MAX, "2"),
        ("B", Kind.MIN, "1"),
        ("B1", Kind.LEAF, "0"),
        ("C", Kind.LEAF, "0"),
    ]
    assert [edge.action for edge in tree.root.edges] == ["-1", "-2"]
    assert tree["B1"].utility == -1 and tree["C"].utility == 1
    assert all(node.heuristic is None for node in tree)


def test_nodes_are_named_as_in_the_textbook() -> None:
    tree = expand(Countdown(start=4, most=3))

    for node in tree:
        expected = child_names(node.name, len(node.edges), parent_is_root=node.name == "A")
        assert list(node.children) == expected
    assert "B1.1.1" in tree


def test_a_root_with_many_children_numbers_them() -> None:
    tree = expand(Countdown(start=30, most=30, scored=True), max_depth=1)

    assert list(tree.root.children) == [f"A{i}" for i in range(1, 31)]


def test_children_with_equal_states_are_dropped_per_parent() -> None:
    game = Countdown(start=3, most=3, same_result=True)

    deduped = expand(game)
    kept = expand(game, dedupe_children=False)

    assert [edge.action for edge in deduped.root.edges] == ["-1"]
    assert len(deduped) == 4  # a chain: 3, 2, 1, 0
    assert [edge.action for edge in kept.root.edges] == ["-1", "-2", "-3"]
    assert len(kept) == 1 + 3 + 3 * 2 + 3 * 2 * 1


def test_expansion_is_iterative_however_deep_the_game() -> None:
    depth = sys.getrecursionlimit() + 500
    tree = expand(Countdown(start=depth, most=1))

    assert len(tree) == depth + 1
    assert tree.height() == depth


def test_the_node_limit_is_enforced() -> None:
    game = Countdown(start=6, most=3)
    size = len(expand(game))

    assert len(expand(game, max_nodes=size)) == size
    with pytest.raises(ValueError, match=f"more than {size - 1} nodes"):
        expand(game, max_nodes=size - 1)


def test_a_depth_limit_makes_frontier_nodes_carrying_the_heuristic() -> None:
    tree = expand(Countdown(start=5, scored=True), max_depth=2)

    assert tree.height() == 2
    frontier = [node for node in tree if node.is_frontier]
    assert [node.label for node in frontier] == ["3", "2", "2", "1"]
    assert all(node.heuristic == int(node.label or "") for node in frontier)
    assert all(node.heuristic is not None for node in tree if not node.is_leaf)
    assert expand(Countdown(start=5, scored=True), max_depth=0).root.is_frontier


def test_terminal_states_at_the_depth_limit_stay_leaves() -> None:
    tree = expand(Countdown(start=2, scored=True), max_depth=1)

    assert tree["C"].is_leaf and tree["B"].is_frontier


def test_a_depth_limit_needs_a_heuristic() -> None:
    with pytest.raises(ValueError, match="'Countdown' has no heuristic"):
        expand(Countdown(start=5), max_depth=2)
    with pytest.raises(ValueError, match="'grundy' has no heuristic"):
        generate("grundy", max_depth=1)


def test_a_depth_limit_deeper_than_the_game_changes_nothing() -> None:
    game = Countdown(start=4, scored=True)

    assert expand(game, max_depth=10) == expand(game)


def test_bad_limits_are_refused() -> None:
    with pytest.raises(ValueError, match="max_depth must be at least 0, got -1"):
        expand(Countdown(), max_depth=-1)
    with pytest.raises(ValueError, match="max_nodes must be at least 1, got 0"):
        expand(Countdown(), max_nodes=0)


class Stuck(Countdown):
    def actions(self, state: int) -> list[int]:
        return []


class Ambiguous(Countdown):
    def action_label(self, state: int, action: int) -> str:
        return "move"


def test_rules_that_break_the_interface_are_reported() -> None:
    with pytest.raises(ValueError, match="non-terminal state '3' has no legal actions"):
        expand(Stuck())
    with pytest.raises(ValueError, match="two actions in state '3' have the same label"):
        expand(Ambiguous())


def test_every_game_is_registered_once_under_its_names() -> None:
    assert set(GAMES) == {
        "grundy",
        "nim",
        "fantan",
        "tictactoe",
        "domineering",
        "hexapawn",
        "connectfour",
    }
    assert GAMES["fantan"] is GAMES["nim"]
    assert all(cls.name in GAMES for cls in GAMES.values())


@pytest.mark.parametrize("name", sorted(GAMES))
def test_every_game_declares_valid_options_and_expands_from_its_defaults(name: str) -> None:
    cls = GAMES[name]
    for declared in cls.options():
        assert declared.help and declared.type.metavar
        assert declared.type.coerce(declared.default) == declared.default
    game = make_game(name)
    root = game.initial_state()
    has_heuristic = game.evaluate(root) is not None
    tree = expand(game, max_depth=2 if has_heuristic else None)  # the full tic-tac-toe is slow

    assert tree.root.kind is not Kind.LEAF
    assert tree.root.label == game.describe(root)


def test_option_names_may_differ_from_the_field_that_holds_them() -> None:
    declared = {option.name: option.field for option in GAMES["tictactoe"].options()}

    assert declared == {"position": "position", "to_move": "first", "max_player": "max_player"}
    assert make_game("tictactoe", to_move="O") == GAMES["tictactoe"](first="O")  # type: ignore[call-arg]


def test_unknown_games_and_options_are_reported() -> None:
    with pytest.raises(KeyError, match="unknown game 'chess'"):
        make_game("chess")
    message = r"unknown option 'size' for the game 'grundy' \(its options: pile\)"
    with pytest.raises(ValueError, match=message):
        make_game("grundy", size=3)


def test_a_name_cannot_be_registered_twice() -> None:
    before = dict(GAMES)
    with pytest.raises(ValueError, match="already registered as 'nim'"):
        register("countdown", "nim")(Countdown)

    assert dict(GAMES) == before


def test_games_are_immutable_values() -> None:
    game = make_game("grundy", pile=5)

    assert game == make_game("grundy", pile="5")
    assert hash(game) == hash(make_game("grundy", pile=5))
    with pytest.raises(AttributeError):
        game.pile = 6  # type: ignore[attr-defined]
