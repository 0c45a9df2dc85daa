"""An offer or a plan put to the person ("Shall I bring a bottle of red?", "Could he give
me a hand with the wardrobe?") is answered by the limit of theirs that bears on it (no
alcohol, a weak heart), which it does not name and which reads far from it next to what
it names; among the person's own limits, though, that one is the nearest."""

from __future__ import annotations

import numpy as np
import pytest

import memory.context
from memory.context import nearest_limit_lift, nearest_limits, offer_question
from tests.memory.beliefs_helpers import (
    ask_as,
    fake_vector,
    first_ranked,
    ranked,
    unit,
    use_stand_in_encoder,
    write_belief,
)

LIKE = "Loves a Sunday roast at the Fox and Hounds with his brother"
NEAREST = "Has a severe peanut allergy and carries an EpiPen"
OTHER = "Does not drive after dark since his cataract operation"
FAR = "Cannot swim and stays out of boats"


@pytest.fixture
def guest(agent, monkeypatch, settings):
    """A like and three limits of ben's; the question reads (to the stand-in encoder)
    nearest the like, and among his limits nearest the allergy, though not by much."""
    use_stand_in_encoder(monkeypatch, settings)
    like = write_belief(agent, LIKE, category="likes", who="ben")
    nearest = write_belief(agent, NEAREST, category="constraints", who="ben")
    write_belief(agent, OTHER, category="constraints", who="ben")
    write_belief(agent, FAR, category="constraints", who="ben")
    write_belief(agent, "Lives on Gloucester Road in Bristol", category="explicit_facts", who="ben")
    ask_as(
        monkeypatch,
        unit(0.6 * fake_vector(LIKE) + 0.3 * fake_vector(NEAREST) + 0.1 * fake_vector(OTHER)),
    )
    return like.id, nearest.id


def first(agent, query):
    return first_ranked(agent, query, who="ben")


def test_an_offer_ranks_the_nearest_of_his_limits_first(agent, guest):
    like, nearest = guest

    assert first(agent, "Would a bag of satay crisps be a nice little gift for him?") == nearest
    assert first(agent, "Shall I bring a satay when he comes round?") == nearest


def test_without_the_nearest_limit_share_what_he_likes_comes_first(agent, guest, monkeypatch):
    like, nearest = guest
    monkeypatch.setattr(memory.context, "NEAREST_LIMIT_SHARE", 0.0)

    assert first(agent, "Would a bag of satay crisps be a nice little gift for him?") == like


def test_a_question_that_puts_no_offer_is_left_to_its_meaning(agent, guest):
    like, nearest = guest

    assert first(agent, "What does he like to eat on a Sunday?") == like


def test_the_nearest_limit_gains_fully_and_the_farthest_nothing():
    cosine = np.array([0.30, 0.10, 0.20, 0.50])
    limits = np.array([True, True, True, False])

    lift = nearest_limits(cosine, limits)

    assert lift[0] == pytest.approx(1.0)
    assert lift[1] == 0.0
    assert 0.0 < lift[2] < 0.5  # halfway between, raised to a power above 1
    assert lift[3] == 0.0  # not a limit


def test_a_single_limit_is_not_singled_out():
    assert not nearest_limits(np.array([0.3, 0.5]), np.array([True, False])).any()


def test_a_question_read_most_as_how_to_approach_him_gains_nothing():
    cosine = np.array([0.30, 0.10, 0.20])
    limits = np.array([True, True, True])
    style_first = {"style_notes": 1.0, "constraints": 0.2, "likes": 0.4}
    limits_first = {"style_notes": 0.3, "constraints": 1.0, "likes": 0.4}

    assert (
        nearest_limit_lift("Should I ring him or drop him a line?", cosine, limits, style_first)
        is None
    )
    lift = nearest_limit_lift("Shall I bring a satay?", cosine, limits, limits_first)
    assert lift is not None and lift.argmax() == 0


def test_a_question_not_led_as_an_offer_gains_nothing():
    cosine = np.array([0.30, 0.10, 0.20])
    limits = np.array([True, True, True])
    prior = {"style_notes": 0.3, "constraints": 1.0, "likes": 0.4}

    assert nearest_limit_lift("What does he like to eat?", cosine, limits, prior) is None


