"""Domineering: Vertical and Horizontal place dominoes; the player who cannot place one loses."""

from __future__ import annotations

from dataclasses import dataclass

from reference.games.base import Game, Player
from reference.games.options import Cells, Choice, Integer, option
from reference.games.registry import register
from reference.tree import Kind

DomineeringState = tuple[str, str]
"""A state: the cells in row-major order ("." empty, "#" blocked, "V"/"H" covered by a
vertical/horizontal domino) and the player to move ("V" or "H")."""

PLAYERS = {"vertical": "V", "horizontal": "H"}


@register("domineering")
@dataclass(frozen=True)
class Domineering(Game[DomineeringState, int]):
    """Domineering on a small board, possibly with blocked cells.

    Vertical places a domino on (r,c) and (r+1,c), Horizontal on (r,c) and (r,c+1); the
    player who cannot place a domino loses. A move is named by the two cells it covers,
    "(1,1)-(2,1)", and moves come in row-major order of their first cell. The evaluation
    is the number of places MAX could put a domino minus the number MIN could.

    The default, an empty board of 2 rows and 4 columns, is the smallest unblocked board
    on which Vertical (MIN), moving first, loses whatever it does (a tree of 41 nodes).
    """

    rows: int = option(2, Integer(1, 8), "the number of rows")
    cols: int = option(4, Integer(1, 8), "the number of columns")
    blocked: tuple[tuple[int, int], ...] = option(
        (), Cells(), "blocked cells, as row,col pairs counted from 1: 1,1;2,3"
    )
    first: str = option("vertical", Choice("vertical", "horizontal"), "the player who moves first")
    max_player: str = option(
        "horizontal", Choice("vertical", "horizontal"), "the player who is MAX"
    )

    def check(self) -> None:
        """Blocked cells must lie on the board."""
        for r, c in self.blocked:
            if not (1 <= r <= self.rows and 1 <= c <= self.cols):
                raise ValueError(
                    f"option 'blocked': cell ({r},{c}) is off the {self.rows}x{self.cols} board"
                )

    def initial_state(self) -> DomineeringState:
        """The empty board with its blocked cells; the first player to move."""
        blocked = {(r - 1) * self.cols + c - 1 for r, c in self.blocked}
        board = "".join("#" if i in blocked else "." for i in range(self.rows * self.cols))
        return (board, PLAYERS[self.first])

    def to_move(self, state: DomineeringState) -> Player:
        """MAX when the player to move is MAX's."""
        return Kind.MAX if state[1] == PLAYERS[self.max_player] else Kind.MIN

    def actions(self, state: DomineeringState) -> list[int]:
        """The first (top or left) cells of the mover's possible dominoes, row-major."""
        return self._places(state[0], state[1])

    def _places(self, board: str, player: str) -> list[int]:
        cols = self.cols
        if player == "V":
            return [i for i in range(len(board) - cols) if board[i] == board[i + cols] == "."]
        return [
            i for i in range(len(board) - 1) if (i + 1) % cols and board[i] == board[i + 1] == "."
        ]

    def result(self, state: DomineeringState, action: int) -> DomineeringState:
        """The board with the mover's domino placed; the other player moves next."""
        board, player = state
        cells = list(board)
        second = action + (self.cols if player == "V" else 1)
        cells[action] = cells[second] = player
        return ("".join(cells), "H" if player == "V" else "V")

    def is_terminal(self, state: DomineeringState) -> bool:
        """The player to move has nowhere to place a domino."""
        return not self._places(*state)

    def utility(self, state: DomineeringState) -> int:
        """The player to move has lost."""
        return -1 if self.to_move(state) is Kind.MAX else 1

    def evaluate(self, state: DomineeringState) -> int:
        """MAX's possible placements minus MIN's."""
        board = state[0]
        mine = PLAYERS[self.max_player]
        theirs = "H" if mine == "V" else "V"
        return len(self._places(board, mine)) - len(self._places(board, theirs))

    def describe(self, state: DomineeringState) -> str:
        """The board by rows: "#../..."."""
        board = state[0]
        return "/".join(board[i : i + self.cols] for i in range(0, len(board), self.cols))

    def action_label(self, state: DomineeringState, action: int) -> str:
        """The two cells covered: "(1,1)-(2,1)"."""
        second = action + (self.cols if state[1] == "V" else 1)
        return f"{self._cell(action)}-{self._cell(second)}"

    def _cell(self, index: int) -> str:
        return f"({index // self.cols + 1},{index % self.cols + 1})"
