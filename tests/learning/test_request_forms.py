"""Request forms people use without "can you", a month or weekday that says when (not
which work), and reminders named as the work a sentence describes."""

from __future__ import annotations

from learning.policy import sentence_refusal
from learning.proposers.local import find_themes, requests_of, sentence_for
from tests.learning.corpora import corpus_of, read, same_vectors


def test_want_and_a_noun_phrase_is_a_request():
    assert read("want unit tests for the csv parser before I merge it") == [
        (None, "test", ["unit"])
    ]
    assert read("I want a summary of the survey results") == [(None, "summary", [])]


def test_want_without_a_thing_is_no_request():
    assert read("I want this raised at the next meeting") == []


def test_a_month_or_weekday_says_when_not_which_work():
    corpus = corpus_of(
        [
            (1, "Can you write the reminder email for the tenants?", False),
            (1, "Could you draft the reminder letter for flat 4", False),
            (1, "april rent reminders please", False),
        ]
    )
    requests = [r for m in corpus.messages for r in requests_of(m)]
    themes = find_themes(requests, same_vectors(corpus), min_conversations=3, min_users=None)
    sentences = [sentence_for(t) for t in themes]
    assert "Writes rent reminders." in sentences
    assert not any("april" in s.lower() for s in sentences)


def refuse(sentence: str) -> str | None:
    return sentence_refusal(sentence=sentence, field="goals", persona={}, known_names=set())


def test_reminders_the_work_makes_are_no_note_to_self():
    assert refuse("Sends payment reminders.") is None
    assert refuse("Writes rent reminders.") is None
    # a note to the assistant is still refused
    assert refuse("Reminder to use plain English.")
    assert refuse("Writes reminders to check the date.")


def test_a_second_instruction_joined_by_and_is_not_part_of_the_request():
    message = corpus_of(
        [(1, "can you draft the rota emails and put them in a spreadsheet by team", False)]
    ).messages[0]
    [req] = requests_of(message)
    assert message.text[req.start : req.end] == "can you draft the rota emails"


def test_a_particle_after_the_object_makes_a_verb_of_making():
    assert read("Can you put a quote together for the new kitchen?") == [("prepare", "quote", [])]
    assert read("can you put the weekend rota together") == [("prepare", "rota", ["weekend"])]


def test_putting_the_draft_somewhere_is_still_an_edit():
    assert read("Put the VAT on its own line") == []
    assert read("put it together again") == []
