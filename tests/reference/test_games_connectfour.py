"""Connect Four: gravity, lines in four directions, draws, turns, the open-lines evaluation,
position validation and the endgame exercise."""

from __future__ import annotations

import random
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reference.exercises import load_exercise
from reference.games import expand, generate, make_game
from reference.search import SearchOptions, search
from reference.tree import Kind
from tests.reference.test_games_support import minimax, root_actions
from tests.strategies import examples

if TYPE_CHECKING:
    # Only for types: the game is reached through the registry, as exercises reach it, so
    # that a missing registration fails these tests.
    from reference.games.connectfour import ConnectFour, ConnectFourState

EXERCISE = Path(__file__).resolve().parents[2] / "exercises" / "connectfour-endgame-alphabeta"
ENDGAME = "XO.O.O./XXOX.X./OOXO.OX/XOOOXXX/OXXXOXO/XOOOXXO"


def connectfour(**options: object) -> ConnectFour:
    game = make_game("connectfour", **options)
    assert type(game).name == "connectfour"
    return cast("ConnectFour", game)


def after(game: ConnectFour, *columns: int) -> ConnectFourState:
    """The state reached from the game's position by dropping pieces into ``columns``."""
    state = game.initial_state()
    for column in columns:
        state = game.result(state, column)
    return state


def swapped(board: str) -> str:
    return board.translate(str.maketrans("XO", "OX"))


# -- the rules --------------------------------------------------------------------------------


def test_a_piece_falls_to_the_lowest_empty_cell_of_its_column() -> None:
    game = connectfour(rows=4, cols=4)

    assert game.describe(after(game, 1)) == "..../..../..../.X.."
    assert game.describe(after(game, 1, 1)) == "..../..../.O../.X.."
    assert game.describe(after(game, 1, 1, 2, 1)) == "..../.O../.O../.XX."


def test_x_moves_first_and_the_players_alternate() -> None:
    tree = generate("connectfour", rows=4, cols=4, max_depth=2)

    assert tree.root.label == "..../..../..../...." and tree.root.kind is Kind.MAX
    assert [edge.action for edge in tree.root.edges] == ["c0", "c1", "c2", "c3"]
    assert tree["B"].kind is Kind.MIN and tree["B"].label == "..../..../..../X..."
    assert tree["B2"].label == "..../..../..../XO.."


def test_whose_turn_follows_the_counts_or_the_given_mover() -> None:
    assert connectfour(rows=4, cols=4, position="..../..../..../X...").initial_state()[1] == "O"
    assert connectfour(rows=4, cols=4, position="..../..../..../XO..").initial_state()[1] == "X"
    o_started = connectfour(rows=4, cols=4, position="..../..../..../XO..", to_move="O")
    assert o_started.initial_state()[1] == "O"
    as_o = connectfour(rows=4, cols=4, position="..../..../..../X...", max_player="O")
    assert as_o.to_move(as_o.initial_state()) is Kind.MAX


def test_full_columns_are_not_actions() -> None:
    tree = generate("connectfour", rows=2, cols=3, connect=3, position="X../O..")

    assert [edge.action for edge in tree.root.edges] == ["c1", "c2"]
    assert tree["B"].label == "X../OX."


@pytest.mark.parametrize(
    ("position", "column", "direction"),
    [
        ("..../..../OOO./XXX.", 3, "across"),
        ("..../X.../XO../XOO.", 0, "up"),
        ("..../..XO/XXOO/XOOX", 3, "diagonally up to the right"),
        ("..../OX../OOXX/XOOX", 0, "diagonally down to the right"),
    ],
)
def test_four_in_a_line_wins_in_every_direction(position: str, column: int, direction: str) -> None:
    game = connectfour(rows=4, cols=4, position=position)
    before = game.initial_state()
    won = game.result(before, column)

    assert not game.is_terminal(before), direction
    assert game.is_terminal(won) and game.utility(won) == 1, direction
    tree = expand(game)
    child = next(edge.child for edge in tree.root.edges if edge.action == f"c{column}")
    assert tree[child].is_leaf and tree[child].utility == 1


def test_a_full_board_without_a_line_is_a_draw() -> None:
    game = connectfour(rows=2, cols=3, connect=3, position="XO./OXO")
    full = game.result(game.initial_state(), 2)

    assert game.describe(full) == "XOX/OXO"
    assert game.is_terminal(full) and game.utility(full) == 0
    finished = generate("connectfour", rows=2, cols=3, connect=3, position="XOX/OXO")
    assert len(finished) == 1 and finished.root.utility == 0


