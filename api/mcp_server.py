"""The MCP server (official ``mcp`` SDK, ``MCPServer``): the host operations of
``api.operations`` as tools, one tool per operation, mounted from that table.

Two ways to serve it (``manage.py mcp``):

* stdio, ``--agent SLUG --principal P``: started by the MCP client on the same machine
  as a local process, trusted like the CLI for that one agent and that one person (the
  actor of ``api.services.actor_for_stdio``). ``--tenant-wide`` instead of
  ``--principal`` serves every person of the agent's tenant: only for a host that keeps
  its people apart itself.
* streamable HTTP, ``--http 127.0.0.1:PORT``: the same bearer tokens as /v1 (scope
  ``host`` to connect); each tool call is authorised by ``api.operations.authorize`` for
  the token's actor, exactly as the /v1 route of the same operation is.

Every call runs in a worker thread bounded by ``PERSONAWEB_MCP_TOOL_TIMEOUT`` seconds (8
by default) and ends as an error result, never an exception, when it is refused, fails
or takes too long: a failing memory must never take the host's conversation down. (A
call stopped by the timeout may still finish its work in the background; the host is no
longer waiting for it.)
"""

from __future__ import annotations

import inspect
import logging
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from typing import Annotated, Any, Literal, TypeVar

import anyio
from django.conf import settings
from django.db import close_old_connections
from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.types import ToolAnnotations
from pydantic import Field, StrictFloat

from api import handlers, services
from api import http as _http_routes  # noqa: F401 - registers each answer's type (handlers.ANSWERS)
from api import http_memory as _memory_routes  # noqa: F401
from api import http_persona as _persona_routes  # noqa: F401
from api.errors import ApiError
from api.operations import (
    OPERATIONS,
    PREFIX_OPERATIONS,
    Operation,
    Target,
    authorize,
    enabled_operations,
    token_actor,
)
from memory.context import MAX_QUERY_CHARS
from memory.services import MAX_LABEL_CHARS, MAX_MESSAGE_CHARS
from memory.services_beliefs import (
    MAX_ACTION_CHARS,
    MAX_CATEGORY_CHARS,
    MAX_STATEMENT_CHARS,
    MAX_TIME_CHARS,
)
from persona.forms import MAX_VERSION
from persona.owner import MAX_ENTRIES
from persona.services import (
    MAX_FIELD_CHARS,
    MAX_NAME_CHARS,
    MAX_REASON_CHARS,
    MAX_ROLE_CHARS,
    MAX_RULE_CHARS,
)
from personaweb import __version__
from personaweb.actors import Actor
from personaweb.errors import Refusal
from tenancy.models import MAX_SLUG_CHARS

logger = logging.getLogger(__name__)

T = TypeVar("T")

#: Every tool (one per host operation, in the table's order).
TOOLS = tuple(op.name for op in OPERATIONS)
MAX_ID = 2**63 - 1

AgentArg = Annotated[
    str | None,
    Field(
        None,
        max_length=MAX_SLUG_CHARS,
        description="agent slug; leave out when the server or the token is bound to one agent",
    ),
]
PrincipalArg = Annotated[
    str | None,
    Field(
        None,
        max_length=MAX_LABEL_CHARS,
        description=(
            "the person, by the host's id; leave out when the server or the token is bound "
            "to one person"
        ),
    ),
]
Id = Annotated[int, Field(ge=1, le=MAX_ID)]
Cursor = Annotated[str | None, Field(None, max_length=500, description="`next` of the page before")]


@dataclass(frozen=True)
class Binding:
    """Who the server acts for. stdio: a fixed agent and person (or the whole tenant).
    HTTP: the caller's token."""

    agent_slug: str | None = None
    principal: str | None = None
    tenant_wide: bool = False

    @property
    def is_stdio(self) -> bool:
        return self.agent_slug is not None

    def stdio_actor(self) -> Actor:
        from tenancy.models import Agent

        agent = Agent.objects.filter(slug=self.agent_slug).first()
        if agent is None:
            raise services.HostInputError(
                f"No agent with the slug {self.agent_slug!r}; start the server with an existing agent."
            )
        return services.actor_for_stdio(
            agent=agent, principal=self.principal, tenant_wide=self.tenant_wide
        )


