"""Rule-defined games that expand to game trees: Grundy's game, Nim, tic-tac-toe and more.

``GAMES`` maps each registered name to its game class; ``make_game`` builds one from its
options and ``generate`` expands it to a :class:`~reference.tree.Tree`.
"""

from __future__ import annotations

# Importing a game module registers its game.
from reference.games import connectfour, domineering, grundy, hexapawn, nim, tictactoe  # noqa: F401
from reference.games.base import AnyGame, Game, Player
from reference.games.expand import expand
from reference.games.options import Option
from reference.games.registry import GAMES, generate, make_game, register

__all__ = [
    "GAMES",
    "AnyGame",
    "Game",
    "Option",
    "Player",
    "expand",
    "generate",
    "make_game",
    "register",
]
