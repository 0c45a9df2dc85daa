"""Fixtures shared by the learning tests."""

from __future__ import annotations

import zlib

import numpy as np
import pytest


@pytest.fixture
def bag_of_words(monkeypatch):
    """Stand-in vectors (hashed bags of words) so the proposer runs without the model."""
    import memory.embeddings as emb

    def vec(text: str) -> np.ndarray:
        # a small common part: texts sharing no word are far apart (cosine about 0.3), as
        # real embeddings of unrelated requests are, so no group by meaning joins them;
        # 1024 slots (the common part as large as 64 slots of 0.1 gave) so that two words
        # seldom share one: bare nouns are encoded too ("reply" and "change" shared a slot
        # of 64 and read as one kind of work)
        v = np.full(1024, 0.025, dtype=np.float32)
        for t in text.lower().split():
            v[zlib.crc32(t.encode()) % 1024] += 1  # the same on every run (hash() is not)
        return v / np.linalg.norm(v)

    encoded: list[str] = []
    monkeypatch.setattr(emb, "vectors_for_messages", lambda ids: {})
    monkeypatch.setattr(
        emb, "encode", lambda texts: (encoded.extend(texts), np.vstack([vec(t) for t in texts]))[1]
    )
    return encoded