# --- the tools' own arguments (the agent and the person are added from the table) ---------


def _persona_update(
    t: Target,
    reason: Annotated[
        str,
        Field(min_length=1, max_length=MAX_REASON_CHARS, description="why (kept in the history)"),
    ],
    name: Annotated[str | None, Field(None, max_length=MAX_NAME_CHARS)] = None,
    role: Annotated[str | None, Field(None, max_length=MAX_ROLE_CHARS)] = None,
    goals: Annotated[str | None, Field(None, max_length=MAX_FIELD_CHARS)] = None,
    background: Annotated[str | None, Field(None, max_length=MAX_FIELD_CHARS)] = None,
    guardrails: Annotated[
        list[str] | None,
        Field(None, description="refused: only host code or an operator writes guardrails"),
    ] = None,
    standing_rules: Annotated[
        list[str] | None,
        Field(None, description="refused: only a rule owner writes standing rules"),
    ] = None,
    expected_version: Annotated[
        int | None, Field(None, ge=0, description="the version you read; a newer one is a conflict")
    ] = None,
) -> dict[str, Any]:
    given = {
        "name": name,
        "role": role,
        "goals": goals,
        "background": background,
        "guardrails": guardrails,
        "standing_rules": standing_rules,
    }
    _no_nul(reason, name, role, goals, background, *(guardrails or []), *(standing_rules or []))
    changes = {k: v for k, v in given.items() if v is not None}
    return handlers.persona_update(
        t, reason=reason, changes=changes, expected_version=expected_version
    )


def _prompt_prefix(
    t: Target,
    session: Annotated[
        str, Field("", max_length=MAX_LABEL_CHARS, description="your session id")
    ] = "",
) -> dict[str, Any]:
    return handlers.prompt_prefix(t, session=session)


def _prompt_explain(
    t: Target,
    session: Annotated[
        str, Field("", max_length=MAX_LABEL_CHARS, description="your session id")
    ] = "",
) -> dict[str, Any]:
    _no_nul(session)
    return handlers.prompt_explain(t, session=session)


def _record_turn(
    t: Target,
    conversation: Annotated[
        str,
        Field(min_length=1, max_length=MAX_LABEL_CHARS, description="your conversation label"),
    ],
    user_text: Annotated[str, Field(min_length=1, max_length=MAX_MESSAGE_CHARS)],
    assistant_text: Annotated[str | None, Field(None, max_length=MAX_MESSAGE_CHARS)] = None,
    sealed: Annotated[
        bool | None, Field(None, description="true seals the conversation: learning never reads it")
    ] = None,
    context_pack: Annotated[
        int | None,
        Field(
            None,
            ge=1,
            le=MAX_ID,
            description=(
                "the pack_id build_context answered: links the reply to the memories that "
                "shaped it (needs assistant_text)"
            ),
        ),
    ] = None,
) -> dict[str, Any]:
    _no_nul(conversation, user_text, assistant_text)
    return handlers.record_turn(
        t,
        conversation=conversation,
        user_text=user_text,
        assistant_text=assistant_text,
        sealed=sealed,
        context_pack=context_pack,
    )


def _paged(fn: Callable[..., dict[str, Any]]) -> Callable[..., dict[str, Any]]:
    def tool(
        t: Target,
        after: Cursor = None,
        limit: Annotated[int, Field(50, ge=1, le=100)] = 50,
    ) -> dict[str, Any]:
        _no_nul(after)
        return fn(t, after=after, limit=limit)

    return tool


def _review_get(t: Target, review_id: Id) -> dict[str, Any]:
    return handlers.review_get(t, review_id=review_id)


def _proposal_approve(
    t: Target,
    proposal_id: Id,
    text: Annotated[
        str | None,
        Field(None, max_length=MAX_RULE_CHARS, description="apply it in your words instead"),
    ] = None,
) -> dict[str, Any]:
    _no_nul(text)
    return handlers.proposal_approve(t, proposal_id=proposal_id, text=text)


