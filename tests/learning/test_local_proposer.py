"""The local proposer on hand-made corpora: requests, themes, sentences, quotes, rules
(the real embeddings are exercised by test_acceptance on seed_demo)."""

from __future__ import annotations

import numpy as np

from learning.proposers.local import (
    LocalProposer,
    find_themes,
    quote_for,
    requests_of,
    sentence_for,
)
from memory.verification import verify_quotes
from tests.learning.corpora import corpus_of, same_vectors, settings

WORK = [
    (1, "Could you price this wholesale order for the cafe: forty mugs?", False),
    (1, "Please price the wholesale order, sixty bowls in speckled glaze.", False),
    (2, "I need you to price a wholesale order of twelve planters.", False),
    (2, "Morning! Can you check the kiln firing schedule for Friday?", False),
    (1, "Write dates in full, please — not 04/03.", True),
    (2, "No, please write dates in full in every update.", True),
]
SENTENCE = "Prices wholesale orders."


def test_requests_carry_verb_object_and_modifier():
    corpus = corpus_of(WORK)
    found = [r for m in corpus.messages for r in requests_of(m)]
    orders = [r for r in found if r.head == "order"]
    assert [(r.verb, r.mods) for r in orders] == [("price", ["wholesale"])] * 3
    assert all(r.message.text[r.start : r.end] in r.message.text for r in orders)


def test_a_theme_recurs_in_enough_conversations_and_is_named_verb_first():
    corpus = corpus_of(WORK)
    requests = [r for m in corpus.messages for r in requests_of(m)]
    themes = find_themes(requests, same_vectors(corpus), min_conversations=3, min_users=None)
    assert [sentence_for(t) for t in themes] == [SENTENCE]
    assert sorted(themes[0].requests) == [100, 101, 102]


def test_team_mode_needs_several_people():
    corpus = corpus_of([(1, t, a) for _, t, a in WORK])
    requests = [r for m in corpus.messages for r in requests_of(m)]
    assert find_themes(requests, same_vectors(corpus), min_conversations=3, min_users=2) == []


def test_messages_far_apart_in_meaning_are_no_theme():
    corpus = corpus_of(WORK)
    requests = [r for m in corpus.messages for r in requests_of(m)]
    apart = {m.id: np.eye(len(corpus.messages))[k] for k, m in enumerate(corpus.messages)}
    assert find_themes(requests, apart, min_conversations=3, min_users=None) == []


def test_quotes_are_whole_clauses_that_verify():
    corpus = corpus_of(WORK)
    requests = [r for m in corpus.messages for r in requests_of(m)]
    theme = find_themes(requests, same_vectors(corpus), min_conversations=3, min_users=None)[0]
    quotes = [
        {"quote": quote_for(r.message, r.start, r.end, set()), "conversation": None}
        for r in theme.requests.values()
    ]
    assert [q["quote"] for q in quotes] == [
        "Could you price this wholesale order for the cafe",
        "price the wholesale order",
        "I need you to price a wholesale order of twelve planters",
    ]
    result = verify_quotes(
        text=SENTENCE, quotes=quotes, corpus=corpus, min_conversations=3, min_users=None
    )
    assert result.ok, result.reason


def test_a_short_clause_is_widened_to_the_end_of_the_next_clause():
    corpus = corpus_of([(1, "Kiln schedule please! Two firings next week, thanks.", False)])
    m = corpus.messages[0]
    quote = quote_for(m, 0, len("Kiln schedule please"), set())
    assert quote == "Kiln schedule please! Two firings next week"  # a request: on past "!"


def test_proposer_end_to_end_notes_messages_without_stored_vectors(bag_of_words):
    corpus = corpus_of(WORK)
    result = LocalProposer().propose_sentence(corpus, {"goals": ""}, settings())
    assert result.data["sentence"] == SENTENCE
    assert len(result.data["evidence"]) == 3
    assert "had no stored embedding" in result.notes[0]


def test_proposer_skips_what_was_turned_down(bag_of_words):
    from learning.policy import content_key

    corpus = corpus_of(WORK)
    avoid = frozenset({content_key(SENTENCE)})
    result = LocalProposer().propose_sentence(corpus, {"goals": ""}, settings(), avoid=avoid)
    assert result.data["sentence"] == ""
    assert "turned down" in " ".join(result.notes)


def test_proposer_rule(bag_of_words):
    result = LocalProposer().propose_rule(
        corpus_of(WORK), {"standing_rules": []}, settings(across_users=True)
    )
    assert result.data["rule"] == "Write dates in full."
    assert {e["conversation"] for e in result.data["evidence"]} == {"c4", "c5"}
