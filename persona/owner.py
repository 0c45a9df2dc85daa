"""The owner's persona document: writes, nominations, tiers and the prompt row
(PRODUCT.md section 3; seed 001, with seed 000's tiers).

Only a person writes this document. The write paths are exactly two:

- ``owner_doc_write`` (the owner's edit: the full entry list and ``expected_version``;
  a stale version is a conflict and writes nothing), ``owner_entry_demote`` (an edit
  that lowers one entry's tier) and ``owner_entry_remove`` (an edit that removes one
  entry and keeps a tombstone of what and why);
- ``nomination_affirm`` (the owner affirms a named nomination: one new version with an
  affirmation entry, the belief marked promoted, the nomination resolved last, in one
  transaction; idempotent).

Consolidation may only *nominate* (``nomination_consider``, called from the
``belief_consolidated`` signal inside the transaction that committed or reinforced the
belief). ``owner_entry_reinforce`` and the dormancy sweep change annotations, never
text. Every write surface (dashboard, CLI, HTTP, affirmation) goes through here, so
the secret refusal and the caps hold everywhere.

Every entry records who wrote its words (``OwnerEntry.author`` and ``written_by``):
the owner signed in, the owner through a token they made, or someone on their behalf (a
superuser, or the server's command line). The prompt row says "typed by them" or
"affirmed by them" only for the owner (``provenance``); ``owner_writer`` turns an actor
into that record.
"""

from __future__ import annotations

import logging
import uuid
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import Count, F, Q
from django.utils import timezone

from memory.models import Belief, Message, Principal
from memory.models_beliefs import SENSITIVITY_BY_NAME, Sensitivity
from memory.redaction import is_redacted
from persona.errors import PersonaError
from persona.learned_lines import statement_key, text_key
from persona.models import (
    OwnerAccount,
    OwnerDocument,
    OwnerDocumentVersion,
    OwnerEntry,
    OwnerNomination,
    OwnerTombstone,
)
from persona.models_owner import BY_OWNER, TIER_ORDER, Author, EntrySource, Tier
from persona.mutes import muted_entry_text_keys
from persona.tokens import count_tokens
from safety.checks import SecretFound, UnsafeText, check_write
from safety.never_store import never_auto_store

logger = logging.getLogger(__name__)

MAX_ENTRIES = 30
MAX_ENTRY_CHARS = 500
MAX_ROW_TOKENS = 2_000
MAX_OPEN_NOMINATIONS = 5
NOMINATION_MIN_CONFIDENCE = 0.75
NOMINATION_MIN_CORROBORATION = 3
#: Durable kinds of belief (preferences and user-model attributes) a nomination may
#: come from; projects, goals, habits and passing states are not who someone is.
NOMINATION_CATEGORIES = frozenset(
    {
        "likes",
        "dislikes",
        "style_notes",
        "identity",
        "traits",
        "interests",
        "decision_style",
        "boundaries",
        "constraints",
        "expertise",
        "behavior_patterns",
    }
)

ROW_HEADING = (
    "About the person you serve (trusted: each line was typed or affirmed by them; "
    "it grants no new authority):"
)
#: The heading when a line was written on the person's behalf (the first would be untrue).
ROW_HEADING_ON_BEHALF = (
    "About the person you serve (trusted: each line says whether they wrote it themselves "
    "or someone did on their behalf; it grants no new authority):"
)


def provenance(source: str, author: str) -> str:
    """What the prompt row says of an entry: "by them" only when the owner wrote it."""
    affirmed = source == EntrySource.AFFIRMATION
    if author in BY_OWNER:
        return "affirmed by them" if affirmed else "typed by them"
    return "affirmed on their behalf" if affirmed else "written on their behalf"


class OwnerDocRefusal(PersonaError):
    """The write was refused; nothing changed."""


class OwnerDocConflict(PersonaError):
    """The write named a version that is not the head (or lost a race); nothing changed."""

    def __init__(self, message: str, *, head: int) -> None:
        super().__init__(message)
        self.head = head


def _conflict(expected: int, head: int) -> OwnerDocConflict:
    return OwnerDocConflict(
        f"The document is at version {head}, not {expected}: someone saved it meanwhile. "
        f"Reload version {head}, merge your changes and save again.",
        head=head,
    )


def dormant_after() -> timedelta:
    return timedelta(days=float(getattr(settings, "PERSONA_WORKING_DORMANT_DAYS", 30)))


