"""A belief that took over from an ended one answers what the ended one answered."""

from __future__ import annotations

import numpy as np

from memory.candidates import load_from_beliefs, successors
from memory.context import build_context
from memory.models import Principal
from tests.memory.beliefs_helpers import DAY, NOW, write_belief


def write(agent, statement, category="explicit_facts", **kwargs):
    return write_belief(agent, statement, category=category, who="farah", **kwargs)


def ranked(agent, query):
    # on words: the stand-in vectors are random
    pack = build_context(
        agent=agent, principal_external_id="farah", query=query, now=NOW, use_embeddings=False
    )
    return pack, [item.id for item in pack.items]


def bike_and_car(agent, *, gap_days: float = 0.0):
    """An ended way to work and the one that started when it ended (``gap_days`` later)."""
    old = write(
        agent,
        "Cycled to work on a heavy Dutch bike every day",
        valid_until=NOW - 60 * DAY,
        now=NOW - 400 * DAY,
    )
    new = write(
        agent,
        "Drives a white Toyota between home visits",
        valid_from=NOW - (60 - gap_days) * DAY,
        now=NOW - 55 * DAY,
    )
    other = write(agent, "Packs a lunch the night before every working day", category="habit")
    return old, new, other


def test_the_belief_that_took_over_answers_a_present_question_for_the_ended_one(agent, fake_model):
    old, new, other = bike_and_car(agent)

    pack, ids = ranked(agent, "Does Farah cycle to work?")

    assert ids[0] == new.pk
    assert old.pk not in ids
    assert "answers for the belief it took over from" in pack.items[0].why
    assert pack.items[0].lexical == 0.0  # its own words are not the question's


def heirs_across_a_gap(agent, *, gap_days: float, new_category: str = "explicit_facts"):
    """The ended job, and one that started ``gap_days`` after it ended (of ``new_category``)."""
    old = write(
        agent,
        "Drove an articulated lorry for a haulage firm",
        valid_until=NOW - 500 * DAY,
        now=NOW - 900 * DAY,
    )
    new = write(
        agent,
        "Tunes and restores pianos for a piano workshop",
        category=new_category,
        valid_from=NOW - (500 - gap_days) * DAY,
        now=NOW - 100 * DAY,
    )
    cand = load_from_beliefs(Principal.objects.get(external_id="farah").pk)
    row = {int(i): k for k, i in enumerate(cand.ids)}
    codes = np.array([0 if r[1] == "explicit_facts" else 1 for r in cand.rows])
    return successors(cand, codes)[row[old.pk]], row[new.pk]


def test_a_belief_of_its_category_starting_a_year_after_another_ended_took_over(agent, fake_model):
    heir, new = heirs_across_a_gap(agent, gap_days=380)

    assert heir == new


def gap_of_habits(agent):
    """A habit that ended 500 days ago, and two of its category begun across the gap: one
    taken up in between, and the latest to start."""
    old = write(
        agent,
        "Drove overnight runs to the ferry and slept in his cab",
        category="habit",
        valid_until=NOW - 500 * DAY,
        now=NOW - 900 * DAY,
    )
    between = write(
        agent,
        "Swims slow lengths three mornings a week",
        category="habit",
        valid_from=NOW - 450 * DAY,
        now=NOW - 400 * DAY,
    )
    latest = write(
        agent,
        "Tunes school pianos from eight till one",
        category="habit",
        valid_from=NOW - 120 * DAY,
        now=NOW - 100 * DAY,
    )
    cand = load_from_beliefs(Principal.objects.get(external_id="farah").pk)
    row = {int(i): k for k, i in enumerate(cand.ids)}
    return cand, row[old.pk], row[between.pk], row[latest.pk]


def test_across_a_gap_the_nearest_in_meaning_of_its_category_took_over(agent, fake_model):
    # habits and interests are taken up side by side: the last to start is no nearer
    cand, old, between, latest = gap_of_habits(agent)
    cand.matrix[between] = cand.matrix[old]  # as near as can be

    heirs = successors(cand, np.zeros(cand.n, dtype=np.int64))

    assert heirs[old] == between


def test_across_a_gap_of_those_as_near_in_meaning_the_latest_to_start_took_over(agent, fake_model):
    cand, old, between, latest = gap_of_habits(agent)
    cand.matrix[between] = cand.matrix[latest] = cand.matrix[old]

    heirs = successors(cand, np.zeros(cand.n, dtype=np.int64))

    assert heirs[old] == latest


