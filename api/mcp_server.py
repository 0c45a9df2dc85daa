"""The MCP server (official ``mcp`` SDK, ``MCPServer``): personaweb's host calls as tools.

Two ways to serve it (``manage.py mcp``):

* stdio, ``--agent SLUG --principal P``: started by the MCP client on the same machine
  as a local process, trusted like the CLI; it serves that one agent and that person.
* streamable HTTP, ``--http 127.0.0.1:PORT``: the same bearer tokens as /v1 (scope
  ``host``); each tool call checks the token again with ``token_authenticate`` (tenant,
  bound agent), so another tenant's agent is "not found" here as in the HTTP API.

Every advertised tool has a handler. Every call runs in a worker thread bounded by
``PERSONAWEB_MCP_TOOL_TIMEOUT`` seconds (8 by default) and ends as an error result,
never an exception, when it is refused, fails or takes too long: a failing memory must
never take the host's conversation down. (A call stopped by the timeout may still finish
its work in the background; the host is no longer waiting for it.)

Tools call the same services as the dashboard, the CLI and the HTTP API.
"""

from __future__ import annotations

import json
import logging
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from typing import Annotated, Any, TypeVar

import anyio
from django.conf import settings
from django.core.serializers.json import DjangoJSONEncoder
from django.db import close_old_connections
from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from pydantic import Field, StrictFloat

from api import selectors, services
from api.errors import NO_MEMORY_MESSAGE, NO_PERSON_MESSAGE, ApiError, NotFound
from personaweb.errors import Refusal

logger = logging.getLogger(__name__)

T = TypeVar("T")

#: The tools this server advertises (a test checks each one has a working handler).
HOST_TOOLS = (
    "persona_read",
    "persona_update",
    "prompt_prefix",
    "record_turn",
    "learning_status",
    "review_now",
)
#: The memory kernel's tools (issue 11): over HTTP they need ``memory.read`` or
#: ``memory.write`` besides the ``host`` scope every MCP call needs.
MEMORY_TOOLS = (
    "build_context",
    "memory_write",
    "beliefs_search",
    "belief_evidence",
    "belief_retire",
    "intentions_list",
    "intention_done",
    "routine_label",
    "routine_feedback",
)
#: The owner persona document's tools (issue 12): list and reinforce entries, never write
#: their text (only the person does, on the dashboard, the CLI or /v1/persona). Over HTTP
#: they need ``persona.read`` / ``persona.write`` besides ``host`` and a token bound to
#: the person: they reach that person's document only.
PERSONA_TOOLS = ("persona_entries_list", "persona_entry_reinforce")
TOOLS = HOST_TOOLS + MEMORY_TOOLS + PERSONA_TOOLS
MEMORY_READ = "memory.read"
MEMORY_WRITE = "memory.write"
PERSONA_READ = "persona.read"
PERSONA_WRITE = "persona.write"

AgentArg = Annotated[
    str | None,
    Field(
        None,
        max_length=100,
        description="agent slug; leave out when the server or the token is bound to one agent",
    ),
]
PrincipalArg = Annotated[
    str | None,
    Field(
        None,
        max_length=200,
        description="the person, by the host's id; leave out when the server was started with --principal",
    ),
]


@dataclass(frozen=True)
class Binding:
    """Who the server acts for. stdio: a fixed agent (and person). HTTP: the caller's token."""

    agent_slug: str | None = None
    principal: str | None = None

    @property
    def is_stdio(self) -> bool:
        return self.agent_slug is not None


@dataclass(frozen=True)
class Target:
    agent: Any
    principal: str | None
    by: str


@dataclass(frozen=True)
class Reach:
    """What a call about one row by id reaches: one person of one tenant."""

    tenant_id: int
    principal_id: int


def _plain(data: Any) -> Any:
    """JSON-ready values (datetimes as ISO text) for a structured tool result."""
    return json.loads(json.dumps(data, cls=DjangoJSONEncoder))


def _no_nul(*values: str | None) -> None:
    for value in values:
        if value is not None and "\x00" in value:
            raise services.HostInputError("Text may not contain NUL characters.")


