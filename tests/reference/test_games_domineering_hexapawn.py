"""Domineering and Hexapawn: the exercise boards, the rules, and option validation."""

from __future__ import annotations

import pytest

from reference.games import generate, make_game
from reference.tree import Kind
from tests.reference.test_games_support import minimax, root_actions


def test_on_the_default_domineering_board_vertical_moves_first_and_loses() -> None:
    tree = generate("domineering")

    assert tree.root.label == "..../...."
    assert tree.root.kind is Kind.MIN
    assert minimax(tree)["A"] == 1
    actions = root_actions(tree)
    assert list(actions) == ["(1,1)-(2,1)", "(1,2)-(2,2)", "(1,3)-(2,3)", "(1,4)-(2,4)"]
    assert all(value == 1 for _, value in actions.values())
    assert len(tree) == 41
    assert len(tree.leaves()) == 12


def test_no_smaller_unblocked_board_has_that_property() -> None:
    for rows in range(1, 4):
        for cols in range(1, 4):
            tree = generate("domineering", rows=rows, cols=cols)
            assert tree.root.kind is not Kind.MIN or minimax(tree)["A"] != 1


def test_dominoes_cover_two_cells_and_players_alternate() -> None:
    tree = generate("domineering", rows=2, cols=2)

    assert [edge.action for edge in tree.root.edges] == ["(1,1)-(2,1)", "(1,2)-(2,2)"]
    assert tree["B"].label == "V./V."
    assert tree["B"].is_leaf and tree["B"].utility == -1  # Horizontal cannot move


def test_horizontal_moves_and_blocked_cells() -> None:
    tree = generate("domineering", rows=2, cols=3, blocked="1,2", first="horizontal")

    assert tree.root.label == ".#./..."
    assert tree.root.kind is Kind.MAX
    assert [edge.action for edge in tree.root.edges] == ["(2,1)-(2,2)", "(2,2)-(2,3)"]


def test_the_evaluation_counts_placements_for_max_minus_min() -> None:
    game = make_game("domineering", rows=2, cols=3)
    state = game.initial_state()

    assert game.evaluate(state) == 4 - 3  # four horizontal places, three vertical
    assert all(node.heuristic is not None for node in generate("domineering") if not node.is_leaf)


def test_blocked_cells_may_come_from_yaml_as_lists() -> None:
    from_yaml = make_game("domineering", blocked=[[2, 1], [1, 1]])

    assert from_yaml == make_game("domineering", blocked="(1,1) (2,1)")
    assert from_yaml.blocked == ((1, 1), (2, 1))  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"rows": 0}, "option 'rows': must be from 1 to 8"),
        ({"cols": "wide"}, "option 'cols': expected a whole number"),
        ({"blocked": "3,1"}, r"cell \(3,1\) is off the 2x4 board"),
        ({"blocked": "1,1;x"}, "expected cells such as 1,1;2,3"),
        ({"blocked": [[1, 2, 3]]}, "expected a cell"),
        ({"first": "diagonal"}, "option 'first': expected one of vertical, horizontal"),
        ({"max_player": "MAX"}, "option 'max_player'"),
    ],
)
def test_domineering_rejects_bad_options(options: dict[str, object], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        make_game("domineering", **options)


def test_3x3_hexapawn_is_won_by_black_the_second_player() -> None:
    tree = generate("hexapawn")

    assert tree.root.label == "BBB/.../WWW"
    assert tree.root.kind is Kind.MAX
    assert minimax(tree)["A"] == -1
    assert len(tree) == 252
    assert len(tree.leaves()) == 134
    assert [edge.action for edge in tree.root.edges] == ["a1-a2", "b1-b2", "c1-c2"]


def test_hexapawn_pawns_capture_diagonally_and_win_on_the_far_rank() -> None:
    tree = generate("hexapawn")

    # after a1-a2, Black's b3 pawn may move forward or capture on a2 (a3 is blocked)
    assert [edge.action for edge in tree["B"].edges] == ["b3-b2", "b3xa2", "c3-c2"]
    assert tree["B2"].label == "B.B/B../.WW"
    # a pawn on the far rank ends the game
    for leaf in tree.leaves():
        ranks = (leaf.label or "").split("/")
        if "W" in ranks[0]:
            assert leaf.utility == 1
        if "B" in ranks[-1]:
            assert leaf.utility == -1


def test_a_player_without_a_move_loses() -> None:
    tree = generate("hexapawn", rows=4, cols=1)  # a1-a2, a4-a3, and White is stuck

    assert [node.label for node in tree] == ["B/././W", "B/./W/.", "./B/W/."]
    assert tree["B1"].is_leaf and tree["B1"].utility == -1


def test_a_player_whose_pawns_are_all_captured_loses() -> None:
    tree = generate("hexapawn", cols=2, rows=3)

    for leaf in tree.leaves():
        board = leaf.label or ""
        if "W" not in board:
            assert leaf.utility == -1
        if "B" not in board:
            assert leaf.utility == 1


def test_hexapawn_has_a_material_evaluation_for_depth_limits() -> None:
    tree = generate("hexapawn", max_depth=2)

    assert all(tree.depth(node.name) <= 2 for node in tree)
    assert tree["B1"].heuristic == 3 - 3
    assert tree["B2"].heuristic == 2 - 3  # b3xa2
    assert {node.heuristic for node in tree if node.is_frontier} == {-1, 0}


@pytest.mark.parametrize(
    ("options", "message"), [({"rows": 2}, "option 'rows'"), ({"cols": 9}, "option 'cols'")]
)
def test_hexapawn_rejects_bad_sizes(options: dict[str, object], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        make_game("hexapawn", **options)
