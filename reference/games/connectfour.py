"""Connect Four (as in MIT 6.034's games lab), from an empty board or a given position."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property

from reference.games.base import Game, Player
from reference.games.options import Boolean, Choice, Integer, OptionType, option
from reference.games.registry import register
from reference.tree import Kind, Number

ConnectFourState = tuple[str, str]
"""A state: the cells row by row from the top ("X", "O" or "." for empty) and the mark
to move ("X" or "O")."""

Window = tuple[int, ...]
"""The cell indices of ``connect`` consecutive cells in a row, column or diagonal."""

EVALUATION_CAP = 999
"""The largest open-lines score the evaluation uses, in thousandths of a win: it stays
below a win whatever the board's size."""


class Position(OptionType[str | None]):
    """A board as rows of X, O and "." from the top, separated by "/" (or a list of rows)."""

    metavar = "ROW/ROW/..."

    def coerce(self, value: object) -> str | None:
        if value is None:
            return None
        rows: Sequence[object]
        if isinstance(value, str):
            rows = [row.strip() for row in value.strip().split("/")]
        elif isinstance(value, list | tuple):
            rows = value
        else:
            raise ValueError(f"expected rows such as ..../.XO./XOXO, got {value!r}")
        if not all(isinstance(row, str) and row for row in rows):
            raise ValueError(f"expected rows of X, O and '.' separated by '/', got {value!r}")
        texts = [str(row) for row in rows]
        for r, row in enumerate(texts, 1):
            if len(row) != len(texts[0]):
                raise ValueError(
                    f"row {r} from the top has {len(row)} cells, row 1 has {len(texts[0])}"
                )
            for c, cell in enumerate(row):
                if cell not in "XO.":
                    raise ValueError(
                        f"row {r} from the top, column c{c} is {cell!r}; use X, O or '.' (empty)"
                    )
        return "/".join(texts)


def other(mark: str) -> str:
    """The other player's mark."""
    return "O" if mark == "X" else "X"