def test_one_of_its_category_across_a_gap_takes_over_before_another_category_that_week(
    agent, fake_model
):
    old = write(
        agent,
        "Was training as a primary school teacher on a teacher-training course",
        category="identity",
        valid_until=NOW - 130 * DAY,
        now=NOW - 300 * DAY,
    )
    status = write(
        agent,
        "Has had qualified teacher status since July",
        category="expertise",
        valid_from=NOW - 125 * DAY,
        now=NOW - 120 * DAY,
    )
    job = write(
        agent,
        "Teaches music to all the classes at a primary school",
        category="identity",
        valid_from=NOW - 76 * DAY,
        now=NOW - 70 * DAY,
    )
    cand = load_from_beliefs(Principal.objects.get(external_id="farah").pk)
    row = {int(i): k for k, i in enumerate(cand.ids)}
    codes = np.array([0 if r[1] == "identity" else 1 for r in cand.rows])
    cand.matrix[row[status.pk]] = cand.matrix[row[old.pk]]  # as near as can be

    heirs = successors(cand, codes)

    assert heirs[row[old.pk]] == row[job.pk]


def flat_room_and_house(agent):
    """A home that ended, a student room lived in for a year after it (a start and an end
    of its own), and the house moved into the day after the room was given up."""
    flat = write(
        agent,
        "Lived in a whitewashed flat above her workshop in Granada",
        valid_until=NOW - 470 * DAY,
        now=NOW - 700 * DAY,
    )
    room = write(
        agent,
        "Rented a room in a shared student house in Hyde Park, Leeds",
        valid_from=NOW - 450 * DAY,
        valid_until=NOW - 86 * DAY,
        now=NOW - 400 * DAY,
    )
    house = write(
        agent,
        "Rents a red-brick back-to-back house in Chapel Allerton",
        valid_from=NOW - 85 * DAY,
        now=NOW - 80 * DAY,
    )
    return flat, room, house


def test_a_way_of_life_with_a_start_and_an_end_was_taken_over(agent, fake_model):
    # a year in a student room was no episode: the house moved into the next day took over
    flat, room, house = flat_room_and_house(agent)
    cand = load_from_beliefs(Principal.objects.get(external_id="farah").pk)
    row = {int(i): k for k, i in enumerate(cand.ids)}

    heirs = successors(cand, np.zeros(cand.n, dtype=np.int64))

    assert heirs[row[room.pk]] == row[house.pk]
    assert heirs[row[flat.pk]] == row[room.pk]


def test_an_heir_that_ended_too_hands_on_to_its_own_heir(agent, fake_model):
    flat, room, house = flat_room_and_house(agent)
    write(agent, "Packs a lunch the night before every working day", category="habit")

    pack, ids = ranked(agent, "Is Farah still in her flat above the workshop in Granada?")

    assert ids[0] == house.pk
    assert flat.pk not in ids and room.pk not in ids
    assert "answers for the belief it took over from" in pack.items[0].why


def test_a_belief_of_another_category_starting_months_later_did_not_take_over(agent, fake_model):
    heir, _ = heirs_across_a_gap(agent, gap_days=60, new_category="interests")

    assert heir == -1


def test_a_belief_of_its_category_starting_years_after_another_ended_did_not_take_over(
    agent, fake_model
):
    from memory.candidates import SUCCESSION_GAP_DAYS

    heir, _ = heirs_across_a_gap(agent, gap_days=SUCCESSION_GAP_DAYS + 30)

    assert heir == -1


def test_an_episode_that_ended_hands_nothing_to_what_started_that_week(agent, fake_model):
    trip = write(
        agent,
        "Cycled the coast road to Porto with her brother",
        valid_from=NOW - 70 * DAY,
        valid_until=NOW - 60 * DAY,
        now=NOW - 60 * DAY,
    )
    new = write(
        agent,
        "Drives a white Toyota between home visits",
        valid_from=NOW - 60 * DAY,
        now=NOW - 55 * DAY,
    )
    principal = Principal.objects.get(external_id="farah")
    cand = load_from_beliefs(principal.pk)
    row = {int(i): k for k, i in enumerate(cand.ids)}

    heirs = successors(cand, np.zeros(cand.n, dtype=np.int64))

    assert heirs[row[trip.pk]] == -1 and heirs[row[new.pk]] == -1


def test_a_question_about_the_past_is_answered_by_the_ended_belief_itself(agent, fake_model):
    old, new, other = bike_and_car(agent)

    pack, ids = ranked(agent, "Did Farah use to cycle to work?")

    assert ids[0] == old.pk
    assert all("took over" not in item.why for item in pack.items)


def test_a_belief_starting_weeks_after_another_of_its_kind_ended_took_over(agent, fake_model):
    old, new, other = bike_and_car(agent, gap_days=20)

    _, ids = ranked(agent, "Does Farah cycle to work?")

    assert ids[0] == new.pk


