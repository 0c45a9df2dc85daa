"""The owner-document routes of /v1 (issue 12; seed 001, "The routes"): the persona
document of the person a token is bound to, its history, and the nominations the owner
affirms or declines.

Mounted by ``api.http`` only when ``AGENT_PERSONA_API_ENABLED`` is set (default off), on
the conventions of every /v1 route: the error envelope, ``X-Request-ID``,
``Cache-Control: private, no-store`` (``api.middleware``), keyset pages. Each route's
scope is its ``auth`` object (``PersonaToken``): exactly ``persona.read`` or
``persona.write``, checked with ``token_authenticate`` before the route runs, on a token
bound to a person (``ApiToken.principal``). The person comes from the token, never from
the request, so another person's document cannot be named at all, and another person's
nomination (or another tenant's) is the same 404 as an id that does not exist.

Every write goes through ``persona.owner``, the one writer of the document (the
dashboard and the CLI call it too): a stale ``expected_version`` is a conflict and
refused content (a secret, too long, too many entries) a 400 with its sentence; both
leave the document untouched.
"""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any, Literal

from django.http import HttpRequest
from ninja import Field, Query, Router, Schema
from pydantic import ConfigDict, StrictInt

from api import selectors, services
from api.errors import NO_NOMINATION_MESSAGE, Conflict, NotFound
from api.http import ERRORS, WITH_CONFLICT, BearerToken, Cursor, Id, Limit, Text
from api.services import Access
from memory.models import Principal
from memory.models_beliefs import SENSITIVITY_BY_NAME
from persona import owner
from persona.models_owner import EntrySource, Tier

PERSONA_READ = "persona.read"
PERSONA_WRITE = "persona.write"
MAX_VERSION = 2**31 - 1


class PersonaToken(BearerToken):
    """The bearer check of one persona route: a live token carrying ``scope`` (exactly
    the route's), bound to a person. ``request.auth`` is then the ``Access``."""

    openapi_description = (
        "An API token bound to a person (`api token create --principal ID`) with "
        "persona.read (reads) or persona.write (writes)."
    )

    def __init__(self, scope: str) -> None:
        super().__init__()
        self.scope = scope

    def authenticate(self, request: HttpRequest, token: str) -> Access | None:  # type: ignore[override]
        if not token.strip():
            return None
        return services.persona_access(raw=token, scope=self.scope)


READ = PersonaToken(PERSONA_READ)
WRITE = PersonaToken(PERSONA_WRITE)

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

# --- helpers -------------------------------------------------------------------------------


def _owner(request: HttpRequest) -> tuple[Principal, str]:
    """The person the caller's token is bound to, and who acts (for the records)."""
    access: Access = request.auth  # type: ignore[attr-defined]
    person = access.principal
    assert person is not None  # PersonaToken lets only a token bound to a person through
    return person, access.by


def _nomination(person: Principal, nomination_id: int) -> dict[str, Any]:
    found = selectors.nomination_of(principal_id=person.pk, nomination_id=nomination_id)
    if found is None:
        raise NotFound(NO_NOMINATION_MESSAGE)
    return selectors.nomination_dicts([found])[0]


# --- routes --------------------------------------------------------------------------------


@router.get("/persona", response={200: OwnerDocOut, **ERRORS}, auth=READ)
def persona_document(request: HttpRequest) -> Any:
    """The head of your persona document: version, entries (with provenance,
    reinforcement, stale and dormant flags) and when it was written. Nothing written yet
    is version 0 with no entries."""
    person, _ = _owner(request)
    return selectors.owner_doc_dict(person.pk)


@router.put("/persona", response={200: OwnerDocWritten, **WITH_CONFLICT}, auth=WRITE)
def persona_document_write(request: HttpRequest, body: OwnerDocIn) -> Any:
    """Replace the entries (``expected_version`` and the whole list): a new version. A
    stale ``expected_version`` is a conflict naming the current version; refused content
    (a secret, an entry over 500 characters, over 30 entries or 2,000 tokens, an entry
    claiming to be affirmed) is a 400 with the reason. Either way nothing is written.
    The same entries again write nothing (``changed`` false)."""
    person, by = _owner(request)
    try:
        version = owner.owner_doc_write(
            principal=person,
            expected_version=body.expected_version,
            entries=[e.model_dump(exclude_unset=True) for e in body.entries],
            written_by=by,
        )
    except owner.OwnerDocConflict as exc:
        raise Conflict(str(exc)) from None
    if version is None:
        return {**selectors.owner_doc_dict(person.pk), "changed": False}
    return {**selectors.owner_version_dict(version), "changed": True}


@router.get("/persona/history", response={200: OwnerHistoryPage, **ERRORS}, auth=READ)
def persona_history(request: HttpRequest, after: Cursor = None, limit: HistoryLimit = 20) -> Any:
    """Every version of your document, newest first, each with its entries as written."""
    person, _ = _owner(request)
    return selectors.owner_history_page(principal_id=person.pk, after=after, limit=limit)


@router.get("/persona/nominations", response={200: NominationPage, **ERRORS}, auth=READ)
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
    person, _ = _owner(request)
    return selectors.nomination_page(principal_id=person.pk, state=state, after=after, limit=limit)


@router.post(
    "/persona/nominations/{nomination_id}/affirm",
    response={200: AffirmedOut, **WITH_CONFLICT},
    auth=WRITE,
)
def nomination_affirm(request: HttpRequest, nomination_id: Id) -> Any:
    """Move a nominated statement into your document: a new version with it as an
    affirmed entry. No expected_version: it extends the head it reads. Affirming again
    answers the same version; a declined or withdrawn nomination is a conflict."""
    person, by = _owner(request)
    try:
        version = owner.nomination_affirm(principal=person, nomination_id=nomination_id, by=by)
    except owner.OwnerNominationNotFound:
        raise NotFound(NO_NOMINATION_MESSAGE) from None
    except owner.OwnerDocConflict as exc:
        raise Conflict(str(exc)) from None
    return {"version": version.version, "nomination": _nomination(person, nomination_id)}


@router.post(
    "/persona/nominations/{nomination_id}/decline",
    response={200: NominationOut, **WITH_CONFLICT},
    auth=WRITE,
)
def nomination_decline(request: HttpRequest, nomination_id: Id) -> Any:
    """Decline for good: the statement is never nominated again (even when memory
    derives it anew). A nomination decided already is a conflict."""
    person, by = _owner(request)
    try:
        declined = owner.nomination_decline(principal=person, nomination_id=nomination_id, by=by)
    except owner.OwnerNominationNotFound:
        raise NotFound(NO_NOMINATION_MESSAGE) from None
    except owner.OwnerDocConflict as exc:
        raise Conflict(str(exc)) from None
    return selectors.nomination_dicts([declined])[0]
