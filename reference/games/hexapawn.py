"""Hexapawn (Gardner, 1962): a row of pawns each, moving and capturing as in chess."""

from __future__ import annotations

import string
from dataclasses import dataclass

from reference.games.base import Game, Player
from reference.games.options import Integer, option
from reference.games.registry import register
from reference.tree import Kind

HexapawnState = tuple[str, str]
"""A state: the squares rank by rank from White's side, a1, b1, ..., a2, ... ("W" white
pawn, "B" black pawn, "." empty), and the player to move ("W" or "B")."""

Move = tuple[int, int]
"""A move: (from square, to square), as indices into the board."""


@register("hexapawn")
@dataclass(frozen=True)
class Hexapawn(Game[HexapawnState, Move]):
    """Hexapawn: White (MAX) on the first rank, Black (MIN) on the last; White moves first.

    A pawn moves one square forward onto an empty square or captures diagonally forward.
    A player wins by reaching the far rank, by capturing every enemy pawn, or when the
    opponent has no legal move. Moves are labelled in chess notation, "a1-a2" or "b1xa2";
    they come pawn by pawn in the order a1, b1, ..., a2, ..., each pawn's forward move
    first, then its capture towards file a, then towards the last file. The evaluation
    is material: White's pawns minus Black's.
    """

    rows: int = option(3, Integer(3, 8), "the number of ranks")
    cols: int = option(3, Integer(1, 8), "the number of files")

    def initial_state(self) -> HexapawnState:
        """White's pawns on rank 1, Black's on the last rank, White to move."""
        middle = "." * (self.cols * (self.rows - 2))
        return ("W" * self.cols + middle + "B" * self.cols, "W")

    def to_move(self, state: HexapawnState) -> Player:
        """White is MAX."""
        return Kind.MAX if state[1] == "W" else Kind.MIN

    def actions(self, state: HexapawnState) -> list[Move]:
        """The mover's moves, pawn by pawn from a1: forward, then the two captures."""
        board, player = state
        cols = self.cols
        step, enemy = (cols, "B") if player == "W" else (-cols, "W")
        moves: list[Move] = []
        for square, piece in enumerate(board):
            if piece != player:
                continue
            ahead = square + step
            if not 0 <= ahead < len(board):
                continue
            if board[ahead] == ".":
                moves.append((square, ahead))
            file = square % cols
            if file > 0 and board[ahead - 1] == enemy:
                moves.append((square, ahead - 1))
            if file < cols - 1 and board[ahead + 1] == enemy:
                moves.append((square, ahead + 1))
        return moves

    def result(self, state: HexapawnState, action: Move) -> HexapawnState:
        """The board after the move; the other player moves next."""
        board, player = state
        start, end = action
        cells = list(board)
        cells[start], cells[end] = ".", player
        return ("".join(cells), "B" if player == "W" else "W")

    def is_terminal(self, state: HexapawnState) -> bool:
        """A pawn has reached the far rank, or the player to move has no move."""
        return self._winner(state) is not None

    def utility(self, state: HexapawnState) -> int:
        """+1 when White has won, -1 when Black has."""
        return 1 if self._winner(state) == "W" else -1

    def _winner(self, state: HexapawnState) -> str | None:
        board, player = state
        if "W" in board[-self.cols :]:
            return "W"
        if "B" in board[: self.cols]:
            return "B"
        if not self.actions(state):  # also when the mover has no pawns left
            return "B" if player == "W" else "W"
        return None

    def evaluate(self, state: HexapawnState) -> int:
        """White's pawns minus Black's."""
        return state[0].count("W") - state[0].count("B")

    def describe(self, state: HexapawnState) -> str:
        """The board from Black's side down to White's: "BBB/.../WWW"."""
        board, cols = state[0], self.cols
        ranks = [board[i : i + cols] for i in range(0, len(board), cols)]
        return "/".join(reversed(ranks))

    def action_label(self, state: HexapawnState, action: Move) -> str:
        """Chess notation: "a1-a2" for a move, "b1xa2" for a capture."""
        start, end = action
        capture = state[0][end] != "."
        return f"{self._square(start)}{'x' if capture else '-'}{self._square(end)}"

    def _square(self, index: int) -> str:
        return f"{string.ascii_lowercase[index % self.cols]}{index // self.cols + 1}"
