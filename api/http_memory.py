"""The memory routes of /v1 (issue 11): a person's beliefs, one belief with its
evidence, the context pack of ``build_context``, and a host's belief write.

Mounted by ``api.http`` (``api.add_router``) under the same conventions as every /v1
route: bearer tokens checked by ``token_authenticate`` (scopes ``memory.read`` and
``memory.write``), the error envelope, keyset pages. Memory belongs to a person of the
token's tenant, whichever agent formed it (``build_context`` reads it that way); an
unknown person, another tenant's person or belief, and an agent the token does not reach
are all the same 404. Reads and writes go through ``memory.selectors_beliefs``,
``memory.context`` and ``memory.services_beliefs``, as the CLI does.
"""

from __future__ import annotations

import re
from datetime import date, datetime
from typing import Annotated, Any, Literal

from django.http import HttpRequest
from ninja import Field, Query, Router, Schema
from pydantic import AfterValidator, BeforeValidator, StrictBool, StrictFloat

from api import handlers, services
from api.http import (
    ERRORS,
    FILLED,
    Cursor,
    Id,
    Limit,
    Text,
    _no_nul,
    _target,
    route,
)
from memory.context import MAX_QUERY_CHARS
from memory.models_beliefs import SENSITIVITY_BY_NAME, BeliefCategory, MemorySource
from memory.services import MAX_LABEL_CHARS
from memory.services_beliefs import (
    MAX_ACTION_CHARS,
    MAX_CATEGORY_CHARS,
    MAX_STATEMENT_CHARS,
    validate_category,
)
from tenancy.models import MAX_SLUG_CHARS

SLUG_PATTERN = r"^[-a-zA-Z0-9_]+$"

router = Router(tags=["memory"])

# --- types ---------------------------------------------------------------------------

_ISO_START = re.compile(r"^\d{4}-\d{2}-\d{2}[T ]")


def _iso_text(value: Any) -> Any:
    # pydantic would read a number (or a text of digits) as seconds since 1970 and a bare
    # date as midnight; the contract is an ISO 8601 time
    if value is not None and (not isinstance(value, str) or not _ISO_START.match(value)):
        raise ValueError(
            "give the time as ISO 8601 text with an offset, e.g. 2026-11-29T12:00:00+00:00"
        )
    return value


IsoTime = Annotated[datetime | None, BeforeValidator(_iso_text)]
Person = Annotated[
    str | None,
    Query(
        None,
        min_length=1,
        max_length=MAX_LABEL_CHARS,
        pattern=FILLED,
        description="the person, by your id (left out: the person the token is bound to)",
        example="ana",
    ),
]
AgentFilter = Annotated[
    str | None,
    Query(
        None,
        min_length=1,
        max_length=MAX_SLUG_CHARS,
        pattern=SLUG_PATTERN,
        description="only beliefs this agent formed (a token bound to an agent may name only it)",
    ),
]
ContextAgent = Annotated[
    str | None,
    Query(
        None,
        min_length=1,
        max_length=MAX_SLUG_CHARS,
        pattern=SLUG_PATTERN,
        description=(
            "optional: the pack is about the person, whichever agent of the tenant formed "
            "it; a named agent must be one this token reaches"
        ),
    ),
]
AgentName = Annotated[
    str,
    Query(..., min_length=1, max_length=MAX_SLUG_CHARS, pattern=SLUG_PATTERN, example="helper"),
    AfterValidator(_no_nul),
]
StatusFilter = Literal["active", "superseded", "retired", "sealed", "deleted", "all"]
# Documented as enums; the services check them, so a wrong one is refused with their
# sentence (not a list of pydantic errors).
CATEGORIES: list[Any] = list(BeliefCategory.values)
SOURCES: list[Any] = list(MemorySource.values)
SENSITIVITIES: list[Any] = list(SENSITIVITY_BY_NAME)


class MemoryOut(Schema):
    id: int
    agent: str = Field(description="the agent whose conversations or host formed it")
    principal: str
    category: str
    statement: str = Field(description="empty for a deleted belief (a tombstone)")
    confidence: float
    corroboration_count: int
    status: str
    sensitivity: str
    source: str
    derivation: str
    valid_from: datetime | None
    valid_until: datetime | None
    due_at: datetime | None
    retention: float = Field(description="share kept now: 1.0 just reinforced, towards 0")
    supersedes: int | None
    superseded_by: int | None
    created_at: datetime
    last_reinforced_at: datetime


