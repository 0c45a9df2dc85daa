"""The owner-document routes of /v1 (issue 12; seed 001, "The routes"): the persona
document of the person a token is bound to, its history, and the nominations the owner
affirms or declines.

Mounted by ``api.http`` only when ``AGENT_PERSONA_API_ENABLED`` is set (default off), on
the conventions of every /v1 route: the error envelope, ``X-Request-ID``,
``Cache-Control: private, no-store`` (``api.middleware``), keyset pages. Each route is
an operation of ``api.operations`` (reach "document"): ``persona.read`` or
``persona.write`` on a token bound to a person (``ApiToken.principal``), checked by
``authorize`` as the MCP tool of the same name is. The person comes from the token,
never from the request, so another person's document cannot be named at all, and
another person's nomination (or another tenant's) is the same 404 as an id that does not
exist.

Every write goes through ``persona.owner``, the one writer of the document (the
dashboard and the CLI call it too): a stale ``expected_version`` is a conflict and
refused content (a secret, too long, too many entries) a 400 with its sentence; both
leave the document untouched.
"""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any, Literal

from django.http import HttpRequest
from ninja import Field, Path, Query, Router, Schema
from pydantic import ConfigDict, StrictInt

from api import handlers
from api.http import ERRORS, WITH_CONFLICT, Cursor, Id, Limit, Text, _target, route
from memory.models_beliefs import SENSITIVITY_BY_NAME
from persona.forms import MAX_VERSION
from persona.models_owner import EntrySource, Tier

EntryKey = Annotated[str, Path(..., min_length=1, max_length=32)]


router = Router(tags=["persona"])

# --- types ---------------------------------------------------------------------------

# Documented as enums; ``persona.owner`` checks them, so a wrong one is refused with its
# sentence (as the memory routes do).
SENSITIVITIES: list[Any] = list(SENSITIVITY_BY_NAME)
TIERS: list[Any] = list(Tier.values)
SOURCES: list[Any] = list(EntrySource.values)
NominationState = Literal["nominated", "affirmed", "declined", "withdrawn"]
#: The default of an entry field that may be left out. Left out means "not given"
#: (``model_dump(exclude_unset=True)``: an edited entry keeps its sensitivity and tier);
#: the type stays ``str``, so an explicit null is refused as the schema says.
ABSENT: Any = None


class OwnerEntryIn(Schema):
    model_config = ConfigDict(extra="forbid")

    key: Text = Field(
        ABSENT,
        max_length=32,
        description=(
            "the key of an entry of the version you edit: it keeps its provenance, "
            "reinforcement and flags (new text clears `stale`); leave out for a new entry"
        ),
    )
    text: Text = Field(
        description="at most 500 characters once white space is collapsed; never a secret",
        examples=["Prefers short answers with the conclusion first."],
    )
    source: Text = Field(
        ABSENT,
        max_length=20,
        description=(
            "as read; a new entry is always user_edit (only affirming a nomination adds "
            "an affirmation entry)"
        ),
        json_schema_extra={"enum": SOURCES},
    )
    sensitivity: Text = Field(
        ABSENT,
        max_length=20,
        description="default internal for a new entry; left out: unchanged",
        json_schema_extra={"enum": SENSITIVITIES},
    )
    tier: Text = Field(
        ABSENT,
        max_length=10,
        description="default long_term for a new entry; left out: unchanged",
        json_schema_extra={"enum": TIERS},
    )


class OwnerDocIn(Schema):
    model_config = ConfigDict(extra="forbid")

    expected_version: StrictInt = Field(
        ge=0,
        le=MAX_VERSION,
        description="the version you edited; another one is a conflict and nothing is written",
        examples=[0],
    )
    entries: list[OwnerEntryIn] = Field(
        description=(
            "the whole document, in order (what is left out is removed): at most 30 entries "
            "and 2,000 tokens"
        ),
    )


class OwnerEntryOut(Schema):
    key: str = Field(description="stable from version to version")
    text: str
    source: Literal["user_edit", "affirmation"] = Field(
        description="typed by the owner, or affirmed from a nomination"
    )
    sensitivity: str
    tier: Literal["permanent", "long_term", "working"]
    reinforcement_count: int
    last_reinforced_at: datetime
    stale: bool = Field(description="the belief it was affirmed from was superseded or corrected")
    stale_reason: str
    dormant: bool = Field(
        description="a working entry not reinforced for a while: out of the prompt until reinforced"
    )


class OwnerDocOut(Schema):
    version: int = Field(description="0: nothing written yet (no entries)")
    created_at: datetime | None = Field(description="when this version was written")
    entries: list[OwnerEntryOut] = Field(description="in document order (the prompt's order)")


class OwnerDocWritten(OwnerDocOut):
    changed: bool = Field(description="false: the entries were the same; no version was written")


class VersionEntryOut(Schema):
    key: str
    text: str
    source: Literal["user_edit", "affirmation"]
    sensitivity: str
    tier: Literal["permanent", "long_term", "working"]


