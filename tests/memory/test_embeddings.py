from __future__ import annotations

import hashlib
from datetime import UTC, datetime, timedelta

import numpy as np
import pytest
from django.core.cache import cache
from django.core.management import call_command

import memory.embeddings
import memory.tasks
import safety.encoder
from memory.embeddings import DIM, embed_pending, pack_vector, unpack_vector, vectors_for_messages
from memory.models import Message, TextEmbedding
from memory.services import record_turn

T0 = datetime(2026, 11, 2, 9, 0, tzinfo=UTC)


def fake_vector(text: str) -> np.ndarray:
    """A deterministic, not normalised vector per text; encode() must return unit rows."""
    seed = int.from_bytes(hashlib.sha256(text.encode()).digest()[:4], "little")
    return np.random.default_rng(seed).normal(size=DIM).astype(np.float32) * 3


@pytest.fixture
def fake_model(monkeypatch):
    """Counts the texts handed to the model; stands in for the 5-second model load."""
    seen: list[str] = []

    class FakeModel:
        def encode(self, texts, *, batch_size, normalize_embeddings, **_):
            seen.extend(texts)
            rows = np.stack([fake_vector(t) for t in texts])
            if normalize_embeddings:
                rows /= np.linalg.norm(rows, axis=1, keepdims=True)
            return rows

    monkeypatch.setattr(safety.encoder, "get_model", lambda: FakeModel())
    return seen


def turn(agent, conversation, user_text, assistant_text=None, minutes=0):
    return record_turn(
        agent=agent,
        principal_external_id="ana",
        conversation=conversation,
        user_text=user_text,
        assistant_text=assistant_text,
        at=T0 + timedelta(minutes=minutes),
    )


def test_same_text_is_encoded_once(agent, fake_model):
    turn(agent, "c-1", "Draft the weekly report.", "Done.")
    turn(agent, "c-2", "Draft the weekly report.", "Done.")
    turn(agent, "c-3", "Something else entirely.")

    assert embed_pending(limit=100) == 5

    assert sorted(fake_model) == ["Done.", "Draft the weekly report.", "Something else entirely."]
    assert TextEmbedding.objects.count() == 3
    assert not Message.objects.filter(embedding__isnull=True).exists()
    a, b = Message.objects.filter(text="Draft the weekly report.")
    assert a.embedding_id == b.embedding_id


def test_embedding_is_reused_for_later_messages(agent, fake_model):
    turn(agent, "c-1", "Plan the sprint review.")
    embed_pending(limit=100)
    fake_model.clear()

    turn(agent, "c-2", "Plan the sprint review.", "Which date?", minutes=1)
    assert embed_pending(limit=100) == 2

    assert fake_model == ["Which date?"]
    first, second = Message.objects.filter(text="Plan the sprint review.").order_by("id")
    assert second.embedding_id == first.embedding_id
    assert embed_pending(limit=100) == 0
    assert fake_model == ["Which date?"]


def test_embed_pending_respects_limit_and_batches(agent, fake_model, settings):
    settings.EMBEDDING_BATCH_SIZE = 2
    for i in range(5):
        turn(agent, f"c-{i}", f"distinct question {i}", minutes=i)

    assert embed_pending(limit=3) == 3
    assert Message.objects.filter(embedding__isnull=True).count() == 2
    assert embed_pending(limit=3) == 2
    assert len(fake_model) == 5


def test_embed_pending_query_count_is_bounded(agent, fake_model, django_assert_max_num_queries):
    for i in range(40):
        turn(agent, f"c-{i % 4}", f"question {i % 10}", f"answer {i}", minutes=i)
    # pending, known hashes, texts, insert, update (+ savepoint pair in the test transaction)
    with django_assert_max_num_queries(8):
        assert embed_pending(limit=1000) == 80


def test_vectors_are_stored_normalised_and_read_back(agent, fake_model):
    result = turn(agent, "c-1", "Summarise the invoices.", "Here you go.")
    embed_pending(limit=100)
    ids = [m.id for m in result.messages]

    vectors = vectors_for_messages(ids + [ids[0], 999_999])

    assert set(vectors) == set(ids)
    for message in result.messages:
        vector = vectors[message.id]
        assert vector.dtype == np.float32 and vector.shape == (DIM,)
        assert np.linalg.norm(vector) == pytest.approx(1.0, abs=1e-5)
        expected = fake_vector(message.text)
        np.testing.assert_allclose(vector, expected / np.linalg.norm(expected), rtol=1e-5)
    row = TextEmbedding.objects.get(id=Message.objects.get(id=ids[0]).embedding_id)
    assert row.dim == DIM and len(bytes(row.vector)) == DIM * 4


