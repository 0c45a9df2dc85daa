"""A question the question bank reads as asking who the person is or who is in their life
("How does she earn a crust these days?": near the bank's job questions) ranks up the
person's statements of that kind (``identity``, ``interpersonal``) as far as their meaning
agrees, even where the bank reads the statement itself as about something else (a piano
tuner's job as music)."""

from __future__ import annotations

import numpy as np
import pytest

import memory.context
from memory.context import CATEGORY_HINTS, bank_categories, question_bank
from tests.memory.beliefs_helpers import (
    ask_as,
    bank_topic_question,
    fake_vector,
    first_ranked,
    unit,
    use_stand_in_encoder,
    write_belief,
)

JOB = "Tunes and repairs pianos for the Bristol Piano Company"
NOTEBOOK = "Keeps a notebook on every piano she tunes"
WJ, WN = 0.5, 0.55


def topic_question(name: str = "job_occupation") -> np.ndarray:
    return bank_topic_question(name)


@pytest.fixture
def bank_model(monkeypatch, settings):
    return use_stand_in_encoder(monkeypatch, settings)


@pytest.fixture
def tuner(agent, bank_model, monkeypatch):
    """Shiv's job (filed as who she is) and a habit of her work; the question reads (to
    the stand-in encoder) as the bank's job question, a little nearer the habit."""
    # the category prior's everyday reading would lift the job as well (isolated here)
    monkeypatch.setattr(memory.context, "CATEGORY_BANK_SHARE", 0.0)
    job = write_belief(agent, JOB, category="identity", who="shiv")
    notebook = write_belief(agent, NOTEBOOK, category="behavior_patterns", who="shiv")
    write_belief(
        agent, "Lives off the Wells Road in Totterdown", category="explicit_facts", who="shiv"
    )
    ask_as(monkeypatch, unit(topic_question() + WJ * fake_vector(JOB) + WN * fake_vector(NOTEBOOK)))
    return job.id, notebook.id


def first(agent, query):
    return first_ranked(agent, query, who="shiv")


def test_an_everyday_job_question_ranks_what_the_person_does_first(agent, tuner):
    job, _ = tuner

    assert first(agent, "How does Shiv earn a crust these days?") == job


def test_without_the_bank_categories_the_nearer_habit_comes_first(agent, tuner, monkeypatch):
    _, notebook = tuner
    monkeypatch.setattr(memory.context, "BANK_CATEGORY_SHARE", 0.0)

    assert first(agent, "How does Shiv earn a crust these days?") == notebook


def test_a_question_read_as_a_job_asks_for_who_the_person_is_and_nothing_else(bank_model):
    kinds = bank_categories(topic_question(), question_bank())

    assert kinds is not None
    names = list(CATEGORY_HINTS)
    assert kinds[names.index("identity")] > 0
    assert np.count_nonzero(kinds) == 1


def test_a_question_of_a_kind_hosts_file_differently_lifts_no_category(bank_model):
    # the bank files a commute under habit; hosts file it as a like, a fact or a habit
    kinds = bank_categories(topic_question("commute"), question_bank())

    assert kinds is not None and not kinds.any()


def test_a_question_near_no_bank_question_lifts_no_category(bank_model):
    assert bank_categories(fake_vector("How many moons has Jupiter?"), question_bank()) is None
