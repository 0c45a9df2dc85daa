"""Among the person's statements of the kind a question asks for (``identity``,
``interpersonal``), the one most like the question bank's own examples of the asked topic
ranks up: "Who's he seeing?" asks for a partner, and of his people the statement most
like the bank's partner statements answers, though his son's is nearer the question."""

from __future__ import annotations

import numpy as np
import pytest

import memory.context
import safety.encoder
from memory.context import (
    _name_read,
    build_context,
    likeness_lift,
    question_bank,
    read_bank,
    topic_likeness,
)
from tests.memory.beliefs_helpers import NOW, FakeModel, fake_vector, write_belief

PARTNER = "His partner Callum is a veterinary nurse in Harrogate"
SON = "His son Kit is nine and in Year 5 at the village school"
SON_WEIGHT, PARTNER_WEIGHT = 0.4, 0.18


def _topic(name: str) -> dict:
    return next(t for t in read_bank() if t["topic"] == name)


def topic_question(name: str) -> np.ndarray:
    """A question as near three of the bank's questions of a topic as they are to each
    other (the stand-in encoder relates nothing else)."""
    texts = [_name_read(q, question=True) for q in _topic(name)["questions"][:3]]
    mixed = sum(fake_vector(t) for t in texts)
    return (mixed / np.linalg.norm(mixed)).astype(np.float32)


def partner_example() -> str:
    return _name_read(_topic("partner_relationship")["statements"][0], question=False)


def unit(vector: np.ndarray) -> np.ndarray:
    return (vector / np.linalg.norm(vector)).astype(np.float32)


@pytest.fixture
def bank_model(monkeypatch, settings):
    """The stand-in encoder, which reads the partner statement as one of the bank's
    partner examples and relates nothing else; the bank's reading of a statement by its
    three nearest examples of any topic (``BANK_TOPIC_SHARE``) is off, so that only the
    likeness to the asked topic's examples tells the partner from the son."""
    settings.PERSONA_INJECTION_SEMANTIC = False
    model = FakeModel(same_as={PARTNER: partner_example()})
    monkeypatch.setattr(safety.encoder, "get_model", lambda: model)
    monkeypatch.setattr(safety.encoder, "_model", model)
    monkeypatch.setattr(memory.context, "_bank", None)
    monkeypatch.setattr(memory.context, "BANK_TOPIC_SHARE", 0.0)
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
    monkeypatch.setattr(memory.context, "_query_vector", lambda text: question)
    return partner.id, son.id


def first(agent, query):
    pack = build_context(
        agent=agent, principal_external_id="ken", query=query, now=NOW, use_embeddings=True
    )
    return pack.items[0].id


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
