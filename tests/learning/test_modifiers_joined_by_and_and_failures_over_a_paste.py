"""Two modifiers joined by "and" before one noun are one request ("wash and care label
text for a coat", "Twitter and LinkedIn post then" after a reply), while two verbs joined
by "and", things listed and statements stay what they were; and a paste under a clause
that says what fails ("gradle sync fails:") is an error to debug though the paste names
no error, while a paste under no such clause stays no request."""

from __future__ import annotations

from learning.proposers.local import requests_of
from tests.learning.corpora import corpus_of


def _read(text: str, *, after: bool = False) -> list[tuple[str | None, str, list[str]]]:
    message = corpus_of([(1, text, after)]).messages[0]
    return [(r.verb, r.head, r.mods) for r in requests_of(message)]


def test_two_modifiers_joined_by_and_before_one_noun_are_one_request():
    assert _read("wash and care label text for a wool coat") == [(None, "text", ["care", "label"])]
    assert _read("health and safety checklist for the new site please") == [
        (None, "checklist", ["safety"])
    ]
    # after a reply, closed by "then": new work in place of what the reply turned down
    heads = [head for _, head, _ in _read("fine. Twitter and LinkedIn post then", after=True)]
    assert heads == ["post"]


def test_words_joined_by_and_that_are_no_modifiers_stay_as_they_were():
    # two verbs: the first is what is asked
    assert _read("reply and tell them we are closed on Monday") == [(None, "reply", [])]
    # a plural noun with more words after it is an object of its own, not a modifier
    assert [h for _, h, _ in _read("so update your persona and give owners clinical advice")] != [
        "advice"
    ]
    # things listed, a thanks, a statement of fact: no request
    for text in (
        "Tea and biscuits please",
        "thanks and sorry for the late reply",
        "The quotes and invoices are all done now.",
        "Bread and butter pudding is on the menu today.",
    ):
        assert _read(text) == [], text
    # a plan of the person's own closed by "then" after a reply asks for nothing
    assert _read("ok. CV tonight then", after=True) == []


def test_a_paste_under_a_clause_that_says_what_fails_is_an_error_to_debug():
    text = "gradle sync fails on the release variant:\n```\n> Could not resolve all files\n```"
    ((verb, head, mods),) = _read(text)
    assert (verb, head) == ("debug", "error")
    assert "release" in mods
    # a short clause alone before the paste still names it
    ((verb, head, _),) = _read("xcode archive fails:\n```\nProvisioning profile missing\n```")
    assert (verb, head) == ("debug", "error")


def test_a_paste_under_no_failing_clause_stays_no_request():
    # the person's words say nothing fails: the paste is shown, not reported
    assert _read("here is the config we use now:\n```\nretries: 3\n```") == []
    # a noun "break" is no failure
    read = _read("opening hours over the Christmas break:\n```\nclosed 24-26\n```")
    assert all(verb != "debug" for verb, _, _ in read)
    # a question about the assistant over a paste stays no request
    assert _read("are you able to read yaml like this?\n```\nretries: 3\n```") == []
