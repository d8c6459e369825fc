"""CS188's ``pacman`` as a multi-agent search file uses it: ``GameState``, the type of the
state ``getAction`` gets (imported for annotations)."""

from __future__ import annotations

from worker.harness.cs188 import GameState

__all__ = ["GameState"]
