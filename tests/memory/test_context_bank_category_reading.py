"""The category prior read in everyday words: a question asked as people ask about a kind
of statement ("What's the best way to get hold of her?", near the bank's questions on how
to reach someone) leans to the category the bank files that kind under (``style_notes``),
though the one-line description of the category ("how to write to the person: format,
tone and length of answers") is farther from it than another's."""

from __future__ import annotations

import numpy as np
import pytest

import memory.context
from memory.context import CATEGORY_HINTS, bank_category_reading, question_bank
from tests.memory.beliefs_helpers import (
    ask_as,
    bank_topic_question,
    fake_vector,
    first_ranked,
    unit,
    write_belief,
)

CALL = "Prefers a phone call after the evening milking, at around eight"
WALK = "Walks out to the rocks to watch the sunset most evenings"


def test_a_question_asked_as_the_bank_asks_about_a_kind_reads_its_category(stand_in_bank):
    reading = bank_category_reading(bank_topic_question("communication_style"), question_bank())

    assert reading is not None
    assert list(CATEGORY_HINTS)[int(np.argmax(reading))] == "style_notes"


def test_how_to_reach_the_person_finds_how_they_like_to_be_reached(agent, reachable):
    call, _ = reachable

    assert first_ranked(agent, "What's the best way to get hold of Nell?", who="nell") == call


def test_without_the_bank_reading_the_habit_nearer_the_words_comes_first(
    agent, reachable, monkeypatch
):
    _, walk = reachable
    monkeypatch.setattr(memory.context, "CATEGORY_BANK_SHARE", 0.0)

    assert first_ranked(agent, "What's the best way to get hold of Nell?", who="nell") == walk


@pytest.fixture
def reachable(agent, stand_in_bank, monkeypatch):
    """Nell's call habit and her evening walk; the question reads (to the stand-in encoder)
    as the bank's questions on how to reach someone, and as near the walk as the call."""
    call = write_belief(agent, CALL, category="style_notes", who="nell")
    walk = write_belief(agent, WALK, category="behavior_patterns", who="nell")
    write_belief(
        agent, "Lives in a blue house on Pelham Street", category="explicit_facts", who="nell"
    )
    question = bank_topic_question("communication_style") + 0.5 * fake_vector(CALL)
    ask_as(monkeypatch, unit(question + 0.5 * fake_vector(WALK)))
    return call.id, walk.id