def _proposal_turn_down(t: Target, proposal_id: Id) -> dict[str, Any]:
    return handlers.proposal_turn_down(t, proposal_id=proposal_id)


def _build_context(
    t: Target,
    query: Annotated[
        str, Field(min_length=1, max_length=MAX_QUERY_CHARS, description="the person's message")
    ],
    now: Annotated[
        str | None, Field(None, max_length=MAX_TIME_CHARS, description="ISO 8601 time; default now")
    ] = None,
    limit: Annotated[int, Field(10, ge=1, le=100)] = 10,
) -> dict[str, Any]:
    _no_nul(query, now)
    return handlers.build_context(t, query=query, now=now, limit=limit)


def _memory_write(
    t: Target,
    category: Annotated[
        str,
        Field(
            max_length=MAX_CATEGORY_CHARS,
            description=(
                "explicit_facts, expertise, projects, goals, likes, dislikes, constraints, "
                "identity, traits, interests, style_notes, behavior_patterns, decision_style, "
                "interpersonal, boundaries, habit or state"
            ),
        ),
    ],
    statement: Annotated[
        str,
        Field(
            min_length=1, max_length=MAX_STATEMENT_CHARS, description="one fact about the person"
        ),
    ],
    confidence: Annotated[StrictFloat, Field(ge=0, le=1, allow_inf_nan=False)],
    source: Annotated[
        str,
        Field(max_length=10, description="direct or bridge; console (a proactive turn) is refused"),
    ],
    valid_from: Annotated[str | None, Field(None, max_length=MAX_TIME_CHARS)] = None,
    valid_until: Annotated[str | None, Field(None, max_length=MAX_TIME_CHARS)] = None,
    due: Annotated[str | None, Field(None, max_length=MAX_TIME_CHARS)] = None,
    sensitivity: Annotated[
        str, Field("internal", max_length=20, description="public ... restricted")
    ] = "internal",
) -> dict[str, Any]:
    _no_nul(category, statement, source, valid_from, valid_until, due, sensitivity)
    return handlers.memory_write(
        t,
        category=category,
        statement=statement,
        confidence=confidence,
        source=source,
        valid_from=valid_from,
        valid_until=valid_until,
        due=due,
        sensitivity=sensitivity,
    )


def _beliefs_search(
    t: Target,
    q: Annotated[str | None, Field(None, max_length=200)] = None,
    category: Annotated[str | None, Field(None, max_length=MAX_CATEGORY_CHARS)] = None,
    status: Annotated[
        str,
        Field(
            "active",
            max_length=12,
            description="active, superseded, retired, sealed, deleted or all",
        ),
    ] = "active",
    limit: Annotated[int, Field(20, ge=1, le=100)] = 20,
    after: Cursor = None,
) -> dict[str, Any]:
    _no_nul(q, category, status, after)
    return handlers.beliefs_search(
        t, q=q, category=category, status=status, after=after, limit=limit
    )


def _belief_evidence(t: Target, belief_id: Id) -> dict[str, Any]:
    return handlers.belief_evidence(t, belief_id=belief_id)


def _belief_retire(
    t: Target,
    belief_id: Id,
    delete: Annotated[bool, Field(False, description="wipe the words too")] = False,
) -> dict[str, Any]:
    return handlers.belief_retire(t, belief_id=belief_id, delete=delete)


def _intentions_list(
    t: Target,
    state: Annotated[str, Field("open", max_length=10)] = "open",
    limit: Annotated[int, Field(50, ge=1, le=100)] = 50,
) -> dict[str, Any]:
    _no_nul(state)
    return handlers.intentions_list(t, state=state, limit=limit)


def _intention_done(t: Target, intention_id: Id) -> dict[str, Any]:
    return handlers.intention_done(t, intention_id=intention_id)


