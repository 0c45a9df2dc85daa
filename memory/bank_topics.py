"""The question bank reads a person's statements as it reads a question.

A question's nearest bank questions vote for the topics of a person's life they ask
about (``memory.context.bank_votes``); a statement's ``NEIGHBOURS`` nearest bank
*statements* vote likewise, for their topics. "Drives trams for Edinburgh Trams" is far
from the mean of the bank's job statements (the answer prototype: "work, money, a
person"), but its nearest bank statement is "Works as a long-haul lorry driver": it is
read as a job. A statement ranks up by how far its topics agree with the question's
(``agreement``).

A statement's votes depend on its text, the model and the bank only, so they are kept
with its stored vector (``TextEmbedding.bank_votes``, under the ``digest`` of the bank
and model they were computed with), computed when the vector is (a belief's write) or
by ``manage.py memory encode-bank``; a vector without votes of the current digest has
them computed once per candidate set (``memory.context``). Pure arithmetic here: no
model call and no query.
"""

from __future__ import annotations

import hashlib
from typing import Any

import numpy as np

#: the nearest bank statements that vote for a statement's topics (one follows a single
#: near example, more blur the topic; as the question's ``BANK_NEIGHBOURS``)
NEIGHBOURS = 3
#: a statement's votes as stored: the topics of its nearest bank statements, then their
#: cosines, nearest first (float32, little endian, as a vector is)
VOTES_DTYPE = np.dtype("<f4")
VOTES_WIDTH = 2 * NEIGHBOURS
#: rows per product with the bank's statements (keeps the block of cosines in cache)
_CHUNK = 2048


def model_tag(model: Any) -> str:
    """What names the encoder in a digest: the served ONNX export's file name (another
    export is another model), else the model's class."""
    if getattr(model, "backend", None) == "onnx":
        from safety.encoder import onnx_path

        return onnx_path().name
    return f"{type(model).__module__}.{type(model).__qualname__}"


def digest_of(bank_bytes: bytes, model: Any) -> str:
    """The digest stored votes are kept under: of the bank as written, the encoder that
    reads it and the number of neighbours that vote (16 hex digits)."""
    h = hashlib.sha256(bank_bytes)
    h.update(f"|{model_tag(model)}|{NEIGHBOURS}".encode())
    return h.hexdigest()[:16]


def votes_of(vectors: np.ndarray, statements: np.ndarray, topic_of: np.ndarray) -> np.ndarray:
    """Each row's votes (``VOTES_WIDTH`` float32: the topics of its ``NEIGHBOURS``
    nearest bank statements, then their cosines, nearest first) from its vector and the
    bank's statement vectors and their topics."""
    k = min(NEIGHBOURS, len(statements))
    out = np.full((len(vectors), VOTES_WIDTH), np.nan, dtype=np.float32)
    bank = np.ascontiguousarray(statements.T, dtype=np.float32)
    for start in range(0, len(vectors), _CHUNK):
        sims = np.asarray(vectors[start : start + _CHUNK], dtype=np.float32) @ bank
        rows = np.arange(len(sims))
        part = out[start : start + len(sims)]
        # the nearest, then the next: k passes of argmax (a fifth of argpartition's time
        # over 462 columns), nearest first
        for j in range(k):
            near = sims.argmax(axis=1)
            part[:, j] = topic_of[near]
            part[:, NEIGHBOURS + j] = sims[rows, near]
            sims[rows, near] = -np.inf
    return out


def pack_votes(votes: np.ndarray) -> bytes:
    """The bytes one statement's votes are kept as."""
    return np.asarray(votes, dtype=VOTES_DTYPE).reshape(-1).tobytes()


def unpack_votes(data: bytes | memoryview | None) -> np.ndarray | None:
    """Inverse of ``pack_votes``; None for nothing stored or a row of another width."""
    if data is None or len(data) != VOTES_WIDTH * VOTES_DTYPE.itemsize:
        return None
    return np.frombuffer(bytes(data), dtype=VOTES_DTYPE).astype(np.float32)


def agreement(question: np.ndarray, votes: np.ndarray) -> np.ndarray:
    """How far each statement's topics agree with the question's, 0 to 1: the dot
    product of the question's topic votes (``question``, one weight per topic) and the
    statement's (its neighbours' cosines, negative ones as none), each normalised to
    sum to 1; 0 for a row without votes (NaN: no stored vector)."""
    total = question.sum()
    if total <= 0 or not len(votes):
        return np.zeros(len(votes))
    topics, weights = _weighed(votes)
    return (question[topics] / total * weights).sum(axis=1)


def _weighed(votes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each row's voted topics and their weights: its neighbours' cosines, negative ones
    as none, normalised to sum to 1 (all 0 for a row without votes)."""
    known = ~np.isnan(votes[:, 0])
    topics = np.where(known[:, None], votes[:, :NEIGHBOURS], 0).astype(np.int64)
    weights = np.where(known[:, None], np.maximum(votes[:, NEIGHBOURS:], 0.0), 0.0)
    sums = weights.sum(axis=1, keepdims=True)
    return topics, np.divide(weights, sums, out=np.zeros_like(weights), where=sums > 0)


def topic_weights(votes: np.ndarray, topics: int) -> np.ndarray:
    """Each row's votes as one weight per topic, (rows, ``topics``), weighed as
    ``agreement`` weighs them."""
    voted, weights = _weighed(votes)
    out = np.zeros((len(votes), topics), dtype=np.float64)
    np.add.at(out, (np.arange(len(votes))[:, None], voted), weights)
    return out
