"""Redaction of persona words (``memory.redaction`` says what redaction is and who may):

- **a passage of a persona version**: versions are immutable otherwise, and every later
  version carries the words on (the head prompt would still show them), so the exact
  passage is replaced by the marker in every version of that agent that holds it, in
  every field (name, role, goals, background, guardrails, standing rules, the learned
  notes, the reason and the evidence quotes);
- **an owner-document entry**: the entry's words in every version of the document that
  carries them (same key, same text), the tombstone of a demote, and the nominations
  that stated them; a redacted entry never renders in the prompt row.

Either way every pinned plan that could hold the words is rebuilt at once (rotation
reason ``redacted``) and ``text_redacted`` is sent (learning blanks its proposals).
This module also answers memory's ``text_redacted`` for the copies persona holds of a
message or a belief: nomination statements and quotes, version evidence quotes, and the
owner entries affirmed from a redacted belief (redacted with it).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from django.db import transaction

from memory.models import Redaction
from memory.redaction import (
    REDACTED,
    RedactionRefused,
    findings_scrub,
    is_redacted,
    redaction_check,
    redaction_record,
    vector_forget,
)
from memory.services import text_sha256
from memory.signals import text_redacted
from persona.learned_lines import statement_key
from persona.models import (
    AgentPersonaVersion,
    OwnerDocument,
    OwnerEntry,
    OwnerNomination,
    OwnerTombstone,
    PlanRotation,
)
from persona.plans import plans_rebuild
from personaweb.actors import Actor

#: the version fields a passage is looked for and replaced in
VERSION_TEXT_FIELDS = (
    "name",
    "role",
    "goals",
    "background",
    "guardrails",
    "standing_rules",
    "learned",
    "reason",
    "evidence",
)
MIN_PASSAGE_CHARS = 3


def scrub(value: Any, passage: str) -> Any:
    """``value`` with every occurrence of ``passage`` replaced by the marker, through
    strings, lists and dict values (the JSON fields of a version)."""
    if isinstance(value, str):
        return value.replace(passage, REDACTED)
    if isinstance(value, list):
        return [scrub(v, passage) for v in value]
    if isinstance(value, dict):
        return {k: scrub(v, passage) for k, v in value.items()}
    return value


def texts_holding(value: Any, passage: str) -> list[str]:
    """Every string in ``value`` (through lists and dict values) that holds ``passage``."""
    if isinstance(value, str):
        return [value] if passage in value else []
    if isinstance(value, list):
        return [t for v in value for t in texts_holding(v, passage)]
    if isinstance(value, dict):
        return [t for v in value.values() for t in texts_holding(v, passage)]
    return []


def holds(value: Any, passage: str) -> bool:
    if isinstance(value, str):
        return passage in value
    if isinstance(value, list):
        return any(holds(v, passage) for v in value)
    if isinstance(value, dict):
        return any(holds(v, passage) for v in value.values())
    return False


def version_redactions(versions: list[AgentPersonaVersion]) -> dict[int, list[Redaction]]:
    """The redactions that reached each of these versions of one agent, by version number
    (one query; none when no version holds the marker)."""
    marked = [
        v for v in versions if any(holds(getattr(v, f), REDACTED) for f in VERSION_TEXT_FIELDS)
    ]
    if not marked:
        return {}
    out: dict[int, list[Redaction]] = {}
    for row in Redaction.objects.filter(
        kind=Redaction.Kind.PERSONA_VERSION, reached__agent_id=marked[0].agent_id
    ).order_by("redacted_at", "id"):
        for number in row.reached.get("versions", []):
            out.setdefault(number, []).append(row)
    return out


@dataclass(frozen=True)
class PersonaRedactionResult:
    redaction: Redaction
    versions: list[int]  # the version numbers that held the passage
    plans_rotated: int = 0


@transaction.atomic
def persona_version_redact(
    *, actor: Actor, version: AgentPersonaVersion, passage: str, reason: str
) -> PersonaRedactionResult:
    """Remove ``passage`` (exact words of ``version``) from every version of its agent
    that holds it, and rebuild the agent's pinned plans (the module docstring)."""
    agent = version.agent
    reason = redaction_check(actor=actor, tenant_id=agent.tenant_id, reason=reason)
    passage = (passage or "").strip()
    if len(passage) < MIN_PASSAGE_CHARS or is_redacted(passage):
        raise RedactionRefused(
            f"Paste the exact words to redact (at least {MIN_PASSAGE_CHARS} characters), as "
            "they stand in the version. Nothing changed."
        )
    if REDACTED in passage:
        raise RedactionRefused(
            f"The words to redact include the marker {REDACTED}; paste only words still "
            "shown. Nothing changed."
        )
    rows = list(
        AgentPersonaVersion.objects.select_for_update().filter(agent=agent).order_by("version")
    )
    chosen = next(v for v in rows if v.pk == version.pk)
    if not any(holds(getattr(chosen, f), passage) for f in VERSION_TEXT_FIELDS):
        raise RedactionRefused(
            f"Version {chosen.version} does not hold these exact words; copy them from the "
            "version as shown (the same case and spacing). Nothing changed."
        )
    reached: list[int] = []
    old_texts: set[str] = set()
    for row in rows:
        for f in VERSION_TEXT_FIELDS:
            old_texts.update(texts_holding(getattr(row, f), passage))
        changed = {
            f: scrub(getattr(row, f), passage)
            for f in VERSION_TEXT_FIELDS
            if holds(getattr(row, f), passage)
        }
        if changed:
            # versions are immutable to every other writer: an update, never save()
            AgentPersonaVersion.objects.filter(pk=row.pk).update(**changed)
            reached.append(row.version)
    # held_in: the safety scan stored a vector of each text it read (a field, a guardrail,
    # a rule) that held the passage
    record, rotated = _words_gone(
        actor=actor,
        tenant_id=agent.tenant_id,
        sender=AgentPersonaVersion,
        kind=Redaction.Kind.PERSONA_VERSION,
        object_id=chosen.pk,
        text=passage,
        held_in=old_texts,
        reason=reason,
        reached={"agent_id": agent.pk, "versions": reached},
        agent_id=agent.pk,
    )
    return PersonaRedactionResult(redaction=record, versions=reached, plans_rotated=rotated)