def _routine_label(
    t: Target,
    action: Annotated[str, Field(min_length=1, max_length=MAX_ACTION_CHARS)],
    weekdays: Annotated[list[int], Field(min_length=1, max_length=7)],
    time: Annotated[str, Field(max_length=8, description="HH:MM, e.g. 19:00")],
    anchor_date: Annotated[
        str | None, Field(None, max_length=10, description="YYYY-MM-DD; default today")
    ] = None,
    valid_until: Annotated[str | None, Field(None, max_length=10)] = None,
    status: Annotated[
        str, Field("confirmed", max_length=10, description="confirmed or candidate")
    ] = "confirmed",
) -> dict[str, Any]:
    _no_nul(action, time, anchor_date, valid_until, status)
    return handlers.routine_label(
        t,
        action=action,
        weekdays=weekdays,
        time=time,
        anchor_date=anchor_date,
        valid_until=valid_until,
        status=status,
    )


def _routine_feedback(
    t: Target, routine_id: Id, feedback: Annotated[str, Field(max_length=15)]
) -> dict[str, Any]:
    _no_nul(feedback)
    return handlers.routine_feedback(t, routine_id=routine_id, feedback=feedback)


def _persona_entries_list(
    t: Target,
    order: Annotated[
        Literal["document", "listing"],
        Field(
            "document",
            description="document: as written; listing: permanent first, then the most reinforced",
        ),
    ] = "document",
) -> dict[str, Any]:
    return handlers.persona_entries_list(t, order=order)


def _persona_document_write(
    t: Target,
    expected_version: Annotated[
        int, Field(ge=0, le=MAX_VERSION, description="the version you edited")
    ],
    entries: Annotated[
        list[dict[str, Any]],
        Field(
            max_length=MAX_ENTRIES,
            description=(
                "the whole document in order, each {key?, text, sensitivity?, tier?}: what is "
                "left out is removed"
            ),
        ),
    ],
) -> dict[str, Any]:
    return handlers.persona_document_write(t, expected_version=expected_version, entries=entries)


def _persona_history(
    t: Target, after: Cursor = None, limit: Annotated[int, Field(20, ge=1, le=50)] = 20
) -> dict[str, Any]:
    _no_nul(after)
    return handlers.persona_history(t, after=after, limit=limit)


def _nominations_list(
    t: Target,
    state: Annotated[
        str | None,
        Field(None, max_length=10, description="nominated, affirmed, declined or withdrawn"),
    ] = None,
    after: Cursor = None,
    limit: Annotated[int, Field(50, ge=1, le=100)] = 50,
) -> dict[str, Any]:
    _no_nul(state, after)
    return handlers.nominations_list(t, state=state, after=after, limit=limit)


def _nomination_affirm(t: Target, nomination_id: Id) -> dict[str, Any]:
    return handlers.nomination_affirm(t, nomination_id=nomination_id)


def _nomination_decline(t: Target, nomination_id: Id) -> dict[str, Any]:
    return handlers.nomination_decline(t, nomination_id=nomination_id)


def _persona_entry_reinforce(
    t: Target,
    key: Annotated[
        str,
        Field(min_length=1, max_length=32, description="the entry's key (persona_entries_list)"),
    ],
) -> dict[str, Any]:
    _no_nul(key)
    return handlers.persona_entry_reinforce(t, key=key)


