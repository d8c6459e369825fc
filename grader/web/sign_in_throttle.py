"""How many wrong passwords the sign-in form and the LTI link page take: counted so that
guessing is slow, and so that a stranger failing on purpose cannot lock out the people who
share a network address with them (a campus NAT, a reverse proxy).

Only failures count, never a right password, in the limiter's storage (Redis, or the
SQLite file every web process shares), three ways:

- **Per account** (the address typed in; ``Settings.login_limits``, 5 a minute and 30 an
  hour). Once spent, that account's sign-ins are refused with 429, the right password
  too, until the window moves on: however many client addresses guess, one account's
  password is guessed slowly. Addresses that have no account are counted the same way, so
  that a 429 never tells whether an account exists. The price, accepted: a stranger who
  knows someone's address can keep that ONE account locked by failing on purpose, since
  nothing tells the owner's attempts from a guesser's.
- **Per client address, failures naming no account** (``login_limits`` again). Once spent,
  further failures from there are answered 429 rather than "wrong email or password", for
  accounts and made-up addresses alike (so the answer tells nothing about which exist), and
  made-up addresses stop counting towards the next limit. The right password of an account
  whose own limit is not spent still signs in: spraying made-up addresses from behind a
  NAT locks nobody out.
- **Per client address, every failure counted above** (``Settings.login_address_limits``,
  300 an hour, far above what a class behind one NAT gets wrong). Once spent, every
  sign-in from there is refused. It stops one address trying a few passwords on each of
  many real accounts; reaching it takes failures on real accounts (made-up ones add at
  most the previous limit), so locking out a network this way means knowing, and locking,
  some ten accounts first.

The client's address is ``request.remote_addr``: the connection's own, or behind
``Settings.proxy_hops`` proxies the one they forwarded (see ``create_app``).
"""

from __future__ import annotations

import math
import time

from flask import current_app, render_template, request
from limits import parse_many

from grader.services.identities import normalise_email
from grader.web.context import settings
from grader.web.limits import limiter


class Throttled(Exception):
    """A sign-in refused for now: 429, with ``Retry-After: seconds``. ``network``: the
    password was checked and was wrong, and this address has failed too often on unknown
    accounts (the right password would have signed in)."""

    def __init__(self, seconds: int, *, network: bool = False) -> None:
        super().__init__(f"sign-ins throttled for {seconds} s")
        self.seconds = seconds
        self.network = network


def check(email: str) -> None:
    """Before any password is checked: Throttled when the account of ``email`` or this
    client address has used up its limits."""
    if not limiter.enabled:
        return
    limits = settings()
    for text, key in (
        (limits.login_limits, _key("account", normalise_email(email))),
        (limits.login_address_limits, _key("address", _client())),
    ):
        ends = _spent(text, key)
        if ends is not None:
            raise Throttled(_seconds_until(ends))


def failed(email: str, *, known: bool) -> None:
    """Count a wrong password for ``email`` (``known``: an account has that address), then
    Throttled when this address had already used up its failures on unknown accounts."""
    if not limiter.enabled:
        return
    limits = settings()
    address = _client()
    unknown = _key("unknown", address)
    flagged = _spent(limits.login_limits, unknown)
    _count(limits.login_limits, _key("account", normalise_email(email)))
    if not known and flagged is None:
        _count(limits.login_limits, unknown)
    if known or flagged is None:
        _count(limits.login_address_limits, _key("address", address))
    if flagged is not None:
        raise Throttled(_seconds_until(flagged), network=True)


def too_many(error: Throttled) -> tuple[str, int, dict[str, str]]:
    """The page a throttled sign-in gets: 429, ``Retry-After``, and what to do."""
    minutes = max(1, round(error.seconds / 60))
    reason = "network" if error.network else "sign-in"
    page = render_template("auth/throttled.html", minutes=minutes, reason=reason)
    return page, 429, {"Retry-After": str(error.seconds)}


def _client() -> str:
    return request.remote_addr or "unknown"


def _key(kind: str, value: str) -> tuple[str, ...]:
    return (current_app.config.get("RATELIMIT_KEY_PREFIX", ""), "sign-in", kind, value)


def _spent(text: str, key: tuple[str, ...]) -> float | None:
    """When the last of the spent windows of limits ``text`` for ``key`` ends; None when
    none is spent."""
    strategy = limiter.limiter
    ends = [
        strategy.get_window_stats(item, *key).reset_time
        for item in parse_many(text)
        if not strategy.test(item, *key)
    ]
    return max(ends, default=None)


def _count(text: str, key: tuple[str, ...]) -> None:
    for item in parse_many(text):
        limiter.limiter.hit(item, *key)


def _seconds_until(moment: float) -> int:
    return max(1, math.ceil(moment - time.time()))