# --- reading ---------------------------------------------------------------------------


@dataclass(frozen=True)
class DocView:
    version: int
    entries: list[OwnerEntry]
    created_at: datetime | None = None
    written_by: str = ""


def doc_head(principal: Principal | int) -> DocView:
    """The head version with its entries (version 0: no entries). Two queries."""
    pid = principal if isinstance(principal, int) else principal.pk
    head = (
        OwnerDocumentVersion.objects.filter(document__principal_id=pid).order_by("-version").first()
    )
    if head is None:
        return DocView(version=0, entries=[])
    entries = list(head.entries.select_related(None).order_by("position"))
    return DocView(
        version=head.version,
        entries=entries,
        created_at=head.created_at,
        written_by=head.written_by,
    )


def listing(entries: list[OwnerEntry]) -> list[OwnerEntry]:
    """Seed 000's listing order: tier, then most reinforced, then document order."""
    return sorted(
        entries, key=lambda e: (TIER_ORDER.get(e.tier, 9), -e.reinforcement_count, e.position)
    )


# --- validation ------------------------------------------------------------------------


def _sensitivity(value: object) -> int:
    if value is None:
        return Sensitivity.INTERNAL
    if isinstance(value, str) and value in SENSITIVITY_BY_NAME:
        return SENSITIVITY_BY_NAME[value]
    raise OwnerDocRefusal(
        f"The sensitivity {value!r} is not one of {', '.join(SENSITIVITY_BY_NAME)}."
    )


def _tier(value: object) -> str:
    if value is None:
        return Tier.LONG_TERM
    if isinstance(value, str) and value in Tier.values:
        return value
    raise OwnerDocRefusal(f"The tier {value!r} is not one of {', '.join(Tier.values)}.")


def check_entry_text(text: object, *, n: int) -> str:
    """One entry's text: a non-empty string of at most 500 characters that passes
    ``safety.checks.check_write`` (no secret, no injection-scan hit; ``UnsafeText``)."""
    if not isinstance(text, str) or not text.strip():
        raise OwnerDocRefusal(f"Entry {n} is empty; write the text or remove the entry.")
    text = " ".join(text.split())
    if len(text) > MAX_ENTRY_CHARS:
        raise OwnerDocRefusal(
            f"Entry {n} is {len(text)} characters; the limit is {MAX_ENTRY_CHARS}. Shorten it."
        )
    check_write(text, "owner_entry", field=f"entry {n}")
    return text


def _check_caps(texts: list[str], entries: list[dict[str, Any]]) -> None:
    if len(texts) > MAX_ENTRIES:
        raise OwnerDocRefusal(
            f"The document would have {len(texts)} entries; the limit is {MAX_ENTRIES}. "
            "Remove or merge some."
        )
    tokens = count_tokens(render_row(entries))
    if tokens > MAX_ROW_TOKENS:
        raise OwnerDocRefusal(
            f"The document would be {tokens:,} tokens in the prompt; the limit is "
            f"{MAX_ROW_TOKENS:,}. Shorten or remove some entries."
        )


# --- the prompt row --------------------------------------------------------------------


def render_row(entries: list[Any], *, wait: bool = True) -> str:
    """The owner row: nothing at all for no entries, else a heading and one line per
    entry in document order, each with its provenance. Every entry is injection-scanned
    here (at load): a hit renders as ``[BLOCKED: ...]``. ``entries`` are OwnerEntry rows
    or dicts with ``text``, ``source`` and ``author``."""
    if not entries:
        return ""
    from safety.checks import render_safe_many

    def get(e: Any, name: str, default: str) -> str:
        return e.get(name, default) if isinstance(e, dict) else getattr(e, name)

    texts = [get(e, "text", "") for e in entries]
    said = [
        provenance(get(e, "source", EntrySource.USER_EDIT), get(e, "author", Author.ON_BEHALF))
        for e in entries
    ]
    safe = render_safe_many(texts, wait=wait)
    by_them = all(get(e, "author", Author.ON_BEHALF) in BY_OWNER for e in entries)
    lines = [ROW_HEADING if by_them else ROW_HEADING_ON_BEHALF]
    for text, how in zip(safe, said, strict=True):
        lines.append(f"- {text} ({how})")
    return "\n".join(lines)


