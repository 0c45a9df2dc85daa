"""A question about a thing of the person's own ("How old is her dachshund?") is about that
thing: the rest of it ("how old") asks something of the thing, not of the person, so the
thing, encoded on its own, has a share in the question's meaning. The person's nearest
thing of the kind (their parrot) then comes before what answers "how old" of the person."""

from __future__ import annotations

import pytest

import memory.context
from memory.context import possessed_phrase
from tests.memory.beliefs_helpers import (
    fake_vector,
    first_ranked,
    unit,
    use_stand_in_encoder,
    write_belief,
)

PET = "Has an African grey parrot called Professor"
BIRTHDAY = "Her birthday is on 3 March"


@pytest.fixture
def owner(agent, monkeypatch, settings):
    """A pet and a birthday of thandi's; the whole question reads nearer the birthday,
    the thing it names of hers ("dachshund") reads as the pet."""
    use_stand_in_encoder(monkeypatch, settings)
    pet = write_belief(agent, PET, category="explicit_facts", who="thandi")
    birthday = write_belief(agent, BIRTHDAY, category="explicit_facts", who="thandi")
    write_belief(agent, "Lives in Morningside, Durban", category="explicit_facts", who="thandi")
    whole = unit(0.6 * fake_vector(BIRTHDAY) + 0.4 * fake_vector(PET))

    def read(text: str):
        return fake_vector(PET) if text == "dachshund" else whole

    monkeypatch.setattr(memory.context, "_query_vector", read)
    return pet.id, birthday.id


def test_a_question_about_a_thing_of_theirs_ranks_their_thing_of_the_kind_first(agent, owner):
    pet, birthday = owner

    assert first_ranked(agent, "How old is Thandi's dachshund?", who="thandi") == pet


def test_without_the_possessed_share_the_question_as_a_whole_finds_the_birthday(
    agent, owner, monkeypatch
):
    pet, birthday = owner
    monkeypatch.setattr(memory.context, "POSSESSED_SHARE", 0.0)

    assert first_ranked(agent, "How old is Thandi's dachshund?", who="thandi") == birthday


@pytest.mark.parametrize(
    ("asked", "thing"),
    [
        ("How old is the person's dachshund?", "dachshund"),
        ("How are the person's sign language lessons going?", "sign language lessons"),
        ("How is the person's sailing course coming along?", "sailing course"),
        ("Does the person take tablets for her blood pressure?", ""),  # a pronoun's: left
        ("How does the person make up her mind?", ""),
        ("Is the person with anyone these days?", ""),
        ("Could the person play the tuba at our wedding?", ""),
    ],
)
def test_the_thing_of_theirs_is_the_words_after_the_possessive_up_to_a_function_word(asked, thing):
    assert possessed_phrase(asked) == thing
