"""The schema of ``exercise.yaml`` files, checked with pydantic."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from reference.algorithms import ALGORITHMS
from reference.budgets import (
    LIMIT_CPU_SECONDS,
    LIMIT_MEMORY_MB,
    LIMIT_SUBMISSION_SECONDS,
    LIMIT_WALL_SECONDS,
)
from reference.contracts import CONTRACTS, DEFAULT_CONTRACT, Contract, ContractChoice
from reference.search import SearchOptions

NAME_PATTERN = r"^[A-Za-z0-9][A-Za-z0-9_.\-]*$"


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class ConventionsSchema(_Strict):
    """The search conventions students must follow."""

    pruning: Literal["on-equality", "strict"] = "on-equality"
    order: Literal["left-to-right", "right-to-left", "any"] | None = None
    """``any``: the children searched must be the reference's, in whatever order (the
    reference searches left to right). Default: the contract's (left to right, judged;
    CS188: any)."""
    depth_limit: int | None = Field(default=None, ge=0)
    generation: Literal["visit", "generated"] | None = None
    """What counts as reaching a node (default: the contract's)."""

    def options(self, contract: Contract | None = None) -> SearchOptions:
        """The reference search's options under these conventions and ``contract``'s
        defaults (the textbook's when None)."""
        contract = contract or CONTRACTS[DEFAULT_CONTRACT]
        order = self.order or ("left-to-right" if contract.order_judged else "any")
        return SearchOptions(
            prune_on_equality=self.pruning == "on-equality",
            order="left-to-right" if order == "any" else order,
            depth_limit=self.depth_limit,
            order_judged=order != "any",
            generation=self.generation or contract.generation,
        )


class ContractSchema(_Strict):
    """The course contract the students write to, with its settings: ``contract: cs188``
    or a mapping with ``name`` and the settings."""

    name: str = DEFAULT_CONTRACT
    agent_class: str | None = None
    agents: int = Field(default=2, ge=2, le=6)
    depth: int | None = Field(default=None, ge=1, le=12)

    @model_validator(mode="before")
    @classmethod
    def _from_name(cls, data: Any) -> Any:
        return {"name": data} if isinstance(data, str) else data

    @field_validator("name")
    @classmethod
    def _known(cls, value: str) -> str:
        if value not in CONTRACTS:
            raise ValueError(f"unknown contract {value!r} (known: {', '.join(CONTRACTS)})")
        return value

    @field_validator("agent_class")
    @classmethod
    def _identifier(cls, value: str | None) -> str | None:
        if value is not None and not value.isidentifier():
            raise ValueError(f"agent_class {value!r} is not a Python identifier")
        return value

    def choice(self) -> ContractChoice:
        """The contract as the exercise model holds it."""
        return ContractChoice(self.name, self.agent_class, self.agents, self.depth)


class GameSchema(_Strict):
    """A tree generated from a registered game's rules."""

    name: str
    options: dict[str, Any] = Field(default_factory=dict)
    max_depth: int | None = Field(default=None, ge=0)


class ExpectSchema(_Strict):
    """What the author states about a tree (value, decision, pruned nodes...)."""

    value: int | float | str | None = None
    decision: str | None = None
    pruned: list[str] | None = None
    unvisited: list[str] | None = None
    nodes: int | None = Field(default=None, ge=1)
    leaves_evaluated: int | None = Field(default=None, ge=0)


class TreeSchema(_Strict):
    """One public tree: exactly one of a tree file, an inline compact tree or a game."""

    name: str = Field(pattern=NAME_PATTERN)
    file: str | None = None
    tree: str | None = None
    game: GameSchema | None = None
    expect: ExpectSchema = Field(default_factory=ExpectSchema)

    @model_validator(mode="after")
    def _one_source(self) -> TreeSchema:
        given = [key for key in ("file", "tree", "game") if getattr(self, key) is not None]
        if len(given) != 1:
            raise ValueError(
                "give exactly one of 'file', 'tree' or 'game' "
                f"(this tree has {', '.join(given) or 'none'})"
            )
        return self


class LimitsSchema(_Strict):
    """Per-tree resource limits for a student's run, within the budgets every course
    shares (:mod:`reference.budgets`)."""

    cpu_seconds: float = Field(default=2.0, gt=0, le=LIMIT_CPU_SECONDS)
    wall_seconds: float = Field(default=10.0, gt=0, le=LIMIT_WALL_SECONDS)
    memory_mb: int = Field(default=256, ge=16, le=LIMIT_MEMORY_MB)
    submission_wall_seconds: float | None = Field(default=None, gt=0, le=LIMIT_SUBMISSION_SECONDS)
    """Real time for the whole submission, over all trees (default: twice wall_seconds)."""


class ScoringSchema(_Strict):
    """Points per tree for value, decision and node verdicts, and what the hidden trees
    weigh in the total and earn when they fail."""

    value: int = Field(default=30, ge=0)
    decision: int = Field(default=10, ge=0)
    nodes: int = Field(default=60, ge=0)
    hidden_share: float | Literal["per_tree"] = 0.5
    """The share of the total the hidden trees carry, or ``per_tree``."""
    hidden_credit: Literal["partial", "whole"] = "partial"

    @field_validator("hidden_share", mode="before")
    @classmethod
    def _share(cls, value: Any) -> Any:
        # One readable message at the key, rather than one per member of the union.
        if value == "per_tree":
            return value
        number = isinstance(value, int | float) and not isinstance(value, bool)
        if not number or not 0 <= value <= 1:
            raise ValueError(f"must be a number from 0 to 1 or 'per_tree', not {value!r}")
        return value


class HiddenSchema(_Strict):
    """The hidden random trees' number and shape."""

    count: int = Field(default=8, ge=0, le=100)
    min_depth: int = Field(default=2, ge=1, le=12)
    max_depth: int = Field(default=5, ge=1, le=12)
    max_branching: int = Field(default=4, ge=1, le=8)
    min_value: int = -9
    max_value: int = 9
    seed: str = Field(default="", max_length=200)
    leaves_after_moves: bool = False
    """Every leaf is reached by a move, never straight from a chance node."""

    @model_validator(mode="after")
    def _ranges(self) -> HiddenSchema:
        if self.min_depth > self.max_depth:
            raise ValueError("min_depth is larger than max_depth")
        if self.min_value >= self.max_value:
            raise ValueError("min_value must be smaller than max_value")
        return self


class ExerciseSchema(_Strict):
    """The whole ``exercise.yaml`` document."""

    title: str = Field(min_length=1)
    statement: str = ""
    algorithm: str
    contract: ContractSchema = Field(default_factory=ContractSchema)
    conventions: ConventionsSchema = Field(default_factory=ConventionsSchema)
    entry_points: list[str] | None = None
    limits: LimitsSchema = Field(default_factory=LimitsSchema)
    scoring: ScoringSchema = Field(default_factory=ScoringSchema)
    hidden_trees: HiddenSchema = Field(default_factory=HiddenSchema)
    trees: list[TreeSchema] = Field(min_length=1)

    @field_validator("algorithm")
    @classmethod
    def _known_algorithm(cls, value: str) -> str:
        if value not in ALGORITHMS:
            raise ValueError(f"unknown algorithm {value!r} (known: {', '.join(ALGORITHMS)})")
        return value

    @model_validator(mode="after")
    def _contract_fits(self) -> ExerciseSchema:
        contract = CONTRACTS[self.contract.name]
        if contract.algorithms is not None and self.algorithm not in contract.algorithms:
            raise ValueError(
                f"the {contract.name} contract has no {self.algorithm!r} "
                f"(it has {', '.join(sorted(contract.algorithms))})"
            )
        if contract.agents_layers and self.contract.agent_class is None:
            raise ValueError(f"the {contract.name} contract needs contract.agent_class")
        return self

    @field_validator("entry_points")
    @classmethod
    def _identifiers(cls, value: list[str] | None) -> list[str] | None:
        for name in value or []:
            if not name.isidentifier():
                raise ValueError(f"entry point {name!r} is not a Python identifier")
        return value

    @field_validator("trees")
    @classmethod
    def _unique_names(cls, value: list[TreeSchema]) -> list[TreeSchema]:
        names = [tree.name for tree in value]
        repeated = sorted({name for name in names if names.count(name) > 1})
        if repeated:
            raise ValueError(f"tree names must be unique: {', '.join(repeated)} repeated")
        return value
