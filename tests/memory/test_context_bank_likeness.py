"""Among the person's statements of the kind a question asks for (``identity``,
``interpersonal``), the one most like the question bank's own examples of the asked topic
ranks up: "Who's he seeing?" asks for a partner, and of his people the statement most
like the bank's partner statements answers, though his son's is nearer the question."""

from __future__ import annotations

import numpy as np
import pytest

import memory.context
from memory.context import _name_read, likeness_lift, question_bank, read_bank, topic_likeness
from tests.memory.beliefs_helpers import (
    ask_as,
    bank_topic_question,
    fake_vector,
    first_ranked,
    unit,
    use_stand_in_encoder,
    write_belief,
)

PARTNER = "His partner Callum is a veterinary nurse in Harrogate"
SON = "His son Kit is nine and in Year 5 at the village school"
SON_WEIGHT, PARTNER_WEIGHT = 0.4, 0.18


def _topic(name: str) -> dict:
    return next(t for t in read_bank() if t["topic"] == name)


topic_question = bank_topic_question


def partner_example() -> str:
    return _name_read(_topic("partner_relationship")["statements"][0], question=False)


@pytest.fixture
def bank_model(monkeypatch, settings):
    """The stand-in encoder, which reads the partner statement as one of the bank's
    partner examples and relates nothing else; the bank's reading of a statement by its
    three nearest examples of any topic (``BANK_TOPIC_SHARE``) is off, and so is the lift
    of a question for a person (``WHO_PERSON_SHARE``: both are people in his life, and it
    lifts the nearer in meaning more), so that only the likeness to the asked topic's
    examples tells the partner from the son."""
    model = use_stand_in_encoder(monkeypatch, settings, same_as={PARTNER: partner_example()})
    monkeypatch.setattr(memory.context, "BANK_TOPIC_SHARE", 0.0)
    monkeypatch.setattr(memory.context, "WHO_PERSON_SHARE", 0.0)
    return model


@pytest.fixture
def people(agent, bank_model, monkeypatch):
    """Ken's partner and son (both filed as people in his life); the question reads as
    the bank's partner questions, and a little like the son's statement."""
    partner = write_belief(agent, PARTNER, category="interpersonal", who="ken")
    son = write_belief(agent, SON, category="interpersonal", who="ken")
    write_belief(
        agent, "Rents a stone cottage by the river Nidd", category="explicit_facts", who="ken"
    )
    question = unit(
        topic_question("partner_relationship")
        + SON_WEIGHT * fake_vector(SON)
        + PARTNER_WEIGHT * fake_vector(partner_example())
    )
    ask_as(monkeypatch, question)
    return partner.id, son.id


def first(agent, query):
    return first_ranked(agent, query, who="ken")


def test_the_person_most_like_the_banks_partners_answers_a_partner_question(agent, people):
    partner, _ = people

    assert first(agent, "Who's he seeing?") == partner


def test_without_the_likeness_the_nearer_son_answers(agent, people, monkeypatch):
    _, son = people
    monkeypatch.setattr(memory.context, "BANK_LIKENESS_SHARE", 0.0)

    assert first(agent, "Who's he seeing?") == son


def test_a_statement_is_as_like_a_topic_as_its_nearest_example(bank_model):
    bank = question_bank()
    example = bank.statements[3]
    likeness = topic_likeness(example[None, :], bank)

    assert likeness.shape == (1, len(bank.answers))
    assert likeness[0, bank.statement_topic[3]] == pytest.approx(1.0, abs=1e-5)


def test_a_question_of_a_kind_outside_who_the_person_is_lifts_nothing(bank_model):
    bank = question_bank()
    likeness = np.eye(2, len(bank.answers), dtype=np.float32)

    lift = likeness_lift(topic_question("commute"), bank, likeness, np.ones(2, dtype=bool))

    assert lift is None


def test_a_question_near_no_bank_question_lifts_nothing(bank_model):
    bank = question_bank()
    likeness = np.eye(2, len(bank.answers), dtype=np.float32)
    question = fake_vector("How many moons has Jupiter?")

    assert likeness_lift(question, bank, likeness, np.ones(2, dtype=bool)) is None
