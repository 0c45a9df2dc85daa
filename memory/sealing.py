"""Sealing is one-way: a sealed conversation is never read by learning, never quoted,
never shown. Sealing goes through ``conversation_seal`` (dashboard, admin action, CLI);
unsealing only through ``conversation_unseal`` by a superuser with a recorded reason.
"""

from __future__ import annotations

import logging
from typing import Any

from django.db import transaction

from memory.models import Conversation
from memory.signals import conversation_sealed
from personaweb.errors import Refusal

log = logging.getLogger(__name__)


class SealRefused(Refusal):
    """A seal or unseal was refused; nothing changed."""


@transaction.atomic
def conversation_seal(*, conversation: Conversation, by: str = "") -> Conversation:
    """Seal ``conversation`` (idempotent). Waiting proposals that quote it are dropped
    by learning's receiver in this same transaction."""
    locked = Conversation.objects.select_for_update().get(pk=conversation.pk)
    if not locked.sealed:
        locked.sealed = True
        locked.save(update_fields=["sealed"])
        log.info("conversation %s sealed by %s", locked.pk, by or "(unnamed)")
    conversation_sealed.send(sender=Conversation, conversation=locked)
    conversation.sealed = True
    return locked


@transaction.atomic
def conversation_unseal(*, conversation: Conversation, by: Any, reason: str) -> Conversation:
    """The one way back: a superuser, with a reason that is logged."""
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
    return locked


def sealed_ids(conversation_ids: set[int]) -> set[int]:
    """Which of these conversations are sealed (one query)."""
    if not conversation_ids:
        return set()
    return set(
        Conversation.objects.filter(pk__in=conversation_ids, sealed=True).values_list(
            "pk", flat=True
        )
    )
