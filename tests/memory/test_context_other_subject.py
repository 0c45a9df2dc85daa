"""A statement about someone in the person's life ("His daughter Lotte is a vet") is a
near-twin for a question about the person themself ("Does he have a greyhound?"): it
answers for the daughter. For such a question it keeps ``1 - OTHER_SUBJECT_SHARE`` of its
similarity, so the person's own statement comes first; a question that names the someone,
or asks for a person, is not changed."""

from __future__ import annotations

import numpy as np
import pytest

import memory.context
from memory.subjects import about_the_person, other_subject, proper_words, role_names
from tests.memory.beliefs_helpers import (
    NOW,
    first_ranked,
    two_beliefs_asked_between,
    write_belief,
)

DAUGHTER = "His daughter Lotte is a vet at a practice in Harrogate"
HENS = "Keeps three hens, Tilly, Marge and Doris, on the allotment"
STATEMENTS = [
    DAUGHTER,
    HENS,
    "Poppy swims in the school swimming gala on Thursday",
    "Takes Poppy to the pool on Saturdays",
    "Her name is Saoirse Byrne, pronounced Seer-sha",
    "Her boss is Beatriz Orozco, who hands out the cases",
    "Her favourite food is a lamb curry",
    "Tuesday is the day she does the big shop",
    "His older brother Kees lives in Utrecht and they play correspondence chess",
]


@pytest.fixture
def bernard(agent, monkeypatch, settings):
    """Bernard's hens and his daughter the vet; every question reads a little nearer the
    daughter than the hens."""
    return two_beliefs_asked_between(
        agent,
        monkeypatch,
        settings,
        who="bernard",
        first=(DAUGHTER, "explicit_facts"),
        second=(HENS, "explicit_facts"),
        lean=(0.55, 0.45),
        home="Lives in a terraced house in Acomb",
    )


def test_a_question_about_the_person_ranks_their_own_statement_over_a_relatives(agent, bernard):
    _, hens = bernard

    assert first_ranked(agent, "Does Bernard have a greyhound?", who="bernard") == hens


def test_without_the_rule_the_relatives_statement_nearer_the_question_answers(
    agent, bernard, monkeypatch
):
    daughter, _ = bernard
    monkeypatch.setattr(memory.context, "OTHER_SUBJECT_SHARE", 0.0)

    assert first_ranked(agent, "Does Bernard have a greyhound?", who="bernard") == daughter


def test_a_question_naming_the_relative_keeps_the_statement_about_them(agent, bernard):
    daughter, _ = bernard

    assert first_ranked(agent, "Is Lotte a vet?", who="bernard") == daughter
    assert first_ranked(agent, "Where does his daughter work?", who="bernard") == daughter


def test_a_statement_opening_with_a_relation_and_a_name_is_about_that_someone():
    proper = proper_words(STATEMENTS)
    own = frozenset({"saoirse", "byrne"})

    assert other_subject(DAUGHTER, proper, own) == {"daughter", "lotte"}
    assert other_subject(STATEMENTS[2], proper, own) == {"poppy"}
    assert other_subject(STATEMENTS[5], proper, own) == {"boss", "beatriz"}


def test_a_statement_about_the_person_or_what_they_do_with_someone_names_no_one_else():
    proper = proper_words(STATEMENTS)
    own = frozenset({"saoirse", "byrne"})

    for text in (HENS, *STATEMENTS[3:5], *STATEMENTS[6:]):
        assert other_subject(text, proper, own) == frozenset(), text


def test_a_question_for_a_person_or_about_someone_of_theirs_is_not_about_the_person():
    assert about_the_person("Does the person have a greyhound?")
    assert about_the_person("What's on for the person this week?")
    assert not about_the_person("Who is the person's wife?")
    assert not about_the_person("What does the person's husband do?")
    assert not about_the_person("Where does his mother live?")


def test_the_words_written_as_names_are_those_capitalised_inside_a_sentence():
    proper = proper_words(STATEMENTS)

    assert {"poppy", "lotte", "beatriz"} <= proper
    assert not {"keeps", "takes", "tuesday", "thursday"} & proper


def test_a_question_the_bank_reads_as_after_the_persons_people_keeps_the_relative(
    agent, bernard, monkeypatch
):
    daughter, _ = bernard
    people = np.zeros(len(memory.context.CATEGORY_HINTS))
    people[list(memory.context.CATEGORY_HINTS).index("interpersonal")] = 0.6
    monkeypatch.setattr(memory.context, "bank_categories", lambda qvec, bank: people)

    assert first_ranked(agent, "Does Bernard have any children?", who="bernard") == daughter


def test_a_relation_asked_by_a_possessive_is_named_as_a_statement_names_it():
    statements = [
        "His mother Ngozi, eighty-four, lives in Enugu",
        "Her boss is Beatriz Orozco, who hands out the cases",
        "His friend Tom runs the pub",
        "His friend Joe lends him a tractor",
    ]
    question = "Is the person's mother still teaching?"
    assert role_names(question, statements, frozenset()) == [
        (len("Is the person's mother"), "Ngozi")
    ]
    assert role_names("Is his boss strict?", statements, frozenset())[0][1] == "Beatriz"
    # named two ways, or already named: none
    assert role_names("Where does his friend live?", statements, frozenset()) == []
    assert role_names("Is the person's mother Ngozi well?", statements, frozenset()) == []
    # the name is given to the phrase's last noun: not "favourite", nor "head" of a
    # "head falconer at Skyward"
    others = ["Her favourite drink is Westmalle Tripel", "Her head falconer at Skyward is Gordon"]
    assert role_names("What's the person's favourite tipple?", others, frozenset()) == []
    assert role_names("Who is the person's head teacher?", others, frozenset()) == []


def test_a_partner_asked_for_by_another_word_for_one_is_named_as_the_statement_names_them():
    statements = [
        "His wife Halina teaches chemistry at a secondary school",
        "His brother Marek grows strawberries on a plot",
    ]

    asked = "Where does the person's partner farm sheep?"
    assert role_names(asked, statements, frozenset()) == [
        (len("Where does the person's partner"), "Halina")
    ]
    assert (
        role_names(
            "Is her husband still at the bank?", ["Her partner Owain keeps sheep"], frozenset()
        )[0][1]
        == "Owain"
    )
    # a relation of another kind is not a partner
    assert role_names("Where does his sister live?", statements, frozenset()) == []


def test_a_relation_asked_by_a_possessive_finds_the_statement_that_names_them(agent, fake_model):
    # the class shares as many of the question's words as the mother does, is of the same
    # kind and was written first: only her name, read from the statement, puts her first
    write_belief(agent, "Gives an Irish class at the school", category="explicit_facts", who="des")
    mother = write_belief(
        agent, "His mother Ngozi lives in Enugu", category="explicit_facts", who="des"
    )

    pack = memory.context.build_context(
        agent=agent,
        principal_external_id="des",
        query="Is Des's mother still teaching at the school?",
        now=NOW,
        use_embeddings=False,
    )

    assert pack.items[0].id == mother.id
