"""The local proposer's mining, on hand-made corpora (the real embeddings are exercised
by test_acceptance on seed_demo)."""

from __future__ import annotations

from datetime import UTC, datetime
from types import SimpleNamespace

import numpy as np
import pytest

from learning.proposers.local import (
    LocalProposer,
    mine_phrases,
    quote_for,
    rule_for,
    sentence_for,
    tokenize,
)
from memory.verification import ReadMessage, ReviewCorpus, verify_quotes

WHEN = datetime(2026, 11, 2, tzinfo=UTC)


def corpus_of(rows: list[tuple[int, str, bool]], names=()) -> ReviewCorpus:
    """rows: (person, text, after_assistant); each row is its own conversation."""
    messages = [
        ReadMessage(
            id=i + 1,
            conversation_id=100 + i,
            conversation_label=f"c{i}",
            principal_id=person,
            principal_external_id=f"user{person}",
            seq=1,
            text=text,
            created_at=WHEN,
            after_assistant=after,
        )
        for i, (person, text, after) in enumerate(rows)
    ]
    return ReviewCorpus(
        agent_id=1,
        messages=messages,
        conversation_ids=[m.conversation_id for m in messages],
        known_names=set(names),
        newest_message_id=len(messages),
    )


def settings(**kw):
    base = dict(min_conversations=3, min_users=2, across_users=False, min_corrections=2)
    base.update(kw)
    return SimpleNamespace(**base)


WORK = [
    (1, "Could you price this wholesale order for the cafe: forty mugs?", False),
    (1, "Please price this wholesale order, sixty bowls in speckled glaze.", False),
    (2, "I need to price this wholesale order of twelve planters.", False),
    (2, "Morning! Can you check the kiln firing schedule for Friday?", False),
    (1, "Write dates in full, please — not 04/03.", True),
    (2, "No, please write dates in full in every update.", True),
]


def tokens_of(corpus):
    return {m.id: tokenize(m.text) for m in corpus.messages}


def test_mining_finds_the_phrase_that_recurs_across_conversations():
    corpus = corpus_of(WORK)
    best = mine_phrases(
        corpus.messages, tokens_of(corpus), min_conversations=3, min_users=None, banned_words=set()
    )[0]
    assert best.phrase == ("price", "this", "wholesale", "order")
    assert sorted(best.hits) == [100, 101, 102]
    assert (
        sentence_for(best, tokens_of(corpus))
        == "Handles recurring requests to price a wholesale order."
    )


def test_team_mode_needs_several_people():
    rows = [(1, t, a) for _, t, a in WORK]
    corpus = corpus_of(rows)
    assert (
        mine_phrases(
            corpus.messages, tokens_of(corpus), min_conversations=3, min_users=2, banned_words=set()
        )
        == []
    )


def test_known_names_are_never_part_of_a_phrase():
    rows = [(1, "Send the Harlow Finch invoice for the wholesale mugs today.", False)] * 3
    corpus = corpus_of(rows)
    found = mine_phrases(
        corpus.messages,
        tokens_of(corpus),
        min_conversations=3,
        min_users=None,
        banned_words={"harlow", "finch"},
    )
    assert found and all("harlow" not in c.phrase and "finch" not in c.phrase for c in found)


def test_quotes_are_verbatim_whole_words_and_verify():
    corpus = corpus_of(WORK)
    toks = tokens_of(corpus)
    cand = mine_phrases(
        corpus.messages, toks, min_conversations=3, min_users=None, banned_words=set()
    )[0]
    quotes = [
        {
            "quote": quote_for(m, toks[m.id], i, len(cand.phrase)),
            "conversation": m.conversation_label,
        }
        for m, i in cand.hits.values()
    ]
    for q, (m, _) in zip(quotes, cand.hits.values(), strict=True):
        assert q["quote"] in m.text and len(q["quote"].split()) >= 4
    result = verify_quotes(
        text=sentence_for(cand, toks),
        quotes=quotes,
        corpus=corpus,
        min_conversations=3,
        min_users=None,
    )
    assert result.ok, result.reason


def test_a_short_phrase_is_widened_to_four_words_inside_the_message():
    corpus = corpus_of([(1, "Kiln schedule, please.", False)])
    toks = tokens_of(corpus)
    assert quote_for(corpus.messages[0], toks[1], 0, 2) == "Kiln schedule, please"


def test_rule_from_corrections_is_an_imperative():
    corpus = corpus_of(WORK)
    corrections = [m for m in corpus.messages if m.after_assistant]
    toks = tokens_of(corpus)
    cand = mine_phrases(corrections, toks, min_conversations=2, min_users=2, banned_words=set())[0]
    assert rule_for(cand, toks) == "Write dates in full."


@pytest.fixture
def bag_of_words(monkeypatch):
    """Stand-in vectors (hashed bags of words) so the clustering runs without the model."""
    import memory.embeddings as emb

    def vec(text: str) -> np.ndarray:
        v = np.zeros(64, dtype=np.float32)
        for t in tokenize(text):
            v[hash(t.norm) % 64] += 1
        return v / (np.linalg.norm(v) or 1)

    encoded: list[str] = []
    monkeypatch.setattr(emb, "vectors_for_messages", lambda ids: {})
    monkeypatch.setattr(
        emb, "encode", lambda texts: (encoded.extend(texts), np.vstack([vec(t) for t in texts]))[1]
    )
    return encoded


def test_proposer_end_to_end_notes_messages_without_stored_vectors(bag_of_words):
    corpus = corpus_of(WORK)
    result = LocalProposer(threshold=0.3).propose_sentence(corpus, {"goals": ""}, settings())
    assert result.data["sentence"] == "Handles recurring requests to price a wholesale order."
    assert len(result.data["evidence"]) == 3
    assert "had no stored embedding" in result.notes[0]
    assert len(bag_of_words) == len(WORK)


def test_proposer_skips_what_was_turned_down(bag_of_words):
    from learning.policy import content_key

    corpus = corpus_of(WORK)
    avoid = frozenset({content_key("Handles recurring requests to price a wholesale order.")})
    result = LocalProposer(threshold=0.3).propose_sentence(
        corpus, {"goals": ""}, settings(), avoid=avoid
    )
    assert result.data["sentence"] != "Handles recurring requests to price a wholesale order."
    assert "turned down or undone before" in " ".join(result.notes)


def test_proposer_rule(bag_of_words):
    result = LocalProposer().propose_rule(
        corpus_of(WORK), {"standing_rules": []}, settings(across_users=True)
    )
    assert result.data["rule"] == "Write dates in full."
    assert {e["conversation"] for e in result.data["evidence"]} == {"c4", "c5"}
