"""Requests grouped by meaning (the embeddings of their clauses), not only by their words."""

from __future__ import annotations

import numpy as np

from learning.proposers.local import (
    find_themes,
    meaning_clusters,
    quote_for,
    requests_of,
    sentence_for,
    verified_evidence,
)
from tests.learning.corpora import corpus_of, same_vectors

NEWSLETTERS = [
    (1, "Can you draft the volunteer newsletter for March?", False),
    (1, "Newsletter please, the April one.", False),
    # another word for the same work; the message names the newsletter elsewhere
    (1, "Can you write this month's bulletin? It goes out with the newsletter mailing.", False),
]


def alike(requests) -> np.ndarray:
    """Clause vectors that say every request asks for the same kind of work."""
    return np.ones((len(requests), 4)) / 2


def test_average_linkage_does_not_chain_through_a_middle_row():
    # a-b close (0.9), b-c fairly close (0.6), a-c far (0.2): c stays out, because its
    # mean to the group {a, b} is 0.4; connected components would join all three
    a = np.array([1.0, 0.0, 0.0])
    b = np.array([0.9, np.sqrt(1 - 0.81), 0.0])
    y = (0.6 - 0.18) / b[1]
    c = np.array([0.2, y, np.sqrt(1 - 0.04 - y * y)])
    assert meaning_clusters(np.vstack([a, b, c]), threshold=0.5) == [[0, 1]]
    assert meaning_clusters(np.vstack([a, b, c]), threshold=0.35) == [[0, 1, 2]]
    assert meaning_clusters(np.vstack([a, b, c]), threshold=0.95) == []


def test_requests_for_the_same_work_in_other_words_count_together():
    corpus = corpus_of(NEWSLETTERS)
    requests = [r for m in corpus.messages for r in requests_of(m)]
    vectors = same_vectors(corpus)
    # by words alone the newsletter is asked for in two conversations only
    assert find_themes(requests, vectors, min_conversations=3, min_users=None) == []
    themes = find_themes(
        requests, vectors, min_conversations=3, min_users=None, clause_vectors=alike(requests)
    )
    assert [sentence_for(t) for t in themes] == ["Drafts the newsletters."]
    assert sorted(themes[0].requests) == [100, 101, 102]
    # requests far apart in meaning are not grouped
    apart = np.eye(len(requests))
    assert (
        find_themes(requests, vectors, min_conversations=3, min_users=None, clause_vectors=apart)
        == []
    )


def test_a_request_for_work_asked_for_elsewhere_does_not_join_another_theme():
    # a quiz for Monday is close in meaning to the lesson plans and its message names the
    # lesson, but quizzes are work of their own (asked for in two conversations)
    rows = [
        (1, "Can you plan a lesson on the Tudors?", False),
        (1, "Lesson plan on the Armada please.", False),
        (1, "Can you do a quiz for Monday? It closes the Tudors lesson.", False),
        (1, "Quiz on the Tudors for year 9 please.", False),
    ]
    corpus = corpus_of(rows)
    requests = [r for m in corpus.messages for r in requests_of(m)]
    themes = find_themes(
        requests,
        same_vectors(corpus),
        min_conversations=3,
        min_users=None,
        clause_vectors=alike(requests),
    )
    assert [len(t.requests) for t in themes] == []


def test_a_request_naming_no_word_of_the_sentence_is_no_evidence():
    rows = [*NEWSLETTERS[:2], (1, "Can you write this month's bulletin for the volunteers?", False)]
    corpus = corpus_of(rows)
    requests = [r for m in corpus.messages for r in requests_of(m)]
    # alike in meaning, but no quote of the third could share a word with the sentence,
    # and the review refuses a quote that does not
    assert (
        find_themes(
            requests,
            same_vectors(corpus),
            min_conversations=3,
            min_users=None,
            clause_vectors=alike(requests),
        )
        == []
    )