def test_a_belief_of_another_kind_starting_weeks_later_did_not_take_over(agent, fake_model):
    old, new, other = bike_and_car(agent, gap_days=20)
    principal = Principal.objects.get(external_id="farah")
    cand = load_from_beliefs(principal.pk)
    row = {int(i): k for k, i in enumerate(cand.ids)}
    codes = np.zeros(cand.n, dtype=np.int64)

    assert successors(cand, codes)[row[old.pk]] == row[new.pk]
    codes[row[new.pk]] = 1  # the car of another kind than the bike
    assert successors(cand, codes)[row[old.pk]] == -1


def test_a_successor_of_the_same_category_comes_before_one_nearer_in_meaning(agent, fake_model):
    old, new, other = bike_and_car(agent)
    near = write(
        agent,
        "Joined a cycling club",
        category="interests",
        valid_from=NOW - 61 * DAY,
        now=NOW - 55 * DAY,
    )
    principal = Principal.objects.get(external_id="farah")
    cand = load_from_beliefs(principal.pk)
    row = {int(i): k for k, i in enumerate(cand.ids)}
    codes = np.array([0 if r[1] == "explicit_facts" else 1 for r in cand.rows])
    cand.matrix[row[near.pk]] = cand.matrix[row[old.pk]]  # as near as can be

    heirs = successors(cand, codes)

    assert heirs[row[old.pk]] == row[new.pk]
    assert heirs[row[new.pk]] == -1 and heirs[row[other.pk]] == -1


def test_of_several_starting_together_the_one_of_the_ended_beliefs_topic_took_over(
    agent, fake_model
):
    old = write(
        agent,
        "Played Gaelic football at full-back for the county team",
        category="interests",
        valid_until=NOW - 80 * DAY,
        now=NOW - 500 * DAY,
    )
    music = write(
        agent,
        "Plays fiddle at the Irish session on Thursday nights",
        category="interests",
        valid_from=NOW - 70 * DAY,
        now=NOW - 60 * DAY,
    )
    sport = write(
        agent,
        "Swims in the sea every morning before work",
        category="interests",
        valid_from=NOW - 70 * DAY,
        now=NOW - 60 * DAY,
    )
    cand = load_from_beliefs(Principal.objects.get(external_id="farah").pk)
    row = {int(i): k for k, i in enumerate(cand.ids)}
    axes = np.eye(cand.matrix.shape[1], dtype=cand.matrix.dtype)
    cand.matrix[row[old.pk]] = axes[0]
    cand.matrix[row[music.pk]] = 0.4 * axes[0] + np.sqrt(1 - 0.4**2) * axes[1]  # nearer
    cand.matrix[row[sport.pk]] = 0.1 * axes[0] + np.sqrt(1 - 0.1**2) * axes[2]
    codes = np.zeros(cand.n, dtype=np.int64)
    # two topics of the bank, sport and music: the ended row is read as sport (its
    # nearest bank statements' topics, then their cosines), and each row's cosine with
    # the bank's nearest example of each
    votes = np.full((cand.n, 6), np.nan, dtype=np.float32)
    votes[row[old.pk]] = (0, 0, 1, 0.5, 0.4, 0.0)
    likeness = np.zeros((cand.n, 2))
    likeness[row[old.pk]] = (0.34, 0.2)
    likeness[row[music.pk]] = (0.2, 0.6)
    likeness[row[sport.pk]] = (0.54, 0.1)

    assert successors(cand, codes)[row[old.pk]] == row[music.pk]
    assert successors(cand, codes, (votes, likeness))[row[old.pk]] == row[sport.pk]


def test_of_two_of_its_category_the_one_begun_soon_after_the_end_took_over_a_little_nearer_one(
    agent, fake_model
):
    old = write(
        agent,
        "Went to spin classes at a gym after her early shifts",
        category="interests",
        valid_until=NOW - 80 * DAY,
        now=NOW - 500 * DAY,
    )
    soon = write(
        agent,
        "Swims in the sea with a women's group every Saturday morning",
        category="interests",
        valid_from=NOW - 70 * DAY,
        now=NOW - 60 * DAY,
    )
    later = write(
        agent,
        "Is learning Irish at an evening class on Wednesdays",
        category="interests",
        valid_from=NOW - 58 * DAY,
        now=NOW - 50 * DAY,
    )
    cand = load_from_beliefs(Principal.objects.get(external_id="farah").pk)
    row = {int(i): k for k, i in enumerate(cand.ids)}
    axes = np.eye(cand.matrix.shape[1], dtype=cand.matrix.dtype)
    cand.matrix[row[old.pk]] = axes[0]
    # the class begun three weeks after the end is a little nearer in words ("classes")
    cand.matrix[row[later.pk]] = 0.15 * axes[0] + np.sqrt(1 - 0.15**2) * axes[1]
    cand.matrix[row[soon.pk]] = axes[2]

    assert successors(cand, np.zeros(cand.n, dtype=np.int64))[row[old.pk]] == row[soon.pk]


