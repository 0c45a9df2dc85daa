"""A question asking whether something is possible or acceptable for the person ("Can I
get him a pint?") is answered by what they cannot or will not do (a pledge, a diet, a
fear), which it does not name, more than by what it names and they like."""

from __future__ import annotations

import pytest

import memory.context
from memory.context import advice_question, modal_question
from tests.memory.beliefs_helpers import (
    first_ranked,
    two_beliefs_asked_between,
)

LIKE = "Loves real ale from the Bristol Beer Factory"
LIMIT = "Has signed the pledge and never touches alcohol"


@pytest.fixture
def drinker(agent, monkeypatch, settings):
    """A like and a limit of ben's; every question reads (to the stand-in encoder) a
    little nearer the like than the limit."""
    return two_beliefs_asked_between(
        agent,
        monkeypatch,
        settings,
        who="ben",
        first=(LIKE, "likes"),
        second=(LIMIT, "constraints"),
        lean=(0.6, 0.5),
        home="Lives on Gloucester Road in Bristol",
    )


def first(agent, query):
    return first_ranked(agent, query, who="ben")


def test_a_question_whether_he_would_accept_something_ranks_his_limits_first(agent, drinker):
    like, limit = drinker

    assert first(agent, "Can I get him a pint when we go out?") == limit
    assert first(agent, "Would he come for a drink after work?") == limit


def test_without_the_limits_share_what_he_likes_comes_first(agent, drinker, monkeypatch):
    like, limit = drinker
    monkeypatch.setattr(memory.context, "LIMITS_SHARE", 0.0)

    assert first(agent, "Can I get him a pint when we go out?") == like


def test_a_question_of_what_he_likes_is_not_turned_to_his_limits(agent, drinker):
    like, limit = drinker

    assert first(agent, "What does he like to drink?") == like


def test_a_question_whether_to_offer_him_something_ranks_his_limits_first(agent, drinker):
    like, limit = drinker

    assert first(agent, "Shall I bring a nice bottle of red when I go round?") == limit
    assert first(agent, "Should I order for him or let him choose?") == limit


def test_without_the_advice_share_an_offer_finds_what_he_likes(agent, drinker, monkeypatch):
    like, limit = drinker
    monkeypatch.setattr(memory.context, "ADVICE_SHARE", 0.0)

    assert first(agent, "Shall I bring a nice bottle of red when I go round?") == like


def test_a_question_of_what_to_do_not_led_by_should_is_left_to_its_meaning(agent, drinker):
    like, limit = drinker

    assert first(agent, "What should I order for him?") == like


@pytest.mark.parametrize(
    ("question", "led"),
    [
        ("Can I take her out for a steak?", True),
        ("Would she be up for helping me clear the gutters?", True),
        ("could he give me a hand with the wardrobe?", True),
        ("Won't she mind if I bring the dog?", True),
        ("  Can't he eat gluten at all?", True),
        ("Should I ring her or text her?", False),
        ("What would she like for her birthday?", False),
        ("Is she vegetarian?", False),
        ("Cancel my order", False),
    ],
)
def test_a_question_is_read_as_modal_led_from_its_first_word(question, led):
    assert modal_question(question) is led


@pytest.mark.parametrize(
    ("question", "led"),
    [
        ("Shall I bring a nice bottle of red?", True),
        ("Should I ring her or just drop her a line?", True),
        ("  should we book the table for eight?", True),
        ("What should I get her for her birthday?", False),
        ("How should I tell her the plan has a flaw?", False),
        ("Can I get him a pint?", False),
        ("Shallots or onions?", False),
    ],
)
def test_a_question_is_read_as_asking_for_advice_from_its_first_word(question, led):
    assert advice_question(question) is led
