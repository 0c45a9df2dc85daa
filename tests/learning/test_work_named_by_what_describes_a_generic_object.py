"""When what a request makes is generic ("something", "write back", a bare message), the
clause that describes it names the work: a noun phrase after a comma ("write her something,
aftercare basically": the aftercare), "write back …" (a reply, whatever the reply says), an
"-ing" or relative clause with a verb of work and its object ("a text confirming the sweep":
the sweep is confirmed). A clause that reports what is said names no work ("a message
saying the planks have arrived" stays a message)."""

from __future__ import annotations

from tests.learning.corpora import read


def test_a_noun_phrase_after_something_names_what_is_made():
    assert read("lady rang about her floor. can u write her something, aftercare basically") == [
        ("write", "aftercare", [])
    ]


def test_writing_back_asks_for_a_reply_whatever_it_says():
    assert read("Can you write back saying I can come out Wednesday afternoon") == [
        (None, "reply", [])
    ]
    assert read("Write back kindly, say we'll keep his place open") == [(None, "reply", [])]


def test_a_verb_of_work_describing_a_bare_message_names_the_work():
    assert read("need a text confirming the sweep in Hawkshead on Thursday") == [
        ("confirm", "sweep", [])
    ]
    assert read("can you draft something that explains the delay to the customer") == [
        ("explain", "delay", [])
    ]
    # what the message says is no work of its own
    assert read("Can you write her a message saying the planks have arrived") == [
        ("write", "message", [])
    ]