def build_server(
    *,
    agent_slug: str | None = None,
    principal: str | None = None,
    timeout: float | None = None,
    http_base: str | None = None,
) -> MCPServer:
    """The MCP server. With ``agent_slug`` it is bound to that agent (stdio); without,
    each call is authorised by the caller's bearer token (streamable HTTP at
    ``http_base``, e.g. ``http://127.0.0.1:8765``)."""
    if (agent_slug is None) == (http_base is None):
        raise ValueError("give agent_slug (stdio) or http_base (streamable HTTP), not both")
    binding = Binding(agent_slug=agent_slug, principal=(principal or None))
    limit = float(timeout if timeout is not None else settings.PERSONAWEB_MCP_TOOL_TIMEOUT)
    server: MCPServer = MCPServer(
        "personaweb",
        instructions=(
            "personaweb keeps this assistant's persona and its conversations. Call "
            "prompt_prefix at the start of every turn and put the prefix first in the system "
            "prompt; call record_turn after each turn. persona_update changes name, role, "
            "goals or background only: guardrails and standing rules are refused. "
            "build_context tells what to know about the person for their message; "
            "memory_write stores one fact the person stated (never from a proactive turn). "
            "persona_entries_list shows the person's own persona document; "
            "persona_entry_reinforce marks an entry as holding again. No tool writes that "
            "document's text: only the person does."
        ),
        log_level="WARNING",
        **_http_auth(http_base),
    )

    def target(
        agent: str | None, principal: str | None, token_raw: str | None, scope: str = "host"
    ) -> Target:
        """The agent (and person) a call is about, checked against the binding; over
        HTTP the token must carry ``scope``."""
        _no_nul(agent, principal)
        if binding.is_stdio:
            if agent and agent != binding.agent_slug:
                raise services.HostInputError(
                    f"This MCP server serves the agent {binding.agent_slug!r} only."
                )
            if principal and binding.principal and principal != binding.principal:
                raise services.HostInputError(
                    f"This MCP server was started for {binding.principal!r}; it cannot act for another person."
                )
            found = selectors.Agent.objects.filter(slug=binding.agent_slug).first()
            if found is None:
                raise services.HostInputError(
                    f"No agent with the slug {binding.agent_slug!r}; start the server with an existing agent."
                )
            return Target(found, principal or binding.principal, by="mcp-stdio")
        access = services.token_authenticate(raw=token_raw, scope=scope, agent_slug=agent)
        if access.agent is None:
            if access.token.agent_id is None:
                raise services.HostInputError(
                    "Say which agent: pass agent=<slug> (this token reaches every agent of its tenant)."
                )
            bound = access.token.agent
            assert bound is not None
            access = services.token_authenticate(raw=token_raw, scope=scope, agent_slug=bound.slug)
        return Target(access.agent, principal, by=access.by)

    def person_id(tenant_id: int, principal: str) -> int:
        """The id of a person of the tenant; an unknown person is not found, exactly like
        another tenant's."""
        person = selectors.principal_in_tenant(tenant_id=tenant_id, external_id=principal.strip())
        if person is None:
            raise NotFound(NO_PERSON_MESSAGE)
        return int(person.pk)

    def reach(principal: str | None, token_raw: str | None, scope: str) -> Reach:
        """The person a call about one of their rows by id is about (memory belongs to a
        person of the tenant, whichever agent formed it, so no agent is needed)."""
        if binding.is_stdio:
            t = target(None, principal, None)
            tenant_id, who = t.agent.tenant_id, t.principal
        else:
            _no_nul(principal)
            access = services.token_authenticate(raw=token_raw, scope=scope)
            tenant_id, who = access.tenant_id, principal
        if not who:
            raise services.HostInputError(
                "Say whose memory this is: pass principal=<the person's id in your app>."
            )
        return Reach(tenant_id, person_id(tenant_id, who))

    def needs_person(t: Target) -> str:
        if not t.principal:
            raise services.HostInputError(
                "Say who the conversation is with: pass principal=<the person's id in your app>."
            )
        return t.principal

    async def run(name: str, fn: Callable[[], T]) -> T:
        """Run ``fn`` in a thread, bounded by the timeout; anything but a result becomes
        an error result (``ToolError``) with a sentence."""

        def in_thread() -> T:
            close_old_connections()
            try:
                return fn()
            finally:
                close_old_connections()

        try:
            with anyio.fail_after(limit):
                return await anyio.to_thread.run_sync(in_thread, abandon_on_cancel=True)
        except TimeoutError:
            logger.warning("MCP tool %s stopped after %.1f s", name, limit)
            raise ToolError(
                f"{name} did not finish within {limit:g} seconds and was stopped; "
                "go on without it and try again later."
            ) from None
        except (Refusal, ApiError) as exc:
            raise ToolError(str(exc)) from None
        except Exception:
            ref = uuid.uuid4().hex[:12]
            logger.exception("MCP tool %s failed (ref %s)", name, ref)
            raise ToolError(
                f"personaweb could not complete {name} (an internal error, logged on the server as {ref})."
            ) from None

    def token_of_caller() -> str | None:
        if binding.is_stdio:
            return None
        from mcp.server.auth.middleware.auth_context import get_access_token

        access_token = get_access_token()
        return access_token.token if access_token is not None else None

    @server.tool(
        description="Read the agent's persona: name, role, goals, background, guardrails, standing rules, version."
    )
    async def persona_read(agent: AgentArg = None) -> dict[str, Any]:
        raw = token_of_caller()

        def work() -> dict[str, Any]:
            t = target(agent, None, raw)
            return _plain(selectors.persona_head_dict(agent=t.agent))

        return await run("persona_read", work)

    @server.tool(
        description=(
            "Change the agent's name, role, goals or background; writes a new persona version "
            "(source update_persona) with your reason. Guardrails and standing rules cannot be "
            "changed here: such a change is refused and nothing is written."
        )
    )
    async def persona_update(
        reason: Annotated[
            str, Field(min_length=1, max_length=500, description="why (kept in the history)")
        ],
        name: Annotated[str | None, Field(None, max_length=200)] = None,
        role: Annotated[str | None, Field(None, max_length=500)] = None,
        goals: Annotated[str | None, Field(None, max_length=6000)] = None,
        background: Annotated[str | None, Field(None, max_length=6000)] = None,
        guardrails: Annotated[
            list[str] | None,
            Field(None, description="refused: only host code or an operator writes guardrails"),
        ] = None,
        standing_rules: Annotated[
            list[str] | None,
            Field(None, description="refused: only a rule owner writes standing rules"),
        ] = None,
        expected_version: Annotated[
            int | None,
            Field(None, ge=0, description="the version you read; a newer one is a conflict"),
        ] = None,
        agent: AgentArg = None,
    ) -> dict[str, Any]:
        raw = token_of_caller()
        given = {
            "name": name,
            "role": role,
            "goals": goals,
            "background": background,
            "guardrails": guardrails,
            "standing_rules": standing_rules,
        }
        changes = {k: v for k, v in given.items() if v is not None}

        def work() -> dict[str, Any]:
            from persona.models import SourceType
            from persona.services import ChangeTrigger, persona_version_create

            t = target(agent, None, raw)
            _no_nul(
                reason, name, role, goals, background, *(guardrails or []), *(standing_rules or [])
            )
            if not changes:
                raise services.HostInputError(
                    "Nothing to change: give name, role, goals or background."
                )
            version = persona_version_create(
                agent=t.agent,
                changes=changes,
                trigger=ChangeTrigger(
                    source_type=SourceType.UPDATE_PERSONA, reason=reason, approved_by=t.by
                ),
                expected_version=expected_version,
            )
            return {"version": version.version, "fields_changed": list(version.fields_changed)}

        return await run("persona_update", work)

    @server.tool(
        description=(
            "The system-prompt prefix to put first in every model call of this session "
            "(pinned and byte-stable; a persona change starts a new epoch with a reason)."
        )
    )
    async def prompt_prefix(
        session: Annotated[str, Field("", max_length=200, description="your session id")] = "",
        principal: PrincipalArg = None,
        agent: AgentArg = None,
    ) -> dict[str, Any]:
        raw = token_of_caller()

        def work() -> dict[str, Any]:
            t = target(agent, principal, raw)
            _no_nul(session)
            plan = services.prefix_plan(agent=t.agent, principal=t.principal, session=session)
            return {
                "prefix": plan.prefix_text,
                "sha256": plan.prefix_sha256,
                "epoch": plan.epoch,
                "persona_version": plan.persona_version,
                "tokens": plan.token_count,
                "rotated_reason": selectors.rotation_reason(plan),
            }

        return await run("prompt_prefix", work)

    @server.tool(
        description="Record one turn: the user's message and, optionally, the assistant's reply."
    )
    async def record_turn(
        conversation: Annotated[
            str, Field(min_length=1, max_length=200, description="your conversation label")
        ],
        user_text: Annotated[str, Field(min_length=1, max_length=100_000)],
        assistant_text: Annotated[str | None, Field(None, max_length=100_000)] = None,
        sealed: Annotated[
            bool | None,
            Field(None, description="true seals the conversation: learning never reads it"),
        ] = None,
        principal: PrincipalArg = None,
        agent: AgentArg = None,
    ) -> dict[str, Any]:
        raw = token_of_caller()

        def work() -> dict[str, Any]:
            t = target(agent, principal, raw)
            _no_nul(conversation, user_text, assistant_text)
            result = services.turn_record(
                agent=t.agent,
                principal=needs_person(t),
                conversation=conversation,
                user_text=user_text,
                assistant_text=assistant_text,
                sealed=sealed,
            )
            return {
                "conversation": result.conversation.external_id,
                "created_conversation": result.created_conversation,
                "sealed": result.conversation.sealed,
                "message_ids": [m.pk for m in result.messages],
            }

        return await run("record_turn", work)

    @server.tool(
        description="Learning status: settings, counters, waiting proposals with evidence, recent reviews."
    )
    async def learning_status(agent: AgentArg = None) -> dict[str, Any]:
        raw = token_of_caller()

        def work() -> dict[str, Any]:
            t = target(agent, None, raw)
            return _plain(selectors.learning_status_dict(agent=t.agent))

        return await run("learning_status", work)

    @server.tool(
        description="Queue a learning review now (a running or queued one is returned instead)."
    )
    async def review_now(agent: AgentArg = None) -> dict[str, Any]:
        raw = token_of_caller()

        def work() -> dict[str, Any]:
            t = target(agent, None, raw)
            review = services.review_request(agent=t.agent, by=t.by)
            return {"review_id": review.pk, "status": review.status}

        return await run("review_now", work)

    # --- memory (issue 11) ------------------------------------------------------------

    def person_of(t: Target) -> int:
        return person_id(t.agent.tenant_id, needs_person(t))

    @server.tool(
        description=(
            "What to know about the person for their message: beliefs ranked for it (with "
            "why), the pinned ones (boundaries, constraints, identity), the agenda and routine "
            "questions, and `text`, the same as a block to put in your prompt. Read-only."
        )
    )
    async def build_context(
        query: Annotated[
            str, Field(min_length=1, max_length=2000, description="the person's message")
        ],
        now: Annotated[
            str | None, Field(None, max_length=40, description="ISO 8601 time; default now")
        ] = None,
        limit: Annotated[int, Field(10, ge=1, le=100)] = 10,
        principal: PrincipalArg = None,
        agent: AgentArg = None,
    ) -> dict[str, Any]:
        raw = token_of_caller()

        def work() -> dict[str, Any]:
            t = target(agent, principal, raw, MEMORY_READ)
            _no_nul(query, now)
            person_of(t)
            return selectors.context_pack(
                agent=t.agent, principal=needs_person(t).strip(), query=query, now=now, limit=limit
            )

        return await run("build_context", work)

    @server.tool(
        description=(
            "Remember one fact the person stated about themselves. A restatement corroborates "
            "the belief it repeats (no second one); a contradiction supersedes the old belief, "
            "which keeps its history. Refused: secrets, text aimed at the model, a proactive "
            "(console) turn, a bad category or time."
        )
    )
    async def memory_write(
        category: Annotated[
            str,
            Field(
                max_length=30,
                description=(
                    "explicit_facts, expertise, projects, goals, likes, dislikes, constraints, "
                    "identity, traits, interests, style_notes, behavior_patterns, decision_style, "
                    "interpersonal, boundaries, habit or state"
                ),
            ),
        ],
        statement: Annotated[
            str, Field(min_length=1, max_length=500, description="one fact about the person")
        ],
        confidence: Annotated[StrictFloat, Field(ge=0, le=1, allow_inf_nan=False)],
        source: Annotated[
            str,
            Field(
                max_length=10,
                description="direct or bridge; console (a proactive turn) is refused",
            ),
        ],
        valid_from: Annotated[str | None, Field(None, max_length=40)] = None,
        valid_until: Annotated[str | None, Field(None, max_length=40)] = None,
        due: Annotated[str | None, Field(None, max_length=40)] = None,
        sensitivity: Annotated[
            str, Field("internal", max_length=20, description="public ... restricted")
        ] = "internal",
        principal: PrincipalArg = None,
        agent: AgentArg = None,
    ) -> dict[str, Any]:
        raw = token_of_caller()

        def work() -> dict[str, Any]:
            t = target(agent, principal, raw, MEMORY_WRITE)
            _no_nul(category, statement, source, valid_from, valid_until, due, sensitivity)
            return _plain(
                services.memory_write(
                    agent=t.agent,
                    principal=needs_person(t),
                    by=t.by,
                    category=category,
                    statement=statement,
                    confidence=confidence,
                    source=source,
                    valid_from=valid_from,
                    valid_until=valid_until,
                    due=due,
                    sensitivity=sensitivity,
                )
            )

        return await run("memory_write", work)

    @server.tool(
        description=(
            "The person's beliefs, newest first: every word of q in the statement, a "
            "category, a status (active by default; all for every status). Pass `next` as "
            "after for the next page."
        )
    )
    async def beliefs_search(
        q: Annotated[str | None, Field(None, max_length=200)] = None,
        category: Annotated[str | None, Field(None, max_length=30)] = None,
        status: Annotated[
            str,
            Field(
                "active", max_length=12, description="active, superseded, retired, deleted or all"
            ),
        ] = "active",
        limit: Annotated[int, Field(20, ge=1, le=100)] = 20,
        after: Annotated[str | None, Field(None, max_length=500)] = None,
        principal: PrincipalArg = None,
        agent: AgentArg = None,
    ) -> dict[str, Any]:
        raw = token_of_caller()

        def work() -> dict[str, Any]:
            t = target(agent, principal, raw, MEMORY_READ)
            _no_nul(q, category, status, after)
            return selectors.memory_page(
                tenant_id=t.agent.tenant_id,
                principal_id=person_of(t),
                category=category,
                status=status,
                text=q,
                after=after,
                limit=limit,
            )

        return await run("beliefs_search", work)

    def belief_reached(r: Reach, belief_id: int) -> Any:
        from memory.selectors_beliefs import belief_in_tenant

        belief = belief_in_tenant(
            tenant_id=r.tenant_id,
            belief_id=belief_id,
            principal_id=r.principal_id,
        )
        if belief is None:
            raise NotFound(NO_MEMORY_MESSAGE)
        return belief

    @server.tool(
        description=(
            "One belief with its evidence: the message and the person's words in it "
            "(withheld when the conversation is sealed), or the host that wrote it."
        )
    )
    async def belief_evidence(
        belief_id: Annotated[int, Field(ge=1, le=2**63 - 1)],
        principal: PrincipalArg = None,
    ) -> dict[str, Any]:
        raw = token_of_caller()

        def work() -> dict[str, Any]:
            belief = belief_reached(reach(principal, raw, MEMORY_READ), belief_id)
            return selectors.memory_detail(belief)

        return await run("belief_evidence", work)

    @server.tool(
        description=(
            "Take a belief out of recall (retired, history kept). delete=true also wipes its "
            "words and quote, e.g. when the person asks to forget it."
        )
    )
    async def belief_retire(
        belief_id: Annotated[int, Field(ge=1, le=2**63 - 1)],
        delete: Annotated[bool, Field(False, description="wipe the words too")] = False,
        principal: PrincipalArg = None,
    ) -> dict[str, Any]:
        raw = token_of_caller()

        def work() -> dict[str, Any]:
            from memory.services_beliefs import belief_retire as retire

            belief = belief_reached(reach(principal, raw, MEMORY_WRITE), belief_id)
            done = retire(belief=belief, delete=delete)
            return {"id": done.pk, "status": done.status}

        return await run("belief_retire", work)

    @server.tool(
        description=(
            "The person's intentions (one-off commitments), soonest due first, with their "
            "agenda score now: open ones by default, or done, dropped, missed, all."
        )
    )
    async def intentions_list(
        state: Annotated[str, Field("open", max_length=10)] = "open",
        limit: Annotated[int, Field(50, ge=1, le=100)] = 50,
        principal: PrincipalArg = None,
        agent: AgentArg = None,
    ) -> dict[str, Any]:
        raw = token_of_caller()

        def work() -> dict[str, Any]:
            from django.utils import timezone

            from memory.models import Intention
            from memory.selectors_beliefs import (
                ANY_STATUS,
                intention_dict,
                intentions_of_principal,
            )
            from memory.services_beliefs import BeliefRefusal

            t = target(agent, principal, raw, MEMORY_READ)
            _no_nul(state)
            if state != ANY_STATUS and state not in Intention.State.values:
                raise BeliefRefusal(
                    f"The state {state!r} is not one of "
                    f"{', '.join([*Intention.State.values, ANY_STATUS])}."
                )
            rows = intentions_of_principal(
                tenant_id=t.agent.tenant_id,
                principal_id=person_of(t),
                state=None if state == ANY_STATUS else state,
            )[:limit]
            now = timezone.now()
            return {"items": [intention_dict(i, now=now) for i in rows]}

        return await run("intentions_list", work)

    @server.tool(description="Mark one of the person's intentions done.")
    async def intention_done(
        intention_id: Annotated[int, Field(ge=1, le=2**63 - 1)],
        principal: PrincipalArg = None,
    ) -> dict[str, Any]:
        raw = token_of_caller()

        def work() -> dict[str, Any]:
            from django.utils import timezone

            from memory.models import Intention
            from memory.selectors_beliefs import intention_dict, intention_in_tenant
            from memory.services_beliefs import intention_set_state

            r = reach(principal, raw, MEMORY_WRITE)
            intention = intention_in_tenant(
                tenant_id=r.tenant_id,
                intention_id=intention_id,
                principal_id=r.principal_id,
            )
            if intention is None:
                raise NotFound(NO_MEMORY_MESSAGE)
            done = intention_set_state(intention=intention, state=Intention.State.DONE)
            return intention_dict(done, now=timezone.now())

        return await run("intention_done", work)

    @server.tool(
        description=(
            "Name a weekly routine of the person (weekdays 1 = Monday ... 7 = Sunday, at "
            "HH:MM). An explicit label confirms it; status=candidate for a single "
            "observation. The same action again updates it."
        )
    )
    async def routine_label(
        action: Annotated[str, Field(min_length=1, max_length=500)],
        weekdays: Annotated[list[int], Field(min_length=1, max_length=7)],
        time: Annotated[str, Field(max_length=8, description="HH:MM, e.g. 19:00")],
        anchor_date: Annotated[
            str | None, Field(None, max_length=10, description="YYYY-MM-DD; default today")
        ] = None,
        valid_until: Annotated[str | None, Field(None, max_length=10)] = None,
        status: Annotated[
            str, Field("confirmed", max_length=10, description="confirmed or candidate")
        ] = "confirmed",
        principal: PrincipalArg = None,
        agent: AgentArg = None,
    ) -> dict[str, Any]:
        raw = token_of_caller()

        def work() -> dict[str, Any]:
            from django.utils import timezone

            from memory.selectors_beliefs import routine_dict
            from memory.services_beliefs import routine_label as label

            t = target(agent, principal, raw, MEMORY_WRITE)
            _no_nul(action, time, anchor_date, valid_until, status)
            routine = label(
                agent=t.agent,
                principal_external_id=needs_person(t),
                action=action,
                weekdays=weekdays,
                time=time,
                anchor_date=anchor_date or timezone.localdate().isoformat(),
                valid_until=valid_until,
                status=status,
            )
            return routine_dict(routine)

        return await run("routine_label", work)

    @server.tool(
        description=(
            "What the person answered to a routine question: confirmed, skipped_today (only "
            "today's question is dropped), denied (pauses the routine) or silence."
        )
    )
    async def routine_feedback(
        routine_id: Annotated[int, Field(ge=1, le=2**63 - 1)],
        feedback: Annotated[str, Field(max_length=15)],
        principal: PrincipalArg = None,
    ) -> dict[str, Any]:
        raw = token_of_caller()

        def work() -> dict[str, Any]:
            from memory.selectors_beliefs import routine_dict, routine_in_tenant
            from memory.services_beliefs import routine_feedback as record

            r = reach(principal, raw, MEMORY_WRITE)
            _no_nul(feedback)
            routine = routine_in_tenant(
                tenant_id=r.tenant_id,
                routine_id=routine_id,
                principal_id=r.principal_id,
            )
            if routine is None:
                raise NotFound(NO_MEMORY_MESSAGE)
            return routine_dict(record(routine=routine, feedback=feedback))

        return await run("routine_feedback", work)

    # --- the owner's persona document (issue 12) ------------------------------------------

    def owner_of(principal: str | None, token_raw: str | None, scope: str) -> Any:
        """The person whose document a call is about. stdio: the server's person (or the
        one named, when it was started without one). HTTP: the person the caller's token
        is bound to; naming anyone else is "not found", like a person who does not exist."""
        if binding.is_stdio:
            t = target(None, principal, None)
            if not t.principal:
                raise services.HostInputError(
                    "Say whose persona document this is: pass principal=<the person's id in "
                    "your app>."
                )
            person = selectors.principal_in_tenant(
                tenant_id=t.agent.tenant_id, external_id=t.principal.strip()
            )
        else:
            _no_nul(principal)
            person = services.persona_access(raw=token_raw, scope=scope).principal
            if person is not None and principal and principal.strip() != person.external_id:
                person = None
        if person is None:
            raise NotFound(NO_PERSON_MESSAGE)
        return person

    @server.tool(
        description=(
            "The person's own persona document (what they wrote or affirmed about "
            "themselves): its version and entries, permanent first, then the most "
            "reinforced, each with its key, provenance and stale / dormant flags. Read-only."
        )
    )
    async def persona_entries_list(principal: PrincipalArg = None) -> dict[str, Any]:
        raw = token_of_caller()

        def work() -> dict[str, Any]:
            person = owner_of(principal, raw, PERSONA_READ)
            return _plain(selectors.owner_doc_dict(person.pk, listing=True))

        return await run("persona_entries_list", work)

    @server.tool(
        description=(
            "Reinforce one entry of the person's persona document (it came up again and "
            "held): its count and time go up, and a dormant working entry returns to the "
            "prompt. The text never changes: only the person writes it."
        )
    )
    async def persona_entry_reinforce(
        key: Annotated[
            str,
            Field(
                min_length=1, max_length=32, description="the entry's key (persona_entries_list)"
            ),
        ],
        principal: PrincipalArg = None,
    ) -> dict[str, Any]:
        raw = token_of_caller()

        def work() -> dict[str, Any]:
            from persona.owner import owner_entry_reinforce

            _no_nul(key)
            person = owner_of(principal, raw, PERSONA_WRITE)
            entry = owner_entry_reinforce(principal=person, key=key)
            return _plain(selectors.owner_entry_dict(entry))

        return await run("persona_entry_reinforce", work)

    return server


