"""The /v1 HTTP API for hosts, built with django-ninja.

Why ninja: routes are plain typed functions (thin: each one calls the services the
dashboard and the CLI call), request and response bodies are pydantic schemas that are
validated on the way in and out, and the OpenAPI document (``/v1/openapi.json``, with a
docs page at ``/v1/docs``) is generated from those same types, so the published
contract cannot drift from the code. DRF + drf-spectacular would add serializers,
viewsets and a second schema layer for the same result.

Conventions (seed 001's HTTP design), kept by ``api.middleware`` and the handlers here:
``X-Request-ID`` on every answer; ``Cache-Control: private, no-store`` on every answer;
errors as ``{"error": {"code", "message", "request_id"}}`` with a closed set of codes;
another tenant's agent or row is a 404 like an absent one; lists page by keyset
(``?after=`` cursor, ``next`` in the body).
"""

from __future__ import annotations

import copy
import json
import logging
from collections.abc import Callable
from datetime import datetime
from typing import Annotated, Any, Literal

from django.conf import settings
from django.core.exceptions import RequestDataTooBig
from django.http import Http404, HttpRequest, HttpResponse
from ninja import Field, NinjaAPI, Path, Query, Schema
from ninja.errors import AuthenticationError, HttpError
from ninja.errors import ValidationError as NinjaValidationError
from ninja.parser import Parser
from ninja.security import HttpBearer
from pydantic import AfterValidator, BeforeValidator, StrictBool

from api import handlers, services
from api import prefix as hot_prefix
from api.errors import (
    CODES,
    STATUS_CODES,
    ApiError,
    Malformed,
    NotFound,
    RateLimited,
    error_response,
    refusal_code,
)
from api.operations import BY_NAME, Target, authorize, token_actor
from api.schemas_explain import PrefixExplainOut
from learning.validators import INT_LIMITS
from memory.services import MAX_LABEL_CHARS, MAX_MESSAGE_CHARS
from persona.forms import MAX_VERSION
from persona.services import (
    MAX_FIELD_CHARS,
    MAX_NAME_CHARS,
    MAX_REASON_CHARS,
    MAX_ROLE_CHARS,
    MAX_RULE_CHARS,
)
from personaweb.errors import Refusal
from tenancy.models import MAX_SLUG_CHARS

logger = logging.getLogger(__name__)

HOST = "host"
LEARNING_READ = "learning.read"
LEARNING_DECIDE = "learning.decide"
MAX_ID = 2**63 - 1
PAGE_MAX = 100

# --- types ---------------------------------------------------------------------------


def _no_nul(value: str) -> str:
    # PostgreSQL cannot store NUL characters; refuse them here with a sentence
    if "\x00" in value:
        raise ValueError("text may not contain NUL characters")
    return value


Text = Annotated[str, AfterValidator(_no_nul)]
Slug = Annotated[
    str,
    Path(
        ..., min_length=1, max_length=MAX_SLUG_CHARS, pattern=r"^[-a-zA-Z0-9_]+$", example="helper"
    ),
    AfterValidator(_no_nul),
]
Id = Annotated[int, Path(..., ge=1, le=MAX_ID)]
Cursor = Annotated[str | None, Query(None, max_length=500, description="`next` of the page before")]
Limit = Annotated[int, Query(50, ge=1, le=PAGE_MAX)]


class ErrorBody(Schema):
    code: Literal[
        "malformed_request",
        "unauthorized",
        "forbidden",
        "not_found",
        "conflict",
        "rate_limited",
        "unavailable",
        "internal",
    ]
    message: str
    request_id: str


class ErrorOut(Schema):
    error: ErrorBody


ERRORS: dict[int, type[Schema]] = {
    400: ErrorOut,
    401: ErrorOut,
    403: ErrorOut,
    404: ErrorOut,
    429: ErrorOut,
}
WITH_CONFLICT: dict[int, type[Schema]] = {**ERRORS, 409: ErrorOut}


class HealthOut(Schema):
    status: Literal["ok"]
    api_version: str


class AgentOut(Schema):
    slug: str
    name: str
    persona_version: int


class AgentPage(Schema):
    items: list[AgentOut]
    next: str | None = Field(None, description="pass as ?after= for the next page; null at the end")


class PersonaOut(Schema):
    slug: str
    version: int
    name: str
    role: str
    goals: str
    background: str
    guardrails: list[str]
    standing_rules: list[str]
    source_type: str = Field(description="what made this version (host, ui_form, ...)")
    reason: str
    created_at: datetime | None