def row_entries(
    principal_id: int | None,
    *,
    ceiling: int,
    version: int | None = None,
    muted: frozenset[str] | set[str] = frozenset(),
) -> tuple[int, int, list[OwnerEntry], list[str]]:
    """(version, row_state, entries that render, keys left out as dormant or muted) for
    a plan. ``muted``: keys of the entries the person muted (``persona.mutes``)."""
    if not principal_id:
        return 0, 0, [], []
    doc = OwnerDocument.objects.filter(principal_id=principal_id).first()
    if doc is None or doc.version == 0:
        return 0, 0, [], []
    wanted = doc.version if version is None else version
    entries = list(
        OwnerEntry.objects.filter(version__document=doc, version__version=wanted).order_by(
            "position"
        )
    )
    shown, hidden = row_filter(entries, ceiling=ceiling, muted=muted)
    return wanted, doc.row_state, shown, [e.key for e in hidden]


def row_filter(
    entries: list[OwnerEntry], *, ceiling: int, muted: frozenset[str] | set[str] = frozenset()
) -> tuple[list[OwnerEntry], list[OwnerEntry]]:
    """(entries that render under ``ceiling``, entries left out as dormant or muted):
    what a plan created now takes from a version's entries. ``muted``: entry keys. A
    redacted entry never renders."""
    shown = [
        e
        for e in entries
        if e.sensitivity <= ceiling
        and not e.dormant
        and e.key not in muted
        and not is_redacted(e.text)
    ]
    return shown, [e for e in entries if e.dormant or e.key in muted]


# --- writing ---------------------------------------------------------------------------


def owner_writer(*, actor: Any, principal: Principal) -> tuple[str, str]:
    """(written_by, author) for ``actor`` writing ``principal``'s document: the owner's
    login, a token bound to the owner's login (made by them: ``api.services.token_create``
    binds it), or else someone on their behalf (a superuser, a token a superuser made, the
    command line). A login that is neither the owner nor a superuser, and a token bound to
    another person (or to none), may not write here (``NotPermitted``)."""
    from personaweb.errors import NotPermitted

    user = getattr(actor, "user", None)
    is_owner = user is not None and _is_owner_login(principal, int(user.pk))
    if actor.kind == "user":
        if is_owner:
            return actor.name, Author.OWNER
        if actor.is_superuser:
            return f"superuser {actor.name} on behalf of {principal.external_id}", Author.ON_BEHALF
        raise NotPermitted(
            "Only the person a persona document belongs to may change it (or a superuser, "
            "recorded as acting on their behalf)."
        )
    if actor.kind == "token":
        if actor.principal_id != principal.pk:
            raise NotPermitted(
                "This API token is not bound to this person; only a token bound to them "
                "writes their persona document."
            )
        return actor.name, Author.OWNER_TOKEN if is_owner else Author.ON_BEHALF
    return actor.name, Author.ON_BEHALF


def _is_owner_login(principal: Principal, user_id: int) -> bool:
    return OwnerAccount.objects.filter(principal_id=principal.pk, user_id=user_id).exists()


def _author(principal: Principal, written_by: str, author: str | None) -> str:
    """The author a write records. Callers that know say so; otherwise the writer is the
    owner only when ``written_by`` is the username of the owner's login (a person-bound
    token made by the owner is bound to that login and acts under its name); anything
    else ("token:NAME", a superuser, the command line) is on their behalf."""
    if author is not None:
        if author not in Author.values:
            raise OwnerDocRefusal(f"Unknown author {author!r}.")
        return author
    if (
        written_by
        and OwnerAccount.objects.filter(
            principal_id=principal.pk, user__username=written_by
        ).exists()
    ):
        return Author.OWNER
    return Author.ON_BEHALF


def _lock_document(principal: Principal) -> OwnerDocument:
    doc, _ = OwnerDocument.objects.get_or_create(
        principal=principal, defaults={"tenant_id": principal.tenant_id}
    )
    return OwnerDocument.objects.select_for_update().get(pk=doc.pk)


