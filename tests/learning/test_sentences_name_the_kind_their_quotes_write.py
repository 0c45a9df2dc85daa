"""A goals sentence names its work with the word most of its quotes write right before
the head noun ("customer" of "Reply to this customer email"), never a name, a word a
quote may not hold, or a word that says nothing ("more", "new")."""

from __future__ import annotations

import pytest

from learning.proposers.local.wording import qualified_by_quotes

CUSTOMER_EMAILS = [
    "Reply to this customer email",
    "Reply to this customer email about the refund",
    "Reply to a customer who missed the start",
]


def test_the_word_most_quotes_write_before_the_noun_qualifies_it():
    text = qualified_by_quotes("Writes replies to emails.", CUSTOMER_EMAILS, set())
    assert text == "Writes replies to customer emails."


def test_a_qualified_noun_loses_its_article():
    quotes = ["unit tests for the parser", "Write unit tests for this class", "tests please"]
    assert qualified_by_quotes("Writes the tests.", quotes, set()) == "Writes unit tests."


@pytest.mark.parametrize(
    ("quotes", "banned"),
    [
        # one quote of three: not what most of the work is
        (["unit tests for the parser", "tests for this class", "tests please"], set()),
        # written with a capital somewhere: perhaps a name
        (["Acme tests for the parser", "acme tests for this class", "tests"], set()),
        # a word a quote must not hold
        (["maria tests for the parser", "maria tests for this class", "tests"], {"maria"}),
        # words that say nothing of the kind of work
        (["more tests for the parser", "more tests for this class", "tests"], set()),
        (["new tests for the parser", "new tests for this class", "tests"], set()),
        (["the tests for the parser", "the tests for this class", "tests"], set()),
    ],
)
def test_no_qualifier_without_a_plain_word_in_most_quotes(quotes, banned):
    assert qualified_by_quotes("Writes the tests.", quotes, banned) == "Writes the tests."


def test_a_sentence_already_qualified_is_left_as_written():
    quotes = ["refund replies please", "refund replies for these", "refund replies"]
    text = "Drafts refund replies."
    assert qualified_by_quotes(text, quotes, set()) == text
