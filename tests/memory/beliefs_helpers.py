"""Shared helpers of the memory-kernel tests: a stand-in embedding model."""

from __future__ import annotations

import hashlib

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