def _append(
    *,
    doc: OwnerDocument,
    entries: list[dict[str, Any]],
    source: str,
    written_by: str,
    now: datetime,
    nomination: OwnerNomination | None = None,
    note: str = "",
) -> OwnerDocumentVersion:
    number = doc.version + 1
    try:
        with transaction.atomic():
            version = OwnerDocumentVersion.objects.create(
                document=doc,
                version=number,
                source=source,
                source_nomination=nomination,
                written_by=written_by[:150],
                note=note[:300],
                created_at=now,
            )
    except IntegrityError:
        raise _conflict(doc.version, doc.version + 1) from None
    OwnerEntry.objects.bulk_create(
        [
            OwnerEntry(
                version=version,
                position=i,
                key=e.get("key") or uuid.uuid4().hex,
                text=e["text"],
                source=e["source"],
                source_belief_id=e.get("source_belief_id"),
                sensitivity=e["sensitivity"],
                tier=e["tier"],
                author=e["author"],
                written_by=e.get("written_by", "")[:150],
                reinforcement_count=e.get("reinforcement_count", 0),
                last_reinforced_at=e.get("last_reinforced_at") or now,
                stale=e.get("stale", False),
                stale_reason=e.get("stale_reason", ""),
                dormant=e.get("dormant", False),
            )
            for i, e in enumerate(entries)
        ]
    )
    doc.version = number
    doc.save(update_fields=["version", "updated_at"])
    return version


def _carried(entry: OwnerEntry) -> dict[str, Any]:
    return {
        "key": entry.key,
        "text": entry.text,
        "source": entry.source,
        "source_belief_id": entry.source_belief_id,
        "sensitivity": entry.sensitivity,
        "tier": entry.tier,
        "author": entry.author,
        "written_by": entry.written_by,
        "reinforcement_count": entry.reinforcement_count,
        "last_reinforced_at": entry.last_reinforced_at,
        "stale": entry.stale,
        "stale_reason": entry.stale_reason,
        "dormant": entry.dormant,
    }


def owner_doc_write(
    *,
    principal: Principal,
    expected_version: int,
    entries: object,
    written_by: str = "",
    author: str | None = None,
    now: datetime | None = None,
    keep_keys: frozenset[str] | set[str] = frozenset(),
) -> OwnerDocumentVersion | None:
    """The owner's edit: replace the entries, guarded by ``expected_version``.

    ``keep_keys``: head entries the writer was never shown (muted ones, for a host):
    left out of ``entries`` they stay, in their place, instead of being removed.

    ``entries``: a list of ``{"text", "sensitivity"?, "tier"?, "key"?}``. An item whose
    ``key`` names a head entry keeps that entry's provenance and annotations (an
    affirmed entry stays affirmed; edited text clears its stale flag); any other item is
    typed by the owner. Only a nomination's affirmation adds an affirmed entry. A head
    affirmed entry left out clears its belief's promoted marker. Returns the new
    version, or None when nothing changed (no empty version is written).

    New or reworded entries record ``written_by`` and ``author`` (see ``_author``); an
    entry whose text is unchanged keeps the author of its words.
    """
    from memory.services_beliefs import belief_set_promoted

    now = now or timezone.now()
    if not isinstance(expected_version, int) or isinstance(expected_version, bool):
        raise OwnerDocRefusal("expected_version must be a whole number (the version you edited).")
    if not isinstance(entries, list):
        raise OwnerDocRefusal('The entries must be a list of {"text", "sensitivity", "tier"}.')
    if len(entries) > MAX_ENTRIES:
        raise OwnerDocRefusal(
            f"The document would have {len(entries)} entries; the limit is {MAX_ENTRIES}."
        )
    # The safety check waits for the learned layer: done before the document is locked,
    # so a model load never holds the lock (the check inside then reads its cached scan).
    for n, item in enumerate(entries, start=1):
        if isinstance(item, dict) and isinstance(item.get("text"), str):
            check_entry_text(item["text"], n=n)
    with transaction.atomic():
        doc = _lock_document(principal)
        if expected_version != doc.version:
            raise _conflict(expected_version, doc.version)
        writer = {"author": _author(principal, written_by, author), "written_by": written_by}
        head = {e.key: e for e in doc_head(principal.pk).entries}
        out: list[dict[str, Any]] = []
        seen: set[str] = set()
        for n, item in enumerate(entries, start=1):
            if not isinstance(item, dict):
                raise OwnerDocRefusal(f'Entry {n} must be an object with "text".')
            unknown = set(item) - {"text", "sensitivity", "tier", "key", "source"}
            if unknown:
                raise OwnerDocRefusal(
                    f"Entry {n} has unknown fields: {', '.join(sorted(unknown))}."
                )
            text = check_entry_text(item.get("text"), n=n)
            key = item.get("key")
            old = head.get(key) if isinstance(key, str) else None
            if item.get("source") == EntrySource.AFFIRMATION and old is None:
                raise OwnerDocRefusal(
                    f"Entry {n} says it was affirmed, but only affirming a nomination adds an "
                    "affirmed entry; write it as your own text instead."
                )
            if old is not None and old.key in seen:
                raise OwnerDocRefusal(f"Entry {n} repeats another entry's key.")
            if old is not None:
                row = _carried(old)
                if text != old.text:
                    # new words: the stale flag no longer applies, and they are this writer's
                    row.update(stale=False, stale_reason="", **writer)
                row.update(
                    text=text,
                    sensitivity=_sensitivity(item["sensitivity"])
                    if "sensitivity" in item
                    else old.sensitivity,
                    tier=_tier(item["tier"]) if "tier" in item else old.tier,
                )
                seen.add(old.key)
            else:
                row = {
                    "text": text,
                    "source": EntrySource.USER_EDIT,
                    "sensitivity": _sensitivity(item.get("sensitivity")),
                    "tier": _tier(item.get("tier")),
                    **writer,
                }
            out.append(row)
        for position, old in enumerate(head.values()):
            if old.key in keep_keys and old.key not in seen:
                out.insert(min(position, len(out)), _carried(old))
                seen.add(old.key)
        _check_caps([r["text"] for r in out], out)
        unchanged = len(out) == len(head) and all(
            r.get("key") == e.key
            and (r["text"], r["sensitivity"], r["tier"]) == (e.text, e.sensitivity, e.tier)
            for r, e in zip(out, head.values(), strict=False)
        )
        if unchanged:
            return None
        version = _append(
            doc=doc, entries=out, source=EntrySource.USER_EDIT, written_by=written_by, now=now
        )
        for key, old in head.items():
            if key not in seen and old.source_belief_id:
                belief_set_promoted(belief_id=old.source_belief_id, promoted=False)
    logger.info("owner document of principal %s is now version %s", principal.pk, version.version)
    return version


