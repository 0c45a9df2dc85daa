"""A category read by a second description: a question about an illness, an injury or an
allergy ("Is he allergic to penicillin?") leans to the person's limits as much as one about
their budget or diet, though the one-line description of limits names neither."""

from __future__ import annotations

import memory.context
from memory.context import CATEGORY_SECOND_HINTS, _category_prior
from tests.memory.beliefs_helpers import (
    ask_as,
    fake_vector,
    first_ranked,
    unit,
    use_stand_in_encoder,
    write_belief,
)

HEALTH = CATEGORY_SECOND_HINTS["constraints"]
LIMIT = "Has a bad knee from rugby and cannot manage stairs"
DISLIKE = "Will not eat anything with mushrooms in it"


def test_a_question_near_the_second_description_of_limits_leans_to_limits(monkeypatch, settings):
    use_stand_in_encoder(monkeypatch, settings)

    prior, _ = _category_prior(fake_vector(HEALTH))

    assert prior["constraints"] == 1.0


def test_without_a_second_description_it_leans_elsewhere(monkeypatch, settings):
    use_stand_in_encoder(monkeypatch, settings)
    monkeypatch.setattr(memory.context, "CATEGORY_SECOND_HINTS", {})

    prior, _ = _category_prior(fake_vector(HEALTH))

    assert prior["constraints"] < 1.0


def test_a_question_about_a_health_condition_finds_the_limit_of_the_body(
    agent, monkeypatch, settings
):
    use_stand_in_encoder(monkeypatch, settings)
    limit = write_belief(agent, LIMIT, category="constraints", who="gus")
    dislike = write_belief(agent, DISLIKE, category="dislikes", who="gus")
    write_belief(
        agent, "Lives above the chip shop in Ammanford", category="explicit_facts", who="gus"
    )
    question = unit(
        0.55 * fake_vector(DISLIKE) + 0.45 * fake_vector(LIMIT) + 0.7 * fake_vector(HEALTH)
    )
    ask_as(monkeypatch, question)

    assert first_ranked(agent, "Does Gus have asthma?", who="gus") == limit.id
    monkeypatch.setattr(memory.context, "CATEGORY_SECOND_HINTS", {})
    assert first_ranked(agent, "Does Gus have asthma?", who="gus") == dislike.id


def test_the_second_descriptions_name_categories_memory_has():
    assert set(CATEGORY_SECOND_HINTS) <= set(memory.context.CATEGORY_HINTS)
    assert all(isinstance(text, str) and text for text in CATEGORY_SECOND_HINTS.values())


def test_a_question_on_how_to_reach_the_person_leans_to_their_style_notes(monkeypatch, settings):
    use_stand_in_encoder(monkeypatch, settings)

    prior, _ = _category_prior(fake_vector(CATEGORY_SECOND_HINTS["style_notes"]))

    assert prior["style_notes"] == 1.0
