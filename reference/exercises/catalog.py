"""The library of exercises: every folder with an ``exercise.yaml`` below one directory."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from reference.exercises.loader import EXERCISE_FILE, load_exercise
from reference.exercises.model import Exercise
from reference.problems import FileProblems, Problem


@dataclass
class Catalog:
    """The exercises found in ``root``, loaded on first use; broken ones keep their problems."""

    root: Path
    _loaded: dict[str, Exercise | FileProblems] = field(default_factory=dict, repr=False)

    def slugs(self) -> list[str]:
        """The slugs of all exercise folders, sorted."""
        if not self.root.is_dir():
            return []
        return sorted(path.name for path in self.root.iterdir() if (path / EXERCISE_FILE).is_file())

    def load(self, slug: str) -> Exercise | FileProblems:
        """The exercise called ``slug``, or the problems that keep it from loading."""
        if slug not in self._loaded:
            try:
                self._loaded[slug] = load_exercise(self.root / slug)
            except FileProblems as problems:
                self._loaded[slug] = problems
        return self._loaded[slug]

    def get(self, slug: str) -> Exercise:
        """The exercise called ``slug``; KeyError if there is none, FileProblems if broken."""
        if slug not in self.slugs():
            raise KeyError(slug)
        loaded = self.load(slug)
        if isinstance(loaded, FileProblems):
            raise loaded
        return loaded

    def problems(self) -> list[Problem]:
        """Every problem of every exercise that does not load."""
        found: list[Problem] = []
        for slug in self.slugs():
            loaded = self.load(slug)
            if isinstance(loaded, FileProblems):
                found += loaded.problems
        return found


def load_catalog(root: str | Path) -> Catalog:
    """The catalog of exercises under ``root``."""
    return Catalog(Path(root))