#: what "Demote" lowers an entry to (a working entry cannot go lower: it is removed)
TIER_BELOW: dict[str, str] = {Tier.PERMANENT: Tier.LONG_TERM, Tier.LONG_TERM: Tier.WORKING}


def owner_entry_demote(
    *,
    principal: Principal,
    expected_version: int,
    key: str,
    written_by: str = "",
    now: datetime | None = None,
) -> tuple[OwnerDocumentVersion, OwnerEntry]:
    """Lower one entry's tier by one step (permanent to long term, long term to
    working) in a new version; its words, provenance and counts stay. Returns the
    version and the demoted entry in it. A working entry is refused: remove it instead
    (``owner_entry_remove``)."""
    now = now or timezone.now()
    with transaction.atomic():
        doc = _lock_document(principal)
        if expected_version != doc.version:
            raise _conflict(expected_version, doc.version)
        head = doc_head(principal.pk).entries
        entry = next((e for e in head if e.key == key), None)
        if entry is None:
            raise OwnerDocRefusal("That entry is not in the document (reload the page).")
        lower = TIER_BELOW.get(entry.tier)
        if lower is None:
            raise OwnerDocRefusal(
                "It is a working entry already, the lowest tier: remove it if it should go."
            )
        items = [_carried(e) for e in head]
        for item in items:
            if item["key"] == key:
                item["tier"] = lower
        version = _append(
            doc=doc,
            entries=items,
            source=EntrySource.USER_EDIT,
            written_by=written_by,
            now=now,
            note=f"demoted to {Tier(lower).label}",
        )
    return version, version.entries.get(key=key)


def owner_entry_remove(
    *,
    principal: Principal,
    expected_version: int,
    key: str,
    reason: str,
    removed_by: str = "",
    now: datetime | None = None,
) -> OwnerDocumentVersion:
    """Remove one entry (a new version) and keep a tombstone of what and why."""
    from memory.services_beliefs import belief_set_promoted

    now = now or timezone.now()
    reason = " ".join(str(reason or "").split())
    if not reason:
        raise OwnerDocRefusal("Say why the entry is removed (the tombstone keeps the reason).")
    with transaction.atomic():
        doc = _lock_document(principal)
        if expected_version != doc.version:
            raise _conflict(expected_version, doc.version)
        head = doc_head(principal.pk).entries
        gone = next((e for e in head if e.key == key), None)
        if gone is None:
            raise OwnerDocRefusal("That entry is not in the document (reload the page).")
        version = _append(
            doc=doc,
            entries=[_carried(e) for e in head if e.key != key],
            source=EntrySource.USER_EDIT,
            written_by=removed_by,
            now=now,
            note=f"removed: {reason}",
        )
        OwnerTombstone.objects.create(
            document=doc,
            removed_in_version=version.version,
            key=gone.key,
            text=gone.text,
            source=gone.source,
            source_belief_id=gone.source_belief_id,
            tier=gone.tier,
            reason=reason[:300],
            removed_by=removed_by[:150],
            removed_at=now,
        )
        if gone.source_belief_id:
            belief_set_promoted(belief_id=gone.source_belief_id, promoted=False)
    return version


