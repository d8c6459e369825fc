"""Account security: what lets a sign-in, a password reset or an LTI launch be used once."""

from __future__ import annotations
