"""What a request makes, worded as a reviewer keeps it: a thing the message says is absent
("no scaffold needed") is never what the work is for or about; turning a thing into
another ("turn the survey notes into a report") makes the other; a thing written up ("write
up the survey") is made into the text the other requests make of it ("survey reports")."""

from __future__ import annotations

from learning.proposers.local import find_themes, requests_of, sentence_for
from tests.learning.corpora import corpus_of, read, same_vectors


def _sentences(texts: list[str]) -> list[str]:
    corpus = corpus_of([(1, t, False) for t in texts])
    requests = [r for m in corpus.messages for r in requests_of(m)]
    themes = find_themes(requests, same_vectors(corpus), min_conversations=3, min_users=None)
    return [sentence_for(t) for t in themes]


QUOTES = [
    "Quote for the Dunstone house please: ten panels and an inverter, £6,200 inc scaffold.",
    "quote for a battery retrofit pls, it's a bungalow, no scaffold needed",
    "Quote for the Whiteley house, two storey so scaffold.",
    "quote for the Carew house: scaffold £720, total £9,900",
    "Quote for the ground mount at the farm, no scaffold obviously.",
]


def test_a_thing_the_messages_say_is_absent_is_no_topic_of_the_work():
    sentences = _sentences(QUOTES)
    assert not any("scaffold" in s for s in sentences)
    assert any(s.endswith("quotes.") for s in sentences)
    # named as there by every message, it stays the topic
    there = [*QUOTES[:1], QUOTES[2], QUOTES[3], "quote for the barn: scaffold too"]
    assert any("scaffold" in s for s in _sentences(there))


def test_a_thing_named_without_or_as_not_needed_is_no_topic_either():
    sentences = _sentences(
        [
            "Quote for the Dunstone house please, with scaffold on both sides.",
            "quote for a battery retrofit pls, scaffold not needed",
            "Quote for the Whiteley house, two storey so scaffold.",
            "quote for the Carew bungalow without a scaffold",
            "Quote for the ground mount at the farm, no scaffold obviously.",
        ]
    )
    assert not any("scaffold" in s for s in sentences)


def test_turning_a_thing_into_another_makes_the_other():
    assert read("Can you turn the survey notes into a proper survey report for the job?") == [
        (None, "report", ["proper", "survey"])
    ]
    # a bare thing made is of the kind of what it is made from
    assert read("turn my survey notes into a report please") == [(None, "report", ["survey"])]


def test_turn_into_after_a_label_makes_the_label_into_the_other():
    assert read("survey notes from this morning, turn into report: 'slate roof, 2 faces'") == [
        (None, "report", ["survey"])
    ]


def test_a_thing_written_up_is_made_into_the_text_the_others_make_of_it():
    sentences = _sentences(
        [
            "Can you turn the survey notes into a proper survey report for the job?",
            "survey notes from this morning, turn into report: 'slate roof, 2 faces'",
            "write up the survey for the Exminster job, notes: 'tiles ok, 2 storey'",
            "another survey, notes: 'bungalow, hipped roof'. write it up",
        ]
    )
    assert "Writes survey reports." in sentences
    assert "Writes the surveys." not in sentences