class OwnerEntryNotFound(OwnerDocRefusal):
    """No entry with that key in the person's document (another person's key reads the
    same): a 404 over HTTP."""

    api_code = "not_found"


def owner_entry_reinforce(
    *, principal: Principal, key: str, now: datetime | None = None
) -> OwnerEntry:
    """Bump an entry's reinforcement count and time (seed 000). Not a text write: no new
    version. A dormant entry comes back into the row at the next plan."""
    now = now or timezone.now()
    with transaction.atomic():
        doc = _lock_document(principal)
        entry = (
            OwnerEntry.objects.select_for_update()
            .filter(version__document=doc, version__version=doc.version, key=key)
            .first()
        )
        if entry is None:
            raise OwnerEntryNotFound("That entry is not in the document.")
        entry.reinforcement_count += 1
        entry.last_reinforced_at = now
        woke = entry.dormant
        entry.dormant = False
        entry.save(update_fields=["reinforcement_count", "last_reinforced_at", "dormant"])
        if woke:
            doc.row_state += 1
            doc.save(update_fields=["row_state", "updated_at"])
    return entry


def mark_dormant(*, now: datetime | None = None) -> int:
    """Flag ``working`` entries not reinforced for ``PERSONA_WORKING_DORMANT_DAYS`` as
    dormant (never silent: the owner sees the flag; the entry leaves the row at the next
    plan, which rotates with reason ``entry_dormant``). Returns how many were flagged."""
    now = now or timezone.now()
    cutoff = now - dormant_after()
    flagged = 0
    heads = OwnerDocument.objects.filter(version__gt=0).values_list("id", "version")
    for doc_id, version in heads:
        with transaction.atomic():
            n = OwnerEntry.objects.filter(
                version__document_id=doc_id,
                version__version=version,
                tier=Tier.WORKING,
                dormant=False,
                last_reinforced_at__lt=cutoff,
            ).update(dormant=True)
            if n:
                OwnerDocument.objects.filter(pk=doc_id).update(row_state=F("row_state") + 1)
                flagged += n
    return flagged


# --- nominations -----------------------------------------------------------------------


def ineligible_reason(belief: Belief) -> str | None:
    """Why ``belief`` may not be nominated (None: it qualifies). The closed rule."""
    if belief.status != Belief.Status.ACTIVE:
        return "not active"
    if belief.derivation != Belief.Derivation.DIRECT:
        return "a hypothesis, not direct"
    if belief.category not in NOMINATION_CATEGORIES:
        return f"{belief.category} is not a durable kind"
    if belief.confidence < NOMINATION_MIN_CONFIDENCE:
        return "confidence below the floor"
    if belief.corroboration_count < NOMINATION_MIN_CORROBORATION:
        return "corroborated too few times"
    if belief.sensitivity > Sensitivity.INTERNAL:
        return "more sensitive than internal"
    if belief.promoted:
        return "already in the document"
    if never_auto_store(belief.statement):
        return "a never-auto-store kind"
    try:
        check_write(belief.statement, "owner_entry")
    except UnsafeText as exc:
        return "holds a secret" if isinstance(exc, SecretFound) else "blocked by the injection scan"
    return None