def _iso_time(value: Any) -> Any:
    # pydantic would take a number as seconds since 1970; the schema says an ISO 8601 text
    if value is not None and not isinstance(value, str):
        raise ValueError(
            "give the time as ISO 8601 text with an offset, e.g. 2026-11-29T12:00:00+00:00"
        )
    return value


#: text that holds something besides white space (what the services require)
FILLED = r"\S"


class PersonaUpdateIn(Schema):
    reason: Text = Field(
        min_length=1,
        max_length=MAX_REASON_CHARS,
        pattern=FILLED,
        description="why (kept in the history)",
    )
    name: Text | None = Field(None, max_length=MAX_NAME_CHARS)
    role: Text | None = Field(None, max_length=MAX_ROLE_CHARS)
    goals: Text | None = Field(None, max_length=MAX_FIELD_CHARS)
    background: Text | None = Field(None, max_length=MAX_FIELD_CHARS)
    guardrails: list[Text] | None = Field(
        None, description="refused: only host code or an operator writes guardrails"
    )
    standing_rules: list[Text] | None = Field(
        None, description="refused: only a rule owner writes standing rules"
    )
    expected_version: int | None = Field(
        None, ge=0, le=MAX_VERSION, description="the version you read; a newer one is a conflict"
    )


class PersonaUpdated(Schema):
    version: int
    fields_changed: list[str]


class TurnIn(Schema):
    principal: Text = Field(
        min_length=1,
        max_length=MAX_LABEL_CHARS,
        pattern=FILLED,
        description="the person, by your id",
        examples=["ana@example.org"],
    )
    conversation: Text = Field(
        min_length=1,
        max_length=MAX_LABEL_CHARS,
        pattern=FILLED,
        description="your conversation label",
        examples=["chat-42"],
    )
    user_text: Text = Field(
        min_length=1,
        max_length=MAX_MESSAGE_CHARS,
        pattern=FILLED,
        examples=["Can you draft the release notes for 4.2?"],
    )
    assistant_text: Text | None = Field(
        None, max_length=MAX_MESSAGE_CHARS, pattern=FILLED, examples=["Here is a first draft."]
    )
    at: Annotated[datetime | None, BeforeValidator(_iso_time)] = Field(
        None, description="ISO 8601 with a UTC offset; now when left out"
    )
    sealed: StrictBool | None = Field(
        None, description="true seals the conversation (never read by learning); one-way"
    )
    context_pack: int | None = Field(
        None,
        ge=1,
        le=MAX_ID,
        description=(
            "the pack_id build_context answered for this person: links the reply "
            "(assistant_text is needed) to the memories and prompt version that shaped it"
        ),
    )


class TurnOut(Schema):
    conversation: str
    created_conversation: bool
    sealed: bool
    message_ids: list[int]


class PrefixOut(Schema):
    prefix: str
    sha256: str
    epoch: int
    persona_version: int
    tokens: int
    rotated_reason: str | None = Field(
        None, description="why the current epoch began (null in epoch 1)"
    )


class ProposalOut(Schema):
    id: int
    kind: str
    field: str
    text: str
    status: str
    status_reason: str
    evidence: list[dict[str, Any]]
    base_version: int
    applied_version: int | None
    applied_text: str
    decided_by: str
    decided_at: datetime | None
    created_at: datetime | None
    review_id: int | None


class WaitingProposalOut(ProposalOut):
    muted_for: int = Field(
        ge=0,
        description=(
            "how many people have muted these words for themselves (a learned line matched "
            "by its words): whatever is decided, they are not given this line; 0 when nobody"
        ),
    )


class ReviewOut(Schema):
    id: int
    agent: str
    trigger: str
    status: str
    requested_by: str
    queued_at: datetime | None
    started_at: datetime | None
    finished_at: datetime | None
    threads_read: int
    messages_read: int
    model_calls: int
    tokens_in: int
    tokens_out: int
    outcome: str
    reason: str
    proposal_id: int | None
    details: dict[str, Any]


class ReviewPage(Schema):
    items: list[ReviewOut]
    next: str | None


class CountersOut(Schema):
    turns_since_review: int
    last_review_at: datetime | None
    due_at: datetime | None


