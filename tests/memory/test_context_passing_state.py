"""A passing state written days ago ("Has a bad blister on his heel") stands near every
question about how the person lives now, but answers only one about how they are: for any
other question it keeps ``PASSING_STATE_SHARE`` of its similarity, so the lasting belief
the question asks for comes first."""

from __future__ import annotations

import numpy as np
import pytest

import memory.context
from memory.context import asks_how_they_are
from tests.memory.beliefs_helpers import (
    DAY,
    NOW,
    ask_as,
    bank_topic_question,
    fake_vector,
    first_ranked,
    unit,
    use_stand_in_encoder,
    write_belief,
)

STATE = "Has a bad blister on his heel from Sunday's fell race"
JOB = "Works as a postman for Royal Mail, walking a round in Kendal"
STATE_WEIGHT, JOB_WEIGHT = 0.55, 0.45


topic_question = bank_topic_question


@pytest.fixture
def walker(agent, monkeypatch, settings):
    """ben's job (written months ago) and a blister (days ago); the question is set per
    test (the stand-in encoder reads it a little nearer the blister than the job)."""
    use_stand_in_encoder(monkeypatch, settings)
    job = write_belief(agent, JOB, category="identity", who="ben", now=NOW - 90 * DAY)
    state = write_belief(agent, STATE, category="state", who="ben", now=NOW - 3 * DAY)
    write_belief(agent, "Lives on Castle Street in Kendal", category="explicit_facts", who="ben")
    write_belief(agent, "Likes a pint of mild at the Ring o' Bells", category="likes", who="ben")
    return job.id, state.id


def first(agent, monkeypatch, question: np.ndarray, query: str) -> int:
    ask_as(monkeypatch, question)
    return first_ranked(agent, query, who="ben")


def near(*parts: tuple[float, np.ndarray]) -> np.ndarray:
    return unit(sum(w * v for w, v in parts))


def test_a_passing_state_gives_way_to_the_lasting_belief_asked_for(agent, walker, monkeypatch):
    job, state = walker
    question = near((STATE_WEIGHT, fake_vector(STATE)), (JOB_WEIGHT, fake_vector(JOB)))

    assert first(agent, monkeypatch, question, "What does he do these days?") == job


def test_without_the_passing_state_share_the_blister_comes_first(agent, walker, monkeypatch):
    job, state = walker
    monkeypatch.setattr(memory.context, "PASSING_STATE_SHARE", 1.0)
    question = near((STATE_WEIGHT, fake_vector(STATE)), (JOB_WEIGHT, fake_vector(JOB)))

    assert first(agent, monkeypatch, question, "What does he do these days?") == state


def test_a_question_read_as_how_he_is_keeps_the_passing_state_first(agent, walker, monkeypatch):
    job, state = walker
    question = near((STATE_WEIGHT, fake_vector(STATE)), (JOB_WEIGHT, fake_vector(JOB)))
    monkeypatch.setattr(memory.context, "asks_how_they_are", lambda *_: 1.0)

    assert first(agent, monkeypatch, question, "How is he doing in himself?") == state


def test_the_bank_reads_a_question_of_mood_as_asking_how_he_is(walker):
    mood, job = topic_question("current_mood_energy"), topic_question("job_occupation")
    neutral = {"state": 0.2, "identity": 1.0}
    bank = memory.context.question_bank()

    assert asks_how_they_are(mood, bank, neutral) > 0
    assert asks_how_they_are(job, bank, neutral) == 0.0
    assert asks_how_they_are(job, bank, {"state": 1.0, "identity": 0.3}) == 1.0
