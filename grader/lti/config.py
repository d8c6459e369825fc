"""PyLTI1p3's tool configuration, read from the platforms an admin registered.

An issuer may have several client ids (one per registration), so lookups always go by
issuer and client id; a login request without a client id is accepted only when the
issuer has a single registration.
"""

from __future__ import annotations

from typing import Any

from pylti1p3.deployment import Deployment
from pylti1p3.registration import Registration
from pylti1p3.request import Request
from pylti1p3.tool_config.abstract import ToolConfAbstract
from sqlalchemy import select
from sqlalchemy.orm import Session

from grader.models import LtiPlatform


def registration(platform: LtiPlatform) -> Registration:
    """PyLTI1p3's view of ``platform``: its endpoints and the tool's key for it."""
    found = Registration()
    found.set_issuer(platform.issuer)
    found.set_client_id(platform.client_id)
    found.set_auth_login_url(platform.auth_login_url)
    found.set_auth_token_url(platform.auth_token_url)
    found.set_key_set_url(platform.key_set_url)
    found.set_tool_private_key(platform.tool_private_key)
    return found


class DatabaseToolConf(ToolConfAbstract[Request]):
    """The registered platforms, looked up in ``session`` on each request."""

    def __init__(self, session: Session) -> None:
        super().__init__()
        self.session = session

    # The base class keeps the issuers' kinds in a dict shared by every instance; answering
    # here instead keeps one request's lookups from leaking into another's.
    def check_iss_has_one_client(self, iss: str) -> bool:
        return False

    def check_iss_has_many_clients(self, iss: str) -> bool:
        return True

    def platform(self, iss: str, client_id: str | None) -> LtiPlatform | None:
        """The platform registered for ``iss`` and ``client_id`` (or the issuer's only one
        when no client id is given)."""
        query = select(LtiPlatform).where(LtiPlatform.issuer == iss)
        if client_id:
            return self.session.scalar(query.where(LtiPlatform.client_id == client_id))
        found = list(self.session.scalars(query.limit(2)))
        return found[0] if len(found) == 1 else None

    def find_registration_by_issuer(self, iss: str, *args: Any, **kwargs: Any) -> Registration:
        return self.find_registration_by_params(iss, None, *args, **kwargs)  # type: ignore[arg-type]

    def find_registration_by_params(
        self, iss: str, client_id: str, *args: Any, **kwargs: Any
    ) -> Registration:
        platform = self.platform(iss, client_id)
        # PyLTI1p3 reads a falsy answer as "not registered" and says so.
        return registration(platform) if platform is not None else None  # type: ignore[return-value]

    def find_deployment(self, iss: str, deployment_id: str) -> Deployment | None:
        return self.find_deployment_by_params(iss, deployment_id, "")

    def find_deployment_by_params(
        self, iss: str, deployment_id: str, client_id: str, *args: Any, **kwargs: Any
    ) -> Deployment | None:
        platform = self.platform(iss, client_id or None)
        if platform is None or deployment_id not in [str(d) for d in platform.deployment_ids]:
            return None
        return Deployment().set_deployment_id(deployment_id)
