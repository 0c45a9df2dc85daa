"""Requests whose grammar hid the work asked for: a word the lexicon gives only as a verb
after a singular noun ends the noun phrase ("Job advert please", "a job advert for a
cook": a singular noun is never the subject of a verb in its base form); a name or
people between the verb and "a …" are the recipient ("Write Élodie a reply"), and a name
after an "-ing" form is its object ("a reply proposing Thursday"). A subject and its
verb stay what they were. (Parts of a piece of work, "the vows bit", are read by
``Request.wholes``: see ``test_parts_of_a_work_count_as_the_work``.)"""

from __future__ import annotations

from tests.learning.corpora import read


def heads(text: str) -> list[tuple[str | None, str]]:
    return [(verb, head) for verb, head, _ in read(text)]


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
