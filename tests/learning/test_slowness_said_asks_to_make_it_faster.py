"""Slowness said of a thing, as a statement or a question ("arrears report is slow as hell",
"takes 40 min, way too slow. can we speed it up?", "is X faster than Y?"), asks for it to
be made faster: a request to speed up the thing it is said of (code when no noun names
it), quoted with the words that say so, and not an error to debug. Said of the person
("sorry if I'm slow today") or of a change listed ("faster config reload"), it asks for
nothing; with an error pasted, the error is the problem."""

from __future__ import annotations

from learning.proposers.local import LocalProposer, requests_of
from tests.learning.corpora import corpus_of, settings

PLAN = "\n```\nSELECT * FROM rent_ledger WHERE tenancy_id = :1\n```"


def _read(text: str) -> list[tuple[str | None, str]]:
    message = corpus_of([(1, text, False)]).messages[0]
    return [(r.verb, r.head) for r in requests_of(message)]


def test_a_thing_said_slow_is_a_request_to_speed_it_up_a_person_said_slow_is_not():
    assert _read("sorry if I'm slow today, my wrist is bad") == []
    assert all(verb != "speed up" for verb, _ in _read("release notes pls: faster config reload"))
    error = "\n```\nORA-01555: snapshot too old\nError at line 4\n```"
    assert _read("the letters job is slow and now it fails:" + error)[0] == ("debug", "error")
    assert _read("arrears report is slow as hell, 4 min, officers are moaning." + PLAN) == [
        ("speed up", "report")
    ]
    assert _read("This report takes ages, 40 minutes for one sales org.") == [
        ("speed up", "report")
    ]
    assert _read("the summary query is slow on the orders page") == [("speed up", "query")]
    assert _read("Pricing team want the upload faster, the boss is on my back.") == [
        ("speed up", "upload")
    ]


def test_slowness_said_of_no_noun_asks_to_speed_up_the_code():
    assert _read("why is this so slow?" + PLAN) == [("speed up", "code")]
    assert _read("flame graph from the load test. can we make this faster?")[:1] == [
        ("speed up", "code")
    ]
    assert _read("is the shared dict faster than the lru cache for the lookup?") == [
        ("speed up", "code")
    ]


def test_the_clause_before_names_what_takes_too_long():
    text = "this loop posts rent charges for 21k tenancies and takes 40 min, way too slow."
    message = corpus_of([(1, text, False)]).messages[0]
    (request,) = requests_of(message)
    assert (request.verb, request.head) == ("speed up", "loop")
    assert text[request.start : request.end].startswith("this loop posts rent charges")


RUNS = [
    (1, "arrears report is slow as hell, 4 min, officers are moaning." + PLAN, False),
    (1, "the rent run loop takes 40 min, way too slow. can we speed it up?", False),
    (1, "also the letters job takes 3 min now, can we make it faster?", False),
    (1, "the credit check report is slow since the new customers went live", False),
]


def test_recurring_slowness_is_proposed_as_making_slow_things_faster(bag_of_words):
    result = LocalProposer().propose_sentence(
        corpus_of(RUNS), {"goals": "Help the developer.", "background": ""}, settings()
    )
    sentence = (result.data or {}).get("sentence", "")
    assert sentence.startswith("Makes slow ") and sentence.endswith(" faster."), sentence
