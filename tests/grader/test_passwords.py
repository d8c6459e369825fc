"""Passwords are hashed by the settings' method and checked by the method each stored hash
names; an address with no account is checked against a hash of the settings' method, so
that it takes as long as a wrong password."""

from __future__ import annotations

import time

from grader.config import Settings
from grader.services import passwords


def test_a_password_is_hashed_by_the_settings_method_and_matches_only_itself() -> None:
    settings = Settings(password_hash="pbkdf2:sha256:1000")
    stored = passwords.hash_password(settings, "correct horse")
    assert stored.startswith("pbkdf2:sha256:1000$")
    assert passwords.matches(settings, stored, "correct horse")
    assert not passwords.matches(settings, stored, "wrong horse")
    assert not passwords.matches(settings, None, "correct horse")
    assert not passwords.matches(settings, "", "")


def test_a_stored_hash_is_checked_by_its_own_method_whatever_the_settings_say() -> None:
    old = passwords.hash_password(Settings(password_hash="pbkdf2:sha256:1000"), "secret-1")
    assert passwords.matches(Settings(password_hash="scrypt:1024:8:1"), old, "secret-1")


def test_the_default_is_scrypt_and_the_environment_can_name_another() -> None:
    assert Settings().password_hash == "scrypt"
    assert Settings.from_env({}).password_hash == "scrypt"
    named = Settings.from_env({"GRADER_PASSWORD_HASH": "scrypt:16384:8:1"})
    assert named.password_hash == "scrypt:16384:8:1"
    assert passwords.hash_password(named, "x").startswith("scrypt:16384:8:1$")


def test_an_address_with_no_account_costs_what_a_wrong_password_costs() -> None:
    settings = Settings(password_hash="scrypt:16384:8:1")
    stored = passwords.hash_password(settings, "secret")
    passwords.matches(settings, None, "warm-up")  # the unused hash is made once, here

    def cpu(stored_hash: str | None) -> float:
        start = time.process_time()
        for _ in range(3):
            passwords.matches(settings, stored_hash, "guess")
        return time.process_time() - start

    wrong, unknown = cpu(stored), cpu(None)
    assert 0.5 < unknown / wrong < 2, (unknown, wrong)