#: operation -> (the tool function, its description for the model)
TOOL_FUNCTIONS: dict[str, tuple[Callable[..., dict[str, Any]], str]] = {
    "agents_list": (
        _paged(handlers.agents_list),
        "The agents this caller reaches (one for a caller bound to an agent), by slug.",
    ),
    "persona_read": (
        handlers.persona_read,
        "Read the agent's persona: name, role, goals, background, guardrails, standing rules, version.",
    ),
    "persona_update": (
        _persona_update,
        "Change the agent's name, role, goals or background; writes a new persona version "
        "(source update_persona) with your reason. Guardrails and standing rules cannot be "
        "changed here: such a change is refused and nothing is written.",
    ),
    "record_turn": (
        _record_turn,
        "Record one turn: the user's message and, optionally, the assistant's reply.",
    ),
    "prompt_prefix": (
        _prompt_prefix,
        "The system-prompt prefix to put first in every model call of this session "
        "(pinned and byte-stable; a persona change starts a new epoch with a reason).",
    ),
    "prompt_explain": (
        _prompt_explain,
        "Every line of this session's prompt prefix with where it came from: the persona "
        "version that gave it its form and how (an edit by whom and why, a revert, or a "
        "learned proposal with who approved it and its quotes), or the owner-document "
        "entry (typed by the person, or affirmed from a belief, with its evidence). "
        "Read-only.",
    ),
    "learning_status": (
        handlers.learning_status,
        "Learning status: settings, counters, waiting proposals with evidence, recent reviews.",
    ),
    "reviews_list": (_paged(handlers.reviews_list), "The agent's reviews, newest first."),
    "review_get": (_review_get, "A review's status and outcome."),
    "review_now": (
        handlers.review_now,
        "Queue a learning review now (a running or queued one is returned instead).",
    ),
    "proposal_approve": (
        _proposal_approve,
        "Approve a waiting proposal (text: apply it in your words). Needs a caller bound "
        "to a reviewer's login; standing rules only by their owners.",
    ),
    "proposal_turn_down": (
        _proposal_turn_down,
        "Turn a waiting proposal down; it is never proposed again.",
    ),
    "undo": (handlers.undo, "Take back the latest learned change still in force."),
    "beliefs_search": (
        _beliefs_search,
        "The person's beliefs, newest first: every word of q in the statement, a category, "
        "a status (active by default; all for every status). Pass `next` as after for the "
        "next page.",
    ),
    "belief_evidence": (
        _belief_evidence,
        "One belief with its evidence: the message and the person's words in it (withheld "
        "when the conversation is sealed), or the host that wrote it.",
    ),
    "build_context": (
        _build_context,
        "What to know about the person for their message: beliefs ranked for it (with "
        "why), the pinned ones (boundaries, constraints, identity), the agenda and routine "
        "questions, and `text`, the same as a block to put in your prompt. Read-only.",
    ),
    "memory_write": (
        _memory_write,
        "Remember one fact the person stated about themselves. A restatement corroborates "
        "the belief it repeats (no second one); a contradiction supersedes the old belief, "
        "which keeps its history. Refused: secrets, text aimed at the model, a proactive "
        "(console) turn, a bad category or time.",
    ),
    "belief_retire": (
        _belief_retire,
        "Take a belief out of recall (retired, history kept). delete=true also wipes its "
        "words and quote, e.g. when the person asks to forget it.",
    ),
    "intentions_list": (
        _intentions_list,
        "The person's intentions (one-off commitments), soonest due first, with their "
        "agenda score now: open ones by default, or done, dropped, missed, all.",
    ),
    "intention_done": (_intention_done, "Mark one of the person's intentions done."),
    "routine_label": (
        _routine_label,
        "Name a weekly routine of the person (weekdays 1 = Monday ... 7 = Sunday, at "
        "HH:MM). An explicit label confirms it; status=candidate for a single observation. "
        "The same action again updates it.",
    ),
    "routine_feedback": (
        _routine_feedback,
        "What the person answered to a routine question: confirmed, skipped_today (only "
        "today's question is dropped), denied (pauses the routine) or silence.",
    ),
    "persona_entries_list": (
        _persona_entries_list,
        "The person's own persona document (what they wrote or affirmed about themselves): "
        "its version and entries in order, each with its key, provenance and stale / "
        "dormant flags. Read-only.",
    ),
    "persona_document_write": (
        _persona_document_write,
        "Replace the entries of the person's own persona document (the whole list, with the "
        "version you read): only for a caller bound to that person, who writes it.",
    ),
    "persona_history": (
        _persona_history,
        "Every version of the person's document, newest first, each with its entries.",
    ),
    "nominations_list": (
        _nominations_list,
        "What memory proposes for the person's document, newest first, with the words they "
        "came from.",
    ),
    "nomination_affirm": (
        _nomination_affirm,
        "Move a nominated statement into the person's document (an affirmed entry).",
    ),
    "nomination_decline": (
        _nomination_decline,
        "Decline a nomination for good: the statement is never nominated again.",
    ),
    "persona_entry_reinforce": (
        _persona_entry_reinforce,
        "Reinforce one entry of the person's persona document (it came up again and held): "
        "its count and time go up, and a dormant working entry returns to the prompt. The "
        "text never changes: only the person writes it.",
    ),
}
assert set(TOOL_FUNCTIONS) == set(TOOLS), "every operation is a tool, and nothing else"


