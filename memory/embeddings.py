"""Message embeddings, stored once per distinct text (by sha256) as a ``TextEmbedding``;
messages point at it. Encoding happens in the Celery task (``memory.tasks``) or the
``memory embed`` command, never on the request path. The model itself (load, encode, the
byte layout of a vector) is ``safety.encoder``: the injection scan below memory needs it
too, and memory registers its stored vectors there (``TextVectorStore``) so the scan
reuses them.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np
from django.conf import settings
from django.db import transaction
from django.db.models import OuterRef, Subquery

from memory.models import Message, TextEmbedding
from memory.selectors import messages_pending_embedding
from safety.encoder import (  # noqa: F401 - the model's names, used through this module too
    DIM,
    MODEL_NAME,
    VECTOR_DTYPE,
    encode,
    get_model,
    pack_vector,
    unpack_vector,
)

# SQLite's default limit on bound parameters is 999 on old builds; stay under it.
_IN_CHUNK = 900


def _chunks(items: Sequence[Any], size: int) -> Iterable[Sequence[Any]]:
    for start in range(0, len(items), size):
        yield items[start : start + size]


def embed_pending(*, limit: int | None = None) -> int:
    """Give up to ``limit`` messages without an embedding one; return how many were linked.

    Messages are grouped by ``text_sha256``: a text that has a ``TextEmbedding`` already
    is reused, and only the distinct missing texts are encoded (in batches of
    ``settings.EMBEDDING_BATCH_SIZE``). The query count per call is fixed (one read of
    the pending ids, one of the known hashes, one of the texts to encode, one insert
    and one update per ~900 rows), never one per message.

    Encoding runs outside any transaction, so a SQLite writer lock is held only for the
    short insert + update. Two workers racing on the same messages both succeed: the
    insert ignores hashes stored meanwhile and the update only touches unlinked rows.
    """
    limit = limit or settings.EMBEDDING_TASK_CHUNK
    pending = messages_pending_embedding(limit=limit)
    if not pending:
        return 0
    ids_by_sha: dict[str, list[int]] = {}
    for message_id, sha in pending:
        ids_by_sha.setdefault(sha, []).append(message_id)

    shas = list(ids_by_sha)
    known: set[str] = set()
    for part in _chunks(shas, _IN_CHUNK):
        known.update(TextEmbedding.objects.filter(sha256__in=part).values_list("sha256", flat=True))
    missing = [sha for sha in shas if sha not in known]

    new_rows: list[TextEmbedding] = []
    if missing:
        # one message per missing text is enough to read the words
        representative = [ids_by_sha[sha][0] for sha in missing]
        text_by_sha: dict[str, str] = {}
        for part in _chunks(representative, _IN_CHUNK):
            text_by_sha.update(
                Message.objects.filter(id__in=part).values_list("text_sha256", "text")
            )
        missing = [sha for sha in missing if sha in text_by_sha]  # deleted meanwhile
        vectors = encode([text_by_sha[sha] for sha in missing])
        new_rows = [
            TextEmbedding(sha256=sha, model_name=MODEL_NAME, dim=DIM, vector=pack_vector(vector))
            for sha, vector in zip(missing, vectors, strict=True)
        ]

    # a text whose every message vanished meanwhile has no vector; leave those ids alone
    ids = [message_id for sha in known.union(missing) for message_id in ids_by_sha[sha]]
    linked = 0
    with transaction.atomic():
        if new_rows:
            TextEmbedding.objects.bulk_create(new_rows, batch_size=500, ignore_conflicts=True)
        embedding_of_text = TextEmbedding.objects.filter(sha256=OuterRef("text_sha256")).values(
            "id"
        )[:1]
        for part in _chunks(ids, _IN_CHUNK):
            linked += Message.objects.filter(id__in=part, embedding__isnull=True).update(
                embedding_id=Subquery(embedding_of_text)
            )
    return linked


def vectors_for_messages(message_ids: Iterable[int]) -> dict[int, np.ndarray]:
    """The stored vectors of these messages (those not embedded yet are left out).

    One query per ~900 ids; vectors are L2-normalised, so a dot product is the cosine.
    """
    ids = list(dict.fromkeys(message_ids))
    found: dict[int, np.ndarray] = {}
    for part in _chunks(ids, _IN_CHUNK):
        rows = Message.objects.filter(id__in=part, embedding__isnull=False).values_list(
            "id", "embedding__vector"
        )
        for message_id, data in rows:
            found[message_id] = unpack_vector(data)
    return found


def vectors_for_texts(texts: Sequence[str], *, store: bool = True) -> np.ndarray:
    """Vectors of ``texts`` (rows in order), computed once per distinct text ever.

    Stored vectors are read with one query per ~900 distinct texts; only texts never
    seen before are encoded (loading the model in this process if needed) and, with
    ``store``, saved for every later caller. The persona injection scan uses this, so a
    web process renders known persona text without loading the model at all.
    """
    from memory.services import text_sha256

    texts = list(texts)
    if not texts:
        return np.zeros((0, DIM), dtype=np.float32)
    keys = [text_sha256(t) for t in texts]
    distinct = list(dict.fromkeys(keys))
    found: dict[str, np.ndarray] = {}
    for part in _chunks(distinct, _IN_CHUNK):
        for sha, data in TextEmbedding.objects.filter(sha256__in=part).values_list(
            "sha256", "vector"
        ):
            found[sha] = unpack_vector(data)
    missing = [sha for sha in distinct if sha not in found]
    if missing:
        text_of = dict(zip(keys, texts, strict=True))
        fresh = encode([text_of[sha] for sha in missing])
        for sha, vector in zip(missing, fresh, strict=True):
            found[sha] = vector
        if store:
            TextEmbedding.objects.bulk_create(
                [
                    TextEmbedding(sha256=sha, model_name=MODEL_NAME, dim=DIM, vector=pack_vector(v))
                    for sha, v in zip(missing, fresh, strict=True)
                ],
                ignore_conflicts=True,  # another process stored the same text first
            )
    return np.stack([found[k] for k in keys]).astype(np.float32, copy=False)


def stored_vectors(texts: Sequence[str]) -> dict[str, np.ndarray]:
    """The stored vectors of those ``texts`` that have one, by text (no encoding)."""
    from memory.services import text_sha256

    by_sha = {text_sha256(t): t for t in texts}
    found: dict[str, np.ndarray] = {}
    shas = list(by_sha)
    for part in _chunks(shas, _IN_CHUNK):
        for sha, data in TextEmbedding.objects.filter(sha256__in=part).values_list(
            "sha256", "vector"
        ):
            found[by_sha[sha]] = unpack_vector(data)
    return found


class TextVectorStore:
    """``safety.encoder.VectorStore`` over ``TextEmbedding``: registered by
    ``MemoryConfig.ready`` so the injection scan reads and stores vectors once per text."""

    def stored(self, texts: Sequence[str]) -> dict[str, np.ndarray]:
        return stored_vectors(texts)

    def vectors(self, texts: Sequence[str]) -> np.ndarray:
        return vectors_for_texts(texts)


def bank_votes_store(embedding_ids: Sequence[int], *, wait: bool = False) -> int:
    """Store the question bank's topic votes (``memory.bank_topics``) of these
    ``TextEmbedding`` rows where they are missing or of another bank or model; returns
    how many rows were written. Without ``wait`` only a bank that costs no encoding and
    no model load is used (``memory.context.bank_if_kept``: a write path), else nothing
    is stored and the ranking computes the votes once per candidate set. One read and
    one update per ~900 rows that need them."""
    from memory import bank_topics
    from memory.context import bank_if_kept, question_bank

    if not embedding_ids:
        return 0
    bank = question_bank() if wait else bank_if_kept()
    if bank is None:
        return 0
    written = 0
    for part in _chunks(list(dict.fromkeys(embedding_ids)), _IN_CHUNK):
        stale = list(
            TextEmbedding.objects.filter(pk__in=part)
            .exclude(bank_digest=bank.digest)
            .only("id", "vector")
        )
        if not stale:
            continue
        vectors = np.stack([unpack_vector(e.vector) for e in stale])
        votes = bank_topics.votes_of(vectors, bank.statements, bank.statement_topic)
        for e, v in zip(stale, votes, strict=True):
            e.bank_votes, e.bank_digest = bank_topics.pack_votes(v), bank.digest
        TextEmbedding.objects.bulk_update(stale, ["bank_votes", "bank_digest"], batch_size=500)
        written += len(stale)
    return written


def belief_bank_votes_fill(principal_id: int | None = None) -> int:
    """``bank_votes_store`` (encoding the bank if need be) for the vectors of every
    belief that ranks (active or superseded), or of one person's: what ``manage.py
    memory encode-bank`` runs after a new bank or model, and a block's rebuild for its
    person. Returns how many rows were written."""
    from memory.models import Belief

    beliefs = Belief.objects.filter(
        status__in=[Belief.Status.ACTIVE, Belief.Status.SUPERSEDED], embedding__isnull=False
    )
    if principal_id is not None:
        beliefs = beliefs.filter(principal_id=principal_id)
    ids = list(beliefs.order_by().values_list("embedding_id", flat=True).distinct())
    return bank_votes_store(ids, wait=True)
