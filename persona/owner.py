"""The owner's persona document: writes, nominations, tiers and the prompt row
(PRODUCT.md section 3; seed 001, with seed 000's tiers).

Only a person writes this document. The write paths are exactly two:

- ``owner_doc_write`` (the owner's edit: the full entry list and ``expected_version``;
  a stale version is a conflict and writes nothing) and ``owner_entry_demote`` (an
  edit that removes one entry and keeps a tombstone of what and why);
- ``nomination_affirm`` (the owner affirms a named nomination: one new version with an
  affirmation entry, the belief marked promoted, the nomination resolved last, in one
  transaction; idempotent).

Consolidation may only *nominate* (``nomination_consider``, called from the
``belief_consolidated`` signal inside the transaction that committed or reinforced the
belief). ``owner_entry_reinforce`` and the dormancy sweep change annotations, never
text. Every write surface (dashboard, CLI, HTTP, affirmation) goes through here, so
the secret refusal and the caps hold everywhere.
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

from memory.models import Belief, Principal
from memory.models_beliefs import SENSITIVITY_BY_NAME, Sensitivity
from persona.errors import PersonaError
from persona.models import (
    OwnerDocument,
    OwnerDocumentVersion,
    OwnerEntry,
    OwnerNomination,
    OwnerTombstone,
)
from persona.models_owner import TIER_ORDER, EntrySource, Tier
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
PROVENANCE = {EntrySource.USER_EDIT: "typed by them", EntrySource.AFFIRMATION: "affirmed by them"}


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
    or dicts with ``text`` and ``source``."""
    if not entries:
        return ""
    from safety.checks import render_safe_many

    texts = [e["text"] if isinstance(e, dict) else e.text for e in entries]
    sources = [e.get("source", "user_edit") if isinstance(e, dict) else e.source for e in entries]
    safe = render_safe_many(texts, wait=wait)
    lines = [ROW_HEADING]
    for text, source in zip(safe, sources, strict=True):
        lines.append(f"- {text} ({PROVENANCE.get(source, 'typed by them')})")
    return "\n".join(lines)


def row_entries(
    principal_id: int | None, *, ceiling: int, version: int | None = None
) -> tuple[int, int, list[OwnerEntry], list[str]]:
    """(version, row_state, entries that render, keys left out as dormant) for a plan."""
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
    shown, hidden = row_filter(entries, ceiling=ceiling)
    return wanted, doc.row_state, shown, [e.key for e in hidden]


def row_filter(
    entries: list[OwnerEntry], *, ceiling: int
) -> tuple[list[OwnerEntry], list[OwnerEntry]]:
    """(entries that render under ``ceiling``, entries left out as dormant): what a plan
    created now takes from a version's entries."""
    shown = [e for e in entries if e.sensitivity <= ceiling and not e.dormant]
    return shown, [e for e in entries if e.dormant]


# --- writing ---------------------------------------------------------------------------


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
    now: datetime | None = None,
) -> OwnerDocumentVersion | None:
    """The owner's edit: replace the entries, guarded by ``expected_version``.

    ``entries``: a list of ``{"text", "sensitivity"?, "tier"?, "key"?}``. An item whose
    ``key`` names a head entry keeps that entry's provenance and annotations (an
    affirmed entry stays affirmed; edited text clears its stale flag); any other item is
    typed by the owner. Only a nomination's affirmation adds an affirmed entry. A head
    affirmed entry left out clears its belief's promoted marker. Returns the new
    version, or None when nothing changed (no empty version is written).
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
                    row.update(stale=False, stale_reason="")
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
                }
            out.append(row)
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


def owner_entry_demote(
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
            note=f"demoted: {reason}",
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
            raise OwnerDocRefusal("That entry is not in the document.")
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


def statement_key(statement: str) -> str:
    """The content key of a statement: case-folded words (decline follows the words,
    not the belief id)."""
    return " ".join(statement.casefold().split()).rstrip(".!")


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
    when an open nomination already says the same, or when five are open (it waits: a
    later consolidation that reinforces it tries again)."""
    now = now or timezone.now()
    if ineligible_reason(belief):
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
    *, principal: Principal, nomination_id: int, by: str = "", now: datetime | None = None
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
    ).update(stale=True, stale_reason=f"the belief it came from was {reason}")


def nomination_counts(principal_ids: list[int] | None = None) -> dict[str, int]:
    """Nominations by state (the review log's figures)."""
    rows = OwnerNomination.objects.all()
    if principal_ids is not None:
        rows = rows.filter(principal_id__in=principal_ids)
    counts = dict(rows.values_list("state").annotate(n=Count("id")).values_list("state", "n"))
    return {s: counts.get(s, 0) for s in OwnerNomination.State.values}
