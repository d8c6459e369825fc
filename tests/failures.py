"""What the tests' report hook (tests/conftest.py) keeps of a test's outcome, for fixtures
that act on it when they end."""

from __future__ import annotations

import pytest

FAILED = pytest.StashKey[bool]()
"""On a test's item: whether the test itself (not its set-up or tear-down) failed."""


def failed(request: pytest.FixtureRequest) -> bool:
    """Whether the test that asked for the fixture of ``request`` failed."""
    return request.node.stash.get(FAILED, False)
