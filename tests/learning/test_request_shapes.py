"""Request shapes the clause reader understands: a count before the object, an acronym
ending in a capital S, a verb whose object follows a preposition."""

from __future__ import annotations

import pytest

from learning.proposers.local import requests_of
from tests.learning.corpora import corpus_of, read


def test_a_count_before_the_object_is_skipped():
    assert read("Can you chase the 3 overdue invoices from October?") == [
        ("chase", "invoice", ["overdue"])
    ]
    assert read("Please price 12 wholesale orders.") == [("price", "order", ["wholesale"])]


def test_an_acronym_ending_in_a_capital_s_is_no_plural():
    assert read("can you chase the DBS for the new starter") == [("chase", "dbs", [])]
    # a plural written with a small s still is one
    assert read("Can you review these PRs") == [("review", "pr", [])]


@pytest.mark.parametrize(
    "text",
    [
        "Can you start on the volunteer newsletter?",
        "Could you work on the volunteer newsletter?",
        "Can you help with the volunteer newsletter?",
    ],
)
def test_a_verb_whose_object_follows_a_preposition(text):
    assert read(text) == [(None, "newsletter", ["volunteer"])]


def test_help_with_a_pronoun_is_no_request():
    assert read("Can you help with it?") == []


def test_a_request_joined_by_and_to_a_check_of_the_first():
    assert read("new starter form just came in, can you check it over and draft the welcome?") == [
        ("draft", "welcome", [])
    ]


def test_after_a_reply_a_joined_request_is_no_new_request():
    message = corpus_of([(1, "Nice, read it again and write a shorter intro", True)]).messages[0]
    assert [r.head for r in requests_of(message)] == []