def test_an_offer_not_led_by_a_modal_ranks_the_nearest_of_his_limits_first(agent, guest):
    like, nearest = guest

    assert first(agent, "Is a satay all right to bring when he comes round?") == nearest
    assert first(agent, "If he comes over, can we get a satay in?") == nearest
    assert first(agent, "If I'm making him a sandwich, does it matter what I put in?") == nearest


@pytest.mark.parametrize(
    "question",
    [
        "Is a satay all right to bring when she comes round for dinner?",
        "Is it a problem for her if lunch gets pushed back a couple of hours?",
        "If I'm making her a sandwich, does it matter what bread I use?",
        "If she comes round on Sunday, can we just have dinner whenever the roast is ready?",
        "The GP wants to put him on amoxicillin, is that all right?",
        "Would she mind if I brought the dog?",
        "Can I get him a pint?",
        "Shall I bring a bottle of red?",
    ],
)
def test_a_question_whether_a_plan_is_all_right_puts_an_offer(question):
    assert offer_question(question)


@pytest.mark.parametrize(
    "question",
    [
        "What skin problem does she have?",
        "If I text him at eight, when will he see it?",
        "Is Bernard married?",
        "Does she have a problem with her knee?",
        "What does he like to eat?",
    ],
)
def test_a_question_asking_what_or_whether_a_fact_holds_puts_no_offer(question):
    assert not offer_question(question)


def test_an_offer_ranks_the_limit_nearest_its_plan_above_the_others(agent, guest, monkeypatch):
    """The whole question (with the frame of any offer, "Could he give us …") reads nearer
    the allergy among his limits; its plan's own words ("give lift airport") are nearer
    the limit that rules the plan out (no driving after dark)."""
    question = "Could he give us a lift to the airport?"
    bare = memory.context._content_phrase(question)
    whole = 0.3 * fake_vector(LIKE) + 0.5 * fake_vector(NEAREST)
    plan = 0.3 * fake_vector(LIKE) + 0.4 * fake_vector(OTHER)

    def vector(text):
        return unit(plan if text == bare else whole)

    monkeypatch.setattr(memory.context, "_query_vector", vector)

    def order():
        statements = [item.statement for item in ranked(agent, question, who="ben")]
        return statements.index(OTHER) < statements.index(NEAREST)

    assert bare and order()
    monkeypatch.setattr(memory.context, "LIMIT_PLAN_SHARE", 0.0)
    assert not order()


@pytest.mark.parametrize(
    "question",
    [
        "Is Des coeliac? I want to bake him a cake",
        "Is she free on Friday, we'd like to take her sailing",
        "I'm going to cook for him, is he vegetarian?",
        "What does he drink? Can I get him a pint?",
    ],
)
def test_a_plan_told_in_a_clause_of_its_own_puts_an_offer(question):
    assert offer_question(question)


def test_a_statement_that_tells_no_plan_puts_no_offer():
    assert not offer_question("What does she like? I think she likes tea")
    assert not offer_question("Where does he live? I mean, which town?")


def test_a_plan_after_a_spaced_dash_puts_an_offer(monkeypatch):
    question = "I run a bakery - would a sourdough loaf be a nice present for her?"

    assert offer_question(question)
    monkeypatch.setattr(memory.context, "DASH_PARTS_CLAUSES", False)
    assert not offer_question(question)


def test_an_offer_near_getting_in_touch_still_ranks_the_nearest_of_his_limits_first(
    agent, guest, monkeypatch
):
    """An offer like "Would he come up the mountain with us?" reads near getting in
    touch (the second description of style notes), not how to write to him: his limits
    still answer it."""
    like, nearest = guest
    touch = fake_vector(memory.context.CATEGORY_SECOND_HINTS["style_notes"])
    ask_as(
        monkeypatch,
        unit(
            0.6 * fake_vector(LIKE)
            + 0.3 * fake_vector(NEAREST)
            + 0.1 * fake_vector(OTHER)
            + 0.9 * touch
        ),
    )
    offer = "Would he come up the mountain with us at New Year?"

    assert first(agent, offer) == nearest
    monkeypatch.setattr(memory.context, "LIMIT_APPROACH_FIRST_LINE", False)
    assert first(agent, offer) == like