def _words_gone(
    *,
    actor: Actor,
    tenant_id: int,
    sender: type,
    kind: str,
    object_id: int,
    text: str,
    held_in: Iterable[str],
    reason: str,
    reached: dict[str, Any],
    agent_id: int | None = None,
    principal_id: int | None = None,
) -> tuple[Redaction, int]:
    """The steps every persona redaction ends with, once its rows hold the marker: the
    health-check findings and the stored vectors of the texts that ``held_in`` the words
    go, the ``Redaction`` is recorded, the plans of ``agent_id`` (a version's passage) or
    of ``principal_id`` (an owner entry) are rebuilt, and ``text_redacted`` is sent.
    Returns the record and how many plans rotated."""
    findings_scrub(tenant_id=tenant_id, text=text)
    vector_forget(text_sha256(t) for t in held_in)
    record = redaction_record(
        actor=actor,
        tenant_id=tenant_id,
        kind=kind,
        object_id=object_id,
        text=text,
        reason=reason,
        reached=reached,
    )
    rotated = plans_rebuild(
        agent_id=agent_id, principal_id=principal_id, reason=PlanRotation.Reason.REDACTED
    )
    text_redacted.send(
        sender=sender,
        redaction=record,
        text=text,
        agent_id=agent_id,
        message_ids=[],
        belief_ids=[],
    )
    return record, rotated


def _entry_words_remove(*, doc: OwnerDocument, key: str, text: str) -> list[int]:
    """Blank these words of the entry ``key`` everywhere the document kept them; the ids
    of the entry rows changed (every version that carried them)."""
    rows = OwnerEntry.objects.filter(version__document=doc, key=key, text=text)
    ids = list(rows.values_list("pk", flat=True))
    rows.update(text=REDACTED)
    OwnerTombstone.objects.filter(document=doc, key=key, text=text).update(text=REDACTED)
    OwnerNomination.objects.filter(
        principal_id=doc.principal_id, statement_key=statement_key(text)
    ).update(statement=REDACTED, statement_key=REDACTED, evidence_quote="")
    # what renders changed without a new version
    OwnerDocument.objects.filter(pk=doc.pk).update(row_state=doc.row_state + 1)
    doc.row_state += 1
    return ids


