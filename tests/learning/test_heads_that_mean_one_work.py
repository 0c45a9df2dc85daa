"""Requests whose head nouns mean one kind of work (by the nouns' own embeddings) count
together, named by the noun most of their conversations write."""

from __future__ import annotations

import numpy as np

from learning.proposers.local import find_themes, sentence_for
from learning.proposers.local.themes import same_heads
from tests.learning.corpora import corpus_and_requests, same_vectors

QUOTES = [
    (1, "Can you do a quote for the takeaway on the corner?", False),
    (1, "Need a quote for two mortice locks on the back door please.", False),
    (1, "Quotation for the church hall committee, three locks changed.", False),
]


def _vectors(alike: dict[str, str], heads: set[str]) -> dict[str, np.ndarray]:
    """Unit head vectors: each head its own direction, a head in ``alike`` the direction
    of the head it maps to."""
    own = sorted(heads - set(alike))
    eye = np.eye(len(own))
    rows = {h: eye[k] for k, h in enumerate(own)}
    rows.update({h: rows[other] for h, other in alike.items()})
    return rows


def test_a_noun_and_its_derived_form_alike_in_meaning_are_one_kind_of_work():
    corpus, requests = corpus_and_requests(QUOTES)
    heads = {r.head for r in requests if r.head}
    assert {"quote", "quotation"} <= heads
    vectors = same_vectors(corpus)
    # by words alone the quote is asked for in two conversations only
    assert find_themes(requests, vectors, min_conversations=3, min_users=None) == []
    themes = find_themes(
        requests,
        vectors,
        min_conversations=3,
        min_users=None,
        head_vectors=_vectors({"quotation": "quote"}, heads),
    )
    # named by the noun most conversations write; one theme, never the same work twice
    assert [sentence_for(t) for t in themes] == ["Prepares the quotes."]
    assert sorted(themes[0].requests) == [100, 101, 102]


def test_nouns_far_apart_in_meaning_stay_apart():
    corpus, requests = corpus_and_requests(QUOTES)
    heads = {r.head for r in requests if r.head}
    themes = find_themes(
        requests,
        same_vectors(corpus),
        min_conversations=3,
        min_users=None,
        head_vectors=_vectors({}, heads),
    )
    assert themes == []


def test_a_group_of_heads_is_named_by_the_head_most_conversations_write():
    _, requests = corpus_and_requests(
        [
            (1, "Quotation for the church hall committee please.", False),
            (1, "Quote for the takeaway on the corner please.", False),
            (1, "Can you do a quotation for the dental practice?", False),
        ]
    )
    heads = {r.head for r in requests if r.head}
    assert same_heads(requests, _vectors({"quote": "quotation"}, heads)) == {"quote": "quotation"}


def test_heads_join_only_when_every_pair_is_alike():
    # "b" is alike to "a" and to "c", but "a" and "c" are far apart: no chain joins them
    a = np.array([1.0, 0.0])
    c = np.array([0.0, 1.0])
    b = (a + c) / np.linalg.norm(a + c)  # cosine 0.707 with each
    _, requests = corpus_and_requests(
        [
            (1, "Can you write a report for the landlord?", False),
            (1, "Can you write a report for the agency?", False),
            (1, "Can you write a summary for the landlord?", False),
            (1, "Can you write a digest for the agency?", False),
        ]
    )
    heads = {r.head for r in requests if r.head}
    assert heads == {"report", "summary", "digest"}
    grouped = same_heads(requests, {"report": a, "summary": b, "digest": c})
    assert grouped == {"summary": "report"}


def test_the_encoder_tells_a_derived_form_from_other_work():
    from learning.proposers.local.words import SAME_HEAD
    from memory.embeddings import encode

    quote, quotation, reply = encode(["quote", "quotation", "reply"])
    assert float(quote @ quotation) >= SAME_HEAD
    assert float(quote @ reply) < SAME_HEAD
