"""A question led by "who" ("Who signs off her training?") asks for a person: of the
person's statements, those about the people in their life answer it, though the encoder
reads the question nearer what it is about (the training) than the one who does it."""

from __future__ import annotations

import pytest

import memory.context
from memory.context import asks_for_a_person
from tests.memory.beliefs_helpers import (
    first_ranked,
    two_beliefs_asked_between,
)

COURSE = "Is training as a surveyor on a day-release course at the college"
MENTOR = "Her site manager Pat Quinlan checks her logbook every Friday"


@pytest.fixture
def trainee(agent, monkeypatch, settings):
    """Her course and the one who checks her logbook; every question reads (to the
    stand-in encoder) a little nearer the course."""
    return two_beliefs_asked_between(
        agent,
        monkeypatch,
        settings,
        who="dee",
        first=(COURSE, "goals"),
        second=(MENTOR, "interpersonal"),
        lean=(0.6, 0.5),
        home="Lives in a terrace in Ormeau in Belfast",
    )


def first(agent, query):
    return first_ranked(agent, query, who="dee")


def test_a_question_for_a_person_ranks_the_people_in_her_life_first(agent, trainee):
    course, mentor = trainee

    assert first(agent, "Who signs off Dee's training?") == mentor
    assert first(agent, "whom does she answer to on her course?") == mentor


def test_without_the_share_what_the_question_is_about_comes_first(agent, trainee, monkeypatch):
    course, mentor = trainee
    monkeypatch.setattr(memory.context, "WHO_PERSON_SHARE", 0.0)

    assert first(agent, "Who signs off Dee's training?") == course


def test_a_question_for_no_person_is_not_turned_to_her_people(agent, trainee):
    course, mentor = trainee

    assert first(agent, "What is Dee training to be?") == course


@pytest.mark.parametrize(
    "question",
    ["Who is he seeing these days?", "who looks after the dog?", "  Whom does she call first?"],
)
def test_a_question_led_by_who_asks_for_a_person(question):
    assert asks_for_a_person(question)


@pytest.mark.parametrize(
    "question",
    [
        "Whose car is she driving?",
        "What does the person who lives next door do?",
        "Does she know who won?",
        "Whoever is on call, when does the shift end?",
    ],
)
def test_a_question_not_led_by_who_asks_for_no_person(question):
    assert not asks_for_a_person(question)