def test_only_quotes_the_verifier_accepts_are_kept():
    corpus = corpus_of(NEWSLETTERS)
    evidence = [
        {"quote": "Can you draft the volunteer newsletter", "conversation": "c0"},
        {"quote": "Can you write this month's bulletin", "conversation": "c2"},  # no shared word
        {"quote": "Can you draft the newsletter for May", "conversation": "c0"},  # not there
        {"quote": "It goes out with the newsletter mailing", "conversation": "c2"},
    ]
    kept = verified_evidence("Drafts the newsletters.", evidence, corpus)
    assert [e["quote"] for e in kept] == [
        "Can you draft the volunteer newsletter",
        "It goes out with the newsletter mailing",
    ]


def test_a_key_value_pair_of_pasted_output_is_never_quoted():
    text = "ab test on the new checkout button colour: control n=8,100 vs variant n=8,050"
    corpus = corpus_of([(1, text, False)])
    quote = quote_for(corpus.messages[0], 0, len(text), set())
    assert quote == "ab test on the new checkout button colour: control"
    assert "=" not in quote


def test_a_word_that_can_be_an_adjective_is_a_theme_where_requests_make_it():
    rows = [
        (1, "Can you do a welcome email for the new volunteers?", False),
        (2, "Form just came in, can you check it over and draft the welcome?", False),
        (3, "Can you write a welcome for the two new starters?", False),
    ]
    corpus = corpus_of(rows)
    requests = [r for m in corpus.messages for r in requests_of(m)]
    themes = find_themes(requests, same_vectors(corpus), min_conversations=3, min_users=2)
    # named as people put the word before what is made, not "the welcomes"
    assert [sentence_for(t) for t in themes] == [
        "Writes welcome emails."
    ]  # "draft", "write": once each
    assert sorted(themes[0].requests) == [100, 101, 102]


def test_a_key_theme_is_named_as_most_requests_put_the_word():
    rows = [
        (1, "Write a post: book January appointments now.", False),  # "appointments" as written
        # ("an appointment confirmation template" is a template since "template", a verb to
        # the lexicon, ends the noun phrase after a singular noun)
        (1, "Can you write an appointment confirmation for Tuesday?", False),
        (1, "can you write her the appointment confirmation? 10am.", False),
        (1, "Another appointment reminder needed, the day-before one.", False),
    ]
    corpus = corpus_of(rows)
    requests = [r for m in corpus.messages for r in requests_of(m)]
    themes = find_themes(requests, same_vectors(corpus), min_conversations=3, min_users=None)
    # not "Writes the appointments.": most requests put the word before what they make
    assert [sentence_for(t) for t in themes] == ["Writes appointment confirmations."]


def test_the_clause_grouped_by_meaning_is_its_work_without_names_numbers_or_times(bag_of_words):
    # two requests for one customer must not sit closer than two for one kind of work:
    # the customer's name, the job number, the month and the quoted title are left out
    from learning.proposers.base import ProposerResult
    from learning.proposers.local.proposer import LocalProposer

    rows = [
        (1, "Can you draft an estimate for Mrs Pellow at job 4471?", False),
        (2, "Any update for Mrs Pellow on the November visit?", False),
        (3, 'Can you write the leaflet "Warm Homes Week" for Dunmere?', False),
        (3, "Mrs Pellow wants to know when we arrive.", False),
    ]
    corpus = corpus_of(rows, names={"Dunmere"})
    LocalProposer()._themes(
        corpus, ProposerResult(), min_conversations=2, min_users=None, meaning=True
    )
    # what was encoded besides the messages themselves and the bare head nouns
    clauses = [t for t in bag_of_words if " " in t and t not in {text for _, text, _ in rows}]
    assert any("estimate" in t for t in clauses)
    for word in ("Pellow", "Mrs", "4471", "November", "Warm", "Dunmere"):
        assert not any(word in t for t in clauses), word


def test_a_clause_that_is_all_particulars_is_embedded_as_written():
    from learning.proposers.local.hygiene import work_of_clause

    assert work_of_clause("a quote for Mrs Pellow's kitchen", {"pellow"}) == "a quote for kitchen"
    assert work_of_clause("Pellow", {"pellow"}) == "Pellow"
    assert work_of_clause("can't do the 'big' one by 12th", set()) == "can't do the one by"
