"""Tic-tac-toe: the full tree, the seed position, the X(s) - O(s) evaluation and validation."""

from __future__ import annotations

import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reference.games import expand, generate, make_game
from reference.games.tictactoe import LINES, TicTacToe
from reference.tree import Kind
from tests.reference.test_games_support import minimax, root_actions
from tests.strategies import examples

SEED = "OOX/.X./OX."


def evaluation(position: str, max_player: str = "X") -> object:
    game = make_game("tictactoe", position=position, max_player=max_player)
    return game.evaluate(game.initial_state())


@pytest.mark.slow
def test_the_full_tree_from_the_empty_board_matches_the_fixture() -> None:
    # CPU time, not real time: on a busy machine the expansion waits for a core, and the
    # bound is about the work, not the wait.
    started = time.process_time()
    tree = generate("tictactoe")
    seconds = time.process_time() - started

    assert len(tree) == 549_946
    assert len(tree.leaves()) == 255_168  # the number of distinct tic-tac-toe games
    assert minimax(tree)["A"] == 0
    assert seconds < 30  # about 5 s on the development machine; generous for slow CI


def test_the_seed_position_is_a_draw_for_x_to_move() -> None:
    tree = generate("tictactoe", position=SEED)

    assert tree.root.kind is Kind.MAX
    assert tree.root.label == SEED
    assert minimax(tree)["A"] == 0
    assert root_actions(tree) == {
        "(2,1)": ("OOX/XX./OX.", 0),
        "(2,3)": ("OOX/.XX/OX.", -1),
        "(3,3)": ("OOX/.X./OXX", -1),
    }
    assert len(tree) == 14


def test_actions_are_the_empty_cells_in_row_major_order() -> None:
    tree = generate("tictactoe", position="X.O/.X./O..")

    actions = [edge.action for edge in tree.root.edges]
    assert actions == ["(1,2)", "(2,1)", "(2,3)", "(3,2)", "(3,3)"]
    assert tree.root.kind is Kind.MAX  # two each: X moves
    assert tree["B"].label == "XXO/.X./O.."


def test_utilities_are_from_max_s_point_of_view() -> None:
    as_x = generate("tictactoe", position="XX./OO./...")
    as_o = generate("tictactoe", position="XX./OO./...", max_player="O")

    assert as_x.root.kind is Kind.MAX and as_o.root.kind is Kind.MIN
    assert as_x["B"].utility == 1 and as_o["B"].utility == -1  # X completes the top row
    assert minimax(as_x)["A"] == 1 and minimax(as_o)["A"] == -1


def test_the_mover_can_be_given() -> None:
    tree = generate("tictactoe", position="XO./.../...", to_move="O")

    assert tree.root.kind is Kind.MIN
    assert tree["B"].label == "XOO/.../..."


def test_a_finished_position_is_a_single_leaf() -> None:
    tree = generate("tictactoe", position="XXX/OO./...")

    assert len(tree) == 1
    assert tree.root.utility == 1


@pytest.mark.parametrize(
    ("position", "max_player", "value"),
    [
        (".../.../...", "X", 0),  # 8 - 8
        (".../.X./...", "X", 4),  # 8 - 4: the centre blocks four of O's lines
        ("X../.../...", "X", 3),  # 8 - 5
        (".X./.../...", "X", 2),  # 8 - 6
        ("O../.X./...", "X", 1),  # 5 - 4: AIMA/Nilsson's classic figure
        (".O./.X./...", "X", 2),  # 6 - 4
        (".../.X./...", "O", -4),  # the same board seen by O
        (SEED, "X", 1),  # X: row 2 and column 3; O: column 1
        ("XOX/XOO/OXX", "X", 0),  # full board: nothing open for either
    ],
)
def test_the_evaluation_counts_open_lines(position: str, max_player: str, value: int) -> None:
    assert evaluation(position, max_player) == value