class LearningSettingsOut(Schema):
    """The learning settings a person sets (PRODUCT.md section 5; limits in
    ``learning.validators``)."""

    mode: Literal["off", "on", "on-with-review"]
    auto_apply: bool = Field(description="mode on: approved at once, without review")
    proposer: Literal["local", "openai"]
    model_base_url: str = Field(description="the agent's own model endpoint; empty: the server's")
    model_name: str
    every_n_turns: int = Field(ge=INT_LIMITS["every_n_turns"][0], le=INT_LIMITS["every_n_turns"][1])
    every_hours: int = Field(ge=INT_LIMITS["every_hours"][0], le=INT_LIMITS["every_hours"][1])
    min_conversations: int = Field(
        ge=INT_LIMITS["min_conversations"][0], le=INT_LIMITS["min_conversations"][1]
    )
    max_threads: int = Field(ge=INT_LIMITS["max_threads"][0], le=INT_LIMITS["max_threads"][1])
    max_messages_per_thread: int = Field(
        ge=INT_LIMITS["max_messages_per_thread"][0], le=INT_LIMITS["max_messages_per_thread"][1]
    )
    across_users: bool
    min_users: int = Field(ge=INT_LIMITS["min_users"][0], le=INT_LIMITS["min_users"][1])
    standing_rules: bool
    min_corrections: int = Field(
        ge=INT_LIMITS["min_corrections"][0], le=INT_LIMITS["min_corrections"][1]
    )
    rule_owners: list[str] = Field(description="who may decide a standing rule (user names)")


class LearningOut(Schema):
    agent: str
    persona_version: int
    settings: LearningSettingsOut
    counters: CountersOut
    waiting: list[WaitingProposalOut]
    rules_in_force: list[str]
    recent_reviews: list[ReviewOut]
    recent_decisions: list[ProposalOut]


class ReviewQueued(Schema):
    review_id: int
    status: str


class ApproveIn(Schema):
    text: Text | None = Field(
        None, max_length=MAX_RULE_CHARS, description="a standing rule in the owner's own words"
    )


class DecisionOut(Schema):
    proposal_id: int
    status: str
    applied_version: int | None
    persona_version: int


class UndoOut(Schema):
    proposal_id: int
    persona_version: int


# --- the API, its errors ---------------------------------------------------------------


class JsonBody(Parser):
    """JSON bodies; an empty body is an empty object, so routes whose fields are all
    optional (approve) can be called with no body at all."""

    def parse_body(self, request: HttpRequest) -> dict[str, Any]:
        if not request.body.strip():
            return {}
        try:
            data = json.loads(request.body)
        except (ValueError, UnicodeDecodeError):
            raise Malformed("The request body is not valid JSON; send a JSON object.") from None
        if not isinstance(data, dict):
            raise Malformed("The request body is JSON but not an object; send a JSON object.")
        return data


class BearerToken(HttpBearer):
    """Hands the bearer token to the route, which checks it with ``token_authenticate``
    (one function for scope, tenant and agent binding)."""

    def authenticate(self, request: HttpRequest, token: str) -> str | None:
        return token.strip() or None


api = NinjaAPI(
    title="personaweb host API",
    version="1",
    description=(
        "Record turns, fetch the pinned prompt prefix, read personas and learning, "
        "decide proposals, read and write what is remembered about a person and, with "
        "AGENT_PERSONA_API_ENABLED, the person's own persona document. Bearer tokens: "
        "`manage.py api token create`. Every answer "
        "carries X-Request-ID and Cache-Control: private, no-store; errors are "
        '{"error": {"code", "message", "request_id"}}.'
    ),
    urls_namespace="v1",
    auth=BearerToken(),
    parser=JsonBody(),
    openapi_url="/openapi.json",
    docs_url="/docs",
)


def _validation_message(errors: list[dict[str, Any]]) -> str:
    parts = []
    for err in errors[:5]:
        loc = ".".join(str(p) for p in err.get("loc", ()) if p not in ("body", "payload"))
        msg = str(err.get("msg", "is not valid"))
        if (
            err.get("type") == "string_pattern_mismatch"
            and (err.get("ctx") or {}).get("pattern") == FILLED
        ):
            msg = "it is empty; send some text"
        parts.append(f"{loc or 'the body'}: {msg}")
    more = f" (and {len(errors) - 5} more)" if len(errors) > 5 else ""
    return "The request is not valid; fix " + "; ".join(parts) + more + "."


@api.exception_handler(ApiError)
def _api_error(request: HttpRequest, exc: ApiError) -> HttpResponse:
    response = error_response(request, code=exc.code, message=exc.message)
    if isinstance(exc, RateLimited):
        response["Retry-After"] = str(exc.retry_after)
    return response


