"""Requests whose grammar hid the work asked for, read by the grammar, not by words: a
request passed on by a body of people or a subject of several words ("Ofcom want a short
note on …", "Their insurer wants a report", "Whitby Lifeboat Museum shop want a credit"),
also in a later sentence of the message; two adjectives joined by "but" or "and" before
the thing ("a polite but firm chaser email"); a thing and a relative clause saying what it
does ("middleware that rejects expired tokens"); a verb that names the work followed by
what it says ("Reply saying it's …"). A pronoun further into a sentence, a statement and a
subject with its own verb stay what they were."""

from __future__ import annotations

from tests.learning.corpora import read


def heads(text: str) -> list[tuple[str | None, str]]:
    return [(verb, head) for verb, head, _ in read(text)]


def test_a_request_passed_on_by_a_body_or_a_longer_subject_is_read():
    assert (None, "note") in heads(
        "We were off air for 40 mins on Tuesday night. Ofcom want a short note on what happened."
    )
    assert (None, "report") in heads(
        "Storm on Sunday took half the ridge tiles off. Their insurer wants a report from us."
    )
    assert (None, "credit") in heads(
        "Whitby Lifeboat Museum shop want a credit on the folk show, 13 weeks"
    )
    assert (None, "quote") in heads("the flats at Parkgate Court want a quote, 5 storeys.")


def test_a_pronoun_further_in_or_a_want_to_do_is_no_passed_on_request():
    assert heads("the customers said they want a refund") == []
    assert heads("The Hendersons want to move the date") == []
    assert heads("Dean wants that on every quote now") == []


def test_adjectives_joined_before_the_thing_say_how_it_sounds():
    assert read("Can you write a polite but firm chaser email, first one") == [
        ("write", "email", ["chaser"])
    ]
    assert heads("write a warm and chatty Facebook post about the new van") == [("write", "post")]
    # two nouns joined by "and" stay modifiers of the head
    assert read("wash and care label text please") == [(None, "text", ["care", "label"])]


def test_a_thing_and_what_it_does_is_a_request():
    assert heads("middleware that rejects expired API tokens for the vendor webhook") == [
        (None, "middleware")
    ]
    assert heads("endpoint that returns daily rain totals for a station between two dates") == [
        (None, "endpoint")
    ]
    # a copula or a verb of wanting after the clause makes it a statement
    assert heads("the invoice that covers May is wrong") == []
    assert heads("the boiler that leaks needs looking at") == []


def test_a_verb_that_names_the_work_then_what_it_says():
    assert heads("Reply saying it's a three-stage pearl white and it has to be blended") == [
        (None, "reply")
    ]


def test_one_more_of_a_series_in_a_later_sentence_is_a_request():
    assert read(
        "Farrow still hasn't paid 2291. Second reminder, firmer this time, mention small claims"
    ) == [(None, "reminder", [])]
    assert read("Third reminder for Rive Gauche") == [(None, "reminder", [])]