def _no_nul(*values: str | None) -> None:
    for value in values:
        if value is not None and "\x00" in value:
            raise services.HostInputError("Text may not contain NUL characters.")


def _takes_agent(op: Operation) -> bool:
    return op.reach == "agent" or op.needs_agent or op.agent_filter or op.agent_optional


def _takes_principal(op: Operation) -> bool:
    return op.reach in ("person", "document") or op.name in PREFIX_OPERATIONS


def _annotations(op: Operation) -> ToolAnnotations:
    return ToolAnnotations(
        read_only_hint=op.read_only,
        destructive_hint=op.destructive,
        idempotent_hint=op.idempotent,
        open_world_hint=False,
    )


def build_server(
    *,
    agent_slug: str | None = None,
    principal: str | None = None,
    tenant_wide: bool = False,
    timeout: float | None = None,
    http_base: str | None = None,
) -> MCPServer:
    """The MCP server. With ``agent_slug`` it serves that agent over stdio, for the person
    ``principal`` (or, with ``tenant_wide``, every person of the tenant); without, each
    call is authorised by the caller's bearer token (streamable HTTP at ``http_base``)."""
    if (agent_slug is None) == (http_base is None):
        raise ValueError("give agent_slug (stdio) or http_base (streamable HTTP), not both")
    if agent_slug is not None and not (principal or tenant_wide):
        raise ValueError("stdio serves one person: give principal, or tenant_wide=True")
    binding = Binding(agent_slug=agent_slug, principal=(principal or None), tenant_wide=tenant_wide)
    limit = float(timeout if timeout is not None else settings.PERSONAWEB_MCP_TOOL_TIMEOUT)
    server: MCPServer = MCPServer(
        "personaweb",
        version=__version__,
        instructions=(
            "personaweb keeps this assistant's persona and its conversations. Call "
            "prompt_prefix at the start of every turn and put the prefix first in the system "
            "prompt; call record_turn after each turn. persona_update changes name, role, "
            "goals or background only: guardrails and standing rules are refused. "
            "build_context tells what to know about the person for their message; "
            "memory_write stores one fact the person stated (never from a proactive turn). "
            "persona_entries_list shows the person's own persona document; "
            "persona_entry_reinforce marks an entry as holding again. Only the person (a "
            "caller bound to them) writes that document's text."
        ),
        log_level="WARNING",
    )

    async def run(name: str, fn: Callable[[], T]) -> T:
        """Run ``fn`` in a thread, bounded by the timeout; anything but a result becomes
        an error result (``ToolError``) with a sentence."""

        def in_thread() -> T:
            # Each call gets a connection of its own: anyio runs ``in_thread`` in a copy of
            # the caller's context and Django keeps connections per context and thread
            # (asgiref ``Local``), so a call stopped by the timeout takes its open
            # transaction with it and never hands it to the next call on this thread
            # (tests/api/test_mcp_cold_call.py).
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

    def mount(op: Operation) -> None:
        fn, description = TOOL_FUNCTIONS[op.name]
        own = list(inspect.signature(fn, eval_str=True).parameters.values())[1:]
        params = [p.replace(kind=inspect.Parameter.KEYWORD_ONLY) for p in own]
        if _takes_principal(op):
            params.append(
                inspect.Parameter(
                    "principal",
                    inspect.Parameter.KEYWORD_ONLY,
                    default=None,
                    annotation=PrincipalArg,
                )
            )
        if _takes_agent(op):
            params.append(
                inspect.Parameter(
                    "agent", inspect.Parameter.KEYWORD_ONLY, default=None, annotation=AgentArg
                )
            )

        async def tool(**kwargs: Any) -> dict[str, Any]:
            raw = token_of_caller()
            agent = kwargs.pop("agent", None)
            person = kwargs.pop("principal", None)

            def work() -> dict[str, Any]:
                actor = binding.stdio_actor() if binding.is_stdio else token_actor(raw)
                target = authorize(op.name, actor=actor, agent=agent, principal=person)
                return handlers.answer(op.name, fn(target, **kwargs))

            return await run(op.name, work)

        tool.__signature__ = inspect.Signature(  # type: ignore[attr-defined]
            params, return_annotation=dict[str, Any]
        )
        tool.__name__ = op.name
        tool.__doc__ = description
        server.add_tool(tool, name=op.name, description=description, annotations=_annotations(op))

    for op in enabled_operations():
        mount(op)
    return server


