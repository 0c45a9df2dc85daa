"""A yes/no question put on what someone else does ("Does Joon-ho row in a pilot gig?")
is answered by the person's own statement of the same kind (he curls), which shares no
word with the question: the question read as a statement ("row in a pilot gig") is near
the question bank's example statements of a sport, and the person's statements the bank
reads as a sport rank up. Only the person's statements and the bank are read."""

from __future__ import annotations

import numpy as np
import pytest

import memory.context
from memory.context import _name_read, kind_lift, question_bank, read_bank, whether_statement
from tests.memory.beliefs_helpers import (
    fake_vector,
    first_ranked,
    unit,
    use_stand_in_encoder,
    write_belief,
)

CURLING = "Curls with a team at the Inverness ice rink on Wednesday evenings"
CHOIR = "Sings bass in the cathedral choir on Thursday evenings"
STATED = "row in a pilot gig"


def sports_example(k: int) -> str:
    topic = next(t for t in read_bank() if t["topic"] == "sports_exercise")
    return _name_read(topic["statements"][k], question=False)


@pytest.fixture
def bank_model(monkeypatch, settings):
    """The stand-in encoder, which reads the curling statement as one of the bank's sport
    statements and the question read as a statement as another, and relates nothing
    else."""
    return use_stand_in_encoder(
        monkeypatch, settings, same_as={CURLING: sports_example(0), STATED: sports_example(1)}
    )


@pytest.fixture
def joonho(agent, bank_model, monkeypatch):
    """Joon-ho's sport and his choir; the question as asked is nearer the choir."""
    curling = write_belief(agent, CURLING, category="interests", who="joonho")
    choir = write_belief(agent, CHOIR, category="interests", who="joonho")
    write_belief(agent, "Lives in a flat above his shop", category="explicit_facts", who="joonho")
    question = unit(fake_vector(CHOIR) + 0.8 * fake_vector(sports_example(0)))
    monkeypatch.setattr(
        memory.context,
        "_query_vector",
        lambda text: fake_vector(sports_example(1)) if text == STATED else question,
    )
    return curling.id, choir.id


def test_a_yes_no_question_on_another_kind_of_life_ranks_the_persons_own_of_its_kind(agent, joonho):
    curling, _ = joonho

    assert first_ranked(agent, "Does he row in a pilot gig?", who="joonho") == curling


def test_without_the_kind_lift_the_statement_nearer_the_question_answers(
    agent, joonho, monkeypatch
):
    _, choir = joonho
    monkeypatch.setattr(memory.context, "KIND_SHARE", 0.0)

    assert first_ranked(agent, "Does he row in a pilot gig?", who="joonho") == choir


def test_a_yes_no_question_reads_as_the_persons_statement():
    assert whether_statement("Does the person tune pianos?") == "tune pianos"
    assert whether_statement("Is she afraid of heights?") == "is afraid of heights"
    assert whether_statement("Does he have a cat?") == "has a cat"
    assert whether_statement("Are they learning Welsh?") == "is learning Welsh"


def test_a_wh_question_an_offer_or_a_plan_reads_as_no_statement():
    assert whether_statement("What sport does he do?") == ""
    assert whether_statement("Can I take her out for a steak?") == ""
    assert whether_statement("Is a satay all right to bring?") == ""
    assert whether_statement("If she comes round, does it matter what I cook?") == ""


def test_a_statement_near_no_bank_statement_lifts_nothing(bank_model):
    bank = question_bank()
    votes = np.full((2, 6), np.nan, dtype=np.float32)

    assert kind_lift(fake_vector("How many moons has Jupiter?"), bank, votes) is None