class OwnerVersionOut(Schema):
    version: int
    source: Literal["user_edit", "affirmation"] = Field(description="an edit, or an affirmation")
    nomination_id: int | None = Field(description="the nomination this version affirmed")
    note: str
    created_at: datetime
    entries: list[VersionEntryOut]


class OwnerHistoryPage(Schema):
    items: list[OwnerVersionOut] = Field(description="newest first")
    next: str | None = Field(None, description="pass as ?after= for the next page; null at the end")


class NominationOut(Schema):
    id: int
    statement: str
    category: str
    confidence: float
    corroboration_count: int
    sensitivity: str
    evidence_quote: str | None = Field(
        description="the person's words it came from; null once that conversation is sealed"
    )
    sealed: bool
    state: NominationState
    nominated_at: datetime
    resolved_at: datetime | None
    affirmed_version: int | None = Field(description="the version the affirmation wrote")


class NominationPage(Schema):
    items: list[NominationOut] = Field(description="newest first")
    next: str | None = Field(None, description="pass as ?after= for the next page; null at the end")


class AffirmedOut(Schema):
    version: int = Field(description="the document version that holds the affirmed entry")
    nomination: NominationOut


HistoryLimit = Annotated[int, Query(20, ge=1, le=50)]

# --- routes --------------------------------------------------------------------------------

#: every owner-document route: the persona tag, mounted on this router
ON: dict[str, Any] = {"tags": ["persona"], "router": router}


@route("persona_entries_list", response={200: OwnerDocOut, **ERRORS}, **ON)
def persona_document(
    request: HttpRequest,
    order: Annotated[
        Literal["document", "listing"],
        Query("document", description="listing: permanent first, then the most reinforced"),
    ] = "document",
) -> Any:
    """The head of your persona document: version, entries (with provenance,
    reinforcement, stale and dormant flags) and when it was written. Nothing written yet
    is version 0 with no entries. Entries you muted ("don't mention this again", on My
    persona) are not listed here nor in the history: no host is given them."""
    return handlers.persona_entries_list(_target(request, "persona_entries_list"), order=order)


@route("persona_document_write", response={200: OwnerDocWritten, **WITH_CONFLICT}, **ON)
def persona_document_write(request: HttpRequest, body: OwnerDocIn) -> Any:
    """Replace the entries (``expected_version`` and the whole list): a new version. A
    stale ``expected_version`` is a conflict naming the current version; refused content
    (a secret, an entry over 500 characters, over 30 entries or 2,000 tokens, an entry
    claiming to be affirmed) is a 400 with the reason. Either way nothing is written.
    The same entries again write nothing (``changed`` false). A muted entry (never listed
    here) stays in its place: a write cannot remove what it was not shown."""
    return handlers.persona_document_write(
        _target(request, "persona_document_write"),
        expected_version=body.expected_version,
        entries=[e.model_dump(exclude_unset=True) for e in body.entries],
    )


@route("persona_history", response={200: OwnerHistoryPage, **ERRORS}, **ON)
def persona_history(request: HttpRequest, after: Cursor = None, limit: HistoryLimit = 20) -> Any:
    """Every version of your document, newest first, each with its entries as written."""
    return handlers.persona_history(_target(request, "persona_history"), after=after, limit=limit)


@route("nominations_list", response={200: NominationPage, **ERRORS}, **ON)
def nominations_list(
    request: HttpRequest,
    state: Annotated[
        NominationState | None,
        Query(None, description="only this state; every state when left out"),
    ] = None,
    after: Cursor = None,
    limit: Limit = 50,
) -> Any:
    """What memory proposes for your document (its strongest, durable beliefs about
    you), newest first, with the words they came from. Only you move one in."""
    return handlers.nominations_list(
        _target(request, "nominations_list"), state=state, after=after, limit=limit
    )


@route("nomination_affirm", response={200: AffirmedOut, **WITH_CONFLICT}, **ON)
def nomination_affirm(request: HttpRequest, nomination_id: Id) -> Any:
    """Move a nominated statement into your document: a new version with it as an
    affirmed entry. No expected_version: it extends the head it reads. Affirming again
    answers the same version; a declined or withdrawn nomination is a conflict."""
    return handlers.nomination_affirm(
        _target(request, "nomination_affirm"), nomination_id=nomination_id
    )


@route("nomination_decline", response={200: NominationOut, **WITH_CONFLICT}, **ON)
def nomination_decline(request: HttpRequest, nomination_id: Id) -> Any:
    """Decline for good: the statement is never nominated again (even when memory
    derives it anew). A nomination decided already is a conflict."""
    return handlers.nomination_decline(
        _target(request, "nomination_decline"), nomination_id=nomination_id
    )


@route("persona_entry_reinforce", response={200: OwnerEntryOut, **WITH_CONFLICT}, **ON)
def persona_entry_reinforce(request: HttpRequest, key: EntryKey) -> Any:
    """Reinforce one entry (it came up again and held): its count and time go up, and a
    dormant working entry returns to the prompt. The text never changes."""
    return handlers.persona_entry_reinforce(_target(request, "persona_entry_reinforce"), key=key)
