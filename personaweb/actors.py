"""Who acts: one object for every surface (a page's login, a token of /v1 or MCP, a
background task), so services authorise once, for an actor, with one sentence.

``Actor`` is data; it is built by ``tenancy.access.actor_for_user`` (a login: its
tenants and roles) and ``api.services.actor_for_token`` (a token: its tenant, scopes and
bindings), or ``Actor.system`` for beat, workers and the CLI's operator commands. A
service calls ``actor.require(...)`` before it reads or writes anyone's data; pages ask
the same question (``actor.may(...)``) only to decide which buttons to draw.

Capabilities are the token scopes (``api.models.SCOPES`` names them for people): a login
gets those its roles grant (``ROLE_CAPABILITIES``), a token those it carries.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any, Literal

from personaweb.errors import NotPermitted, NotReachable

HOST = "host"
LEARNING_READ = "learning.read"
LEARNING_DECIDE = "learning.decide"
MEMORY_READ = "memory.read"
MEMORY_WRITE = "memory.write"
PERSONA_READ = "persona.read"
PERSONA_WRITE = "persona.write"
#: add people to a tenant with a role (operators; never a token scope)
TEAM_MANAGE = "team.manage"
#: what each role of a login may do (the owner-document capabilities come with an
#: owner account, bound to that one person: ``tenancy.access.actor_for_user``)
ROLE_CAPABILITIES: dict[str, frozenset[str]] = {
    "operator": frozenset(
        {HOST, LEARNING_READ, LEARNING_DECIDE, MEMORY_READ, MEMORY_WRITE, TEAM_MANAGE}
    ),
    "reviewer": frozenset({LEARNING_READ, LEARNING_DECIDE}),
}

Kind = Literal["user", "token", "system"]


@dataclass(frozen=True)
class Actor:
    """Someone acting: what they may do (``capabilities``) and where (tenants, and an
    optional agent and person binding)."""

    kind: Kind
    #: who acts, for records: a username, ``token:NAME`` or ``system:WHAT``
    name: str
    #: the tenants reached; None is every tenant (a superuser, the system)
    tenant_ids: frozenset[int] | None
    capabilities: frozenset[str] = field(default_factory=frozenset)
    #: the login acting, or the login a token is bound to (decisions are theirs)
    user: Any = None
    #: a token bound to one agent reaches that agent only
    agent_id: int | None = None
    #: bound to one person: reaches that person's data only, everywhere
    principal_id: int | None = None
    #: bound to one person by the host's id, who may not be stored yet (stdio)
    principal_key: str | None = None
    token_id: int | None = None

    @classmethod
    def system(cls, what: str) -> Actor:
        """Beat, a worker or an operator's command line: every tenant, every capability."""
        return cls(
            kind="system",
            name=f"system:{what}",
            tenant_ids=None,
            capabilities=frozenset(
                {HOST, LEARNING_READ, LEARNING_DECIDE, MEMORY_READ, MEMORY_WRITE, TEAM_MANAGE}
            ),
        )

    # --- questions (pages draw buttons from these) -----------------------------------

    @property
    def is_superuser(self) -> bool:
        return bool(getattr(self.user, "is_superuser", False)) and self.kind == "user"

    def may(self, capability: str) -> bool:
        return capability in self.capabilities

    def reaches_tenant(self, tenant_id: int) -> bool:
        return self.tenant_ids is None or tenant_id in self.tenant_ids

    def reaches_agent(self, agent: Any) -> bool:
        return self.reaches_tenant(agent.tenant_id) and (
            self.agent_id is None or agent.pk == self.agent_id
        )

    def reaches_principal(self, principal: Any) -> bool:
        """``principal`` is a Principal row (its tenant is checked too) or an id."""
        if hasattr(principal, "tenant_id") and not self.reaches_tenant(principal.tenant_id):
            return False
        if self.principal_key is not None and hasattr(principal, "external_id"):
            return bool(principal.external_id == self.principal_key)
        pk = getattr(principal, "pk", principal)
        return self.principal_id is None or pk == self.principal_id

    @property
    def bound_to_person(self) -> bool:
        return self.principal_id is not None or self.principal_key is not None

    # --- the check services make ----------------------------------------------------

    def require(
        self,
        capability: str | Iterable[str] | None = None,
        *,
        tenant_id: int | None = None,
        agent: Any = None,
        principal: Any = None,
        what: str = "Nothing with that name or id here.",
    ) -> None:
        """Raise ``NotReachable`` (404) when a named tenant, agent or person is out of
        reach, then ``NotPermitted`` (403) when the capability is missing. Reach first:
        a 403 on another tenant's row would confirm that it exists."""
        if tenant_id is not None and not self.reaches_tenant(tenant_id):
            raise NotReachable(what)
        if agent is not None and not self.reaches_agent(agent):
            raise NotReachable("No agent with that name here.")
        if principal is not None and not self.reaches_principal(principal):
            raise NotReachable("No person with that id here.")
        if capability is None:
            return
        wanted = (capability,) if isinstance(capability, str) else tuple(capability)
        if not any(c in self.capabilities for c in wanted):
            raise NotPermitted(self.missing_sentence(wanted))

    def missing_sentence(self, wanted: tuple[str, ...]) -> str:
        if self.kind == "token":
            return (
                f"This API token lacks the scope {' or '.join(wanted)}; make a token with "
                f"--scopes {wanted[0]}."
            )
        return f"{self.name} may not do this here: it needs {' or '.join(wanted)}."
