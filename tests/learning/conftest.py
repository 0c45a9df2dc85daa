"""Fixtures shared by the learning tests."""

from __future__ import annotations

import numpy as np
import pytest


@pytest.fixture
def bag_of_words(monkeypatch):
    """Stand-in vectors (hashed bags of words) so the proposer runs without the model."""
    import memory.embeddings as emb

    def vec(text: str) -> np.ndarray:
        v = np.ones(64, dtype=np.float32)
        for t in text.lower().split():
            v[hash(t) % 64] += 1
        return v / np.linalg.norm(v)

    encoded: list[str] = []
    monkeypatch.setattr(emb, "vectors_for_messages", lambda ids: {})
    monkeypatch.setattr(
        emb, "encode", lambda texts: (encoded.extend(texts), np.vstack([vec(t) for t in texts]))[1]
    )
    return encoded
