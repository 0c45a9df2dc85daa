"""In a chat an emoji ends a sentence as a full stop does: a request written after one
("back at work, all good 😊 Order of service for Harry Dunning pls") opens a sentence, so its
first word is no name and the request is quoted with the name cut, as after a full stop."""

from __future__ import annotations

from learning.proposers.local.hygiene import proper_words, quote_for
from learning.proposers.local.requests import requests_of
from tests.learning.corpora import corpus_of


def _quote(text: str) -> str | None:
    corpus = corpus_of([(1, text, False)])
    message = corpus.messages[0]
    banned = proper_words(corpus.messages)
    (req,) = [r for r in requests_of(message) if r.head == "order"]
    return quote_for(message, req.start, req.end, banned, keep=frozenset(["order", "service"]))


def test_a_request_after_an_emoji_is_quoted_with_the_name_cut_as_after_a_full_stop():
    after_emoji = "back at work, all good 😊 Order of service for Harry Dunning pls, Tuesday 11am."
    assert _quote(after_emoji) == "Order of service for"
    assert _quote(after_emoji.replace(" 😊", ".")) == "Order of service for"
    # inside a sentence a capitalised word is still a name, and cut
    inside = _quote("Can you do the order of service for Harry Dunning pls, Tuesday 11am.")
    assert inside is not None and "Harry" not in inside and "Dunning" not in inside
