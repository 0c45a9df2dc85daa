"""Shared helpers of the memory-kernel tests: a stand-in embedding model."""

from __future__ import annotations

import hashlib
from datetime import UTC, datetime, timedelta

import numpy as np

from memory.embeddings import DIM


def fake_vector(text: str, *, same_as: dict[str, str] | None = None) -> np.ndarray:
    """A deterministic unit vector per text; texts mapped in ``same_as`` share one."""
    key = (same_as or {}).get(text, text)
    seed = int.from_bytes(hashlib.sha256(key.encode()).digest()[:4], "little")
    vector = np.random.default_rng(seed).normal(size=DIM).astype(np.float32)
    return vector / np.linalg.norm(vector)


class FakeModel:
    """Encodes like SentenceTransformer; records what it was asked to encode."""

    def __init__(self, same_as: dict[str, str] | None = None) -> None:
        self.same_as = same_as or {}
        self.seen: list[str] = []

    def encode(self, texts, *, batch_size=None, normalize_embeddings=True, **_):
        self.seen.extend(texts)
        return np.stack([fake_vector(t, same_as=self.same_as) for t in texts])


#: the evaluation time of the retrieval tests: a Tuesday
NOW = datetime(2026, 11, 17, 9, 0, tzinfo=UTC)
DAY = timedelta(days=1)


def write_belief(agent, statement, *, category: str, who: str, **kwargs):
    """A direct belief about ``who``, written two days before ``NOW`` unless told."""
    from memory.services_beliefs import belief_write

    kwargs.setdefault("confidence", 0.8)
    kwargs.setdefault("now", NOW - 2 * DAY)
    return belief_write(
        agent=agent,
        principal_external_id=who,
        category=category,
        statement=statement,
        source="direct",
        **kwargs,
    ).belief
