"""Reads of conversation memory."""

from __future__ import annotations

from memory.models import Message


def messages_pending_embedding(*, limit: int) -> list[tuple[int, str]]:
    """(id, text_sha256) of the oldest messages without an embedding.

    Served by the partial index ``msg_needs_embedding`` (id WHERE embedding IS NULL).
    """
    return list(
        Message.objects.filter(embedding__isnull=True)
        .order_by("id")
        .values_list("id", "text_sha256")[:limit]
    )


def messages_pending_embedding_count() -> int:
    return Message.objects.filter(embedding__isnull=True).count()
