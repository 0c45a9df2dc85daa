"""The context pack never waits for the embedding model: until the model is in this
process it ranks on words and says so (``ranking``), and the model loads in the
background for the next call."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

import safety.encoder
from api.selectors import context_pack
from memory.services_beliefs import belief_write
from tests.memory.beliefs_helpers import FakeModel

NOW = datetime(2026, 11, 17, 9, 0, tzinfo=UTC)


@pytest.fixture
def beliefs(agent, monkeypatch, settings):
    """Three beliefs of ana written with their vectors stored (a stand-in model)."""
    settings.PERSONA_INJECTION_SEMANTIC = False  # the learned layer cannot judge stand-ins
    with monkeypatch.context() as m:
        m.setattr(safety.encoder, "_model", FakeModel())
        for category, statement in [
            ("likes", "Prefers green tea in the afternoon"),
            ("interests", "Plays the cello in an amateur orchestra"),
            ("identity", "Works as a structural engineer"),
        ]:
            belief_write(
                agent=agent,
                principal_external_id="ana",
                category=category,
                statement=statement,
                confidence=0.8,
                source="direct",
                now=NOW - timedelta(days=2),
            )


def pack(agent):
    return context_pack(
        agent=agent,
        tenant_id=agent.tenant_id,
        principal="ana",
        query="What tea should I make her?",
        now=NOW,
        limit=5,
    )


def test_a_fresh_process_ranks_on_words_and_says_so_until_the_model_is_loaded(
    agent, beliefs, settings, request
):
    settings.PERSONAWEB_PAGE_SCAN_WAIT = False  # a server: host reads never wait
    started, release, finished = request.getfixturevalue("slow_model")

    first = pack(agent)

    assert first["ranking"] == "words" and first["used_embeddings"] is False
    assert not finished.is_set()  # answered while the model was still loading
    assert started.wait(10)  # ... which the call started in the background
    assert first["items"][0]["statement"] == "Prefers green tea in the afternoon"
    assert all(item["cosine"] is None for item in first["items"])

    release.set()
    assert finished.wait(30)
    later = pack(agent)

    assert later["ranking"] == "embedding" and later["used_embeddings"] is True
    assert all(item["cosine"] is not None for item in later["items"])


def test_a_caller_that_may_wait_ranks_on_meaning_at_once(agent, beliefs, settings):
    settings.PERSONAWEB_PAGE_SCAN_WAIT = True  # the CLI and the tests: waiting is fine
    model = FakeModel()

    def load():  # what get_model does, with the stand-in
        safety.encoder._model = model
        return model

    with pytest.MonkeyPatch.context() as m:
        m.setattr(safety.encoder, "_model", None)
        m.setattr(safety.encoder, "get_model", load)

        assert pack(agent)["ranking"] == "embedding"
        assert "What tea should I make her?" in model.seen  # the query, encoded on this call


def test_the_pack_says_words_when_embeddings_are_off(agent, beliefs, settings):
    settings.MEMORY_BELIEF_EMBEDDINGS = False

    assert pack(agent)["ranking"] == "words"
