"""Sealing is one-way: a sealed conversation is never read by learning, never quoted,
never shown, and never evidence. Sealing goes through ``conversation_seal`` (admin
action, CLI; ``record_turn`` and the importer seal through ``sealed_evidence_withdraw``
too); unsealing only through ``conversation_unseal`` by a superuser with a recorded
reason, and it restores nothing on its own.

Which messages may be read is one queryset method, ``Message.objects.readable()``
(``memory.models``). What sealing reaches, in the sealing transaction:

- a belief whose evidence is a message of the conversation keeps only its other
  evidence (the host that wrote it); a belief with none left ends with status and
  reason ``sealed`` (``belief_ended``: persona withdraws its nomination and flags an
  owner-document entry affirmed from it as stale, for its owner to decide);
- ``conversation_sealed`` is sent: learning drops the waiting proposals that quote it,
  persona withdraws the open nominations whose words came from it;
- every changed person's ``build_context`` cache is invalidated (``beliefs_changed``).
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

from memory.models import Belief, BeliefEvidence, Conversation, Message, Principal
from memory.signals import belief_ended, conversation_sealed
from personaweb.errors import Refusal

log = logging.getLogger(__name__)

#: What unsealing says, on every surface (return value, CLI, admin).
UNSEAL_RESTORES_NOTHING = (
    "Unsealing restores nothing on its own: the beliefs ended and the nominations and "
    "proposals withdrawn when it was sealed stay withdrawn; new turns can form them again."
)


class SealRefused(Refusal):
    """A seal or unseal was refused; nothing changed."""


@dataclass(frozen=True)
class SealResult:
    conversation: Conversation
    beliefs_ended: int = 0  # no evidence left: status ``sealed``
    evidence_withdrawn: int = 0  # kept their other evidence only

    def summary(self) -> str:
        """One sentence for the CLI and the admin."""
        return (
            f"Sealed {self.conversation.external_id}: {self.beliefs_ended} belief(s) formed "
            f"from it ended, {self.evidence_withdrawn} kept only their other evidence; "
            "waiting proposals and open nominations that quote it were withdrawn."
        )


@dataclass(frozen=True)
class UnsealResult:
    conversation: Conversation
    message: str = UNSEAL_RESTORES_NOTHING


@dataclass(frozen=True)
class WithdrawnEvidence:
    beliefs_ended: int = 0
    evidence_withdrawn: int = 0


def sealed_evidence_withdraw(
    *, conversation_ids: Iterable[int], now: datetime | None = None
) -> WithdrawnEvidence:
    """Withdraw the messages of these (sealed) conversations as evidence from active
    beliefs, inside the caller's transaction (see the module docstring). Idempotent.

    A belief keeps the evidence it has elsewhere: its other messages (the newest is
    shown) or the host that wrote it; it counts one corroboration less per message
    withdrawn. With none left it ends (status ``sealed``); its row keeps the link to the
    sealed message (so its history says why) but not the person's words."""
    ids = list(conversation_ids)
    if not ids:
        return WithdrawnEvidence()
    now = now or timezone.now()
    quoted = Message.objects.sealed().filter(conversation_id__in=ids)
    sealed_messages = set(quoted.values_list("pk", flat=True))
    if not sealed_messages:
        return WithdrawnEvidence()
    rows = BeliefEvidence.objects.filter(message_id__in=sealed_messages)
    beliefs = list(
        Belief.objects.select_for_update()
        .filter(status=Belief.Status.ACTIVE)
        .filter(Q(evidence_message_id__in=sealed_messages) | Q(pk__in=rows.values("belief_id")))
        .order_by("id")
    )
    ended = kept = 0
    for belief in beliefs:
        removed, _ = rows.filter(belief=belief).delete()
        belief.corroboration_count = max(belief.corroboration_count - removed, 1)
        belief.updated_at = now
        if belief.evidence_message_id not in sealed_messages:
            belief.save(update_fields=["corroboration_count", "updated_at"])
            kept += 1
            continue
        left = belief.evidence_rows.order_by("-created_at", "-id").first()
        # the person's words from the sealed conversation leave the row in every case
        belief.evidence_quote = left.quote if left else ""
        belief.evidence_start = left.start if left else None
        belief.evidence_end = left.end if left else None
        if left is not None or belief.source_host:
            belief.evidence_message_id = left.message_id if left else None
            belief.save()
            kept += 1
            continue
        belief.status = Belief.Status.SEALED
        belief.save()
        belief_ended.send(sender=Belief, belief=belief, reason="sealed")
        ended += 1
    from memory.candidates import forget_blocks
    from memory.services_beliefs import beliefs_changed

    changed = sorted({b.principal_id for b in beliefs})
    forget_blocks(changed)  # the sealed quotes leave the packed blocks too
    for principal_id in changed:
        beliefs_changed(principal_id)
    return WithdrawnEvidence(beliefs_ended=ended, evidence_withdrawn=kept)


@transaction.atomic
def conversation_seal(*, conversation: Conversation, by: str = "") -> SealResult:
    """Seal ``conversation`` and withdraw it from everything learned (the module
    docstring), in one transaction. Idempotent: sealing a sealed conversation again
    withdraws whatever still rests on it."""
    # the person first, then the conversation: the lock order of belief_write
    Principal.objects.select_for_update().filter(pk=conversation.principal_id).values_list(
        "pk"
    ).first()
    locked = Conversation.objects.select_for_update().get(pk=conversation.pk)
    if not locked.sealed:
        locked.sealed = True
        locked.save(update_fields=["sealed"])
        log.info("conversation %s sealed by %s", locked.pk, by or "(unnamed)")
    withdrawn = sealed_evidence_withdraw(conversation_ids=[locked.pk])
    conversation_sealed.send(sender=Conversation, conversation=locked)
    conversation.sealed = True
    return SealResult(
        conversation=locked,
        beliefs_ended=withdrawn.beliefs_ended,
        evidence_withdrawn=withdrawn.evidence_withdrawn,
    )


@transaction.atomic
def conversation_unseal(*, conversation: Conversation, by: Any, reason: str) -> UnsealResult:
    """The one way back: a superuser, with a reason that is logged. Restores nothing
    that sealing withdrew (``UNSEAL_RESTORES_NOTHING``)."""
    if not getattr(by, "is_superuser", False):
        raise SealRefused("Only a superuser may unseal a conversation; nothing changed.")
    reason = " ".join((reason or "").split())
    if len(reason) < 10:
        raise SealRefused(
            "Say why this conversation is unsealed (at least 10 characters); nothing changed."
        )
    locked = Conversation.objects.select_for_update().get(pk=conversation.pk)
    if locked.sealed:
        locked.sealed = False
        locked.save(update_fields=["sealed"])
        log.warning("conversation %s unsealed by %s: %s", locked.pk, by.get_username(), reason)
    return UnsealResult(conversation=locked)


def sealed_ids(conversation_ids: set[int]) -> set[int]:
    """Which of these conversations are sealed (one query)."""
    if not conversation_ids:
        return set()
    return set(
        Conversation.objects.sealed().filter(pk__in=conversation_ids).values_list("pk", flat=True)
    )
