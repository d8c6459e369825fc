"""Which callback URLs the grader may call: an allowed host, and only public addresses.

A callback URL comes from an LMS request, so the grader must not become a way to reach
what only it can reach (its database, the cloud's metadata service, the campus network).
The URL is checked when it arrives and again before every attempt, since a host's DNS
records can change in between; the sender then connects to the very addresses checked.
"""

from __future__ import annotations

import ipaddress
import socket
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from urllib.parse import urlsplit

SCHEMES = ("http", "https")
DEFAULT_PORTS = {"http": 80, "https": 443}

Resolver = Callable[[str, int], list[str]]


def resolve(host: str, port: int) -> list[str]:
    """Every address ``host`` resolves to (raises OSError when it does not)."""
    found = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    addresses: list[str] = []
    for _family, _type, _proto, _name, sockaddr in found:
        address = str(sockaddr[0])
        if address not in addresses:
            addresses.append(address)
    return addresses


@dataclass(frozen=True, slots=True)
class Target:
    """A callback URL that passed every check, and the addresses it may be reached at."""

    url: str
    scheme: str
    host: str
    port: int
    path: str
    """Path and query, as sent in the request line."""
    addresses: tuple[str, ...]

    @property
    def host_header(self) -> str:
        name = f"[{self.host}]" if ":" in self.host else self.host
        return name if self.port == DEFAULT_PORTS[self.scheme] else f"{name}:{self.port}"


@dataclass(frozen=True, slots=True)
class Refusal:
    """Why a URL may not be called; ``lasting`` unless a later try may succeed (DNS)."""

    reason: str
    lasting: bool = True


def host_allowed(host: str, allowed_hosts: Iterable[str]) -> bool:
    """``host`` is one of ``allowed_hosts``, or under one written ``*.example.edu``."""
    host = host.lower().rstrip(".")
    for pattern in allowed_hosts:
        pattern = str(pattern).strip().lower().rstrip(".")
        if pattern.startswith("*."):
            # A wildcard covers subdomains only, as in certificates: not the bare domain.
            if host.endswith(pattern[1:]):
                return True
        elif pattern and host == pattern:
            return True
    return False


def address_problem(address: str) -> str | None:
    """Why ``address`` is not a public one, or None when it is."""
    try:
        ip = ipaddress.ip_address(address.split("%", 1)[0])
    except ValueError:
        return "is not an IP address"
    if isinstance(ip, ipaddress.IPv6Address):
        # An IPv6 address that carries an IPv4 one reaches that IPv4 address.
        embedded = ip.ipv4_mapped or ip.sixtofour
        if embedded is not None:
            inner = address_problem(str(embedded))
            return None if inner is None else f"carries {embedded}, which {inner}"
    for name, flag in (
        ("loopback", ip.is_loopback),
        ("unspecified", ip.is_unspecified),
        ("link-local", ip.is_link_local),
        ("multicast", ip.is_multicast),
        ("reserved", ip.is_reserved),
        ("private", ip.is_private),
    ):
        if flag:
            return f"is {name}"
    if not ip.is_global:
        return "is not a public address"
    return None


def inspect_callback_url(
    url: str,
    allowed_hosts: Iterable[str],
    allow_private: bool,
    resolver: Resolver | None = None,
) -> Target | Refusal:
    """The checked target of ``url``, or why it may not be called."""
    try:
        parts = urlsplit(url.strip())
        port = parts.port
    except ValueError as error:
        return Refusal(f"the URL is malformed ({error})")
    scheme = parts.scheme.lower()
    if scheme not in SCHEMES:
        return Refusal(f"the scheme must be http or https, not {scheme or 'missing'}")
    if parts.username is not None or parts.password is not None or "@" in parts.netloc:
        return Refusal("the URL may not carry a user name or password")
    host = (parts.hostname or "").rstrip(".")
    if not host:
        return Refusal("the URL has no host")
    if not host_allowed(host, allowed_hosts):
        return Refusal(f"the host {host} is not among the integration's allowed hosts")
    port = port or DEFAULT_PORTS[scheme]
    try:
        addresses = (resolver or resolve)(host, port)
    except (OSError, UnicodeError) as error:
        return Refusal(f"the host {host} cannot be resolved ({error})", lasting=False)
    if not addresses:
        return Refusal(f"the host {host} has no address", lasting=False)
    if not allow_private:
        for address in addresses:
            problem = address_problem(address)
            if problem is not None:
                return Refusal(f"the host {host} resolves to {address}, which {problem}")
    path = parts.path or "/"
    if parts.query:
        path += "?" + parts.query
    return Target(url, scheme, host, port, path, tuple(addresses))


def check_callback_url(url: str, allowed_hosts: list[str], allow_private: bool) -> str | None:
    """None when the grader may call ``url``, else the reason in words."""
    found = inspect_callback_url(url, allowed_hosts, allow_private)
    return found.reason if isinstance(found, Refusal) else None