def test_utilities_are_from_max_s_point_of_view_on_the_chosen_scale() -> None:
    position = "..../..../OOO./XXX."

    def utility(**options: object) -> int:
        game = connectfour(rows=4, cols=4, position=position, **options)
        return game.utility(game.result(game.initial_state(), 3))

    assert utility() == 1
    assert utility(max_player="O") == -1
    assert utility(win=1000) == 1000
    assert utility(win=1000, faster=True) == 1000 + 9  # nine cells still empty
    assert utility(win=1000, faster=True, max_player="O") == -1009


def test_a_finished_position_is_a_single_leaf() -> None:
    tree = generate("connectfour", rows=4, cols=4, position="..../..../OOO./XXXX")

    assert len(tree) == 1 and tree.root.utility == 1


def test_positions_may_be_written_as_a_list_of_rows() -> None:
    from_yaml = connectfour(rows=3, cols=3, connect=3, position=["...", "...", "XO."])

    assert from_yaml == connectfour(rows=3, cols=3, connect=3, position=".../.../XO.")


# -- the evaluation ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("position", "max_player", "value"),
    [
        ("......./......./......./......./......./.......", "X", 0),
        ("......./......./......./......./......./...X...", "X", 0),  # one piece: no pair
        # three windows across hold X's pair; O's single piece counts nothing
        ("......./......./......./......./...O.../...XX..", "X", 3),
        ("......./......./......./......./...O.../...XX..", "O", -3),
        ("......./......./......./......./......./XXO....", "X", 0),  # O blocks X's only pair
        # X: XXX. scores 10 and XX.. 1; O: OO.. above scores 1
        ("......./......./......./......./OO...../XXX....", "X", 10),
    ],
)
def test_the_evaluation_counts_open_lines_of_two_and_three(
    position: str, max_player: str, value: int
) -> None:
    game = connectfour(position=position, max_player=max_player, win=1000)

    assert game.evaluate(game.initial_state()) == value


def test_the_evaluation_is_in_thousandths_of_a_win() -> None:
    position = "......./......./......./......./OO...../XXX...."

    game = connectfour(position=position)
    assert game.evaluate(game.initial_state()) == pytest.approx(0.010)
    game = connectfour(position=position, win=2000)
    assert game.evaluate(game.initial_state()) == 20


def test_the_evaluation_is_capped_below_a_win_on_any_board() -> None:
    # Rows of XXXX. make hundreds of open lines of four when five are needed.
    game = connectfour(rows=10, cols=10, connect=5, win=1000)
    board = "XXXX.XXXX." * 10

    assert game.open_lines_score(board, "X") > 1000
    assert game.evaluate((board, "O")) == 999
    assert game.evaluate((swapped(board), "X")) == -999


@st.composite
def positions(draw: st.DrawFn) -> dict[str, Any]:
    """The options of a small game part-way through random play that has not ended yet,
    with 3 to 7 empty cells left (its whole tree has at most a few thousand nodes)."""
    rows = draw(st.integers(3, 4))
    cols = draw(st.integers(3, 4))
    connect = draw(st.integers(3, max(rows, cols)))
    game = connectfour(rows=rows, cols=cols, connect=connect)
    state = game.initial_state()
    for _ in range(rows * cols - draw(st.integers(3, 7))):
        going_on = [c for c in game.actions(state) if not game.is_terminal(game.result(state, c))]
        if not going_on:
            break
        state = game.result(state, draw(st.sampled_from(going_on)))
    return {"rows": rows, "cols": cols, "connect": connect, "position": game.describe(state)}


@settings(max_examples=examples(80), deadline=None)
@given(options=positions(), win=st.sampled_from([1, 3, 1000]), faster=st.booleans())
def test_every_evaluation_lies_strictly_between_a_loss_and_a_win(
    options: dict[str, Any], win: int, faster: bool
) -> None:
    tree = generate("connectfour", win=win, faster=faster, **options)

    for node in tree:
        if node.is_leaf:
            assert node.utility is not None
            assert node.utility in (0, win, -win) or faster
            assert node.utility == 0 or not -win < node.utility < win
        else:
            assert node.heuristic is not None and -win < node.heuristic < win


@settings(max_examples=examples(80), deadline=None)
@given(options=positions(), win=st.sampled_from([1, 1000]))
def test_swapping_the_players_negates_the_evaluation(options: dict[str, Any], win: int) -> None:
    as_x = connectfour(max_player="X", win=win, **options)
    as_o = connectfour(max_player="O", win=win, **options)
    board, mover = as_x.initial_state()

    assert as_o.evaluate((board, mover)) == -as_x.evaluate((board, mover))
    assert as_x.evaluate((swapped(board), mover)) == -as_x.evaluate((board, mover))


