"""Seed 000's tiers, made real: listing order, reinforce, demote (one tier lower),
remove with a tombstone, and dormancy that is never silent."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from django.core.cache import cache

from persona.models import OwnerTombstone, PlanRotation
from persona.owner import (
    OwnerDocConflict,
    OwnerDocRefusal,
    doc_head,
    listing,
    mark_dormant,
    owner_doc_write,
    owner_entry_demote,
    owner_entry_reinforce,
    owner_entry_remove,
)
from persona.plans import plan_build, plan_get_or_rotate
from tests.factories import PrincipalFactory

NOW = datetime(2026, 11, 20, 9, 0, tzinfo=UTC)


@pytest.fixture(autouse=True)
def _clear():
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def person(tenant):
    return PrincipalFactory(tenant=tenant, external_id="pat")


def doc(person, now=NOW):
    owner_doc_write(
        principal=person,
        expected_version=0,
        entries=[
            {"text": "Training for a 10k this month.", "tier": "working"},
            {"text": "Runs a bakery in Porto.", "tier": "permanent"},
            {"text": "Prefers answers in Portuguese."},
        ],
        now=now,
    )
    return {e.text: e for e in doc_head(person).entries}


def test_listing_orders_by_tier_then_reinforcement(person):
    entries = doc(person)
    owner_entry_reinforce(principal=person, key=entries["Prefers answers in Portuguese."].key)
    head = doc_head(person).entries
    assert [e.text for e in head][0] == "Training for a 10k this month."  # document order
    assert [e.tier for e in listing(head)] == ["permanent", "long_term", "working"]
    reinforced = next(e for e in head if e.tier == "long_term")
    assert reinforced.reinforcement_count == 1 and doc_head(person).version == 1  # no new version


def test_demote_lowers_the_tier_one_step_and_keeps_the_words(person):
    entries = doc(person)
    bakery = entries["Runs a bakery in Porto."]
    version, entry = owner_entry_demote(
        principal=person, expected_version=1, key=bakery.key, written_by="pat"
    )
    assert (version.version, entry.tier, entry.text) == (2, "long_term", bakery.text)
    assert entry.source == bakery.source and version.note == "demoted to long term"
    head = {e.key: e for e in doc_head(person).entries}
    assert len(head) == 3 and head[bakery.key].tier == "long_term"
    _, entry = owner_entry_demote(principal=person, expected_version=2, key=bakery.key)
    assert entry.tier == "working"
    assert not OwnerTombstone.objects.exists()  # nothing was removed


def test_demote_refuses_a_working_entry_and_a_stale_version(person):
    entries = doc(person)
    training = entries["Training for a 10k this month."]
    with pytest.raises(OwnerDocRefusal, match="lowest tier: remove it"):
        owner_entry_demote(principal=person, expected_version=1, key=training.key)
    with pytest.raises(OwnerDocRefusal, match="not in the document"):
        owner_entry_demote(principal=person, expected_version=1, key="nope")
    bakery = entries["Runs a bakery in Porto."]
    with pytest.raises(OwnerDocConflict, match="someone saved it meanwhile"):
        owner_entry_demote(principal=person, expected_version=0, key=bakery.key)
    assert doc_head(person).version == 1


def test_remove_takes_the_entry_out_with_a_tombstone_in_one_version(person):
    entries = doc(person)
    gone = entries["Training for a 10k this month."]
    with pytest.raises(OwnerDocRefusal, match="Say why"):
        owner_entry_remove(principal=person, expected_version=1, key=gone.key, reason=" ")
    version = owner_entry_remove(
        principal=person, expected_version=1, key=gone.key, reason="race is over", removed_by="pat"
    )
    assert version.version == 2
    assert gone.text not in [e.text for e in doc_head(person).entries]
    stone = OwnerTombstone.objects.get()
    assert (stone.text, stone.reason, stone.removed_in_version) == (gone.text, "race is over", 2)


def test_a_working_entry_goes_dormant_leaves_the_row_and_comes_back(agent, person, settings):
    settings.PERSONA_WORKING_DORMANT_DAYS = 14
    entries = doc(person, now=NOW)
    plan = plan_get_or_rotate(agent=agent, principal=person, session_key="s")
    assert "Training for a 10k" in plan.prefix_text
    assert mark_dormant(now=NOW + timedelta(days=10)) == 0
    assert mark_dormant(now=NOW + timedelta(days=15)) == 1
    head = {e.text: e for e in doc_head(person).entries}
    assert head["Training for a 10k this month."].dormant  # flagged for the owner
    assert not head["Runs a bakery in Porto."].dormant  # only working entries decay
    plan = plan_get_or_rotate(agent=agent, principal=person, session_key="s")
    assert "Training for a 10k" not in plan.prefix_text and plan.epoch == 2
    assert plan_build(plan) == plan.prefix_text  # the rebuild leaves it out too
    assert PlanRotation.objects.get().reason == PlanRotation.Reason.ENTRY_DORMANT
    owner_entry_reinforce(principal=person, key=entries["Training for a 10k this month."].key)
    plan = plan_get_or_rotate(agent=agent, principal=person, session_key="s")
    assert "Training for a 10k" in plan.prefix_text and plan.epoch == 3


def test_sensitivity_ceiling_filters_at_plan_creation(agent, person):
    owner_doc_write(
        principal=person,
        expected_version=0,
        entries=[
            {"text": "Runs a bakery in Porto.", "sensitivity": "public"},
            {"text": "Is saving for a second shop.", "sensitivity": "confidential"},
        ],
    )
    default = plan_get_or_rotate(agent=agent, principal=person, session_key="a")
    wide = plan_get_or_rotate(
        agent=agent, principal=person, session_key="b", max_sensitivity="confidential"
    )
    assert "second shop" not in default.prefix_text and "second shop" in wide.prefix_text
    assert "Runs a bakery" in default.prefix_text


def test_unchanged_edit_writes_no_version_and_keys_keep_annotations(person):
    entries = doc(person)
    key = entries["Runs a bakery in Porto."].key
    owner_entry_reinforce(principal=person, key=key)
    same = [{"key": e.key, "text": e.text, "tier": e.tier} for e in doc_head(person).entries]
    assert owner_doc_write(principal=person, expected_version=1, entries=same) is None
    same[1]["text"] = "Runs two bakeries in Porto."
    owner_doc_write(principal=person, expected_version=1, entries=same)
    moved = next(e for e in doc_head(person).entries if e.key == key)
    assert moved.reinforcement_count == 1 and moved.text == "Runs two bakeries in Porto."
    with pytest.raises(OwnerDocRefusal, match="only affirming a nomination"):
        owner_doc_write(
            principal=person,
            expected_version=2,
            entries=[{"text": "I am affirmed.", "source": "affirmation"}],
        )
