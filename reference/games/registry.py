"""The registered games, by name: adding a game is one module and one ``@register`` line."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import Any, TypeVar

from reference.games.base import AnyGame
from reference.games.expand import DEFAULT_MAX_NODES, expand
from reference.tree import Tree

G = TypeVar("G", bound=type[AnyGame])

_games: dict[str, type[AnyGame]] = {}

GAMES: Mapping[str, type[AnyGame]] = MappingProxyType(_games)
"""Every registered game class by name, in registration order."""


def register(name: str, *aliases: str) -> Callable[[G], G]:
    """A class decorator that registers a game under ``name`` (and any ``aliases``)."""

    def decorate(cls: G) -> G:
        taken = [key for key in (name, *aliases) if key in _games]
        if taken:
            raise ValueError(f"a game is already registered as {taken[0]!r}")
        cls.name = name
        for key in (name, *aliases):
            _games[key] = cls
        return cls

    return decorate


def make_game(name: str, **options: Any) -> AnyGame:
    """The registered game ``name`` built with ``options`` (text or typed values).

    Raises KeyError for an unknown game and ValueError for unknown or invalid options.
    """
    try:
        cls = _games[name]
    except KeyError:
        raise KeyError(f"unknown game {name!r} (known: {', '.join(_games)})") from None
    fields = {declared.name: declared.field for declared in cls.options()}
    unknown = sorted(set(options) - set(fields))
    if unknown:
        raise ValueError(
            f"unknown option {', '.join(map(repr, unknown))} for the game {name!r} "
            f"(its options: {', '.join(fields) or 'none'})"
        )
    return cls(**{fields[key]: value for key, value in options.items()})


def generate(
    name: str,
    *,
    max_depth: int | None = None,
    max_nodes: int = DEFAULT_MAX_NODES,
    dedupe_children: bool = True,
    **options: Any,
) -> Tree:
    """The game tree of the registered game ``name`` with ``options`` (see ``expand``)."""
    game = make_game(name, **options)
    return expand(game, max_depth=max_depth, max_nodes=max_nodes, dedupe_children=dedupe_children)