# -- validation -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"position": 12}, "expected rows such as"),
        ({"position": "..../..."}, "row 2 from the top has 3 cells, row 1 has 4"),
        ({"position": "..../..../.A../...."}, r"row 3 from the top, column c1 is 'A'"),
        ({"position": "..../..../..../x..."}, r"column c0 is 'x'; use X, O or '\.'"),
        (
            {"rows": 6, "cols": 7, "position": "..../..../..../X..."},
            r"the position has 4 rows of 4 cells, but the board has 6 rows x 7 columns",
        ),
        (
            {"position": "..../..../.X../O..."},
            r"column c1 has an empty cell \(row 4 from the top\) under a piece",
        ),
        ({"position": "..../..../X.../XX.O"}, "impossible position: 3 X and 1 O"),
        ({"position": "..../..../..../XXO.", "to_move": "X"}, "O must be to move, not X"),
        ({"position": "..../..../..../XO..", "to_move": "Z"}, "option 'to_move'"),
        ({"position": "X.../XO../XO../XOO."}, "X cannot have 4 in a line and be to move"),
        ({"position": "XO../XO../XO../XO.."}, "both X and O have 4 in a line"),
        (
            {"rows": 3, "cols": 7, "connect": 3, "position": "O....../OO..OO./XXX.XXX"},
            "no last piece of X completes every line of 3; the game would have ended earlier",
        ),
        ({"rows": 3, "cols": 3}, "a line of 4 does not fit on a board of 3 rows x 3 columns"),
        ({"rows": 0}, "option 'rows': must be from 1 to 10"),
        ({"connect": 1}, "option 'connect': must be from 2 to 10"),
        ({"max_player": "both"}, "option 'max_player'"),
        ({"win": 0}, "option 'win': must be from 1"),
    ],
)
def test_bad_positions_and_options_are_reported(options: dict[str, Any], message: str) -> None:
    options = {"rows": 4, "cols": 4, **options}
    with pytest.raises(ValueError, match=message):
        make_game("connectfour", **options)


def test_a_won_position_is_accepted_when_the_last_piece_made_the_line() -> None:
    game = connectfour(rows=4, cols=4, position="...O/X..O/X..O/XX.O")

    assert game.is_terminal(game.initial_state())  # O's last piece made the line
    assert game.utility(game.initial_state()) == -1


# -- the exercise -----------------------------------------------------------------------------


def test_the_endgame_exercise_is_won_by_c6_and_lost_by_c4() -> None:
    loaded = load_exercise(EXERCISE)
    entry = loaded.trees[0]
    tree = entry.tree
    result = loaded.reference(entry)

    assert tree.root.label == ENDGAME and tree.root.kind is Kind.MAX
    assert len(tree) == 75 and len(tree.leaves()) == 32
    assert {action: value for action, (_, value) in root_actions(tree).items()} == {
        "c2": 0,
        "c4": -1000,
        "c6": 1000,
    }
    assert (result.value, result.decision) == (1000, "c6")
    assert (entry.expect.value, entry.expect.decision) == (1000, "c6")
    assert len(result.trace.evaluated()) == 12  # of the 32 finished games


# -- alpha-beta agrees with minimax -----------------------------------------------------------


@settings(max_examples=examples(80), deadline=None)
@given(
    options=positions(),
    max_player=st.sampled_from(["X", "O"]),
    max_depth=st.sampled_from([None, 1, 2, 3]),
    on_equality=st.booleans(),
)
def test_alphabeta_agrees_with_minimax_on_random_positions(
    options: dict[str, Any], max_player: str, max_depth: int | None, on_equality: bool
) -> None:
    tree = generate("connectfour", max_player=max_player, win=1000, max_depth=max_depth, **options)
    rule = SearchOptions(prune_on_equality=on_equality)
    pruned = search(tree, "alphabeta", rule)
    full = search(tree, "minimax", rule)

    assert pruned.value == full.value == minimax(tree)[tree.root.name]
    assert pruned.decision == full.decision


def test_random_play_never_builds_an_invalid_position() -> None:
    chooser = random.Random(6034)
    for _ in range(200):
        game = connectfour(rows=5, cols=5)
        state = game.initial_state()
        while not game.is_terminal(state):
            state = game.result(state, chooser.choice(game.actions(state)))
            connectfour(rows=5, cols=5, position=game.describe(state))  # raises if invalid