@api.exception_handler(Refusal)
def _refusal(request: HttpRequest, exc: Refusal) -> HttpResponse:
    return error_response(request, code=refusal_code(exc), message=str(exc))


@api.exception_handler(NinjaValidationError)
def _invalid(request: HttpRequest, exc: NinjaValidationError) -> HttpResponse:
    return error_response(
        request, code="malformed_request", message=_validation_message(exc.errors)
    )


@api.exception_handler(AuthenticationError)
def _unauthenticated(request: HttpRequest, exc: AuthenticationError) -> HttpResponse:
    return error_response(
        request,
        code="unauthorized",
        message="Send an API token: Authorization: Bearer <token> (make one with "
        "`manage.py api token create` or on the API tokens page).",
    )


@api.exception_handler(HttpError)
def _http_error(request: HttpRequest, exc: HttpError) -> HttpResponse:
    code = STATUS_CODES.get(exc.status_code, "malformed_request")
    message = str(exc)
    if exc.status_code == 400:  # ninja's own "Cannot parse request body"
        cause = exc.__cause__
        message = (
            cause.message
            if isinstance(cause, Malformed)
            else "The request body is not valid JSON; send a JSON object."
        )
    response = error_response(request, code=code, message=message)
    response.status_code = exc.status_code if exc.status_code >= 400 else CODES[code]
    return response


@api.exception_handler(Http404)
def _not_found(request: HttpRequest, exc: Http404) -> HttpResponse:
    return error_response(request, code="not_found", message=NotFound().message)


@api.exception_handler(RequestDataTooBig)
def _too_big(request: HttpRequest, exc: RequestDataTooBig) -> HttpResponse:
    response = error_response(
        request, code="malformed_request", message="The request body is too large."
    )
    response.status_code = 413
    return response


@api.exception_handler(Exception)
def _internal(request: HttpRequest, exc: Exception) -> HttpResponse:
    response = error_response(
        request,
        code="internal",
        message="Something went wrong on the server; it was logged with this request id.",
    )
    logger.error(
        "API request %s failed: %s",
        getattr(request, "request_id", "?"),
        type(exc).__name__,
        exc_info=exc,
    )
    return response


def _target(
    request: HttpRequest, name: str, *, agent: str | None = None, principal: str | None = None
) -> Target:
    """The one check of the operation ``name`` (``api.operations.authorize``) for the
    caller's token: the same as its MCP tool's."""
    actor = token_actor(getattr(request, "auth", None))
    return authorize(name, actor=actor, agent=agent, principal=principal)


RETRY_AFTER = {
    "Retry-After": {
        "description": "seconds to wait before the next call (PERSONAWEB_API_RATE_LIMIT)",
        "schema": {"type": "integer", "minimum": 1},
    }
}
#: the prefix route's validators (seed 001): the sha256, quoted
ETAG_HEADER = {
    "ETag": {
        "description": "the prefix's sha256, quoted; send it back as If-None-Match",
        "schema": {"type": "string", "pattern": '^"[0-9a-f]{64}"$'},
    }
}
PREFIX_OPENAPI = {
    "parameters": [
        {
            "name": "If-None-Match",
            "in": "header",
            "required": False,
            "description": "the ETag of the prefix you hold: 304 with no body while it is current",
            "schema": {"type": "string"},
        }
    ],
    # int keys, as ninja's own responses have them: a deep merge, not a second "200" key
    "responses": {
        200: {"headers": ETAG_HEADER},
        304: {
            "description": "Not Modified: the prefix you hold is current",
            "headers": ETAG_HEADER,
        },
    },
}


