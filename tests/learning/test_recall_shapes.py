"""How new people write requests (found on the seen parts fresh4 and fresh5): a name
written in lower case passing a request on, a noun that can be an adjective too
("resident") made a noun by its plural."""

from __future__ import annotations

from learning.proposers.local import (
    _qualifier_ok,
    find_themes,
    plural_nouns,
    requests_of,
    sentence_for,
)
from tests.learning.test_local_proposer import corpus_of, same_vectors


def read(text: str) -> list[tuple[str | None, str, list[str], str]]:
    message = corpus_of([(1, text, False)]).messages[0]
    return [(r.verb, r.head, r.mods, message.text[r.start : r.end]) for r in requests_of(message)]


def test_a_name_in_lower_case_passes_a_request_on_and_stays_out_of_the_quote():
    assert read("anyway. jonno wants a bar chart of reviews by category, in R") == [
        (None, "chart", ["bar"], "a bar chart of reviews by category")
    ]


def test_an_english_word_in_lower_case_is_no_name_passing_a_request_on():
    # "weather" is no person: what the weather wants is no request
    assert read("anyway. weather wants a bar chart of the rain") == []


def test_a_noun_that_can_be_an_adjective_qualifies_when_written_as_a_plural():
    assert not _qualifier_ok("resident")
    corpus = corpus_of([(1, "same rule for all residents letters", False)])
    assert plural_nouns(corpus.messages) == {"resident", "letter"}
    assert _qualifier_ok("resident", plural_nouns(corpus.messages))
    # an adjective never written as a plural stays one ("in full")
    assert not _qualifier_ok("full", plural_nouns(corpus.messages))


def test_replies_to_residents_are_a_theme():
    corpus = corpus_of(
        [
            (1, "resident emailed about dog mess on the field. can you draft a reply", False),
            (1, "reply needed for a resident whose streetlight is out", False),
            (1, "plot holder emailed about bonfires. reply pls. and same tone for residents", False),
        ]
    )
    requests = [r for m in corpus.messages for r in requests_of(m)]
    themes = find_themes(requests, same_vectors(corpus), min_conversations=3, min_users=None)
    sentences = [sentence_for(t) for t in themes]
    assert any("resident" in s for s in sentences), sentences
