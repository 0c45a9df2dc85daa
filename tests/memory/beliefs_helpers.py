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


def unit(vector: np.ndarray) -> np.ndarray:
    return (vector / np.linalg.norm(vector)).astype(np.float32)


def use_stand_in_encoder(monkeypatch, settings, *, same_as: dict[str, str] | None = None):
    """The stand-in encoder for the ranking tests (no semantic injection scan, the
    question bank read afresh with it); returns the model."""
    import memory.context
    import safety.encoder

    settings.PERSONA_INJECTION_SEMANTIC = False
    model = FakeModel(same_as=same_as)
    monkeypatch.setattr(safety.encoder, "get_model", lambda: model)
    monkeypatch.setattr(safety.encoder, "_model", model)
    monkeypatch.setattr(memory.context, "_bank", None)
    return model


def ask_as(monkeypatch, question: np.ndarray) -> None:
    """Every question reads as ``question`` to the ranking."""
    import memory.context

    monkeypatch.setattr(memory.context, "_query_vector", lambda text: question)


def bank_topic_question(name: str) -> np.ndarray:
    """A question as near three of the bank's questions of a topic as they are to each
    other (the stand-in encoder relates nothing else)."""
    from memory.context import _name_read, read_bank

    topic = next(t for t in read_bank() if t["topic"] == name)
    return unit(sum(fake_vector(_name_read(q, question=True)) for q in topic["questions"][:3]))


def ranked(agent, query: str, *, who: str) -> list:
    """The items ``build_context`` ranks for ``who`` at ``NOW``, with embeddings."""
    from memory.context import build_context

    pack = build_context(
        agent=agent, principal_external_id=who, query=query, now=NOW, use_embeddings=True
    )
    return pack.items


def first_ranked(agent, query: str, *, who: str) -> int:
    """The id of the item ``build_context`` ranks first for ``who``."""
    return ranked(agent, query, who=who)[0].id


def two_beliefs_asked_between(
    agent,
    monkeypatch,
    settings,
    *,
    who: str,
    first: tuple[str, str],
    second: tuple[str, str],
    lean: tuple[float, float],
    home: str,
) -> tuple[int, int]:
    """Two of ``who``'s beliefs (statement, category) and where they live, with the
    stand-in encoder; every question reads as ``lean`` of the first and the second.
    Returns the ids of the two."""
    use_stand_in_encoder(monkeypatch, settings)
    one = write_belief(agent, first[0], category=first[1], who=who)
    two = write_belief(agent, second[0], category=second[1], who=who)
    write_belief(agent, home, category="explicit_facts", who=who)
    ask_as(monkeypatch, unit(lean[0] * fake_vector(first[0]) + lean[1] * fake_vector(second[0])))
    return one.id, two.id