def route(
    name: str, *, response: dict[int, Any], tags: list[str], **kw: Any
) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Mount a view as the /v1 route of the operation ``name`` (method and path from
    ``api.operations``; the OpenAPI operationId is the operation's name)."""
    op = BY_NAME[name]
    router = kw.pop("router", api)
    prefix = kw.pop("prefix", "/v1")
    path = op.path[len(prefix) :]
    # what the MCP tool of the operation answers too (handlers.answer): one shape;
    # ``answer`` names it when the route answers several (a flag picks another
    # operation's: ``also``)
    handlers.ANSWERS[name] = kw.pop("answer", None) or next(
        t for code, t in response.items() if 200 <= code < 300
    )
    handlers.ANSWERS.update(kw.pop("also", {}))
    extra = copy.deepcopy(kw.pop("openapi_extra", {}))
    extra.setdefault("responses", {}).setdefault(429, {})["headers"] = RETRY_AFTER
    # every route may answer 429 (the per-token rate limit): its body is the envelope
    response = {**response, 429: ErrorOut}
    return router.api_operation(
        [op.method],
        path,
        response=response,
        tags=tags,
        operation_id=name,
        openapi_extra=extra,
        **kw,
    )


# --- host routes -------------------------------------------------------------------------


@api.get("/health", response={200: HealthOut}, auth=None, tags=["host"])
def health(request: HttpRequest) -> Any:
    """Is the API up? No token, no database: a liveness check for hosts and load balancers."""
    return {"status": "ok", "api_version": api.version}


@route("agents_list", response={200: AgentPage, **ERRORS}, tags=["host"])
def agents_list(request: HttpRequest, after: Cursor = None, limit: Limit = 50) -> Any:
    """The agents this token reaches (one for a token bound to an agent), by slug."""
    return handlers.agents_list(_target(request, "agents_list"), after=after, limit=limit)


@route("persona_read", response={200: PersonaOut, **ERRORS}, tags=["host"])
def persona_head(request: HttpRequest, slug: Slug) -> Any:
    """The persona head: fields, guardrails, standing rules, version. For a token bound
    to a person, the learned lines that person muted are left out, as in their prefix."""
    return handlers.persona_read(_target(request, "persona_read", agent=slug))


@route("persona_update", response={200: PersonaUpdated, **WITH_CONFLICT}, tags=["host"])
def persona_update(request: HttpRequest, slug: Slug, body: PersonaUpdateIn) -> Any:
    """Change the name, role, goals or background (a new persona version, source
    update_persona, with your reason). Guardrails and standing rules are refused here."""
    t = _target(request, "persona_update", agent=slug)
    changes = body.model_dump(exclude_unset=True, exclude={"reason", "expected_version"})
    changes = {k: v for k, v in changes.items() if v is not None}
    return handlers.persona_update(
        t, reason=body.reason, changes=changes, expected_version=body.expected_version
    )


@route("record_turn", response={201: TurnOut, **WITH_CONFLICT}, tags=["host"])
def turn_record(request: HttpRequest, slug: Slug, body: TurnIn) -> Any:
    """Record one turn (the user's message and, optionally, the reply), as
    ``memory.services.record_turn`` does. A conversation label of another person is a
    conflict."""
    t = _target(request, "record_turn", agent=slug, principal=body.principal)
    return 201, handlers.record_turn(
        t,
        conversation=body.conversation,
        user_text=body.user_text,
        assistant_text=body.assistant_text,
        at=body.at,
        sealed=body.sealed,
        context_pack=body.context_pack,
    )


@route(
    "prompt_prefix",
    response={200: PrefixOut | PrefixExplainOut, 304: None, **WITH_CONFLICT},
    tags=["host"],
    openapi_extra=PREFIX_OPENAPI,
    answer=PrefixOut,
    also={"prompt_explain": PrefixExplainOut},
)
def prefix(
    request: HttpRequest,
    slug: Slug,
    principal: Annotated[str | None, Query(None, min_length=1, max_length=MAX_LABEL_CHARS)] = None,
    session: Annotated[str, Query("", max_length=MAX_LABEL_CHARS)] = "",
    explain: Annotated[
        bool,
        Query(
            False,
            description=(
                "1: every line of the prefix with where it came from (operation "
                "prompt_explain: scope host or learning.read; read-only, never a 304)"
            ),
        ),
    ] = False,
) -> Any:
    """The pinned system-prompt prefix of (agent, principal, session): the hot path.

    Rotates one epoch when the persona changed since the plan was built (the reason is
    in ``rotated_reason``); otherwise a read with no render: one query once this process
    has answered the same token, agent and person (``api.prefix``). ``ETag`` is the
    sha256 (quoted); ``If-None-Match`` with it answers 304 with no body.

    With ``explain=1`` (``PrefixExplainOut``): every line of the session's prefix, each
    with its story (the persona version that gave it its form and how: an edit by whom
    and why, a revert, or learning's proposal with who approved it and its quotes; an
    owner-document entry typed by the owner or affirmed from a belief, with the belief
    and its evidence). The pinned plan's versions when the session has one, else what a
    plan call would pin now; nothing is written.
    """
    for value in (principal, session):
        if value is not None and "\x00" in value:
            raise Malformed("The principal and the session may not contain NUL characters.")
    raw = getattr(request, "auth", None)
    session = session or ""
    if explain:
        # its own, slower path: it renders, and never touches the hot path's state
        t = _target(request, "prompt_explain", agent=slug, principal=principal)
        body = handlers.prompt_explain(t, session=session)
        explained = api.create_response(request, body, status=200)
        explained["ETag"] = f'"{body["sha256"]}"'
        return explained
    if_none_match = request.headers.get("If-None-Match", "")
    # the hot path (api.prefix): what this process keeps and one query
    hot = hot_prefix.answer(
        raw=raw, slug=slug, principal=principal, session=session, if_none_match=if_none_match
    )
    if hot is None:
        t = _target(request, "prompt_prefix", agent=slug, principal=principal)
        plan = handlers.prompt_prefix_plan(t, session=session)
        hot_prefix.remember(raw=raw, slug=slug, principal=principal, target=t, plan=plan)
        current = services.etag_matches(if_none_match, plan.prefix_sha256)
        hot = hot_prefix.Answer(
            sha256=plan.prefix_sha256, body=None if current else handlers.prefix_dict(plan)
        )
    etag = f'"{hot.sha256}"'
    if hot.body is None:
        not_modified = HttpResponse(status=304)
        not_modified["ETag"] = etag
        return not_modified
    response = api.create_response(request, hot.body, status=200)
    response["ETag"] = etag
    return response


# --- learning -----------------------------------------------------------------------------


@route("learning_status", response={200: LearningOut, **ERRORS}, tags=["learning"])
def learning_status(request: HttpRequest, slug: Slug) -> Any:
    """Settings, counters, waiting proposals with their evidence, recent reviews."""
    return handlers.learning_status(_target(request, "learning_status", agent=slug))


@route("reviews_list", response={200: ReviewPage, **ERRORS}, tags=["learning"])
def reviews_list(request: HttpRequest, slug: Slug, after: Cursor = None, limit: Limit = 50) -> Any:
    """The agent's reviews, newest first."""
    t = _target(request, "reviews_list", agent=slug)
    return handlers.reviews_list(t, after=after, limit=limit)


@route("review_now", response={202: ReviewQueued, **WITH_CONFLICT}, tags=["learning"])
def review_now(request: HttpRequest, slug: Slug) -> Any:
    """Review now: a review queued for a worker (the dashboard's button). A review
    already queued or running is returned instead of a second one."""
    return 202, handlers.review_now(_target(request, "review_now", agent=slug))


@route("review_get", response={200: ReviewOut, **ERRORS}, tags=["learning"])
def review_get(request: HttpRequest, review_id: Id) -> Any:
    """A review's status and outcome."""
    return handlers.review_get(_target(request, "review_get"), review_id=review_id)


@route("proposal_approve", response={200: DecisionOut, **WITH_CONFLICT}, tags=["learning"])
def proposal_approve(request: HttpRequest, proposal_id: Id, body: ApproveIn | None = None) -> Any:
    """Approve a waiting proposal; ``text`` applies it (a rule or a sentence) in your words.
    Someone decided first -> conflict."""
    t = _target(request, "proposal_approve")
    text = (body.text if body is not None else None) or None
    return handlers.proposal_approve(t, proposal_id=proposal_id, text=text)


@route("proposal_turn_down", response={200: DecisionOut, **WITH_CONFLICT}, tags=["learning"])
def proposal_turn_down(request: HttpRequest, proposal_id: Id) -> Any:
    """Turn a waiting proposal down; it is never proposed again."""
    return handlers.proposal_turn_down(
        _target(request, "proposal_turn_down"), proposal_id=proposal_id
    )


@route("undo", response={200: UndoOut, **WITH_CONFLICT}, tags=["learning"])
def undo(request: HttpRequest, slug: Slug) -> Any:
    """Take back the latest learned change still in force (as the agent page's Undo)."""
    return handlers.undo(_target(request, "undo", agent=slug))


# --- memory --------------------------------------------------------------------------------

# The memory routes (issue 11) and the owner-document routes (issue 12) are their own
# modules; they import the types above, so they are mounted last. The owner-document
# routes exist only with AGENT_PERSONA_API_ENABLED as well (default off): off, they are
# absent from the URLs and from the schema, not merely refused.
api.add_router("", "api.http_memory.router")
if settings.AGENT_PERSONA_API_ENABLED:
    api.add_router("", "api.http_persona.router")
