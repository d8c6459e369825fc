"""What the workers report about themselves (heartbeats)."""

from __future__ import annotations
