"""How ``build_context`` weighs what a question says: the asked person's name is no
evidence for one of their beliefs, a shared word counts as far as the meaning agrees,
and a statement near any description of a person is no answer to every question."""

from __future__ import annotations

from datetime import UTC, datetime

import numpy as np
import pytest

import memory.context
from memory.context import (
    CATEGORY_HINTS,
    EMBEDDING_SHARE,
    _person_names,
    build_context,
    hubness,
    names_in_beliefs,
    short_names,
    without_names,
    words_and_meaning,
)
from tests.memory.beliefs_helpers import DAY, NOW, fake_vector, write_belief


def write(agent, statement, category="interpersonal", who="farah", **kwargs):
    return write_belief(agent, statement, category=category, who=who, **kwargs)


def ranked(agent, query, who="farah"):
    # the stand-in vectors are random: these rank on words and dates
    pack = build_context(
        agent=agent, principal_external_id=who, query=query, now=NOW, use_embeddings=False
    )
    return pack, [item.id for item in pack.items]


# --- the asked person's name ------------------------------------------------------------


def test_the_persons_name_in_a_question_is_no_evidence_for_one_of_their_beliefs(agent, fake_model):
    mother = write(agent, "Her mother lives in Bradford and Farah visits her")
    manager = write(agent, "Her line manager is Helen, head of nurse education")

    pack, ids = ranked(agent, "Who manages Farah?")

    assert ids[0] == manager.pk
    assert pack.items[ids.index(mother.pk)].lexical == 0.0


def test_a_question_naming_the_person_and_a_month_is_ranked_by_the_month(agent, fake_model):
    write(agent, "Her mother lives in Bradford and Farah visits her")
    audit = write(
        agent,
        "Led the ward hand-hygiene audit",
        category="projects",
        valid_from=datetime(2026, 3, 2, tzinfo=UTC),
        valid_until=datetime(2026, 3, 25, tzinfo=UTC),
        now=NOW - 200 * DAY,
    )
    thesis = write(
        agent,
        "Wrote her dissertation on simulation training",
        category="projects",
        valid_from=datetime(2026, 2, 1, tzinfo=UTC),
        valid_until=datetime(2026, 4, 20, tzinfo=UTC),
        now=NOW - 200 * DAY,
    )

    pack, ids = ranked(agent, "What was Farah doing in March?")

    assert set(ids[:2]) == {audit.pk, thesis.pk}
    assert all("time facet" in item.why for item in pack.items[:2])


# --- a one-off event and the standing belief -------------------------------------------


@pytest.fixture
def match_and_club(agent, fake_model):
    """A dated one-off and the standing belief it is a near-twin of, sharing the words."""
    match = write(
        agent, "Plays a chess match away on Wednesday", category="projects", due=NOW + 1 * DAY
    )
    club = write(agent, "Plays chess at the club", category="interests")
    return match, club


def test_a_question_naming_no_time_puts_the_standing_belief_before_a_one_off(agent, match_and_club):
    match, club = match_and_club

    _, ids = ranked(agent, "Does Farah play chess?")

    assert ids[:2] == [club.pk, match.pk]


def test_a_question_about_time_still_finds_the_one_off_first(agent, match_and_club):
    match, club = match_and_club

    _, ids = ranked(agent, "When does Farah play chess this week?")

    assert ids[0] == match.pk


def test_a_name_gives_way_to_a_neutral_stand_in_possessive_or_not():
    names = _person_names("farah", "Farah Haddad")

    assert names == ["haddad", "farah"]
    assert without_names("Who is Farah's boss?", names) == "Who is the person's boss?"
    assert without_names("Where does Farah’s mother live?", names) == (
        "Where does the person's mother live?"
    )
    assert without_names("Is Farah Haddad at work?", names) == "Is the person at work?"
    assert without_names("who is farah's boss", names, "", "") == "who is  boss"
    assert without_names("What tea does she like?", names) == "What tea does she like?"


def test_only_words_that_name_the_person_are_taken_for_their_name():
    assert _person_names("user-1234", "") == []  # an opaque id names no one
    assert _person_names("will", "") == []  # a function word is never taken for a name
    names = _person_names("hp", "Helen Price")
    # in a question that capitalises, a lower-case "price" is the word, not Dr Price
    assert without_names("What price did Helen pay?", names) == "What price did the person pay?"