MCP_PATH = "/mcp"
#: the body of a 401 over streamable HTTP: how to get a token (no OAuth is offered)
TOKEN_HELP = (
    "Send a personaweb API token with scope host: Authorization: Bearer <token>. Make one "
    "with `python manage.py api token create --name HOST --tenant TENANT --scopes host` "
    "(add memory.read, memory.write, ... for the memory tools) or on the API tokens page."
)


def _check_bearer(raw: str) -> tuple[Any, ApiError | None]:
    """(the token's AccessToken, None) for a live token with scope ``host``, else (None,
    the refusal). Runs in a worker thread (it reads the database)."""
    from mcp.server.auth.provider import AccessToken

    close_old_connections()
    try:
        access = services.token_authenticate(raw=raw, scope="host")
    except ApiError as exc:
        return None, exc
    finally:
        close_old_connections()
    return (
        AccessToken(
            token=raw, client_id=f"token:{access.token.pk}", scopes=list(access.token.scopes)
        ),
        None,
    )


class BearerTokens:
    """Plain bearer tokens in front of streamable HTTP (ASGI middleware): personaweb's
    own API tokens, scope ``host``. No OAuth: a missing or refused token is a 401 whose
    body says how to make one, and ``WWW-Authenticate`` names no metadata (the SDK's
    ``AuthSettings`` would advertise an authorization server that does not exist). The
    token is put where the SDK's ``get_access_token`` finds it, so each tool call
    authorises its own operation with it (``token_actor``)."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http" or not scope.get("path", "").startswith(MCP_PATH):
            # lifespan, and every other path: a 404 (a client probing for OAuth metadata
            # learns there is none)
            await self.app(scope, receive, send)
            return
        from mcp.server.auth.middleware.auth_context import auth_context_var
        from mcp.server.auth.middleware.bearer_auth import AuthenticatedUser

        header = ""
        for key, value in scope.get("headers") or []:
            if key.lower() == b"authorization":
                header = value.decode("latin-1")
                break
        kind, _, raw = header.partition(" ")
        access, refusal = None, None
        if kind.lower() == "bearer" and raw.strip():
            access, refusal = await anyio.to_thread.run_sync(_check_bearer, raw.strip())
        if access is None:
            await _send_refusal(send, refusal)
            return
        user = AuthenticatedUser(access)
        scope = {**scope, "user": user}
        context = auth_context_var.set(user)
        try:
            await self.app(scope, receive, send)
        finally:
            auth_context_var.reset(context)


async def _send_refusal(send: Any, refusal: ApiError | None) -> None:
    """401 (no token, or not a live one) or 403 (no scope host), with a sentence; the
    ``WWW-Authenticate`` challenge names the realm only."""
    import json

    status, error = (
        (403, "insufficient_scope") if refusal and refusal.status == 403 else (401, "invalid_token")
    )
    message = TOKEN_HELP if refusal is None else f"{refusal.message} {TOKEN_HELP}"
    body = json.dumps({"error": error, "error_description": message}, ensure_ascii=False).encode()
    challenge = f'Bearer realm="personaweb", error="{error}"'.encode()
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", b"application/json; charset=utf-8"),
                (b"content-length", str(len(body)).encode()),
                (b"www-authenticate", challenge),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})


def build_http_app(*, host: str, port: int, timeout: float | None = None) -> Any:
    """The streamable HTTP app (Starlette) at ``/mcp``, behind the bearer tokens."""
    server = build_server(timeout=timeout, http_base=f"http://{host}:{port}")
    app = server.streamable_http_app(host=host, streamable_http_path=MCP_PATH)
    app.add_middleware(BearerTokens)
    return app
