"""A paste under the person's own clause that says a thing is in trouble, in other words
than failing ("the linter is moaning about …", "reactive is firing twice", "the exporter
just hangs"), is a problem to debug; the same words said of the person, or of a past
state, or over no paste, ask for nothing. (A thing said slow asks for it to be made
faster: ``test_slowness_said_asks_to_make_it_faster``.)"""

from __future__ import annotations

from learning.proposers.local import requests_of
from tests.learning.corpora import corpus_of


def _read(text: str) -> list[tuple[str | None, str, list[str]]]:
    message = corpus_of([(1, text, False)]).messages[0]
    return [(r.verb, r.head, r.mods) for r in requests_of(message)]


PASTE = "\n```\nobserveEvent(input$dates, {\n  data <- load(input$dates)\n})\n```"


def test_a_thing_said_to_be_in_trouble_over_a_paste_is_a_problem_to_debug_a_person_is_not():
    for clause in (
        "reactive is firing twice when the date range changes:",
        "dialyzer is unhappy and i dont get it",
        "the exporter just hangs after the first batch:",
        "composer update blew up",
        "the header layout falls apart on phones. css:",
    ):
        read = _read(clause + PASTE)
        assert [(verb, head) for verb, head, _ in read][:1] == [("debug", "error")], clause
    # the same words said of the person, of a past state, or over no paste: no problem
    assert _read("I'm stuck on this one:" + PASTE) == []
    assert all(verb != "debug" for verb, _, _ in _read("the old tolerance was flaky:" + PASTE))
    assert _read("the exporter just hangs after the first batch") == []


def test_what_the_clause_names_is_kept_as_what_goes_wrong():
    ((verb, head, mods),) = _read("reactive is firing twice when the date range changes:" + PASTE)
    assert (verb, head) == ("debug", "error")
    assert "range" in mods


def test_a_short_clause_naming_the_trouble_is_quoted_before_a_long_aside_after_the_paste():
    text = (
        "tsc is moaning, no idea why:\n```\nsrc/cart.ts:41:7 - error TS2322: Type 'string'\n```\n"
        "sorry if i'm slow today, typing one handed"
    )
    message = corpus_of([(1, text, False)]).messages[0]
    (report,) = [r for r in requests_of(message) if r.reported]
    assert message.text[report.start : report.end] == "tsc is moaning"
    # a question is no thing in trouble: "what's wrong" leaves the clause that says it
    text = "the total is different every run with 8 threads. what's wrong" + PASTE
    message = corpus_of([(1, text, False)]).messages[0]
    (report,) = [r for r in requests_of(message) if r.reported]
    assert "threads" in message.text[report.start : report.end]