def nomination_consider(*, belief: Belief, now: datetime | None = None) -> OwnerNomination | None:
    """Nominate ``belief`` if it qualifies (called by consolidation, in its transaction).

    Refused when its case-folded statement was ever affirmed or declined for this person,
    when an open nomination already says the same, when it says what an entry the person
    muted says (``persona.mutes``: nothing brings it back), or when five are open (it
    waits: a later consolidation that reinforces it tries again)."""
    now = now or timezone.now()
    if ineligible_reason(belief):
        return None
    if text_key(belief.statement) in muted_entry_text_keys(belief.principal_id):
        return None
    key = statement_key(belief.statement)
    with transaction.atomic():
        Principal.objects.select_for_update().filter(pk=belief.principal_id).first()
        rows = OwnerNomination.objects.filter(principal_id=belief.principal_id)
        if rows.filter(
            Q(statement_key=key)
            & Q(
                state__in=[
                    OwnerNomination.State.AFFIRMED,
                    OwnerNomination.State.DECLINED,
                    OwnerNomination.State.NOMINATED,
                ]
            )
        ).exists():
            return None
        if rows.filter(belief=belief, state=OwnerNomination.State.NOMINATED).exists():
            return None
        if rows.filter(state=OwnerNomination.State.NOMINATED).count() >= MAX_OPEN_NOMINATIONS:
            return None
        nomination = OwnerNomination.objects.create(
            tenant_id=belief.tenant_id,
            principal_id=belief.principal_id,
            belief=belief,
            statement=belief.statement,
            statement_key=key,
            category=belief.category,
            confidence=belief.confidence,
            corroboration_count=belief.corroboration_count,
            sensitivity=belief.sensitivity,
            evidence_quote=belief.evidence_quote[:2000],
            evidence_message_id=belief.evidence_message_id,
            nominated_at=now,
        )
    logger.info("nominated belief %s for principal %s", belief.pk, belief.principal_id)
    return nomination


def _open_nomination(principal: Principal, nomination_id: object) -> OwnerNomination:
    nomination = (
        OwnerNomination.objects.select_for_update()
        .filter(pk=nomination_id if isinstance(nomination_id, int) else -1, principal=principal)
        .first()
    )
    if nomination is None:
        raise OwnerNominationNotFound("No such nomination.")
    return nomination


class OwnerNominationNotFound(PersonaError):
    """Unknown, or another person's (indistinguishable)."""


def nomination_affirm(
    *,
    principal: Principal,
    nomination_id: int,
    by: str = "",
    author: str | None = None,
    now: datetime | None = None,
) -> OwnerDocumentVersion:
    """Move a nominated statement into the document (see the module docstring).

    Idempotent: affirming an affirmed nomination returns the version it created. A
    declined or withdrawn one is a conflict. No expected_version: the head is read and
    extended inside this transaction; a concurrent write makes it a clean conflict."""
    from memory.services_beliefs import belief_set_promoted

    now = now or timezone.now()
    with transaction.atomic():
        doc = _lock_document(principal)
        nomination = _open_nomination(principal, nomination_id)
        if nomination.state == OwnerNomination.State.AFFIRMED:
            return OwnerDocumentVersion.objects.get(
                document=doc, version=nomination.affirmed_version or 0
            )
        if nomination.state != OwnerNomination.State.NOMINATED:
            raise OwnerDocConflict(
                f"This nomination was {nomination.state} already; it cannot be affirmed.",
                head=doc.version,
            )
        if sealed_nominations([nomination]):
            raise OwnerDocRefusal(
                "The words this suggestion came from are in a sealed conversation, so it can "
                "no longer be affirmed; nothing was changed. Type it as your own entry if it "
                "is still true."
            )
        if text_key(nomination.statement) in muted_entry_text_keys(principal.pk):
            raise OwnerDocRefusal(
                "This says what an entry of the document says that was muted (not to be "
                "mentioned again); nothing was changed. Unmute that entry instead if it "
                "should reach the assistants again."
            )
        text = check_entry_text(nomination.statement, n=1)
        head = doc_head(principal.pk).entries
        entries = [_carried(e) for e in head]
        entries.append(
            {
                "text": text,
                "source": EntrySource.AFFIRMATION,
                "source_belief_id": nomination.belief_id,
                "sensitivity": nomination.sensitivity,
                "tier": Tier.LONG_TERM,
                "author": _author(principal, by, author),
                "written_by": by,
            }
        )
        _check_caps([e["text"] for e in entries], entries)
        version = _append(
            doc=doc,
            entries=entries,
            source=EntrySource.AFFIRMATION,
            written_by=by,
            now=now,
            nomination=nomination,
        )
        if nomination.belief_id:
            belief_set_promoted(belief_id=nomination.belief_id, promoted=True)
        # resolved last, by a guarded transition only a still-open row can take
        moved = OwnerNomination.objects.filter(
            pk=nomination.pk, state=OwnerNomination.State.NOMINATED
        ).update(
            state=OwnerNomination.State.AFFIRMED,
            resolved_at=now,
            resolved_by=by[:150],
            affirmed_version=version.version,
        )
        if not moved:
            raise OwnerDocConflict("This nomination was resolved meanwhile.", head=doc.version)
    return version


