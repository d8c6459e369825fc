"""An LTI 1.3 platform simulated on loopback: its own RSA key and JWKS, signed id_tokens, a
token endpoint that checks the tool's client assertion against the tool's JWKS, and a line
item that answers a GET (its JSON, or a scripted error) and whose scores endpoint records
what it receives and answers from a script."""

from __future__ import annotations

import json
import secrets
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs

import jwt
from cryptography.hazmat.primitives.asymmetric import rsa
from jwt.algorithms import RSAAlgorithm

from grader.lti.launch import (
    AGS_CLAIM,
    LINEITEM_READONLY_SCOPE,
    LINEITEM_SCOPE,
    LTI,
    SCORE_SCOPE,
)
from tests import servers

LEARNER = "http://purl.imsglobal.org/vocab/lis/v2/membership#Learner"
INSTRUCTOR = "http://purl.imsglobal.org/vocab/lis/v2/membership#Instructor"
GRANTED_SCOPES = (SCORE_SCOPE, LINEITEM_SCOPE, LINEITEM_READONLY_SCOPE)
"""What the token endpoint gives tokens for."""
ASSERTION_TYPE = "urn:ietf:params:oauth:client-assertion-type:jwt-bearer"
DROP = object()
"""A claim override that removes the claim."""


def new_key() -> rsa.RSAPrivateKey:
    return rsa.generate_private_key(public_exponent=65537, key_size=2048)


@dataclass
class TokenRequest:
    form: dict[str, str]
    accepted: bool
    problem: str = ""

    @property
    def scope(self) -> str:
        return self.form.get("scope", "")


@dataclass
class ScorePost:
    headers: dict[str, str]
    body: bytes
    authorized: bool

    @property
    def score(self) -> Any:
        return json.loads(self.body)


@dataclass
class LineitemGet:
    headers: dict[str, str]
    authorized: bool