def test_a_name_the_person_goes_by_in_their_own_beliefs_is_no_evidence_either(agent, fake_model):
    write(agent, "Her name is Fenella Garside but everyone calls her Nell", "identity", who="nell")
    dad = write(agent, "Her father Clive is a retired signalman in Swindon", who="nell")
    garden = write(agent, "Fenella's allotment is behind the lock cottage", "projects", who="nell")

    pack, ids = ranked(agent, "Who is Fenella's father?", who="nell")

    assert ids[0] == dad.pk
    assert pack.items[ids.index(garden.pk)].lexical == 0.0


def test_only_a_statement_of_what_the_person_is_called_gives_names():
    stated = [
        "Her name is Fenella Garside but everyone calls her Nell",
        "Nell grew up in Swindon",
        "Nell goes to Bath every Friday",
    ]

    assert names_in_beliefs(stated, ["nell"]) == ["fenella", "garside", "nell"]
    # a statement naming someone else's name gives nothing
    assert names_in_beliefs(["His name is Otto Lindqvist"], ["nell"]) == ["nell"]


def test_a_plain_letter_id_finds_the_accented_name_its_statement_gives():
    stated = ["His name is Joaquín Ferreyra; his friends call him Quino"]

    names = names_in_beliefs(stated, ["joaquin"])
    assert {"joaquín", "ferreyra", "quino", "joaquin"} <= set(names)
    assert without_names("Is Joaquín with anyone?", names) == "Is the person with anyone?"
    assert without_names("How does Quino make a living?", names) == (
        "How does the person make a living?"
    )


def test_a_short_form_of_a_name_is_the_name_but_not_a_word_opening_the_question():
    names = ["marisol", "ibarra"]

    assert short_names("What does Mari do for a living?", names) == ["mari"]
    assert short_names("Who is Mari’s boss?", names) == ["mari"]
    assert short_names("Does Ma like tea?", names) == []  # too short
    assert short_names("Mari, what does she do?", names) == []  # the first word may be a word
    assert short_names("What does mari do?", names) == []  # lower case: a word


def test_names_with_accents_hyphens_and_apostrophes_are_found_as_written():
    names = _person_names("am", "Anne-Marie O’Brien")

    assert without_names("Does Anne-Marie like O'Brien's tea?", names) == (
        "Does the person like the person's tea?"
    )
    assert without_names("Where does José work?", _person_names("jose", "José Núñez")) == (
        "Where does the person work?"
    )


# --- words and meaning ------------------------------------------------------------------


def test_a_shared_word_counts_as_far_as_the_meaning_agrees():
    # 0: shares the question's word, far in meaning; 1: no shared word, near in meaning;
    # 2: shares the word, its vector not stored yet
    lexical = np.array([1.0, 0.0, 1.0])
    meaning = np.array([0.3, 0.6, 0.0])
    has_vec = np.array([True, True, False])

    similarity = words_and_meaning(lexical, meaning, has_vec)

    assert similarity[1] > similarity[0]
    assert similarity[0] == pytest.approx(EMBEDDING_SHARE * 0.3 + (1 - EMBEDDING_SHARE) * 0.3)
    assert similarity[2] == pytest.approx(1 - EMBEDDING_SHARE)  # the words in full


# --- hubness ----------------------------------------------------------------------------


def test_hubness_is_a_statements_mean_cosine_with_the_descriptions_of_a_person():
    descriptions = np.eye(4, dtype=np.float32)[:2]  # two generic texts about a person
    matrix = np.array(
        [[0.7, 0.7, 0.0, 0.0], [0.0, 0.0, 1.0, 0.0], [1.0, 0.0, 0.0, 0.0]], dtype=np.float32
    )

    hub = hubness(matrix, descriptions)

    assert hub == pytest.approx([0.7, 0.0, 0.5])
    assert hub == pytest.approx((matrix @ descriptions.T).mean(axis=1))


def _unit(vector: np.ndarray) -> np.ndarray:
    return (vector / np.linalg.norm(vector)).astype(np.float32)


@pytest.fixture
def hub_and_answer(agent, fake_model, monkeypatch):
    """A statement near every description of a person (the hub) and the answer; the
    question's vector is a little nearer the hub than the answer."""
    hub = write(agent, "Is a night owl who does her best drawing after ten", category="traits")
    answer = write(agent, "Is engaged to Niamh, a marine biologist", category="traits")
    v_hub, v_answer = fake_vector(hub.statement), fake_vector(answer.statement)
    descriptions = np.stack([_unit(v_hub + 0.1 * fake_vector(c)) for c in CATEGORY_HINTS])
    monkeypatch.setattr(memory.context, "_description_vectors", lambda: descriptions)
    question = _unit(0.6 * v_hub + 0.4 * v_answer)
    monkeypatch.setattr(memory.context, "_query_vector", lambda text: question)
    return hub, answer


