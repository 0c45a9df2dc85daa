"""After a reply, a noun phrase closed by "then" asks for new work in place of what the
reply turned down ("fair. xUnit tests for the worker then"); and the persona says a kind
of work already only where it writes the thing made as a thing ("tests"), not only as a
verb about how something is built ("tested with xUnit")."""

from __future__ import annotations

from learning.proposers.local import LocalProposer, counts_as_request, requests_of
from tests.learning.corpora import corpus_of, settings


def _heads(text: str, *, after: bool) -> list[str]:
    message = corpus_of([(1, text, after)]).messages[0]
    return [r.head for r in requests_of(message)]


def test_a_noun_phrase_closed_by_then_after_a_reply_asks_for_new_work():
    assert _heads("fair. xUnit tests for the reminder worker then", after=True) == ["test"]
    assert _heads("ok. invoice for the stump grinding then, four done", after=True) == ["invoice"]
    # the same words without "then" after a reply stay an edit of the draft at hand
    assert _heads("fair. xUnit tests for the reminder worker", after=True) == []


def test_then_after_a_reply_is_no_request_when_it_edits_the_draft():
    for text in ("Shorter then.", "ok, British spelling then", "Fine, leave it then"):
        assert _heads(text, after=True) == [], text
    (request,) = requests_of(corpus_of([(1, "xUnit tests for the parser then", True)]).messages[0])
    # work nobody asks for in an opening message is still no request after a reply
    assert not counts_as_request(request, opening={"quote"})
    assert counts_as_request(request, opening={"test"})


TESTS = [
    (1, "Write xUnit tests for the paging on the repairs list", False),
    (1, "xUnit tests for the reminder worker please", False),
    (1, "Can you write xUnit tests for the estate filter", False),
]


def test_a_persona_that_says_how_the_code_is_tested_does_not_say_the_work(bag_of_words):
    persona = {
        "goals": "Help the developer get the repairs service work done faster.",
        "background": "The service is written in C# and tested with xUnit.",
    }
    result = LocalProposer().propose_sentence(corpus_of(TESTS), persona, settings())
    assert result.data["sentence"] == "Writes xUnit tests."


def test_a_persona_that_names_the_tests_says_the_work(bag_of_words):
    persona = {
        "goals": "Help the developer get the repairs service work done faster.",
        "background": "It writes xUnit tests for the service.",
    }
    result = LocalProposer().propose_sentence(corpus_of(TESTS), persona, settings())
    assert result.data["sentence"] == ""
    assert "the persona says this already" in " ".join(result.notes)
