"""Wordings a reviewer keeps as written: an acronym nobody writes in the plural gets no
plural "s" ("Writes DDL for tables.": nobody counts it, as in "a PR"), a time a phrase ends in is not what the work is
("letters from Monday's induction morning" are induction letters), a complaint that
something is missing is worded as the instruction to include it, and a kind a group of
things always is ("money fields are packed decimal") is used for them, with no article."""

from __future__ import annotations

from learning.proposers.local import find_themes, rule_for, sentence_for
from tests.learning.corpora import corpus_and_requests, correction_hits, same_vectors


def _sentences(rows):
    corpus, requests = corpus_and_requests(rows)
    return [
        sentence_for(t)
        for t in find_themes(requests, same_vectors(corpus), min_conversations=3, min_users=None)
    ]


def test_an_acronym_nobody_writes_in_the_plural_gets_no_plural_s():
    rows = [
        (1, "can you write the DDL for the orders table", False),
        (2, "need the DDL for a bookings table please", False),
        (1, "write the DDL for the audit log table", False),
    ]
    sentences = _sentences(rows)
    assert sentences and sentences[0] == "Writes DDL for tables.", sentences


def test_a_time_a_phrase_ends_in_is_not_what_the_work_is():
    rows = [
        (1, "Induction letter for the new tenant at flat 3 please", False),
        (2, "Thank-you letters from the induction morning please", False),
        (1, "Follow-up letters from Monday's induction morning please", False),
    ]
    sentences = _sentences(rows)
    assert sentences and sentences[0] == "Writes induction letters.", sentences


def test_a_thing_said_to_be_missing_is_an_instruction_to_include_it():
    rule = rule_for(
        correction_hits(
            "the order number is missing again. every invoice starts with it",
            "order number's missing, it goes on every invoice",
        )
    )
    assert rule == "Include the order number.", rule
    assert rule_for(correction_hits("it's missing again", "it is missing, again")) is None


def test_a_kind_things_always_are_is_used_for_them_with_no_article():
    rule = rule_for(
        correction_hits(
            "packed decimal, same as the file fields",
            "money fields are packed decimal, tests too",
        )
    )
    assert rule == "Use packed decimal for money fields.", rule
    # one word that can be an adjective says how they are, no kind to use
    assert rule_for(correction_hits("the dates are wrong again", "dates are wrong")) is None
