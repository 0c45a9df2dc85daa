"""The host operations, declared once: what each one is called, where it is mounted on
/v1, which capability it needs, what it reaches (the tenant, one agent, one person, the
person's own document), whether it shows other people's data, and how an MCP client may
treat it (read-only, destructive, idempotent).

Both transports mount every operation of ``OPERATIONS``: the HTTP routes (``api.http*``)
and the MCP tools (``api.mcp_server``, whose names and annotations come from here). Both
authorise through ``authorize``, so the same caller gets the same answer (and the same
sentence) on either. ``tests/api/test_authorisation_matrix.py`` runs every operation over
both transports for every kind of caller and fails when one exists on one transport only.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from api.services import HostInputError
from personaweb.actors import (
    HOST,
    LEARNING_DECIDE,
    LEARNING_READ,
    MEMORY_READ,
    MEMORY_WRITE,
    PERSONA_READ,
    PERSONA_WRITE,
    Actor,
)
from personaweb.errors import NotPermitted, NotReachable

Reach = Literal["tenant", "agent", "person", "document"]


@dataclass(frozen=True)
class Operation:
    name: str
    #: "METHOD /v1/path" of the HTTP route
    http: str
    #: the capabilities (token scopes) any one of which allows the operation
    scopes: tuple[str, ...]
    #: tenant: no agent or person (a list of agents); agent: one agent; person: one person
    #: of the tenant (with an agent where the operation names one); document: the person's
    #: own persona document (the token must be bound to the person)
    reach: Reach
    #: shows or changes what other people said (learning evidence, decisions): never for a
    #: caller bound to one person
    others_data: bool = False
    #: an agent is named (or comes from the binding) besides the person
    needs_agent: bool = False
    #: an agent may be named to narrow a person's rows to what that agent formed
    agent_filter: bool = False
    #: an agent may be named (and is checked) but is not needed: the answer is about the
    #: person, whichever agent formed what is known (build_context)
    agent_optional: bool = False
    #: only the person themself (a token they made) may: writing their document's text,
    #: deciding its nominations; never a host process acting for them
    owner_only: bool = False
    read_only: bool = True
    destructive: bool = False
    idempotent: bool = True

    @property
    def method(self) -> str:
        return self.http.split(" ", 1)[0]

    @property
    def path(self) -> str:
        return self.http.split(" ", 1)[1].split("?", 1)[0]

    @property
    def query(self) -> dict[str, str]:
        """The fixed query of an operation mounted on another one's route with a flag
        (``prompt_explain``: the prefix route with ``?explain=1``)."""
        _, _, query = self.http.partition("?")
        return dict(part.split("=", 1) for part in query.split("&") if "=" in part)


def _op(name: str, http: str, scopes: str | tuple[str, ...], reach: Reach, **kw: Any) -> Operation:
    scopes = (scopes,) if isinstance(scopes, str) else scopes
    return Operation(name=name, http=http, scopes=scopes, reach=reach, **kw)


_WRITE = {"read_only": False, "idempotent": False}

OPERATIONS: tuple[Operation, ...] = (
    # host
    _op("agents_list", "GET /v1/agents", (HOST, LEARNING_READ, LEARNING_DECIDE), "tenant"),
    _op("persona_read", "GET /v1/agents/{slug}", (HOST, LEARNING_READ), "agent"),
    _op("persona_update", "PATCH /v1/agents/{slug}", HOST, "agent", **_WRITE),
    _op("record_turn", "POST /v1/agents/{slug}/turns", HOST, "person", needs_agent=True, **_WRITE),
    _op("prompt_prefix", "GET /v1/agents/{slug}/prefix", HOST, "agent", read_only=False),
    # every line of the prefix with where it came from; read-only (no plan is written)
    _op(
        "prompt_explain",
        "GET /v1/agents/{slug}/prefix?explain=1",
        (HOST, LEARNING_READ),
        "agent",
    ),
    # learning (shows quotes of every person's conversations)
    _op(
        "learning_status",
        "GET /v1/agents/{slug}/learning",
        LEARNING_READ,
        "agent",
        others_data=True,
    ),
    _op(
        "reviews_list",
        "GET /v1/agents/{slug}/reviews",
        (LEARNING_READ, HOST),
        "agent",
        others_data=True,
    ),
    _op(
        "review_get",
        "GET /v1/reviews/{review_id}",
        (LEARNING_READ, HOST, LEARNING_DECIDE),
        "tenant",
        others_data=True,
    ),
    _op(
        "review_now",
        "POST /v1/agents/{slug}/reviews",
        (HOST, LEARNING_DECIDE),
        "agent",
        others_data=True,
        read_only=False,
    ),
    _op(
        "proposal_approve",
        "POST /v1/proposals/{proposal_id}/approve",
        LEARNING_DECIDE,
        "tenant",
        others_data=True,
        **_WRITE,
    ),
    _op(
        "proposal_turn_down",
        "POST /v1/proposals/{proposal_id}/turn-down",
        LEARNING_DECIDE,
        "tenant",
        others_data=True,
        **_WRITE,
    ),
    _op(
        "undo",
        "POST /v1/agents/{slug}/undo",
        LEARNING_DECIDE,
        "agent",
        others_data=True,
        destructive=True,
        **_WRITE,
    ),
    # memory of one person
    _op("beliefs_search", "GET /v1/memories", MEMORY_READ, "person", agent_filter=True),
    _op("belief_evidence", "GET /v1/memories/{memory_id}", MEMORY_READ, "person"),
    _op("build_context", "GET /v1/context", MEMORY_READ, "person", agent_optional=True),
    _op("memory_write", "POST /v1/memories", MEMORY_WRITE, "person", needs_agent=True, **_WRITE),
    _op(
        "belief_retire",
        "POST /v1/memories/{memory_id}/retire",
        MEMORY_WRITE,
        "person",
        destructive=True,
        read_only=False,
    ),
    _op("intentions_list", "GET /v1/intentions", MEMORY_READ, "person", agent_filter=True),
    _op(
        "intention_done",
        "POST /v1/intentions/{intention_id}/done",
        MEMORY_WRITE,
        "person",
        read_only=False,
    ),
    _op(
        "routine_label",
        "POST /v1/routines",
        MEMORY_WRITE,
        "person",
        needs_agent=True,
        read_only=False,
    ),
    _op(
        "routine_feedback",
        "POST /v1/routines/{routine_id}/feedback",
        MEMORY_WRITE,
        "person",
        **_WRITE,
    ),
    # the person's own persona document
    _op("persona_entries_list", "GET /v1/persona", PERSONA_READ, "document"),
    _op(
        "persona_document_write",
        "PUT /v1/persona",
        PERSONA_WRITE,
        "document",
        owner_only=True,
        **_WRITE,
    ),
    _op("persona_history", "GET /v1/persona/history", PERSONA_READ, "document"),
    _op("nominations_list", "GET /v1/persona/nominations", PERSONA_READ, "document"),
    _op(
        "nomination_affirm",
        "POST /v1/persona/nominations/{nomination_id}/affirm",
        PERSONA_WRITE,
        "document",
        owner_only=True,
        read_only=False,
    ),
    _op(
        "nomination_decline",
        "POST /v1/persona/nominations/{nomination_id}/decline",
        PERSONA_WRITE,
        "document",
        owner_only=True,
        read_only=False,
    ),
    _op(
        "persona_entry_reinforce",
        "POST /v1/persona/entries/{key}/reinforce",
        PERSONA_WRITE,
        "document",
        **_WRITE,
    ),
)
BY_NAME: dict[str, Operation] = {op.name: op for op in OPERATIONS}
#: operations that may name a person not stored yet (the write makes them; a prefix may
#: be for nobody); a caller bound to one person still reaches only that person
NEW_PERSON_OPERATIONS = (
    "record_turn",
    "prompt_prefix",
    "prompt_explain",
    "memory_write",
    "routine_label",
)
#: operations about the prefix of (agent, person, session): an agent's, naming a person
PREFIX_OPERATIONS = ("prompt_prefix", "prompt_explain")

UNBOUND_DOCUMENT_MESSAGE = (
    "This caller is not bound to a person, and the persona document is read and written "
    "only for the person a token is bound to; make a token with --principal THEIR_ID "
    "(`manage.py api token create ... --scopes persona.read,persona.write --principal ID`)."
)


@dataclass(frozen=True)
class Target:
    """What an authorised call is about."""

    actor: Actor
    agent: Any = None
    #: the person (a Principal row), when the operation reaches one that exists
    person: Any = None
    #: the person's id in the host's app (also for a person not stored yet: record_turn)
    principal: str | None = None

    @property
    def by(self) -> str:
        return self.actor.name

    @property
    def tenant_id(self) -> int:
        if self.agent is not None:
            return int(self.agent.tenant_id)
        if self.person is not None:
            return int(self.person.tenant_id)
        assert self.actor.tenant_ids is not None and len(self.actor.tenant_ids) == 1
        return next(iter(self.actor.tenant_ids))


def _no_nul(*values: str | None) -> None:
    for value in values:
        if value is not None and "\x00" in value:
            raise HostInputError("Text may not contain NUL characters.")


def _agent_for(actor: Actor, slug: str | None, *, required: bool) -> Any:
    from tenancy.models import Agent

    if not slug:
        if actor.agent_id is not None:
            slug_of_bound = Agent.objects.filter(pk=actor.agent_id).values_list("slug", flat=True)
            slug = next(iter(slug_of_bound), None)
        if not slug:
            if not required:
                return None
            raise HostInputError(
                "Say which agent: pass agent=<slug> (this caller reaches every agent of its tenant)."
            )
    qs = Agent.objects.filter(slug=slug.strip())
    if actor.tenant_ids is not None:
        qs = qs.filter(tenant_id__in=actor.tenant_ids)
    agent = qs.select_related("tenant").first()
    if agent is None or not actor.reaches_agent(agent):
        raise NotReachable("No agent with that name here.")
    return agent


def _person_for(actor: Actor, tenant_id: int | None, principal: str | None) -> Any:
    """The person named (or the one the caller is bound to); another tenant's person,
    one the caller is not bound to and one that does not exist are the same 404."""
    from memory.models import Principal

    if actor.principal_key is not None:
        if principal and principal.strip() != actor.principal_key:
            raise NotReachable("No person with that id here.")
        principal = actor.principal_key
    elif actor.principal_id is not None:
        bound = Principal.objects.filter(pk=actor.principal_id).first()
        if bound is None:
            raise NotReachable("No person with that id here.")
        if principal and principal.strip() != bound.external_id:
            raise NotReachable("No person with that id here.")
        return bound
    if not principal or not principal.strip():
        return None
    qs = Principal.objects.filter(external_id=principal.strip())
    if tenant_id is not None:
        qs = qs.filter(tenant_id=tenant_id)
    elif actor.tenant_ids is not None:
        qs = qs.filter(tenant_id__in=actor.tenant_ids)
    return qs.first()


def authorize(
    name: str,
    *,
    actor: Actor,
    agent: str | None = None,
    principal: str | None = None,
) -> Target:
    """The one check of every host operation, on every transport.

    Order: the capability (403), a caller bound to one person never reaching other
    people's data (403), the agent (404 when out of reach), the person (404 when absent,
    of another tenant, or not the one the caller is bound to).
    """
    op = BY_NAME[name]
    _no_nul(agent, principal)
    actor.require(op.scopes)
    if op.others_data and actor.bound_to_person:
        raise NotPermitted(
            f"{name} shows other people's conversations, and this caller is bound to one "
            "person; use a token that is not bound to a person."
        )
    if op.reach == "document" and not actor.bound_to_person:
        raise NotPermitted(UNBOUND_DOCUMENT_MESSAGE)
    if op.owner_only and actor.kind == "system":
        raise NotPermitted(
            f"{name} is the person's own decision: only they write their persona document "
            "(on My persona, or with a token they made); a host process acting for them may not."
        )
    found_agent = None
    if op.reach == "agent" or op.needs_agent:
        found_agent = _agent_for(actor, agent, required=True)
    elif op.agent_filter and agent:
        found_agent = _agent_for(actor, agent, required=False)  # a filter (beliefs_search)
    elif op.agent_optional:
        found_agent = _agent_for(actor, agent, required=False)  # named or bound, else none
    if op.reach not in ("person", "document") and op.name not in PREFIX_OPERATIONS:
        return Target(actor=actor, agent=found_agent)
    tenant_id = found_agent.tenant_id if found_agent is not None else None
    person = _person_for(actor, tenant_id, principal)
    if actor.principal_key is not None:
        principal = actor.principal_key
    external = person.external_id if person is not None else (principal or "").strip() or None
    if op.name in NEW_PERSON_OPERATIONS:
        # the person may be new (the write makes them); a prefix may be for nobody
        if op.name not in PREFIX_OPERATIONS and not external:
            raise HostInputError(
                "Say who the conversation is with: pass principal=<the person's id in your app>."
            )
        return Target(actor=actor, agent=found_agent, person=person, principal=external)
    if person is None:
        if not external:
            raise HostInputError(
                "Say whose memory this is: pass principal=<the person's id in your app>."
            )
        raise NotReachable("No person with that id here.")
    return Target(actor=actor, agent=found_agent, person=person, principal=person.external_id)


def enabled_operations() -> tuple[Operation, ...]:
    """The operations mounted now: the owner-document ones only with
    ``AGENT_PERSONA_API_ENABLED`` (off, they are absent from both transports)."""
    from django.conf import settings

    if settings.AGENT_PERSONA_API_ENABLED:
        return OPERATIONS
    return tuple(op for op in OPERATIONS if op.reach != "document")


def token_actor(raw: str | None) -> Actor:
    """The actor of a bearer token: live, unexpired, its login active (else
    ``Unauthorized``), within its calls a minute (else ``RateLimited``, counted here for
    every operation on both transports); which operations it may run is ``authorize``'s
    business. A token this process has checked before costs one small query
    (``api.services.token_check``)."""
    from api.services import actor_for_token, rate_limit_check, token_check

    token = token_check(raw)
    rate_limit_check(token)
    return actor_for_token(token)
