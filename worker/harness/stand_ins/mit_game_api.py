"""MIT 6.034's ``game_api`` as the games lab's file uses it: the game-state class the
searches get, the default heuristic, the anytime value of progressive deepening and the
lab's checks of a search's answer. Written for this project from the lab's published
interface."""

from __future__ import annotations

from typing import Any

from worker.harness.mit6034 import AbstractGameState

__all__ = [
    "AbstractGameState",
    "AnytimeValue",
    "always_zero",
    "is_AbstractGameState_instance",
    "is_class_instance",
    "is_dfs_return_type",
    "pretty_format_dfs_type",
    "pretty_print_dfs_type",
]


def always_zero(state: Any, maximize: bool = True) -> int:
    """The heuristic that knows nothing."""
    return 0


def is_class_instance(obj: Any, class_name: str) -> bool:
    return type(obj).__name__ == class_name


def is_AbstractGameState_instance(obj: Any) -> bool:
    return isinstance(obj, AbstractGameState)


def is_dfs_return_type(value: Any) -> bool:
    """Whether ``value`` is a search's answer: (path of states, score, evaluations)."""
    return (
        isinstance(value, tuple | list)
        and len(value) == 3
        and isinstance(value[0], tuple | list)
        and all(isinstance(state, AbstractGameState) for state in value[0])
    )


def pretty_format_dfs_type(answer: Any) -> str:
    if not is_dfs_return_type(answer):
        raise TypeError("expected tuple (path, score, number of evaluations)")
    moves = " -> ".join(state.describe_previous_move() for state in answer[0])
    return f"\nPath: {moves}\nScore: {answer[1]}\nEvaluations: {answer[2]}\n"


def pretty_print_dfs_type(answer: Any) -> None:
    print(pretty_format_dfs_type(answer))


class AnytimeValue:
    """The answers of a progressive deepening, deepest last."""

    def __init__(self, val: Any = None) -> None:
        self.value: Any = None
        self.history: list[Any] = []
        self.total_evaluations = 0
        if val is not None:
            self.set_value(val)

    def set_value(self, val: Any) -> None:
        if not is_dfs_return_type(val):
            raise TypeError("AnytimeValue.set_value expected tuple (path, score, evaluations)")
        self.value = val
        self.history.append(val)
        self.total_evaluations += val[2]

    def get_value(self) -> Any:
        return self.value

    def get_history(self) -> list[Any]:
        return self.history

    def get_total_evaluations(self) -> int:
        return self.total_evaluations

    def __str__(self) -> str:
        return f"<AnytimeValue of {len(self.history)} levels of progressive deepening>"

    __repr__ = __str__