class MemoryPage(Schema):
    items: list[MemoryOut]
    next: str | None = Field(None, description="pass as ?after= for the next page; null at the end")


class EvidenceOut(Schema):
    message_id: int | None
    conversation: str | None = Field(description="your conversation label")
    quote: str | None = Field(
        description="the person's words in the message; null when the conversation is sealed"
    )
    start: int | None
    end: int | None
    host: str | None = Field(description="the host that wrote the belief, if one did")
    sealed: bool


class MemoryDetailOut(MemoryOut):
    evidence: EvidenceOut


class MemoryIn(Schema):
    agent: Text = Field(
        min_length=1,
        max_length=MAX_SLUG_CHARS,
        pattern=SLUG_PATTERN,
        description="the agent whose conversation this came from",
        examples=["helper"],
    )
    principal: Text | None = Field(
        None,
        min_length=1,
        max_length=MAX_LABEL_CHARS,
        pattern=FILLED,
        description="the person, by your id (left out: the person the token is bound to)",
        examples=["ana"],
    )
    category: Text = Field(
        min_length=1,
        max_length=MAX_CATEGORY_CHARS,
        description="one of the 17 memory categories (work track, then persona track)",
        examples=["likes"],
        json_schema_extra={"enum": CATEGORIES},
    )
    statement: Text = Field(
        min_length=1,
        max_length=MAX_STATEMENT_CHARS,
        pattern=FILLED,
        description="one fact about the person",
        examples=["Prefers green tea in the afternoon"],
    )
    confidence: StrictFloat = Field(ge=0, le=1, allow_inf_nan=False, examples=[0.8])
    source: Text = Field(
        max_length=10,
        description=(
            "direct or bridge (a conversation with the person); console (a proactive turn) is "
            "refused: it may not write facts about the person"
        ),
        examples=["direct"],
        json_schema_extra={"enum": SOURCES},
    )
    valid_from: IsoTime = Field(None, description="ISO 8601 with a UTC offset")
    valid_until: IsoTime = Field(None, description="ISO 8601 with a UTC offset")
    due: IsoTime = Field(None, description="ISO 8601 with a UTC offset")
    sensitivity: Text = Field(
        "internal",
        max_length=20,
        description="hosts never read restricted beliefs back",
        json_schema_extra={"enum": SENSITIVITIES},
    )


class RetiredOut(Schema):
    id: int
    status: str


class MemoryWritten(Schema):
    id: int
    outcome: Literal["created", "corroborated", "superseded", "muted"] = Field(
        description=(
            "created: a new belief; corroborated: it restates a belief, which was reinforced "
            "(no new row); superseded: it contradicts a belief, which keeps its history; "
            "muted: it restates a belief the person asked not to be mentioned again, or "
            "it is the very words of a redacted belief, so nothing was stored (and memory "
            "is null)"
        )
    )
    superseded_id: int | None = Field(description="the belief this one replaced")
    memory: MemoryOut | None


class PackEvidenceOut(Schema):
    quote: str | None
    message_id: int | None
    host: str | None


class PackItemOut(Schema):
    id: int
    statement: str
    category: str
    score: float
    why: str
    similarity: float
    lexical: float
    cosine: float | None
    retention: float
    confidence: float
    corroboration_count: int
    pinned: bool
    valid_from: datetime | None
    valid_until: datetime | None
    due_at: datetime | None
    evidence: PackEvidenceOut | None = Field(description="for the first hits only")


class AgendaOut(Schema):
    id: int
    action: str
    due_at: datetime
    score: float
    overdue: bool


class RoutineProbeOut(Schema):
    id: int
    action: str
    time: str
    status: str
    question: str


class ContextOut(Schema):
    principal: str
    query: str
    now: datetime
    time_intent: bool
    used_embeddings: bool
    ranking: Literal["words", "embedding"] = Field(
        description="how items were ranked: on meaning (the embedding model) or on words "
        "alone (embeddings off, or the model still loading in a fresh process)"
    )
    items: list[PackItemOut] = Field(description="ranked best first")
    pinned: list[PackItemOut]
    agenda: list[AgendaOut]
    routine_probes: list[RoutineProbeOut]
    cross_category: list[PackItemOut] = Field(
        description="the best related item of each category the ranked items miss"
    )
    text: str = Field(description="the pack as a ready text block for your prompt")
    pack_id: int = Field(
        description=(
            "send it as context_pack with the turn this pack shapes: the conversation page "
            "then shows the memories and the prompt version behind the reply"
        )
    )


