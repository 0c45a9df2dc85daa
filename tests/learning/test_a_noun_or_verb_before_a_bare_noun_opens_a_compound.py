"""A word that can be a noun or a verb, then a bare singular noun and a preposition ("test
case for the engineer-contact lookup", "test fixture for the site metadata loader") is a
compound when other conversations ask for that first noun itself ("write tests for …"):
a request for it, as a part is read as its whole. Followed only by an "-ing" form ("test
failing after I changed …") it is the subject of what goes wrong, no imperative. Real
imperatives stay: a determiner after the verb ("test the login flow"), a noun nobody
asks for ("update readme for …"), a word the lexicon does not know."""

from __future__ import annotations

from learning.proposers.local import requests_of
from learning.proposers.local.requests import compounds_as_nouns
from tests.learning.corpora import corpus_of

TESTS = [
    (1, "write tests for the floor queue please", False),
    (1, "can you write a test for the door timer", False),
]


def _read(rows: list[tuple[int, str, bool]]) -> list[tuple[str | None, str]]:
    corpus = corpus_of(rows)
    requests = compounds_as_nouns([r for m in corpus.messages for r in requests_of(m)])
    return [(r.verb, r.head) for r in requests]


def test_a_test_case_for_something_is_a_test_where_tests_are_asked_for():
    read = _read([*TESTS, (1, "test case for the engineer-contact lookup, fixture below", False)])
    assert read[-1] == (None, "test")
    read = _read([*TESTS, (1, "test fixture for the site metadata loader", False)])
    assert read[-1] == (None, "test")


def test_a_noun_or_verb_whose_noun_nobody_asks_for_stays_a_verb():
    assert _read([(1, "test case for the engineer-contact lookup", False)]) == [("test", "case")]
    assert _read([*TESTS, (1, "test the login flow for the admin page", False)])[-1] == (
        "test",
        "flow",
    )
    assert _read([*TESTS, (1, "update readme for the new release", False)])[-1][0] == "update"


def test_a_noun_and_an_ing_form_say_what_fails_and_ask_for_no_work():
    message = corpus_of([(1, "test failing after I changed the availability calc", False)])
    assert all(r.verb != "test" for r in requests_of(message.messages[0]))
