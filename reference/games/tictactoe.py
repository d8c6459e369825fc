"""Tic-tac-toe from any legal position, with the X(s) - O(s) open-lines evaluation."""

from __future__ import annotations

from dataclasses import dataclass

from reference.games.base import Game, Player
from reference.games.options import Choice, OptionType, option
from reference.games.registry import register
from reference.tree import Kind

Board = str
"""The nine cells in row-major order, each "X", "O" or "." (empty)."""

TicTacToeState = tuple[Board, str]
"""A state: the board and the mark to move ("X" or "O")."""

LINES: tuple[tuple[int, int, int], ...] = (
    (0, 1, 2), (3, 4, 5), (6, 7, 8),  # rows
    (0, 3, 6), (1, 4, 7), (2, 5, 8),  # columns
    (0, 4, 8), (2, 4, 6),  # diagonals
)  # fmt: skip
"""The cell indices of every row, column and diagonal."""

EMPTY_BOARD = ".../.../..."


class Position(OptionType[str]):
    """A board as three rows of X, O and "." separated by "/" ("OOX/.X./OX."), or 9 cells."""

    metavar = "XO./.../..."

    def coerce(self, value: object) -> str:
        if not isinstance(value, str):
            raise ValueError(f"expected a board such as OOX/.X./OX., got {value!r}")
        rows = value.strip().split("/") if "/" in value else _chunks(value.strip())
        if len(rows) != 3 or any(len(row) != 3 for row in rows):
            raise ValueError(f"expected 3 rows of 3 cells separated by '/', got {value!r}")
        for r, row in enumerate(rows, 1):
            for c, cell in enumerate(row, 1):
                if cell not in "XO.":
                    raise ValueError(f"cell ({r},{c}) is {cell!r}; use X, O or '.' (empty)")
        return "/".join(rows)


def _chunks(text: str) -> list[str]:
    return [text[i : i + 3] for i in range(0, len(text), 3)] if len(text) == 9 else [text]


def other(mark: str) -> str:
    """The other player's mark."""
    return "O" if mark == "X" else "X"


def winner(board: Board) -> str | None:
    """The mark that holds a whole line, if any."""
    for a, b, c in LINES:
        if board[a] != "." and board[a] == board[b] == board[c]:
            return board[a]
    return None


def lines_held(board: Board) -> set[str]:
    """Every mark that holds a whole line (two in an impossible position)."""
    return {board[a] for a, b, c in LINES if board[a] != "." and board[a] == board[b] == board[c]}


def open_lines(board: Board, mark: str) -> int:
    """The number of lines still open for ``mark``: lines holding none of the other mark."""
    blocker = other(mark)
    return sum(1 for line in LINES if all(board[i] != blocker for i in line))


@register("tictactoe")
@dataclass(frozen=True)
class TicTacToe(Game[TicTacToeState, int]):
    """Tic-tac-toe from a given position.

    Actions are the empty cells in row-major order, labelled "(row,col)" counted from 1.
    The game ends when a mark holds a line or the board is full. The evaluation is
    X(s) - O(s), the lines still open for MAX's mark minus those open for the other mark.
    """

    position: str = option(
        EMPTY_BOARD, Position(), "the board: rows of X, O and '.' separated by '/'"
    )
    first: str | None = option(
        None,
        Choice("X", "O", optional=True),
        "the mark to move (default: the one with fewer marks, X if equal)",
        name="to_move",
    )
    max_player: str = option("X", Choice("X", "O"), "the mark that MAX plays")

    def check(self) -> None:
        """The counts and lines must arise from alternate play; the mover must fit them."""
        board = self._board()
        xs, os = board.count("X"), board.count("O")
        if abs(xs - os) > 1:
            raise ValueError(f"impossible position: {xs} X and {os} O (players alternate)")
        fewer = "X" if xs < os else "O" if os < xs else None
        mover = self.mover()
        if fewer is not None and mover != fewer:
            raise ValueError(f"with {xs} X and {os} O, {fewer} must be to move, not {mover}")
        won = lines_held(board)
        if len(won) == 2:
            raise ValueError("impossible position: both X and O hold a line")
        if won and mover in won:
            raise ValueError(f"impossible position: {mover} holds a line but is to move")

    def mover(self) -> str:
        """The mark to move first: as given, else the one with fewer marks (X on a tie)."""
        if self.first is not None:
            return self.first
        board = self._board()
        return "O" if board.count("X") > board.count("O") else "X"

    def _board(self) -> Board:
        return self.position.replace("/", "")

    def initial_state(self) -> TicTacToeState:
        """The given position with its mover."""
        return (self._board(), self.mover())

    def to_move(self, state: TicTacToeState) -> Player:
        """MAX when the mark to move is MAX's."""
        return Kind.MAX if state[1] == self.max_player else Kind.MIN

    def actions(self, state: TicTacToeState) -> list[int]:
        """The empty cells (indices 0-8) in row-major order."""
        return [i for i, cell in enumerate(state[0]) if cell == "."]

    def result(self, state: TicTacToeState, action: int) -> TicTacToeState:
        """The board with the mover's mark in cell ``action``; the other mark moves next."""
        board, mark = state
        return (board[:action] + mark + board[action + 1 :], other(mark))

    def is_terminal(self, state: TicTacToeState) -> bool:
        """A line is held or the board is full."""
        return winner(state[0]) is not None or "." not in state[0]

    def utility(self, state: TicTacToeState) -> int:
        """+1 when MAX's mark holds a line, -1 when the other does, 0 for a draw."""
        mark = winner(state[0])
        return 0 if mark is None else 1 if mark == self.max_player else -1

    def evaluate(self, state: TicTacToeState) -> int:
        """X(s) - O(s): lines open for MAX's mark minus lines open for the other mark."""
        board = state[0]
        return open_lines(board, self.max_player) - open_lines(board, other(self.max_player))

    def describe(self, state: TicTacToeState) -> str:
        """The board by rows: "OOX/.X./OX."."""
        board = state[0]
        return f"{board[0:3]}/{board[3:6]}/{board[6:9]}"

    def action_label(self, state: TicTacToeState, action: int) -> str:
        """The cell as "(row,col)", counted from 1."""
        return f"({action // 3 + 1},{action % 3 + 1})"