def test_pack_unpack_round_trip():
    vector = np.arange(DIM, dtype=np.float64) / 7
    data = pack_vector(vector)
    assert len(data) == DIM * 4
    np.testing.assert_array_equal(unpack_vector(memoryview(data)), vector.astype(np.float32))


def test_task_embeds_everything_in_chunks(agent, fake_model, settings):
    settings.EMBEDDING_TASK_CHUNK = 3
    for i in range(7):
        turn(agent, f"c-{i}", f"task question {i}", minutes=i)

    assert memory.tasks.embed_pending_messages.apply(kwargs={"time_budget": 60}).get() == 7
    assert not Message.objects.filter(embedding__isnull=True).exists()


def test_task_stops_when_the_budget_is_spent(agent, fake_model, settings):
    settings.EMBEDDING_TASK_CHUNK = 2
    for i in range(7):
        turn(agent, f"c-{i}", f"budget question {i}", minutes=i)

    assert memory.tasks.embed_pending_messages.apply(kwargs={"time_budget": 0}).get() == 2
    assert Message.objects.filter(embedding__isnull=True).count() == 5


def test_schedule_embedding_is_debounced(monkeypatch, settings):
    settings.CELERY_TASK_ALWAYS_EAGER = False
    cache.clear()
    sent = []
    monkeypatch.setattr(
        memory.tasks.embed_pending_messages, "apply_async", lambda **kw: sent.append(kw)
    )

    assert memory.tasks.schedule_embedding() is True
    assert memory.tasks.schedule_embedding() is False
    assert memory.tasks.schedule_embedding() is False
    assert len(sent) == 1
    assert sent[0]["countdown"] == memory.tasks.EMBED_DEBOUNCE_SECONDS

    cache.clear()  # the window has passed
    assert memory.tasks.schedule_embedding() is True
    assert len(sent) == 2


def test_memory_embed_command(agent, fake_model, capsys):
    turn(agent, "c-1", "Draft the agenda.", "Here it is.")
    call_command("memory", "embed", verbosity=0)
    assert "Embedded 2 messages; 0 still waiting." in capsys.readouterr().out
    assert not Message.objects.filter(embedding__isnull=True).exists()


@pytest.mark.slow
def test_real_model_vectors_are_normalised_and_meaningful(agent):
    turn(agent, "c-1", "Please book a table for dinner tomorrow.", "Booked.")
    turn(agent, "c-2", "Reserve a restaurant for tomorrow evening.", minutes=1)
    turn(agent, "c-3", "The quarterly tax filing is due on Friday.", minutes=2)

    assert embed_pending(limit=100) == 4

    by_text = {m.text: m.id for m in Message.objects.all()}
    vectors = vectors_for_messages(by_text.values())
    for vector in vectors.values():
        assert vector.shape == (DIM,)
        assert np.linalg.norm(vector) == pytest.approx(1.0, abs=1e-4)
    dinner = vectors[by_text["Please book a table for dinner tomorrow."]]
    restaurant = vectors[by_text["Reserve a restaurant for tomorrow evening."]]
    tax = vectors[by_text["The quarterly tax filing is due on Friday."]]
    assert float(dinner @ restaurant) > float(dinner @ tax) + 0.2
    # encode() agrees with what was stored
    np.testing.assert_allclose(
        memory.embeddings.encode(["Booked."])[0], vectors[by_text["Booked."]], atol=1e-5
    )


@pytest.mark.django_db
def test_vectors_for_texts_encodes_each_text_once_ever(fake_model, django_assert_max_num_queries):
    from memory.embeddings import vectors_for_texts

    first = vectors_for_texts(
        ["Never share prices.", "Plan the kiln firing.", "Never share prices."]
    )
    assert fake_model == ["Never share prices.", "Plan the kiln firing."]
    assert np.allclose(first[0], first[2]) and np.isclose(np.linalg.norm(first[1]), 1.0)
    fake_model.clear()
    with django_assert_max_num_queries(1):  # all stored: one read, no model
        again = vectors_for_texts(["Plan the kiln firing.", "Never share prices."])
    assert fake_model == []
    assert np.allclose(again[0], first[1]) and np.allclose(again[1], first[0])
    assert TextEmbedding.objects.count() == 2
