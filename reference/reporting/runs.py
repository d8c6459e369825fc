"""What one tree's run gave the report, in plain values: the worker's records of its
sandboxed runs become these, so that the report is built here without them."""

from __future__ import annotations

from dataclasses import dataclass, field

from reference.observed import Observed
from reference.report import RunVerdict


@dataclass(frozen=True, slots=True)
class RunEnd:
    """How a run ended: ``stopped``, the verdict of a run stopped before its search ended
    (None: it ran to its end, and the judgement of its search decides), and the message,
    line and column of the student's file it names."""

    stopped: RunVerdict | None = None
    message: str = ""
    line: int | None = None
    column: int | None = None

    def verdict(self, perfect: bool) -> RunVerdict:
        """The tree's verdict: why its run stopped, else the judgement of its search
        (``perfect`` or not)."""
        if self.stopped is not None:
            return self.stopped
        return RunVerdict.PASSED if perfect else RunVerdict.FAILED

    @property
    def positioned(self) -> str:
        """The message with the line (and column) it names, if any."""
        where = ""
        if self.line is not None:
            where = f" (line {self.line}" + (
                f", column {self.column})" if self.column is not None else ")"
            )
        return f"{self.message}{where}"


@dataclass(frozen=True, slots=True)
class TreeRun:
    """One tree's run: the tree's name, whether it is hidden, how the run ended and what
    the student's search was seen to do."""

    name: str
    hidden: bool
    end: RunEnd
    observed: Observed = field(default_factory=Observed)