class TokenVerifier:
    """The SDK's bearer check for streamable HTTP: a live token with scope ``host``."""

    async def verify_token(self, token: str) -> Any:
        from mcp.server.auth.provider import AccessToken

        def check() -> Any:
            close_old_connections()
            try:
                return services.token_authenticate(raw=token, scope="host")
            except ApiError:
                return None
            finally:
                close_old_connections()

        access = await anyio.to_thread.run_sync(check)
        if access is None:
            return None
        return AccessToken(
            token=token, client_id=f"token:{access.token.pk}", scopes=list(access.token.scopes)
        )


def _http_auth(http_base: str | None) -> dict[str, Any]:
    """The SDK's bearer-token wiring for streamable HTTP: personaweb is a resource server
    that checks its own tokens (it issues none over OAuth)."""
    if http_base is None:
        return {}
    from mcp.server.auth.settings import AuthSettings

    return {
        "auth": AuthSettings(
            issuer_url=http_base,  # type: ignore[arg-type]
            resource_server_url=f"{http_base}/mcp",  # type: ignore[arg-type]
            required_scopes=["host"],
            validate_token_resource=False,
        ),
        "token_verifier": TokenVerifier(),
    }


def build_http_app(*, host: str, port: int, timeout: float | None = None) -> Any:
    """The streamable HTTP app (Starlette) at ``/mcp``, behind the bearer tokens."""
    server = build_server(timeout=timeout, http_base=f"http://{host}:{port}")
    return server.streamable_http_app(host=host)