def test_every_internal_node_carries_the_evaluation_and_leaves_do_not() -> None:
    tree = generate("tictactoe", position=SEED)

    for node in tree:
        if node.is_leaf:
            assert node.heuristic is None
        else:
            assert node.heuristic == evaluation(node.label or "", "X")


def test_a_depth_limit_makes_frontier_nodes_with_the_evaluation() -> None:
    tree = generate("tictactoe", max_depth=2)

    assert len(tree) == 1 + 9 + 9 * 8
    frontier = [node for node in tree if node.is_frontier]
    assert len(frontier) == 72
    assert all(tree.depth(node.name) == 2 for node in frontier)
    assert tree["B1"].label == "XO./.../..." and tree["B1"].heuristic == 6 - 5
    assert minimax(tree)["A"] == 1  # X's best: the centre, worth min(1, 2) = 1


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"position": "OOX/.X./OX"}, "3 rows of 3 cells"),
        ({"position": "OOX/.X./OXA"}, r"cell \(3,3\) is 'A'"),
        ({"position": "ooX/.X./OX."}, r"cell \(1,1\) is 'o'"),
        ({"position": 12}, "expected a board"),
        ({"position": "XX./.../..."}, "impossible position: 2 X and 0 O"),
        ({"position": "X../.../...", "to_move": "X"}, "O must be to move, not X"),
        ({"position": "XXX/OOO/..."}, "both X and O hold a line"),
        ({"position": "XXX/OO./..O"}, "X holds a line but is to move"),
        ({"to_move": "Z"}, "option 'to_move': expected one of X, O"),
        ({"max_player": "x"}, None),  # case does not matter
        ({"max_player": "both"}, "option 'max_player'"),
    ],
)
def test_positions_and_options_are_validated(
    options: dict[str, object], message: str | None
) -> None:
    if message is None:
        make_game("tictactoe", **options)
        return
    with pytest.raises(ValueError, match=message):
        make_game("tictactoe", **options)


def test_nine_cells_without_slashes_are_accepted() -> None:
    assert make_game("tictactoe", position="OOX.X.OX.") == make_game("tictactoe", position=SEED)


@st.composite
def positions(draw: st.DrawFn) -> str:
    """A position reached by random play from the empty board, not necessarily finished."""
    board = ["."] * 9
    mark = "X"
    for _ in range(draw(st.integers(2, 9))):  # two moves in, a tree has at most 9,400 nodes
        if any(all(board[i] == other for i in line) for line in LINES for other in "XO"):
            break
        empty = [i for i, cell in enumerate(board) if cell == "."]
        board[draw(st.sampled_from(empty))] = mark
        mark = "O" if mark == "X" else "X"
    cells = "".join(board)
    return f"{cells[0:3]}/{cells[3:6]}/{cells[6:9]}"


def line_holder(label: str) -> str | None:
    cells = label.replace("/", "")
    for line in LINES:
        if cells[line[0]] != "." and all(cells[i] == cells[line[0]] for i in line):
            return cells[line[0]]
    return None


@settings(max_examples=examples(60), deadline=None)
@given(position=positions(), max_player=st.sampled_from(["X", "O"]))
def test_random_positions_expand_consistently(position: str, max_player: str) -> None:
    game = TicTacToe(position=position, max_player=max_player)
    tree = expand(game, max_nodes=200_000)

    for node in tree:
        board = (node.label or "").replace("/", "")
        holder = line_holder(node.label or "")
        if node.is_leaf:
            assert holder is not None or "." not in board
            expected = 0 if holder is None else 1 if holder == max_player else -1
            assert node.utility == expected
            continue
        assert holder is None and "." in board
        assert len(node.edges) == board.count(".")
        mover = "X" if board.count("X") == board.count("O") else "O"
        assert node.kind is (Kind.MAX if mover == max_player else Kind.MIN)
        for child in tree.children(node.name):
            after = (child.label or "").replace("/", "")
            assert after.count(mover) == board.count(mover) + 1
