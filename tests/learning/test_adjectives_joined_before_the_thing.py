"""Two adjectives joined by "but" or "and" before the thing asked for say how it should
sound, not what it is: "a polite but firm chaser email" asks for a chaser email. Two nouns
joined by "and" before a head stay its modifiers ("wash and care label text")."""

from __future__ import annotations

from tests.learning.corpora import read


def test_adjectives_joined_by_but_before_the_thing_are_read_past():
    assert read("Can you write a polite but firm chaser email, first one") == [
        ("write", "email", ["chaser"])
    ]
    assert read("Can you write a polite but firm reminder to Élodie") == [("write", "reminder", [])]


def test_adjectives_joined_by_and_before_the_thing_are_read_past():
    assert [(v, h) for v, h, _ in read("write a warm and chatty Facebook post about the van")] == [
        ("write", "post")
    ]
    assert read("can you write a short and friendly reminder for Mrs Jones") == [
        ("write", "reminder", [])
    ]


def test_two_nouns_joined_by_and_stay_modifiers_of_the_head():
    assert read("wash and care label text please") == [(None, "text", ["care", "label"])]
