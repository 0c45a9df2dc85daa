"""Redaction: a superuser removes the text of a message or a belief (persona versions and
owner-document entries: ``persona.redaction``). Unlike sealing or muting it is about the
words themselves, and it cannot be undone:

- the row stays (its id, times, links, status history) and its text becomes the marker
  ``REDACTED``; a ``Redaction`` keeps who, when, why and the sha256 of the removed text;
- every copy of the words memory holds goes in the same transaction: the stored vector
  of the text, quotes of a redacted message (``BeliefEvidence``, a belief's shown
  quote), the conversation summaries that cover it and the entity facts taken from it;
  a redacted belief loses its quotes too and ends with status ``redacted`` (no host is
  given it, whatever it asks; ``belief_ended`` withdraws its nomination); it keeps the
  hash of its words, and ``belief_write`` never stores the same words for that person
  again (outcome ``muted``: nothing written);
- ``text_redacted`` is sent: persona blanks the nomination quotes, persona-version
  evidence and owner entries that carried the words, learning blanks the quotes of its
  proposals and drops the waiting ones (no proposal can quote a redacted text);
- every changed person's ``build_context`` cache is invalidated (``beliefs_changed``).

Who may: a superuser signed in (``Actor.is_superuser``), with a reason; the actor's
reach is checked first (another tenant's row is a 404).
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from memory.models import (
    Belief,
    BeliefEvidence,
    ConversationSummary,
    EntityFact,
    MemoryAudit,
    Message,
    Redaction,
    TextEmbedding,
)
from memory.services import text_sha256
from memory.signals import belief_ended, text_redacted
from personaweb.actors import Actor
from personaweb.errors import NotPermitted, Refusal
from safety.checks import check_write

logger = logging.getLogger(__name__)

#: What stands where redacted words were, on every surface.
REDACTED = "[redacted]"
REDACTED_SHA256 = text_sha256(REDACTED)
MIN_REASON_CHARS = 10
MAX_REASON_CHARS = 500


class RedactionRefused(Refusal):
    """A redaction was refused; nothing changed."""


def is_redacted(text: str | None) -> bool:
    return (text or "") == REDACTED


def redaction_check(*, actor: Actor, tenant_id: int, reason: str) -> str:
    """Who may redact (a superuser signed in, reaching the tenant: 404 first) and the
    reason, cleaned; raises before anything is written."""
    actor.require(tenant_id=tenant_id)
    if not actor.is_superuser:
        raise NotPermitted("Only a superuser may redact text; ask one to do it. Nothing changed.")
    cleaned = " ".join((reason or "").split())
    if len(cleaned) < MIN_REASON_CHARS:
        raise RedactionRefused(
            f"Say why this text is redacted (at least {MIN_REASON_CHARS} characters); "
            "the reason is kept with the row. Nothing changed."
        )
    if len(cleaned) > MAX_REASON_CHARS:
        raise RedactionRefused(
            f"The reason is longer than {MAX_REASON_CHARS} characters; shorten it. Nothing changed."
        )
    check_write(cleaned, "reason")
    return cleaned


def redaction_record(
    *,
    actor: Actor,
    tenant_id: int,
    kind: str,
    object_id: int,
    text: str,
    reason: str,
    reached: dict[str, Any] | None = None,
    now: datetime | None = None,
) -> Redaction:
    row = Redaction.objects.create(
        tenant_id=tenant_id,
        kind=kind,
        object_id=object_id,
        text_sha256=text_sha256(text),
        redacted_by=actor.name[:150],
        reason=reason,
        redacted_at=now or timezone.now(),
        reached=reached or {},
    )
    # who and which row, never the words
    logger.info("%s %s redacted by %s", kind, object_id, actor.name)
    return row


def redactions_for(kind: str, ids: Iterable[int]) -> dict[int, Redaction]:
    """The redaction of each of these rows that has one (one query; none for no ids)."""
    wanted = sorted(set(ids))
    if not wanted:
        return {}
    out: dict[int, Redaction] = {}
    for row in Redaction.objects.filter(kind=kind, object_id__in=wanted).order_by("redacted_at"):
        out[row.object_id] = row
    return out


def vector_forget(shas: Iterable[str]) -> None:
    """Delete the stored vectors of removed texts, unless a row not redacted still has
    the same text (a vector is stored once per distinct text)."""
    gone = set(shas) - {REDACTED_SHA256}
    if not gone:
        return
    kept = set(Message.objects.filter(text_sha256__in=gone).values_list("text_sha256", flat=True))
    kept |= set(
        Belief.objects.filter(text_sha256__in=gone)
        .exclude(status=Belief.Status.REDACTED)
        .values_list("text_sha256", flat=True)
    )
    TextEmbedding.objects.filter(sha256__in=gone - kept).delete()


def findings_scrub(*, tenant_id: int, text: str) -> int:
    """Blank the removed words in the stored findings of the health check (each keeps a
    preview of the text it is about); returns how many runs changed. A preview holds the
    words, or is their start (a long text is cut)."""
    text = text.strip()
    if not text:
        return 0
    changed = 0
    for audit in MemoryAudit.objects.filter(tenant_id=tenant_id).only("findings"):
        hit = False
        findings = []
        for finding in audit.findings if isinstance(audit.findings, list) else []:
            preview = finding.get("text") if isinstance(finding, dict) else None
            if isinstance(preview, str) and preview.strip():
                if text in preview:
                    finding = {**finding, "text": preview.replace(text, REDACTED)}
                    hit = True
                elif text.startswith(preview.rstrip("…").strip()):
                    finding = {**finding, "text": REDACTED}
                    hit = True
            findings.append(finding)
        if hit:
            MemoryAudit.objects.filter(pk=audit.pk).update(findings=findings)
            changed += 1
    return changed


@dataclass(frozen=True)
class RedactionResult:
    redaction: Redaction
    beliefs_reached: int = 0  # beliefs whose quotes of it were removed


def _quotes_of_messages_blank(message_ids: list[int]) -> list[Belief]:
    """Blank every belief quote taken from these messages; the beliefs reached."""
    rows = BeliefEvidence.objects.filter(message_id__in=message_ids)
    belief_ids = set(rows.values_list("belief_id", flat=True))
    rows.update(quote=REDACTED, start=None, end=None)
    beliefs = list(
        Belief.objects.select_for_update()
        .filter(Q(evidence_message_id__in=message_ids) | Q(pk__in=belief_ids))
        .order_by("id")
    )
    Belief.objects.filter(evidence_message_id__in=message_ids).update(
        evidence_quote=REDACTED, evidence_start=None, evidence_end=None
    )
    return beliefs


@transaction.atomic
def message_redact(*, actor: Actor, message: Message, reason: str) -> RedactionResult:
    """Remove the words of ``message`` (the module docstring), in one transaction."""
    tenant_id = (
        Message.objects.filter(pk=message.pk)
        .values_list("conversation__agent__tenant_id", flat=True)
        .get()
    )
    # checked before any row is locked: the reason's safety scan may wait for its model
    reason = redaction_check(actor=actor, tenant_id=tenant_id, reason=reason)
    locked = (
        Message.objects.select_for_update(of=("self",))
        .select_related("conversation__agent")
        .get(pk=message.pk)
    )
    agent = locked.conversation.agent
    if is_redacted(locked.text):
        raise RedactionRefused("This message is redacted already; nothing changed.")
    old_text, old_sha = locked.text, locked.text_sha256
    now = timezone.now()
    beliefs = _quotes_of_messages_blank([locked.pk])
    summaries, _ = ConversationSummary.objects.filter(
        conversation_id=locked.conversation_id, upto_seq__gte=locked.seq
    ).delete()
    facts, _ = EntityFact.objects.filter(source_message_id=locked.pk).delete()
    locked.text = REDACTED
    locked.text_sha256 = REDACTED_SHA256
    locked.embedding = None
    locked.save(update_fields=["text", "text_sha256", "embedding"])
    vector_forget([old_sha])
    findings_scrub(tenant_id=agent.tenant_id, text=old_text)
    record = redaction_record(
        actor=actor,
        tenant_id=agent.tenant_id,
        kind=Redaction.Kind.MESSAGE,
        object_id=locked.pk,
        text=old_text,
        reason=reason,
        reached={
            "beliefs": [b.pk for b in beliefs],
            "summaries_deleted": summaries,
            "entity_facts_deleted": facts,
        },
        now=now,
    )
    text_redacted.send(
        sender=Message,
        redaction=record,
        text=old_text,
        agent_id=agent.pk,
        message_ids=[locked.pk],
        belief_ids=[],
    )
    _beliefs_changed({b.principal_id for b in beliefs} | {locked.conversation.principal_id})
    message.text = REDACTED
    return RedactionResult(redaction=record, beliefs_reached=len(beliefs))


@transaction.atomic
def belief_redact(*, actor: Actor, belief: Belief, reason: str) -> RedactionResult:
    """Remove the words of ``belief``: its statement and its quotes; it ends with status
    ``redacted`` (the module docstring), in one transaction."""
    # checked before the row is locked: the reason's safety scan may wait for its model
    reason = redaction_check(actor=actor, tenant_id=belief.tenant_id, reason=reason)
    locked = Belief.objects.select_for_update().get(pk=belief.pk)
    if locked.status == Belief.Status.REDACTED:
        raise RedactionRefused("This belief is redacted already; nothing changed.")
    old_text, old_sha, old_status = locked.statement, locked.text_sha256, locked.status
    now = timezone.now()
    BeliefEvidence.objects.filter(belief=locked).update(quote=REDACTED, start=None, end=None)
    # the row keeps the hash of its words (``belief_write`` never stores them again)
    locked.statement = REDACTED
    locked.evidence_quote = REDACTED if locked.evidence_quote else ""
    locked.evidence_start = locked.evidence_end = None
    locked.embedding = None
    locked.status = Belief.Status.REDACTED
    locked.updated_at = now
    locked.save()
    vector_forget([old_sha])
    findings_scrub(tenant_id=locked.tenant_id, text=old_text)
    record = redaction_record(
        actor=actor,
        tenant_id=locked.tenant_id,
        kind=Redaction.Kind.BELIEF,
        object_id=locked.pk,
        text=old_text,
        reason=reason,
        reached={"status_before": old_status},
        now=now,
    )
    if old_status == Belief.Status.ACTIVE:
        belief_ended.send(sender=Belief, belief=locked, reason="redacted")
    text_redacted.send(
        sender=Belief,
        redaction=record,
        text=old_text,
        agent_id=locked.agent_id,
        message_ids=[],
        belief_ids=[locked.pk],
    )
    _beliefs_changed({locked.principal_id})
    belief.statement = REDACTED
    belief.status = Belief.Status.REDACTED
    return RedactionResult(redaction=record)


def _beliefs_changed(principal_ids: set[int]) -> None:
    from memory.candidates import forget_blocks
    from memory.services_beliefs import beliefs_changed

    for principal_id in sorted(principal_ids):
        beliefs_changed(principal_id)
    # the redacted words leave the packed blocks in this transaction, not at the rebuild
    forget_blocks(sorted(principal_ids))