class IntentionOut(Schema):
    id: int
    action: str
    due_at: datetime
    state: Literal["open", "done", "dropped", "missed"]
    importance: float
    confidence: float
    lead_time_seconds: int
    grace_seconds: int
    agenda_score: float = Field(description="how much it belongs on the agenda now")
    overdue: bool


class IntentionPage(Schema):
    items: list[IntentionOut]


class RoutineOut(Schema):
    id: int
    action: str
    weekdays: list[int] = Field(description="1 = Monday ... 7 = Sunday")
    time: str = Field(description="HH:MM")
    anchor_date: date
    valid_until: date | None
    status: str
    observations: int
    last_feedback: str | None
    last_feedback_on: date | None


class RoutineIn(Schema):
    agent: Text = Field(
        min_length=1,
        max_length=MAX_SLUG_CHARS,
        pattern=SLUG_PATTERN,
        description="the agent it belongs to",
    )
    principal: Text | None = Field(
        None,
        min_length=1,
        max_length=MAX_LABEL_CHARS,
        pattern=FILLED,
        description="the person, by your id (left out: the person the token is bound to)",
    )
    action: Text = Field(min_length=1, max_length=MAX_ACTION_CHARS, pattern=FILLED)
    weekdays: list[int] = Field(min_length=1, max_length=7, description="1 = Monday ... 7 = Sunday")
    time: Text = Field(max_length=8, description="HH:MM, e.g. 19:00")
    anchor_date: Text | None = Field(None, max_length=10, description="YYYY-MM-DD; default today")
    valid_until: Text | None = Field(None, max_length=10)
    status: Text = Field("confirmed", max_length=10, description="confirmed or candidate")


class RoutineFeedbackIn(Schema):
    principal: Text | None = Field(None, min_length=1, max_length=MAX_LABEL_CHARS)
    feedback: Text = Field(max_length=15, description="confirmed, skipped_today, denied or silence")


class RetireIn(Schema):
    principal: Text | None = Field(None, min_length=1, max_length=MAX_LABEL_CHARS)
    delete: StrictBool = Field(False, description="wipe the words and quote too")


class PersonIn(Schema):
    principal: Text | None = Field(None, min_length=1, max_length=MAX_LABEL_CHARS)


# --- routes --------------------------------------------------------------------------------


@route("beliefs_search", response={200: MemoryPage, **ERRORS}, tags=["memory"], router=router)
def memories_list(
    request: HttpRequest,
    principal: Person = None,
    agent: AgentFilter = None,
    category: Annotated[
        str | None,
        Query(
            None,
            min_length=1,
            max_length=MAX_CATEGORY_CHARS,
            description="one of the 17 memory categories (as in the body of POST /v1/memories)",
        ),
    ] = None,
    status: Annotated[
        StatusFilter, Query("active", description="all: every status, tombstones too")
    ] = "active",
    q: Annotated[
        str | None,
        Query(None, max_length=200, description="words that must all be in the statement"),
    ] = None,
    after: Cursor = None,
    limit: Limit = 50,
) -> Any:
    """A person's beliefs, newest first (``memory beliefs list``); filter by the agent
    that formed them, category, status (active by default) and words."""
    for value in (category, q):
        if value is not None and "\x00" in value:
            raise services.HostInputError("The category and q may not contain NUL characters.")
    if category is not None:
        validate_category(category)  # before the person: a wrong filter is a 400, not a 404
    t = _target(request, "beliefs_search", agent=agent, principal=principal)
    return handlers.beliefs_search(
        t, q=q, category=category, status=status, after=after, limit=limit
    )


@route("belief_evidence", response={200: MemoryDetailOut, **ERRORS}, tags=["memory"], router=router)
def memory_get(request: HttpRequest, memory_id: Id, principal: Person = None) -> Any:
    """One belief of the person with its evidence: the message and quote (withheld when
    the conversation is sealed), or the host that wrote it. Another person's belief is a
    404 like an absent one."""
    t = _target(request, "belief_evidence", principal=principal)
    return handlers.belief_evidence(t, belief_id=memory_id)