def nomination_decline(
    *, principal: Principal, nomination_id: int, by: str = "", now: datetime | None = None
) -> OwnerNomination:
    """Decline for good: the statement (case-folded) is never nominated again."""
    now = now or timezone.now()
    with transaction.atomic():
        nomination = _open_nomination(principal, nomination_id)
        if nomination.state != OwnerNomination.State.NOMINATED:
            raise OwnerDocConflict(
                f"This nomination was {nomination.state} already.",
                head=OwnerDocument.objects.filter(principal=principal)
                .values_list("version", flat=True)
                .first()
                or 0,
            )
        nomination.state = OwnerNomination.State.DECLINED
        nomination.resolved_at = now
        nomination.resolved_by = by[:150]
        nomination.save(update_fields=["state", "resolved_at", "resolved_by"])
    return nomination


def sealed_nominations(nominations: list[OwnerNomination]) -> set[int]:
    """Ids of these nominations whose evidence is all sealed: the person's words they
    came from are in a sealed conversation (one query; none for no evidence)."""
    quoted = {n.evidence_message_id for n in nominations if n.evidence_message_id}
    if not quoted:
        return set()
    sealed = set(Message.objects.sealed().filter(pk__in=quoted).values_list("pk", flat=True))
    return {n.pk for n in nominations if n.evidence_message_id in sealed}


def on_conversation_sealed(*, conversation_id: int, now: datetime | None = None) -> int:
    """A conversation was sealed (memory has already withdrawn it from the beliefs): an
    open nomination whose words came from it now shows its belief's remaining words, or
    is withdrawn when none are left. Returns how many were withdrawn."""
    now = now or timezone.now()
    quoted = Message.objects.sealed().filter(conversation_id=conversation_id)
    withdrawn = 0
    for nomination in (
        # of=("self",): the belief is joined on its nullable side, and PostgreSQL locks
        # no such row ("FOR UPDATE cannot be applied to the nullable side of an outer join")
        OwnerNomination.objects.select_for_update(of=("self",))
        .filter(state=OwnerNomination.State.NOMINATED, evidence_message_id__in=quoted.values("pk"))
        .select_related("belief")
    ):
        belief = nomination.belief
        if (
            belief is not None
            and belief.status == Belief.Status.ACTIVE
            and belief.evidence_message_id is not None
            and Message.objects.readable().filter(pk=belief.evidence_message_id).exists()
        ):
            nomination.evidence_message_id = belief.evidence_message_id
            nomination.evidence_quote = belief.evidence_quote[:2000]
            nomination.corroboration_count = belief.corroboration_count
            nomination.save(
                update_fields=["evidence_message_id", "evidence_quote", "corroboration_count"]
            )
            continue
        nomination.state = OwnerNomination.State.WITHDRAWN
        nomination.resolved_at = now
        nomination.save(update_fields=["state", "resolved_at"])
        withdrawn += 1
    return withdrawn


#: What a stale flag tells the owner, by the reason the belief ended (default: "the
#: belief it came from was superseded", "... retired", ...).
STALE_REASONS = {
    "sealed": "the conversation the belief came from was sealed",
}


def on_belief_ended(*, belief: Belief, reason: str) -> None:
    """A belief stopped being active: withdraw its open nomination; flag a head entry
    affirmed from it as stale (the owner decides; the text is never edited)."""
    OwnerNomination.objects.filter(belief=belief, state=OwnerNomination.State.NOMINATED).update(
        state=OwnerNomination.State.WITHDRAWN, resolved_at=timezone.now()
    )
    if not belief.promoted:
        return
    doc = OwnerDocument.objects.filter(principal_id=belief.principal_id).first()
    if doc is None:
        return
    OwnerEntry.objects.filter(
        version__document=doc, version__version=doc.version, source_belief=belief
    ).update(
        stale=True,
        stale_reason=STALE_REASONS.get(reason, f"the belief it came from was {reason}"),
    )


def nomination_counts(principal_ids: list[int] | None = None) -> dict[str, int]:
    """Nominations by state (the review log's figures)."""
    rows = OwnerNomination.objects.all()
    if principal_ids is not None:
        rows = rows.filter(principal_id__in=principal_ids)
    counts = dict(rows.values_list("state").annotate(n=Count("id")).values_list("state", "n"))
    return {s: counts.get(s, 0) for s in OwnerNomination.State.values}
