"""The registry of course contracts: what a course's students write, one entry per course.

A contract says how a student's file is called and what it is handed: the textbook's
module-level functions over a ``game`` (AIMA, aima-python), Berkeley CS188's agent class
whose ``getAction`` gets a game state, or MIT 6.034's lab functions over a game-state
object. Everything the grader needs to know about a contract lives in its entry here: its
name in ``exercise.yaml``, the algorithms it has, the modules of the course a student may
import (the sandbox hands them stand-ins the project writes), the conventions it defaults
to (what counts as a visit, whether the order of children is judged), and the shape of its
hidden trees. The harness that runs a student's file under a contract is registered under
the same name in :mod:`worker.harness.contracts`; adding a contract is one entry in each.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Literal

from reference.tree import Kind

Generation = Literal["visit", "generated"]
"""What counts as a node the search reached: ``visit``, a game call asking about the node
itself (its actions, value, whether it is over); ``generated``, the call that made the node's
state (CS188's ``generateSuccessor``), as CS188's autograder counts."""


@dataclass(frozen=True, slots=True)
class Contract:
    """One course's way of writing a search."""

    name: str
    title: str
    writes: str
    """What a student's file defines, in a sentence (pages and the README say it)."""
    algorithms: frozenset[str] | None = None
    """The algorithms this contract has (None: every registered one)."""
    modules: tuple[str, ...] = ()
    """The course's own modules a student's file may import: the sandbox gives it the
    project's stand-ins under these names."""
    generation: Generation = "visit"
    order_judged: bool = True
    """Whether the order children are searched in is judged by default (CS188 compares the
    set of generated states, not their order)."""
    max_root: bool = False
    """Every tree starts with MAX to move (Pacman moves first); else hidden trees start at
    MAX or at MIN in turn."""
    agents_layers: bool = False
    """Hidden trees have one MAX layer then one layer per other agent (the exercise's
    ``agents``), as the course's trees do; else the algorithm's layers alternate."""
    uniform_chance: bool = False
    """Every outcome of a chance node is equally likely (CS188's random ghosts), on hidden
    trees too: the course's searches divide by the number of moves."""
    handed: str = ""
    """What the search is handed, in a sentence (the exercise page says it)."""
    interface: tuple[tuple[str, str], ...] = ()
    """What it may ask, as (call, meaning) rows (the exercise page's table)."""
    counts_evaluations: bool = False
    """The search returns how many static evaluations it made, and a wrong count fails a
    tree (MIT 6.034's answers carry one)."""


CONTRACTS: Mapping[str, Contract] = MappingProxyType(
    {
        contract.name: contract
        for contract in (
            Contract(
                "textbook",
                "The textbook (AIMA, aima-python)",
                "module-level search functions (max_value, min_value, negamax, ...) taking "
                "(game, state, ...), or the textbook's decision function with nested helpers",
                handed="Your functions get a game and a state (an opaque handle). Ask the "
                "game about states:",
                interface=(
                    ("game.actions(state)", "the legal actions, left to right"),
                    ("game.result(state, action)", "the state an action leads to"),
                    ("game.terminal_test(state)", "True when the game is over at this state"),
                    (
                        "game.utility(state, player)",
                        'the value of a finished game for "MAX" or "MIN"',
                    ),
                    ("game.to_move(state)", '"MAX", "MIN" or "CHANCE": who moves at this state'),
                    ("game.successors(state)", "(action, state) pairs, in search order"),
                    ("game.eval(state)", "the heuristic value of a state (depth-limited search)"),
                    ("game.chance_outcomes(state)", "(action, probability) pairs of a chance node"),
                ),
            ),
            Contract(
                "cs188",
                "Berkeley CS188, multi-agent search",
                "multiAgents.py as handed out: the question's agent class "
                "(MinimaxAgent, AlphaBetaAgent, ExpectimaxAgent) whose getAction(gameState) "
                "returns Pacman's move, over gameState.getLegalActions(agentIndex), "
                "generateSuccessor(agentIndex, action), getNumAgents(), isWin(), isLose() and "
                "self.evaluationFunction, to self.depth moves of every agent",
                algorithms=frozenset(
                    {
                        "minimax",
                        "depth-limited-minimax",
                        "alphabeta",
                        "depth-limited-alphabeta",
                        "expectimax",
                    }
                ),
                modules=("util", "game", "pacman"),
                generation="generated",
                order_judged=False,
                max_root=True,
                agents_layers=True,
                uniform_chance=True,
                handed="Your agent's getAction gets a gameState, as in CS188's project; its "
                "successors are game states too:",
                interface=(
                    (
                        "gameState.getLegalActions(agentIndex)",
                        "the moves of the agent to move, in order",
                    ),
                    ("gameState.generateSuccessor(agentIndex, action)", "the state after a move"),
                    ("gameState.getNumAgents()", "Pacman and the ghosts: agent 0 is Pacman"),
                    (
                        "gameState.isWin(), gameState.isLose()",
                        "True when the game is over at this state",
                    ),
                    ("self.evaluationFunction(gameState)", "the state's score (getScore)"),
                    ("self.depth", "the depth, in moves of every agent"),
                ),
            ),
            Contract(
                "mit-6.034",
                "MIT 6.034, games lab",
                "the lab's search functions as written: minimax_endgame_search(state, "
                "maximize), minimax_search(state, heuristic_fn, depth_limit, maximize) and "
                "minimax_search_alphabeta(state, alpha, beta, heuristic_fn, depth_limit, "
                "maximize), each returning (path, score, number of static evaluations), over "
                "state.get_snapshot(), is_game_over(), generate_next_states() and "
                "get_endgame_score(is_current_player_maximizer)",
                algorithms=frozenset(
                    {"minimax", "depth-limited-minimax", "alphabeta", "depth-limited-alphabeta"}
                ),
                modules=("game_api", "boards", "toytree"),
                counts_evaluations=True,
                handed="Your function gets a state, as in the games lab; its next states are "
                "states too:",
                interface=(
                    ("state.generate_next_states()", "the states the moves lead to, in order"),
                    ("state.is_game_over()", "True when the game is over at this state"),
                    (
                        "state.get_endgame_score(is_current_player_maximizer)",
                        "the maximizer's score of a finished game",
                    ),
                    (
                        "heuristic_fn(state.get_snapshot(), maximize)",
                        "the heuristic value of a state",
                    ),
                    ("state.describe_previous_move()", "the move that led to this state"),
                ),
            ),
        )
    }
)
"""Every contract, by name."""

DEFAULT_CONTRACT = "textbook"


@dataclass(frozen=True, slots=True)
class ContractChoice:
    """The contract an exercise's students write to, with its settings."""

    name: str = DEFAULT_CONTRACT
    agent_class: str | None = None
    """CS188: the class ``getAction`` is called on (the question's agent)."""
    agents: int = 2
    """CS188: how many agents take turns (Pacman and the ghosts)."""
    depth: int | None = None
    """CS188: the depth the agent is built with, in moves of every agent."""

    @property
    def contract(self) -> Contract:
        """The registered contract."""
        return CONTRACTS[self.name]


def hidden_layers(choice: ContractChoice, layers: tuple[Kind, ...]) -> tuple[Kind, ...]:
    """The kinds of a hidden tree's internal nodes, level by level, for an algorithm whose
    own layers are ``layers``, under ``choice``: one MAX layer then one layer of the
    opponent's kind per other agent for a contract with agents' layers."""
    if not choice.contract.agents_layers:
        return layers
    opponent = Kind.CHANCE if Kind.CHANCE in layers else Kind.MIN
    return (Kind.MAX,) + (opponent,) * max(1, choice.agents - 1)