@register("connectfour")
@dataclass(frozen=True)
class ConnectFour(Game[ConnectFourState, int]):
    """Connect Four: pieces dropped into columns fall to the lowest empty cell.

    X moves first from the empty board. A player who makes a line of ``connect`` pieces,
    across, up or diagonally, wins; a full board without one is a draw. Actions are the
    columns that are not full, left to right, labelled "c0", "c1", ... (the lab's column
    index). A win is worth ``win`` to the winner (1, or the lab's 1000); with ``faster``
    it is worth ``win`` plus the number of cells still empty, so a sooner win scores more.

    The evaluation counts open lines: ``connect`` consecutive cells that hold pieces of
    one player only. One holding two of a player's pieces scores 1, three score 10 (k
    pieces, fewer than ``connect``, score 10**(k-2)); MAX's score minus the other's,
    capped at ±999, in thousandths of a win: with ``win`` 1000 it is that whole number,
    and it always lies strictly between a loss and a win.
    """

    rows: int = option(6, Integer(1, 10), "the number of rows")
    cols: int = option(7, Integer(1, 10), "the number of columns")
    connect: int = option(4, Integer(2, 10), "the length of a winning line")
    position: str | None = option(
        None,
        Position(),
        "the board, its rows from the top (rows of them, cols cells each) of X, O and '.' "
        "separated by '/', such as ..../.XO./XOXO (default: empty); a piece rests on the "
        "bottom or on another piece",
    )
    mark_to_move: str | None = option(
        None,
        Choice("X", "O", optional=True),
        "the mark to move (default: the one with fewer pieces, X if equal)",
        name="to_move",
    )
    max_player: str = option("X", Choice("X", "O"), "the mark that MAX plays")
    win: int = option(1, Integer(1, 1_000_000), "what a win is worth (the lab's scale: 1000)")
    faster: bool = option(
        False, Boolean(), "a win is worth win plus the number of empty cells left when it is made"
    )

    def check(self) -> None:
        """The position must fit the board, rest on its pieces and arise from alternate play."""
        if self.connect > max(self.rows, self.cols):
            raise ValueError(
                f"a line of {self.connect} does not fit on a board of "
                f"{self.rows} rows x {self.cols} columns"
            )
        if self.position is not None:
            given = self.position.split("/")
            if (len(given), len(given[0])) != (self.rows, self.cols):
                raise ValueError(
                    f"the position has {len(given)} rows of {len(given[0])} cells, but the board "
                    f"has {self.rows} rows x {self.cols} columns (set the options rows and cols)"
                )
        board = self._board()
        self._check_gravity(board)
        xs, os = board.count("X"), board.count("O")
        if abs(xs - os) > 1:
            raise ValueError(f"impossible position: {xs} X and {os} O (players alternate)")
        fewer = "X" if xs < os else "O" if os < xs else None
        mover = self.mover()
        if fewer is not None and mover != fewer:
            raise ValueError(f"with {xs} X and {os} O, {fewer} must be to move, not {mover}")
        self._check_lines(board, mover)

    def _check_gravity(self, board: str) -> None:
        for c in range(self.cols):
            column = board[c :: self.cols]
            filled = column.lstrip(".")
            if "." in filled:
                r = len(column) - len(filled) + filled.index(".") + 1
                raise ValueError(
                    f"column c{c} has an empty cell (row {r} from the top) under a piece; "
                    "pieces fall to the lowest empty cell"
                )

    def _check_lines(self, board: str, mover: str) -> None:
        held = self.lines_held(board)
        if len(held) == 2:
            raise ValueError(f"impossible position: both X and O have {self.connect} in a line")
        if not held:
            return
        (mark,) = held
        if mark == mover:
            raise ValueError(
                f"impossible position: X and O alternate, so {mark} cannot have "
                f"{self.connect} in a line and be to move"
            )
        for c in range(self.cols):
            top = self._top(board, c)
            if top is not None and board[top] == mark:
                before = board[:top] + "." + board[top + 1 :]
                if not self.lines_held(before):
                    return
        raise ValueError(
            f"impossible position: no last piece of {mark} completes every line of "
            f"{self.connect}; the game would have ended earlier"
        )

    @cached_property
    def windows(self) -> tuple[Window, ...]:
        """Every line of ``connect`` consecutive cells: across, up, and both diagonals."""
        rows, cols, n = self.rows, self.cols, self.connect
        found: list[Window] = []
        for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
            for r in range(rows):
                for c in range(cols):
                    end_r, end_c = r + dr * (n - 1), c + dc * (n - 1)
                    if 0 <= end_r < rows and 0 <= end_c < cols:
                        found.append(tuple((r + dr * i) * cols + c + dc * i for i in range(n)))
        return tuple(found)

    def lines_held(self, board: str) -> set[str]:
        """Every mark with ``connect`` pieces in a line (two only in an impossible position)."""
        return {
            board[w[0]]
            for w in self.windows
            if board[w[0]] != "." and all(board[i] == board[w[0]] for i in w)
        }

    def winner(self, board: str) -> str | None:
        """The mark with a line of ``connect``, if any."""
        held = self.lines_held(board)
        return held.pop() if len(held) == 1 else None

    def mover(self) -> str:
        """The mark to move first: as given, else the one with fewer pieces (X on a tie)."""
        if self.mark_to_move is not None:
            return self.mark_to_move
        board = self._board()
        return "O" if board.count("X") > board.count("O") else "X"

    def _board(self) -> str:
        if self.position is None:
            return "." * (self.rows * self.cols)
        return self.position.replace("/", "")

    def _top(self, board: str, column: int) -> int | None:
        """The index of the highest piece in ``column``, if any."""
        for index in range(column, len(board), self.cols):
            if board[index] != ".":
                return index
        return None

    def initial_state(self) -> ConnectFourState:
        """The given position (or the empty board) with its mover."""
        return (self._board(), self.mover())

    def to_move(self, state: ConnectFourState) -> Player:
        """MAX when the mark to move is MAX's."""
        return Kind.MAX if state[1] == self.max_player else Kind.MIN

    def actions(self, state: ConnectFourState) -> list[int]:
        """The columns that are not full (their top cell is empty), left to right."""
        return [c for c in range(self.cols) if state[0][c] == "."]

    def result(self, state: ConnectFourState, action: int) -> ConnectFourState:
        """The mover's piece in the lowest empty cell of column ``action``; the other moves."""
        board, mark = state
        top = self._top(board, action)
        cell = (self.rows - 1) * self.cols + action if top is None else top - self.cols
        return (board[:cell] + mark + board[cell + 1 :], other(mark))

    def is_terminal(self, state: ConnectFourState) -> bool:
        """A line of ``connect`` is made or the board is full."""
        return bool(self.lines_held(state[0])) or "." not in state[0]

    def utility(self, state: ConnectFourState) -> int:
        """``win`` (plus the empty cells, with ``faster``) when MAX won, minus that when MAX
        lost, 0 for a draw."""
        board = state[0]
        mark = self.winner(board)
        if mark is None:
            return 0
        score = self.win + (board.count(".") if self.faster else 0)
        return score if mark == self.max_player else -score

    def evaluate(self, state: ConnectFourState) -> Number:
        """The open-lines score of MAX minus the other's, capped at ±999, in thousandths of
        a win: a whole number when it is one, else a float."""
        board = state[0]
        score = self.open_lines_score(board, self.max_player) - self.open_lines_score(
            board, other(self.max_player)
        )
        score = max(-EVALUATION_CAP, min(EVALUATION_CAP, score))
        whole, part = divmod(score * self.win, 1000)
        return whole if part == 0 else score * self.win / 1000

    def open_lines_score(self, board: str, mark: str) -> int:
        """The sum, over lines holding k of ``mark``'s pieces (2 <= k < connect) and none of
        the other's, of 10**(k-2)."""
        blocker = other(mark)
        total = 0
        for window in self.windows:
            cells = [board[i] for i in window]
            pieces = cells.count(mark)
            if 2 <= pieces < self.connect and blocker not in cells:
                total += 10 ** (pieces - 2)
        return total

    def describe(self, state: ConnectFourState) -> str:
        """The board by rows from the top: "..../.XO./XOXO"."""
        board, cols = state[0], self.cols
        return "/".join(board[i : i + cols] for i in range(0, len(board), cols))

    def action_label(self, state: ConnectFourState, action: int) -> str:
        """The column as "c0", "c1", ... from the left."""
        return f"c{action}"
