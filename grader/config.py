"""Configuration, read in one place: environment variables prefixed ``GRADER_``."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from reference.hidden import DEVELOPMENT_KEY

PREFIX = "GRADER_"
PROJECT_ROOT = Path(__file__).resolve().parents[1]


@dataclass(frozen=True, slots=True)
class Settings:
    """The service's settings; tests pass overrides instead of touching the environment."""

    exercises_dir: Path = PROJECT_ROOT / "exercises"
    max_tree_nodes: int = 1_000_000
    hidden_tree_key: bytes = DEVELOPMENT_KEY
    """The secret from which hidden trees are drawn; set it in production."""
    sandbox_allow_unconfined: bool = False
    """Grade even where seccomp or the uid drop is unavailable (development only)."""

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None) -> Settings:
        """Settings from ``GRADER_*`` variables, defaults for the rest."""
        env = os.environ if environ is None else environ
        defaults = cls()
        return cls(
            exercises_dir=Path(env.get(f"{PREFIX}EXERCISES_DIR", defaults.exercises_dir)),
            max_tree_nodes=int(env.get(f"{PREFIX}MAX_TREE_NODES", defaults.max_tree_nodes)),
            hidden_tree_key=env.get(f"{PREFIX}HIDDEN_TREE_KEY", "").encode()
            or defaults.hidden_tree_key,
            sandbox_allow_unconfined=env.get(f"{PREFIX}SANDBOX_ALLOW_UNCONFINED", "").lower()
            in ("1", "true", "yes"),
        )