def corrected_way_to_work(agent):
    """A belief an operator corrected: the old one is superseded, the correction active."""
    from memory.services_beliefs import belief_correct

    old = write(agent, "Cycles to work on a heavy Dutch bike", now=NOW - 30 * DAY)
    other = write(agent, "Packs a lunch the night before every working day", category="habit")
    new = belief_correct(
        belief=old, statement="Drives a white Toyota between home visits", now=NOW - 20 * DAY
    ).belief
    return old, new, other


def test_the_belief_that_replaced_a_superseded_one_answers_for_it(agent, fake_model):
    old, new, other = corrected_way_to_work(agent)

    pack, ids = ranked(agent, "Does Farah cycle on a Dutch bike?")

    assert ids[0] == new.pk
    assert old.pk not in ids
    assert "answers for the belief it took over from" in pack.items[0].why


def test_a_superseded_belief_is_never_an_answer_even_about_the_past(agent, fake_model):
    old, new, other = corrected_way_to_work(agent)

    _, ids = ranked(agent, "Did Farah use to cycle on a Dutch bike?")

    assert old.pk not in ids


def test_a_superseded_belief_whose_replacement_was_retired_leads_nowhere(agent, fake_model):
    from memory.services_beliefs import belief_retire

    old, new, other = corrected_way_to_work(agent)
    belief_retire(belief=new, now=NOW - DAY)

    _, ids = ranked(agent, "Does Farah cycle on a Dutch bike?")

    assert old.pk not in ids and new.pk not in ids
    cand = load_from_beliefs(Principal.objects.get(external_id="farah").pk)
    assert set(cand.ids.tolist()) == {other.pk}


def test_a_chain_of_corrections_leads_to_the_last_one(agent, fake_model):
    from memory.services_beliefs import belief_correct

    old, middle, other = corrected_way_to_work(agent)
    last = belief_correct(
        belief=middle, statement="Drives a red Toyota between home visits", now=NOW - 10 * DAY
    ).belief

    cand = load_from_beliefs(Principal.objects.get(external_id="farah").pk)
    row = {int(i): k for k, i in enumerate(cand.ids)}

    assert cand.heir[row[old.pk]] == row[last.pk] == cand.heir[row[middle.pk]]
    assert not cand.active[row[old.pk]] and cand.active[row[last.pk]]
    _, ids = ranked(agent, "Does Farah cycle on a Dutch bike?")
    assert ids[0] == last.pk and middle.pk not in ids


def test_a_session_snapshot_leaves_superseded_beliefs_out(agent, fake_model):
    from memory.context import session_snapshot

    old, new, other = corrected_way_to_work(agent)

    items = session_snapshot(agent=agent, principal_external_id="farah", now=NOW)

    assert {item.id for item in items} == {new.pk, other.pk}


def test_a_present_question_before_an_event_an_ended_belief_names_ranks_its_successor(
    agent, fake_model
):
    # the ended habit's own words ("before every early shift") are no event to date the
    # question by: it stays a question about now, and the habit that followed answers it
    old = write(
        agent,
        "Ran along the canal at half past five before every early shift",
        category="habit",
        valid_until=NOW - 420 * DAY,
        now=NOW - 800 * DAY,
    )
    new = write(
        agent,
        "Walks along the city walls to the stoneyard at seven",
        category="habit",
        valid_from=NOW - 400 * DAY,
        now=NOW - 390 * DAY,
    )

    _, ids = ranked(agent, "Does Farah still go for a run along the canal before her early shift?")

    assert old.pk not in ids
    assert ids[0] == new.pk


def test_an_episode_of_another_category_begun_that_week_does_not_take_over(agent, fake_model):
    old = write(
        agent,
        "Taught chemistry at an upper secondary school",
        category="identity",
        valid_until=NOW - 160 * DAY,
        now=NOW - 700 * DAY,
    )
    course = write(
        agent,
        "Took a two-week sauna-building course",
        category="projects",
        valid_from=NOW - 155 * DAY,
        valid_until=NOW - 142 * DAY,
        now=NOW - 142 * DAY,
    )
    job = write(
        agent,
        "Builds and repairs wood-fired saunas with his own small firm",
        category="identity",
        valid_from=NOW - 90 * DAY,
        now=NOW - 85 * DAY,
    )
    cand = load_from_beliefs(Principal.objects.get(external_id="farah").pk)
    row = {int(i): k for k, i in enumerate(cand.ids)}
    codes = np.array([0 if r[1] == "identity" else 1 for r in cand.rows])
    cand.matrix[row[course.pk]] = cand.matrix[row[old.pk]]  # as near as can be

    heirs = successors(cand, codes)

    assert heirs[row[old.pk]] == row[job.pk]
