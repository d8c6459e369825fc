"""Which callback URLs the grader may call: allowed hosts, schemes, no user info, public
addresses only (unless private ones are allowed)."""

from __future__ import annotations

import pytest

from grader.lms.urls import (
    Refusal,
    Target,
    address_problem,
    check_callback_url,
    host_allowed,
    inspect_callback_url,
)

HOSTS = ["lms.example.edu", "*.campus.example.org"]
PUBLIC = "93.184.215.14"
ADDRESSES = {
    "lms.example.edu": [PUBLIC],
    "moodle.campus.example.org": [PUBLIC, "2606:4700:4700::1111"],
    "a.b.campus.example.org": [PUBLIC],
    "sneaky.campus.example.org": [PUBLIC, "10.1.2.3"],
    "inside.campus.example.org": ["127.0.0.1"],
}


def fake_dns(host: str, _port: int) -> list[str]:
    if host not in ADDRESSES:
        raise OSError(f"unknown host {host}")
    return ADDRESSES[host]


def inspect(url: str, allow_private: bool = False) -> Target | Refusal:
    return inspect_callback_url(url, HOSTS, allow_private, resolver=fake_dns)


@pytest.mark.parametrize(
    "url",
    [
        "https://lms.example.edu/grader/callback",
        "http://lms.example.edu:8080/cb?course=7",
        "https://LMS.Example.EDU./cb",
        "https://moodle.campus.example.org/hook",
        "https://a.b.campus.example.org/hook",
    ],
)
def test_allowed_hosts_with_public_addresses_are_accepted(url: str) -> None:
    assert isinstance(inspect(url), Target)


@pytest.mark.parametrize(
    ("url", "words"),
    [
        ("https://evil.example.com/cb", "not among the integration's allowed hosts"),
        ("https://example.edu/cb", "not among"),
        ("https://campus.example.org/cb", "not among"),  # a wildcard covers subdomains only
        ("https://lms.example.edu.evil.com/cb", "not among"),
        ("https://xcampus.example.org/cb", "not among"),
        ("ftp://lms.example.edu/cb", "scheme must be http or https"),
        ("javascript:alert(1)", "scheme"),
        ("lms.example.edu/cb", "scheme"),
        ("https://user:secret@lms.example.edu/cb", "user name or password"),
        ("https://user@lms.example.edu/cb", "user name or password"),
        ("https:///cb", "no host"),
        ("https://lms.example.edu:99999/cb", "malformed"),
    ],
)
def test_refused_urls_say_why(url: str, words: str) -> None:
    found = inspect(url)
    assert isinstance(found, Refusal) and found.lasting
    assert words in found.reason


def test_a_host_with_any_private_address_is_refused() -> None:
    found = inspect("https://sneaky.campus.example.org/cb")
    assert isinstance(found, Refusal)
    assert found.reason == (
        "the host sneaky.campus.example.org resolves to 10.1.2.3, which is private"
    )


def test_a_host_that_does_not_resolve_may_resolve_later() -> None:
    found = inspect_callback_url("https://gone.campus.example.org/", HOSTS, False, fake_dns)
    assert isinstance(found, Refusal) and not found.lasting
    assert "cannot be resolved" in found.reason


def test_allow_private_lets_loopback_through() -> None:
    assert isinstance(inspect("http://inside.campus.example.org:8000/cb"), Refusal)
    target = inspect("http://inside.campus.example.org:8000/cb", allow_private=True)
    assert isinstance(target, Target)
    assert (target.host, target.port, target.path) == ("inside.campus.example.org", 8000, "/cb")
    assert target.addresses == ("127.0.0.1",)
    assert target.host_header == "inside.campus.example.org:8000"


@pytest.mark.parametrize(
    ("address", "problem"),
    [
        ("127.0.0.1", "is loopback"),
        ("127.8.9.10", "is loopback"),
        ("::1", "is loopback"),
        ("0.0.0.0", "is unspecified"),
        ("::", "is unspecified"),
        ("10.0.0.1", "is private"),
        ("172.16.5.4", "is private"),
        ("192.168.1.1", "is private"),
        ("fd00::1", "is private"),
        ("169.254.169.254", "is link-local"),  # the cloud's metadata service
        ("fe80::1%eth0", "is link-local"),
        ("224.0.0.1", "is multicast"),
        ("ff02::1", "is multicast"),
        ("240.0.0.1", "is reserved"),
        ("100.64.0.1", "is not a public address"),  # carrier-grade NAT
        ("::ffff:127.0.0.1", "carries 127.0.0.1, which is loopback"),
        ("::ffff:10.0.0.1", "carries 10.0.0.1, which is private"),
        ("2002:7f00:1::", "carries 127.0.0.1, which is loopback"),
    ],
)
def test_non_public_addresses_are_named(address: str, problem: str) -> None:
    assert address_problem(address) == problem


@pytest.mark.parametrize("address", [PUBLIC, "8.8.8.8", "2606:4700:4700::1111"])
def test_public_addresses_pass(address: str) -> None:
    assert address_problem(address) is None


@pytest.mark.parametrize(
    "url",
    ["http://127.0.0.1:9/cb", "http://[::1]:9/cb", "http://localhost:9/cb", "http://2130706433/"],
)
def test_loopback_through_the_real_resolver_is_refused_unless_allowed(url: str) -> None:
    hosts = ["127.0.0.1", "::1", "localhost", "2130706433"]
    reason = check_callback_url(url, hosts, allow_private=False)
    assert reason is not None and "loopback" in reason
    assert check_callback_url(url, hosts, allow_private=True) is None


def test_wildcards_and_exact_names() -> None:
    assert host_allowed("lms.example.edu", HOSTS)
    assert host_allowed("x.campus.example.org", HOSTS)
    assert not host_allowed("campus.example.org", HOSTS)
    assert not host_allowed("lms.example.edu", [])
    assert not host_allowed("lms.example.edu", [""])
