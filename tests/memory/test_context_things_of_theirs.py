"""A question that puts a thing of the person's in question by a possessive ("What's Rimas's
hawk called?", "Could she bring her van to help me move?") asks about that thing: not
about what the person is called, and, for an offer, first whether they have it."""

from __future__ import annotations

import pytest

import memory.context
from memory.subjects import asks_the_name_of_a_thing_of_theirs, possessed_things
from tests.memory.beliefs_helpers import (
    DAY,
    NOW,
    ask_as,
    fake_vector,
    first_ranked,
    two_beliefs_asked_between,
    unit,
    use_stand_in_encoder,
    write_belief,
)

NAME = "His name is Rimantas Kairys; everyone in Britain calls him Rimas"
CAT = "Has an old ginger cat, Bulve, who sleeps on the boiler"


@pytest.fixture
def rimas(agent, monkeypatch, settings):
    """Rimas's name statement and his cat; every question reads nearer the name."""
    return two_beliefs_asked_between(
        agent,
        monkeypatch,
        settings,
        who="rimas",
        first=(NAME, "identity"),
        second=(CAT, "explicit_facts"),
        lean=(0.65, 0.35),
        home="Lives in Bedminster in south Bristol",
    )


def test_a_question_asking_what_a_thing_of_theirs_is_called_is_not_answered_by_their_name(
    agent, rimas
):
    name, cat = rimas

    assert first_ranked(agent, "What's Rimas's hawk called?", who="rimas") == cat
    assert first_ranked(agent, "What's the name of his hawk?", who="rimas") == cat


def test_without_the_rule_the_name_statement_answers_what_his_hawk_is_called(
    agent, rimas, monkeypatch
):
    name, cat = rimas
    monkeypatch.setattr(memory.context, "OWN_NAME_SHARE", 0.0)

    assert first_ranked(agent, "What's Rimas's hawk called?", who="rimas") == name


def test_a_question_about_what_the_person_is_called_keeps_the_name_statement(agent, rimas):
    name, cat = rimas

    assert first_ranked(agent, "What do Rimas's friends call him?", who="rimas") == name
    assert first_ranked(agent, "What's Rimas's nickname?", who="rimas") == name


@pytest.mark.parametrize(
    "question",
    [
        "What's the person's hawk called?",
        "What's the name of his cat?",
        "What did the person name her two goats?",
        "What are the person's zebra finches called?",
    ],
)
def test_a_possessed_thing_and_a_naming_word_ask_the_name_of_a_thing_of_theirs(question):
    assert asks_the_name_of_a_thing_of_theirs(question)


@pytest.mark.parametrize(
    "question",
    [
        "What's the person's nickname?",
        "What's his full name?",
        "What do his friends call him?",
        "Does everyone call her Mena?",
        "What is the person called?",
        "What does the person's hawk eat?",
    ],
)
def test_the_persons_own_name_or_no_naming_word_asks_no_name_of_a_thing(question):
    assert not asks_the_name_of_a_thing_of_theirs(question)


def test_the_possessed_phrase_ends_before_a_function_word_or_a_naming_verb():
    assert possessed_things("Could the person bring her farrier's van to help me?") == [
        ["farrier's", "van"]
    ]
    assert possessed_things("What's the person's hawk called?") == [["hawk"]]
    assert possessed_things("Can I take her out for a steak?") == []


LIMIT = "Must weigh the hawk every morning before she flies"
VAN = "Drove a white Ford Transit van with a gas forge in the back"
CAR = "Drives a grey Skoda estate with a hawk box in the boot"


@pytest.fixture
def dagny(agent, monkeypatch, settings):
    """Dagny's limit, her van (ended) and the car that took over from it; every question
    reads nearest the limit. The stand-in encoder's descriptions are random: the second one
    of limits (``CATEGORY_SECOND_HINTS``, of health) and the bank's everyday reading of the
    categories (``CATEGORY_BANK_SHARE``) are left out, their random cosines with the
    question would only move the limits' prior."""
    use_stand_in_encoder(monkeypatch, settings)
    monkeypatch.setattr(memory.context, "CATEGORY_SECOND_HINTS", {})
    monkeypatch.setattr(memory.context, "CATEGORY_BANK_SHARE", 0.0)
    limit = write_belief(agent, LIMIT, category="constraints", who="dagny")
    write_belief(
        agent, "Cannot lift anything heavy with her left wrist", category="constraints", who="dagny"
    )
    write_belief(
        agent,
        VAN,
        category="explicit_facts",
        who="dagny",
        valid_until=NOW - 66 * DAY,
        now=NOW - 700 * DAY,
    )
    car = write_belief(
        agent,
        CAR,
        category="explicit_facts",
        who="dagny",
        valid_from=NOW - 62 * DAY,
        now=NOW - 58 * DAY,
    )
    ask_as(
        monkeypatch,
        unit(0.45 * fake_vector(LIMIT) + 0.4 * fake_vector(VAN) + 0.15 * fake_vector(CAR)),
    )
    return limit.id, car.id


def test_an_offer_resting_on_a_thing_of_theirs_ranks_what_took_its_place_over_their_limits(
    agent, dagny
):
    limit, car = dagny

    assert first_ranked(agent, "Could Dagny bring her van to help me move?", who="dagny") == car


def test_without_the_rule_her_limits_come_before_the_car_that_took_over_from_the_van(
    agent, dagny, monkeypatch
):
    limit, car = dagny
    monkeypatch.setattr(memory.context, "OFFERED_THING", False)

    assert first_ranked(agent, "Could Dagny bring her van to help me move?", who="dagny") == limit


def test_a_thing_of_theirs_in_a_plan_the_asker_carries_out_is_not_lifted(agent, dagny):
    limit, car = dagny

    assert first_ranked(agent, "Could I get a new tyre for her van?", who="dagny") == limit
    assert (
        first_ranked(agent, "Would she mind if I parked in her van's spot?", who="dagny") == limit
    )
