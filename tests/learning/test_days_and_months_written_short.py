"""A day's or a month's name written short with its capital ("Tues", "Sat", "Thurs",
"Sept 12", "10 Oct") is a time, no one's name: a quote may hold it and the messages' names
leave it out. A month's short form alone ("Jan") may be someone, so it counts only beside a
number; a short form before another capitalised word is part of a name ("the Sun Inn")."""

from __future__ import annotations

from learning.proposers.local.hygiene import proper_words, quote_for
from tests.learning.corpora import corpus_of


def _quote(text: str, clause: str, keep: str) -> str | None:
    corpus = corpus_of([(1, text, False)])
    message = corpus.messages[0]
    banned = proper_words(corpus.messages)
    start = message.text.index(clause)
    return quote_for(message, start, start + len(clause), banned, keep=frozenset([keep]))


def test_a_short_day_name_is_quoted_with_the_request():
    text = "Run sheet for Tues: Haltwhistle to Kielder Water, 33 seater."
    assert _quote(text, "Run sheet for Tues", "sheet") == "Run sheet for Tues"
    text = "Sheet for me Sat please, Tynedale Walkers to Keswick."
    assert _quote(text, "Sheet for me Sat please", "sheet") == "Sheet for me Sat"


def test_short_day_and_dated_month_names_are_no_names():
    corpus = corpus_of(
        [
            (1, "Run sheet for Tues please, and one for Thurs and Weds.", False),
            (1, "Quote for a coach on Sat 10 Oct and another for Sept 12.", False),
        ]
    )
    assert not {"tues", "thurs", "weds", "sat", "oct", "sept"} & proper_words(corpus.messages)


def test_a_short_form_that_may_be_a_name_stays_a_name():
    corpus = corpus_of(
        [
            (1, "Letter for Jan about the renewal please.", False),
            (1, "The stop moves from the Sun Inn to the village hall.", False),
        ]
    )
    assert {"jan", "sun", "inn"} <= proper_words(corpus.messages)
