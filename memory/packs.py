"""Context packs a host was given, and the turns they shaped (issue 26.1: "which
memories shaped this answer").

Every context pack answered to a host (``GET /v1/context``, the MCP tool
``build_context``) is stored as a small ``ContextPackRecord``: the person, the agent
and its persona version, the person's owner-document version, the ids of the beliefs
given (no text). Its id goes back with the pack. A turn recorded with that id
(``record_turn(context_pack=...)``) links the assistant's reply to it; the conversation
page then shows beside the reply the prompt version and the beliefs it was given.

Retention: a pack no turn named is removed after ``CONTEXT_PACK_HOURS`` (the hourly beat
task ``memory.tasks.prune_context_packs``); a named one lives as long as its message.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from memory.models import ContextPackRecord, Message
from memory.services import MemoryInputError

#: the sweep removes at most this many rows per delete statement
PRUNE_BATCH = 5_000


class ContextPackUnknown(MemoryInputError):
    """No pack with that id for this person (absent, expired, another person's or
    another tenant's: the same sentence)."""

    def __init__(self, pack_id: int) -> None:
        hours = settings.CONTEXT_PACK_HOURS
        super().__init__(
            f"No context pack {pack_id} for this person: send the id build_context answered "
            f"for the same person (a pack is kept {hours:g} hours for its turn), or leave "
            "context_pack out."
        )


class ContextPackUsed(MemoryInputError):
    api_code = "conflict"


@dataclass(frozen=True)
class PackFacts:
    """What the stored pack records besides its beliefs."""

    tenant_id: int
    principal_id: int
    agent_id: int | None
    persona_version: int | None
    owner_doc_version: int | None


def context_pack_store(*, facts: PackFacts, pack: Any, now: datetime | None = None) -> int:
    """Store what ``pack`` (a ``memory.context.ContextPack``) gave; returns its id. One
    insert."""
    ranked = [b.id for b in (*pack.items, *pack.pinned, *pack.cross_category)]
    record = ContextPackRecord.objects.create(
        tenant_id=facts.tenant_id,
        principal_id=facts.principal_id,
        agent_id=facts.agent_id,
        persona_version=facts.persona_version,
        owner_doc_version=facts.owner_doc_version,
        belief_ids=list(dict.fromkeys(ranked)),
        pinned_ids=[b.id for b in pack.pinned],
        created_at=now or timezone.now(),
    )
    return int(record.pk)


def context_pack_for_turn(
    *, pack_id: Any, agent: Any, principal_id: int, now: datetime | None = None
) -> ContextPackRecord:
    """The pack a turn of ``agent`` with the person ``principal_id`` names, locked for
    the link (call inside the turn's transaction). Refused: not a positive whole number,
    absent, expired, another person's or tenant's (``ContextPackUnknown``), already named
    by another turn (``ContextPackUsed``), made for another agent."""
    if isinstance(pack_id, bool) or not isinstance(pack_id, int) or pack_id < 1:
        raise MemoryInputError(
            "The context_pack must be the id build_context answered (a whole number)."
        )
    now = now or timezone.now()
    cutoff = now - timedelta(hours=settings.CONTEXT_PACK_HOURS)
    record = (
        ContextPackRecord.objects.select_for_update()
        .filter(pk=pack_id, tenant_id=agent.tenant_id, principal_id=principal_id)
        .first()
    )
    if record is None or (record.message_id is None and record.created_at < cutoff):
        raise ContextPackUnknown(pack_id)
    if record.message_id is not None:
        raise ContextPackUsed(
            f"Context pack {pack_id} was sent with another turn already; build a new pack "
            "for each answer."
        )
    if record.agent_id is not None and record.agent_id != agent.pk:
        raise MemoryInputError(
            f"Context pack {pack_id} was built for another agent; send it with that "
            "agent's turn, or build one naming this agent."
        )
    return record


def context_pack_link(*, record: ContextPackRecord, agent: Any, message: Message) -> None:
    """Link ``record`` to the reply it shaped. A pack built without an agent takes the
    turn's agent and that agent's persona version as the turn is recorded (the closest
    reading memory has: the head the host's plan call pinned, unless the persona changed
    during the turn)."""
    record.message = message
    fields = ["message"]
    if record.agent_id is None:
        record.agent_id = agent.pk
        record.persona_version = agent.persona_version or None
        fields += ["agent", "persona_version"]
    record.save(update_fields=fields)


def packs_of_messages(message_ids: Iterable[int]) -> dict[int, ContextPackRecord]:
    """The packs that shaped these messages, by message id (one query)."""
    ids = list(message_ids)
    if not ids:
        return {}
    return {
        r.message_id: r
        for r in ContextPackRecord.objects.filter(message_id__in=ids)
        if r.message_id is not None
    }


def context_packs_prune(*, now: datetime | None = None) -> int:
    """Remove the packs no turn named that are older than ``CONTEXT_PACK_HOURS``;
    returns how many. Batched, so one sweep never holds a long lock."""
    now = now or timezone.now()
    cutoff = now - timedelta(hours=settings.CONTEXT_PACK_HOURS)
    removed = 0
    while True:
        ids = list(
            ContextPackRecord.objects.filter(message__isnull=True, created_at__lt=cutoff)
            .order_by("created_at")
            .values_list("pk", flat=True)[:PRUNE_BATCH]
        )
        if not ids:
            return removed
        with transaction.atomic():
            deleted, _ = ContextPackRecord.objects.filter(pk__in=ids, message__isnull=True).delete()
        removed += deleted
        if len(ids) < PRUNE_BATCH:
            return removed