def ranked_by_meaning(agent, query):
    pack = build_context(
        agent=agent, principal_external_id="farah", query=query, now=NOW, use_embeddings=True
    )
    assert pack.used_embeddings
    return [item.id for item in pack.items]


def test_a_statement_near_every_description_of_a_person_gives_way_to_the_answer(
    agent, hub_and_answer
):
    hub, answer = hub_and_answer

    assert ranked_by_meaning(agent, "Who is her other half?")[:2] == [answer.pk, hub.pk]


def test_an_item_reports_its_cosine_with_the_question_not_less_its_hubness(agent, hub_and_answer):
    hub, answer = hub_and_answer
    question = memory.context._query_vector("any")

    pack = build_context(
        agent=agent,
        principal_external_id="farah",
        query="Who is her other half?",
        now=NOW,
        use_embeddings=True,
    )

    cosines = {item.id: item.cosine for item in pack.items}
    assert cosines[hub.pk] == pytest.approx(float(fake_vector(hub.statement) @ question), abs=1e-5)
    assert cosines[hub.pk] > cosines[answer.pk]  # ranked below all the same


def test_without_the_hubness_correction_the_hub_comes_first(agent, hub_and_answer, monkeypatch):
    hub, answer = hub_and_answer
    monkeypatch.setattr(memory.context, "HUB_SHARE", 0.0)

    assert ranked_by_meaning(agent, "Who is her other half?")[:2] == [hub.pk, answer.pk]


# --- the category prior -----------------------------------------------------------------


def _son_and_birthday(agent, monkeypatch, lean: float):
    """ "How old is her little boy?": the answer (family, nearest in meaning), a statement
    of the category the question leans to (facts, less near) and an unrelated one; the
    question's cosine with the facts description is ``lean``, with the others about 0."""
    son = write(agent, "Their son Mateo is two", category="interpersonal")
    birthday = write(agent, "Her birthday is on 2 May", category="explicit_facts")
    write(agent, "Keeps a sourdough starter in the fridge", category="habit")
    v_son, v_birthday = fake_vector(son.statement), fake_vector(birthday.statement)
    question = _unit(0.8 * v_son + 0.6 * v_birthday)
    descriptions = np.stack(
        [
            _unit(lean * question + np.sqrt(1 - lean**2) * fake_vector(c))
            if c == "explicit_facts"
            else fake_vector(c)
            for c in CATEGORY_HINTS
        ]
    )
    monkeypatch.setattr(memory.context, "_description_vectors", lambda: descriptions)
    monkeypatch.setattr(memory.context, "_query_vector", lambda text: question)
    return son, birthday


def test_a_question_leaning_to_no_category_is_answered_by_meaning(agent, fake_model, monkeypatch):
    son, birthday = _son_and_birthday(agent, monkeypatch, lean=0.25)

    assert ranked_by_meaning(agent, "How old is her little boy?")[:2] == [son.pk, birthday.pk]


def test_a_question_plainly_of_one_category_keeps_its_prior(agent, fake_model, monkeypatch):
    son, birthday = _son_and_birthday(agent, monkeypatch, lean=0.7)

    assert ranked_by_meaning(agent, "How old is her little boy?")[:2] == [birthday.pk, son.pk]


def test_for_a_living_is_not_matched_with_where_the_person_lives(agent, fake_model):
    # "a living" is the noun of earning one: its stem is that of "Lives in ...", which
    # does not answer what the person does for work
    home = write(agent, "Lives in a terraced house in Canton", category="explicit_facts")
    job = write(agent, "Tastes and blends tea for a harbourside company", category="identity")

    pack = memory.context.build_context(
        agent=agent,
        principal_external_id="farah",
        query="What does Farah do for a living these days?",
        now=NOW,
        use_embeddings=False,
    )

    lexical = {item.id: item.lexical for item in pack.items}
    assert lexical[home.pk] == 0.0 == lexical[job.pk]
    # still a word of its own where it is the verb
    assert memory.context._word_reading("Is she living in Leeds?") == "Is she living in Leeds?"
