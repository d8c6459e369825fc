"""The tool's signing keys: one RSA key pair per registered platform, published as a JWKS."""

from __future__ import annotations

import secrets
from collections.abc import Iterable
from functools import lru_cache
from typing import Any

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import rsa
from jwt.algorithms import RSAAlgorithm

from grader.models import LtiPlatform

KEY_BITS = 2048
ALGORITHM = "RS256"


def generate_key() -> tuple[str, str]:
    """A new private key (PEM, unencrypted PKCS#8) and its key id."""
    key = rsa.generate_private_key(public_exponent=65537, key_size=KEY_BITS)
    pem = key.private_bytes(
        serialization.Encoding.PEM,
        serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption(),
    ).decode()
    return pem, "grader-" + secrets.token_hex(8)


@lru_cache(maxsize=256)
def _public_numbers(private_pem: str) -> dict[str, Any]:
    # Parsing a PEM costs a little; the JWKS is asked for often and keys never change.
    key = serialization.load_pem_private_key(private_pem.encode(), password=None)
    if not isinstance(key, rsa.RSAPrivateKey):
        raise ValueError("the tool's key is not an RSA key")
    jwk: dict[str, Any] = RSAAlgorithm.to_jwk(key.public_key(), as_dict=True)
    return jwk


def public_jwk(private_pem: str, key_id: str) -> dict[str, Any]:
    """The public half of ``private_pem`` as a JSON Web Key named ``key_id``."""
    return {**_public_numbers(private_pem), "kid": key_id, "alg": ALGORITHM, "use": "sig"}


def public_pem(private_pem: str) -> str:
    """The public half of ``private_pem`` as PEM (for platforms that ask for a key, not a URL)."""
    key = serialization.load_pem_private_key(private_pem.encode(), password=None)
    return (
        key.public_key()
        .public_bytes(serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo)
        .decode()
    )


def key_set(platforms: Iterable[LtiPlatform]) -> dict[str, list[dict[str, Any]]]:
    """The tool's JWKS: every platform's public key, each under its key id."""
    keys: list[dict[str, Any]] = []
    seen: set[str] = set()
    for platform in platforms:
        if platform.tool_key_id in seen:
            continue
        seen.add(platform.tool_key_id)
        keys.append(public_jwk(platform.tool_private_key, platform.tool_key_id))
    return {"keys": keys}