@dataclass
class Platform:
    issuer: str = "https://lms.example.edu"
    client_id: str = "grader-tool-7"
    deployment_id: str = "deployment-1"
    key_id: str = "platform-key-1"
    key: rsa.RSAPrivateKey = field(default_factory=new_key)
    tool_jwks: dict[str, Any] = field(default_factory=lambda: {"keys": []})
    """The tool's key set the token endpoint trusts (tests copy it from the app)."""
    score_answers: list[tuple[int, dict[str, str]]] = field(default_factory=list)
    """Scripted answers of the scores endpoint, then 200."""
    lineitem: dict[str, Any] = field(
        default_factory=lambda: {"id": "", "label": "Alpha-beta on Figure 5.2", "scoreMaximum": 100}
    )
    """The line item's JSON (its ``id`` filled in when served); tests add ``endDateTime``."""
    lineitem_status: int = 200
    """The status the line item's GET answers with (401, 500... for a failing platform)."""
    lineitem_gets: list[LineitemGet] = field(default_factory=list)
    token_requests: list[TokenRequest] = field(default_factory=list)
    scores: list[ScorePost] = field(default_factory=list)
    issued: set[str] = field(default_factory=set)
    server: ThreadingHTTPServer | None = None

    @property
    def base(self) -> str:
        assert self.server is not None
        return f"http://127.0.0.1:{self.server.server_address[1]}"

    @property
    def auth_login_url(self) -> str:
        return self.base + "/auth"

    @property
    def token_url(self) -> str:
        return self.base + "/token"

    @property
    def jwks_url(self) -> str:
        return self.base + "/jwks"

    @property
    def lineitem_url(self) -> str:
        return self.base + "/lineitems/7"

    def jwks(self) -> dict[str, Any]:
        public = RSAAlgorithm.to_jwk(self.key.public_key(), as_dict=True)
        return {"keys": [{**public, "kid": self.key_id, "alg": "RS256", "use": "sig"}]}

    def claims(self, nonce: str | None, sub: str = "lms-user-42") -> dict[str, Any]:
        """A learner's resource link launch of the Figure 5.2 alpha-beta exercise."""
        now = int(time.time())
        return {
            "iss": self.issuer,
            "aud": self.client_id,
            "sub": sub,
            "iat": now,
            "exp": now + 300,
            "nonce": nonce,
            "name": "Ada Lovelace",
            "given_name": "Ada",
            "family_name": "Lovelace",
            "email": "ada@lms.example.edu",
            LTI + "message_type": "LtiResourceLinkRequest",
            LTI + "version": "1.3.0",
            LTI + "deployment_id": self.deployment_id,
            LTI + "target_link_uri": "http://localhost/lti/launch",
            LTI + "resource_link": {"id": "link-fig52", "title": "Alpha-beta on Figure 5.2"},
            LTI + "roles": [LEARNER],
            LTI + "context": {"id": "ctx-cs4100", "label": "CS4100", "title": "CS 4100 AI"},
            LTI + "custom": {"exercise": "aima-fig5.2-alphabeta"},
            AGS_CLAIM: {
                "scope": [LINEITEM_SCOPE, SCORE_SCOPE],
                "lineitems": self.base + "/lineitems",
                "lineitem": self.lineitem_url,
            },
        }

    def id_token(
        self,
        nonce: str | None,
        key: rsa.RSAPrivateKey | None = None,
        **changes: Any,
    ) -> str:
        """A signed id_token; ``changes`` replace claims (``DROP`` removes one). Claim names
        with a URL are given by their last path part (``roles``, ``custom``...)."""
        claims = self.claims(nonce)
        for name, value in changes.items():
            full = next((claim for claim in claims if claim.rsplit("/", 1)[-1] == name), name)
            if value is DROP:
                claims.pop(full, None)
            else:
                claims[full] = value
        if claims.get("nonce") is None:
            claims.pop("nonce", None)
        return jwt.encode(claims, key or self.key, algorithm="RS256", headers={"kid": self.key_id})

    def _check_assertion(self, form: dict[str, str]) -> str:
        """What is wrong with a token request ("" when nothing is)."""
        if form.get("grant_type") != "client_credentials":
            return "grant_type"
        if form.get("client_assertion_type") != ASSERTION_TYPE:
            return "client_assertion_type"
        requested = form.get("scope", "").split()
        if not requested or any(scope not in GRANTED_SCOPES for scope in requested):
            return "scope"
        assertion = form.get("client_assertion", "")
        try:
            kid = jwt.get_unverified_header(assertion).get("kid")
            matching = [key for key in self.tool_jwks["keys"] if key.get("kid") == kid]
            if not matching:
                return f"no tool key {kid}"
            public = RSAAlgorithm.from_jwk(json.dumps(matching[0]))
            claims = jwt.decode(
                assertion,
                public,  # type: ignore[arg-type]
                algorithms=["RS256"],
                audience=self.token_url,
                issuer=self.client_id,
                options={"require": ["exp", "iat", "jti", "sub"]},
            )
        except jwt.PyJWTError as error:
            return f"assertion: {error}"
        return "" if claims["sub"] == self.client_id else "sub"

    def start(self) -> Platform:
        platform = self

        class Handler(BaseHTTPRequestHandler):
            def _answer(
                self,
                status: int,
                body: object,
                extra: dict[str, str] | None = None,
                content_type: str = "application/json",
            ) -> None:
                data = body if isinstance(body, bytes) else json.dumps(body).encode()
                self.send_response(status)
                self.send_header("Content-Type", content_type)
                for name, value in (extra or {}).items():
                    self.send_header(name, value)
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def do_GET(self) -> None:
                if self.path == "/jwks":
                    self._answer(200, platform.jwks())
                elif self.path == "/lineitems/7":
                    auth = self.headers.get("Authorization", "")
                    authorized = auth.removeprefix("Bearer ") in platform.issued
                    headers = dict(self.headers.items())
                    platform.lineitem_gets.append(LineitemGet(headers, authorized))
                    if not authorized:
                        self._answer(401, {"error": "unauthorized"})
                    elif platform.lineitem_status != 200:
                        self._answer(platform.lineitem_status, {"error": "scripted"})
                    else:
                        item = {**platform.lineitem, "id": platform.lineitem_url}
                        kind = "application/vnd.ims.lis.v2.lineitem+json"
                        self._answer(200, item, content_type=kind)
                else:
                    self._answer(404, {})

            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                if self.path == "/token":
                    form = {k: v[0] for k, v in parse_qs(body.decode()).items()}
                    problem = platform._check_assertion(form)
                    platform.token_requests.append(TokenRequest(form, not problem, problem))
                    if problem:
                        self._answer(401, {"error": "invalid_client", "detail": problem})
                        return
                    token = "tok-" + secrets.token_hex(8)
                    platform.issued.add(token)
                    answer = {"access_token": token, "token_type": "Bearer", "expires_in": 3600}
                    self._answer(200, {**answer, "scope": form["scope"]})
                elif self.path == "/lineitems/7/scores":
                    auth = self.headers.get("Authorization", "")
                    authorized = auth.removeprefix("Bearer ") in platform.issued
                    headers = dict(self.headers.items())
                    platform.scores.append(ScorePost(headers, body, authorized))
                    if not authorized:
                        self._answer(401, {"error": "unauthorized"})
                        return
                    status, extra = (
                        platform.score_answers.pop(0) if platform.score_answers else (200, {})
                    )
                    self._answer(status, {}, extra)
                else:
                    self._answer(404, {})

            def log_message(self, format: str, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        servers.start(self.server)
        return self

    def stop(self) -> None:
        if self.server is not None:
            servers.stop(self.server)
