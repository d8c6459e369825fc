"""Configuration, read in one place: environment variables prefixed ``GRADER_``."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

PREFIX = "GRADER_"
PROJECT_ROOT = Path(__file__).resolve().parents[1]


@dataclass(frozen=True, slots=True)
class Settings:
    """The service's settings; tests pass overrides instead of touching the environment."""

    exercises_dir: Path = PROJECT_ROOT / "exercises"
    max_tree_nodes: int = 1_000_000

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None) -> Settings:
        """Settings from ``GRADER_*`` variables, defaults for the rest."""
        env = os.environ if environ is None else environ
        defaults = cls()
        return cls(
            exercises_dir=Path(env.get(f"{PREFIX}EXERCISES_DIR", defaults.exercises_dir)),
            max_tree_nodes=int(env.get(f"{PREFIX}MAX_TREE_NODES", defaults.max_tree_nodes)),
        )
