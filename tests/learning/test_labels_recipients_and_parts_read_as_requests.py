"""Requests whose grammar hid the work asked for: a word the lexicon gives only as a verb
after a singular noun ends the noun phrase ("Job advert please", "a job advert for a
cook": a singular noun is never the subject of a verb in its base form); a name or
people between the verb and "a …" are the recipient ("Write Élodie a reply"), and a name
after an "-ing" form is its object ("a reply proposing Thursday"); a part word after a
noun in an opening request names no work of its own ("the vows bit", "Newsletter bit").
A subject and its verb, an adjective before "bit" and a part of the draft at hand after
a reply stay what they were."""

from __future__ import annotations

from learning.proposers.local import requests_of
from tests.learning.corpora import corpus_of, read


def heads(text: str) -> list[tuple[str | None, str]]:
    return [(verb, head) for verb, head, _ in read(text)]


def after_a_reply(text: str) -> list[str]:
    message = corpus_of([(1, text, True)]).messages[0]
    return [r.head for r in requests_of(message)]


def test_a_verb_only_word_after_a_singular_noun_is_the_thing_asked_for():
    assert read("Job advert please: Level 3 early years post, 30 hours a week") == [
        (None, "advert", ["job"])
    ]
    assert (("write", "advert")) in heads("Can you write a job advert for a lunchtime cook")
    assert (None, "advert") in heads("Job advert for a room leader for the Baby Room")
    # a plural subject and its verb stay a clause
    assert all(head != "complain" for _, head in heads("Parents complain about the noise"))
    assert all(head != "ask" for _, head in heads("people ask about hay fever a lot"))


def test_a_name_between_the_verb_and_a_second_object_is_the_recipient():
    assert heads("Write Élodie a reply proposing Thursday, friendly, we get on well.") == [
        ("write", "reply")
    ]
    assert heads("Send the Hendersons a confirmation for Saturday.") == [(None, "confirmation")]
    assert heads("send the customers a reminder about Friday") == [(None, "reminder")]
    # "I" after an "-ing" form is no name: the clause it opens is about the reply
    assert heads("Draft a reply saying I need till January.") == [("draft", "reply")]


def test_a_part_word_after_a_noun_names_the_work_it_is_part_of():
    assert heads("help me write the vows bit for Sam and Alex") == [("write", "vow")]
    assert heads("Newsletter bit for the online shop: Christmas hampers are open") == [
        (None, "newsletter")
    ]
    # an adjective before the part word, and a part of the draft at hand after a reply
    assert all(head != "short" for _, head in heads("Short bit for the newsletter today"))
    assert after_a_reply("take the amazon bit out, never mention them") == []