@route("build_context", response={200: ContextOut, **ERRORS}, tags=["memory"], router=router)
def context(
    request: HttpRequest,
    query: Annotated[
        str,
        Query(
            ...,
            min_length=1,
            max_length=MAX_QUERY_CHARS,
            pattern=FILLED,
            example="What should I cook?",
        ),
        AfterValidator(_no_nul),
    ],
    principal: Person = None,
    now: Annotated[
        IsoTime,
        Query(None, description="answer as at this ISO 8601 time (encode + as %2B); default now"),
    ] = None,
    limit: Annotated[int, Query(10, ge=1, le=100)] = 10,
    agent: ContextAgent = None,
) -> Any:
    """What the assistant should know about the person for this message: the pack of
    ``build_context`` (as ``memory context --json`` prints it) and ``text``, the same pack
    rendered as a block for your prompt. Read-only."""
    t = _target(request, "build_context", agent=agent, principal=principal)
    return handlers.build_context(t, query=query, now=now, limit=limit)


@route(
    "memory_write",
    response={200: MemoryWritten, 201: MemoryWritten, **ERRORS},
    tags=["memory"],
    router=router,
)
def memory_write(request: HttpRequest, body: MemoryIn) -> Any:
    """Store what your host extracted about a person (``belief_write``): 201 when a
    belief was made (``created``, or ``superseded`` when it contradicts one, which keeps
    its history), 200 when it restates one (``corroborated``: no second row). Secrets,
    text aimed at the model, a proactive (console) source and a bad category, time or
    sensitivity are refused with a sentence."""
    t = _target(request, "memory_write", agent=body.agent, principal=body.principal)
    result = handlers.memory_write(
        t,
        category=body.category,
        statement=body.statement,
        confidence=body.confidence,
        source=body.source,
        valid_from=body.valid_from,
        valid_until=body.valid_until,
        due=body.due,
        sensitivity=body.sensitivity,
    )
    return (200 if result["outcome"] in ("corroborated", "muted") else 201), result


@route("belief_retire", response={200: RetiredOut, **ERRORS}, tags=["memory"], router=router)
def memory_retire(request: HttpRequest, memory_id: Id, body: RetireIn) -> Any:
    """Take a belief out of recall (retired, history kept); ``delete`` also wipes its
    words and quote, e.g. when the person asks to forget it."""
    t = _target(request, "belief_retire", principal=body.principal)
    return handlers.belief_retire(t, belief_id=memory_id, delete=body.delete)


@route("intentions_list", response={200: IntentionPage, **ERRORS}, tags=["memory"], router=router)
def intentions_list(
    request: HttpRequest,
    principal: Person = None,
    agent: AgentFilter = None,
    state: Annotated[
        str, Query("open", max_length=10, description="open, done, dropped, missed or all")
    ] = "open",
    limit: Limit = 50,
) -> Any:
    """The person's intentions (one-off commitments), soonest due first, with their
    agenda score now."""
    t = _target(request, "intentions_list", agent=agent, principal=principal)
    return handlers.intentions_list(t, state=state, limit=limit)


@route("intention_done", response={200: IntentionOut, **ERRORS}, tags=["memory"], router=router)
def intention_done(request: HttpRequest, intention_id: Id, body: PersonIn) -> Any:
    """Mark one of the person's intentions done."""
    t = _target(request, "intention_done", principal=body.principal)
    return handlers.intention_done(t, intention_id=intention_id)


@route("routine_label", response={200: RoutineOut, **ERRORS}, tags=["memory"], router=router)
def routine_label(request: HttpRequest, body: RoutineIn) -> Any:
    """Name a weekly routine of the person; the same action again updates it."""
    t = _target(request, "routine_label", agent=body.agent, principal=body.principal)
    return handlers.routine_label(
        t,
        action=body.action,
        weekdays=body.weekdays,
        time=body.time,
        anchor_date=body.anchor_date,
        valid_until=body.valid_until,
        status=body.status,
    )


@route("routine_feedback", response={200: RoutineOut, **ERRORS}, tags=["memory"], router=router)
def routine_feedback(request: HttpRequest, routine_id: Id, body: RoutineFeedbackIn) -> Any:
    """What the person answered to a routine question."""
    t = _target(request, "routine_feedback", principal=body.principal)
    return handlers.routine_feedback(t, routine_id=routine_id, feedback=body.feedback)