@transaction.atomic
def owner_entry_redact(*, actor: Actor, entry: OwnerEntry, reason: str) -> PersonaRedactionResult:
    """Remove the words of an owner-document entry (the module docstring) and rebuild
    the person's pinned plans."""
    tenant_id = (
        OwnerDocument.objects.filter(pk=entry.version.document_id)
        .values_list("tenant_id", flat=True)
        .get()
    )
    # checked before the document is locked: the reason's safety scan may wait for its model
    reason = redaction_check(actor=actor, tenant_id=tenant_id, reason=reason)
    doc = OwnerDocument.objects.select_for_update().get(pk=entry.version.document_id)
    locked = OwnerEntry.objects.get(pk=entry.pk)
    if is_redacted(locked.text):
        raise RedactionRefused("This entry is redacted already; nothing changed.")
    old = locked.text
    ids = _entry_words_remove(doc=doc, key=locked.key, text=old)
    record, rotated = _words_gone(
        actor=actor,
        tenant_id=doc.tenant_id,
        sender=OwnerEntry,
        kind=Redaction.Kind.OWNER_ENTRY,
        object_id=locked.pk,
        text=old,
        held_in=[old],
        reason=reason,
        reached={"principal_id": doc.principal_id, "entries": ids},
        principal_id=doc.principal_id,
    )
    entry.text = REDACTED
    return PersonaRedactionResult(redaction=record, versions=[], plans_rotated=rotated)


def _quotes_blank(evidence: Any, message_ids: set[int]) -> tuple[Any, bool]:
    """Evidence items quoting these messages with their quote blanked; whether any was."""
    if not isinstance(evidence, list):
        return evidence, False
    out, hit = [], False
    for item in evidence:
        if isinstance(item, dict) and item.get("message_id") in message_ids:
            item = {**item, "quote": REDACTED, "start": None, "end": None}
            hit = True
        out.append(item)
    return out, hit


def on_text_redacted(
    *,
    redaction: Redaction,
    text: str,
    agent_id: int | None,
    message_ids: list[int],
    belief_ids: list[int],
) -> None:
    """memory redacted a message or a belief: blank persona's copies of its words."""
    wanted = set(message_ids)
    if wanted:
        OwnerNomination.objects.filter(evidence_message_id__in=wanted).update(
            evidence_quote=REDACTED
        )
        if agent_id is not None:
            for pk, evidence in (
                AgentPersonaVersion.objects.filter(agent_id=agent_id)
                .exclude(evidence=[])
                .values_list("pk", "evidence")
            ):
                blanked, hit = _quotes_blank(evidence, wanted)
                if hit:
                    AgentPersonaVersion.objects.filter(pk=pk).update(evidence=blanked)
    if belief_ids:
        OwnerNomination.objects.filter(belief_id__in=belief_ids).update(
            statement=REDACTED, statement_key=REDACTED, evidence_quote=""
        )
        entries = list(
            OwnerEntry.objects.filter(source_belief_id__in=belief_ids, text=text)
            .select_related("version__document")
            .order_by("id")
        )
        reached: list[int] = []
        for doc_id in sorted({e.version.document_id for e in entries}):
            doc = OwnerDocument.objects.select_for_update().get(pk=doc_id)
            for key in sorted({e.key for e in entries if e.version.document_id == doc_id}):
                reached += _entry_words_remove(doc=doc, key=key, text=text)
            plans_rebuild(principal_id=doc.principal_id, reason=PlanRotation.Reason.REDACTED)
        if reached:
            redaction.reached = {**redaction.reached, "owner_entries": reached}
            redaction.save(update_fields=["reached"])
