from __future__ import annotations

import pytest
from django.core.cache import cache

from memory.services import record_turn
from persona.models import ContextPlan, PlanRotation, SourceType
from persona.plans import (
    PlanNotFound,
    PlanVersions,
    plan_build,
    plan_get_or_rotate,
    prefix_cache_key,
    prefix_fetch,
    rotation_due,
    sha256_text,
)
from persona.services import ChangeTrigger, persona_version_create
from persona.tokens import count_tokens
from tests.factories import PrincipalFactory, TenantFactory, make_agent


@pytest.fixture(autouse=True)
def _clear_cache():
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def person(tenant):
    return PrincipalFactory(tenant=tenant, external_id="pat")


def _edit(agent, goals):
    return persona_version_create(
        agent=agent,
        changes={"goals": goals},
        trigger=ChangeTrigger(source_type=SourceType.UI_FORM, reason="operator edit"),
    )


def test_fifty_turn_gate(transactional_db):
    """Acceptance 1: 50 scripted turns, one persona edit at turn 25.

    Real commits (transactional_db), so the rotation's on_commit cache publish runs as
    it does for a host, and prefix_fetch is called without an epoch.
    """
    agent = make_agent(tenant=TenantFactory(slug="gate"), slug="gate-agent", name="Gate")
    hashes: list[tuple[int, str]] = []
    builds: list[tuple[str, str]] = []
    for turn in range(1, 51):
        result = record_turn(
            agent=agent,
            principal_external_id="pat",
            conversation="session-1",
            user_text=f"Turn {turn}: what should I bake next?",
            assistant_text="Something with rye.",
        )
        if turn == 25:
            _edit(agent, "Advise small bakery owners on orders, staffing and waste.")
        plan = plan_get_or_rotate(
            agent=agent, principal=result.conversation.principal, session_key="session-1"
        )
        fetched = prefix_fetch(
            agent_id=agent.id,
            principal_id=result.conversation.principal_id,
            session_key="session-1",
        )
        assert fetched.sha256 == plan.prefix_sha256 == sha256_text(fetched.prefix_text)
        hashes.append((plan.epoch, plan.prefix_sha256))
        builds.append((plan_build(plan), plan_build(plan)))
        assert builds[-1][0] == builds[-1][1] == plan.prefix_text

    assert len({h for _, h in hashes}) == 2
    assert PlanRotation.objects.count() == 1
    rotation = PlanRotation.objects.get()
    assert (rotation.from_epoch, rotation.to_epoch) == (1, 2)
    assert rotation.reason == PlanRotation.Reason.AGENT_PERSONA_CHANGED
    assert (rotation.from_persona_version, rotation.to_persona_version) == (1, 2)
    # within each epoch the hash is constant; the edit at turn 25 shows from turn 25 on
    assert {h for e, h in hashes if e == 1} == {hashes[0][1]}
    assert {h for e, h in hashes if e == 2} == {hashes[-1][1]}
    assert [e for e, _ in hashes] == [1] * 24 + [2] * 26
    assert rotation.old_sha256 == hashes[0][1] and rotation.new_sha256 == hashes[-1][1]
    assert ContextPlan.objects.count() == 1


def test_plan_call_with_nothing_changed_writes_nothing(agent, person, django_assert_num_queries):
    plan = plan_get_or_rotate(agent=agent, principal=person, session_key="s")
    assert plan.epoch == 1 and plan.persona_version == 1
    assert plan.token_count == count_tokens(plan.prefix_text) > 0
    assert plan.owner_doc_version is None
    with django_assert_num_queries(1):
        again = plan_get_or_rotate(agent=agent, principal=person, session_key="s")
    assert (again.pk, again.epoch, again.prefix_sha256) == (plan.pk, 1, plan.prefix_sha256)
    assert again.updated_at == plan.updated_at


def test_one_edit_one_rotation_even_with_many_plan_calls(agent, person):
    plan_get_or_rotate(agent=agent, principal=person, session_key="s")
    _edit(agent, "First goal.")
    _edit(agent, "Second goal.")  # two edits before the next plan call: one rotation
    plans = [plan_get_or_rotate(agent=agent, principal=person, session_key="s") for _ in range(3)]
    assert {p.epoch for p in plans} == {2}
    assert plans[0].persona_version == 3
    assert PlanRotation.objects.count() == 1


def test_plans_are_pinned_per_principal_and_session(agent, person, tenant):
    other = PrincipalFactory(tenant=tenant, external_id="sam")
    a = plan_get_or_rotate(agent=agent, principal=person, session_key="s1")
    b = plan_get_or_rotate(agent=agent, principal=person, session_key="s2")
    c = plan_get_or_rotate(agent=agent, principal=other, session_key="s1")
    d = plan_get_or_rotate(agent=agent, session_key="s1")
    assert len({a.pk, b.pk, c.pk, d.pk}) == 4
    assert d.principal_key == "" and a.principal_key == str(person.pk)
    assert len({a.prefix_sha256, b.prefix_sha256, c.prefix_sha256, d.prefix_sha256}) == 1


def test_prefix_fetch_queries(agent, person, django_assert_num_queries):
    plan = plan_get_or_rotate(agent=agent, principal=person, session_key="s")
    cache.clear()
    with django_assert_num_queries(1):
        cold = prefix_fetch(agent_id=agent.id, principal_id=person.id, session_key="s")
    with django_assert_num_queries(0):
        warm = prefix_fetch(agent_id=agent.id, principal_id=person.id, session_key="s")
    with django_assert_num_queries(1):
        uncached = prefix_fetch(
            agent_id=agent.id, principal_id=person.id, session_key="s", use_cache=False
        )
    assert cold == warm == uncached == (plan.prefix_text, plan.prefix_sha256)


def test_cache_never_serves_the_old_epoch_after_rotation(agent, person):
    plan_get_or_rotate(agent=agent, principal=person, session_key="s")
    old = prefix_fetch(agent_id=agent.id, principal_id=person.id, session_key="s")
    _edit(agent, "A new goal.")
    # before the plan call the pinned epoch is still the old one: that is the contract
    assert prefix_fetch(agent_id=agent.id, principal_id=person.id, session_key="s") == old
    # no on_commit hook runs here (the test transaction never commits): the epoch
    # from the plan call alone must turn the cached old epoch into a miss
    plan = plan_get_or_rotate(agent=agent, principal=person, session_key="s")
    assert plan.epoch == 2
    fetched = prefix_fetch(agent_id=agent.id, principal_id=person.id, session_key="s", epoch=2)
    assert fetched.sha256 == plan.prefix_sha256 != old.sha256


def test_rotation_publishes_the_new_epoch_on_commit(
    agent, person, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        plan_get_or_rotate(agent=agent, principal=person, session_key="s")
    old = prefix_fetch(agent_id=agent.id, principal_id=person.id, session_key="s")
    _edit(agent, "A new goal.")
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        plan = plan_get_or_rotate(agent=agent, principal=person, session_key="s")
    assert len(callbacks) == 1
    key = prefix_cache_key(agent_id=agent.id, principal_key=str(person.id), session_key="s")
    assert cache.get(key)[0] == 2
    # a reader that loaded the old epoch just before the commit cannot put it back
    assert not cache.add(key, (1, 1, old.prefix_text, old.sha256))
    fetched = prefix_fetch(agent_id=agent.id, principal_id=person.id, session_key="s")
    assert fetched.sha256 == plan.prefix_sha256 != old.sha256


def test_stale_cache_entry_of_older_epoch_is_replaced(agent, person):
    plan_get_or_rotate(agent=agent, principal=person, session_key="s")
    key = prefix_cache_key(agent_id=agent.id, principal_key=str(person.id), session_key="s")
    _edit(agent, "A new goal.")
    plan = plan_get_or_rotate(agent=agent, principal=person, session_key="s")
    cache.set(key, (1, 1, "old prefix", "0" * 64))  # e.g. another process's leftovers
    fetched = prefix_fetch(
        agent_id=agent.id, principal_id=person.id, session_key="s", epoch=plan.epoch
    )
    assert fetched.sha256 == plan.prefix_sha256
    assert cache.get(key)[0] == 2
    # the plan call also replaces an older cached epoch
    cache.set(key, (1, 1, "old prefix", "0" * 64))
    plan_get_or_rotate(agent=agent, principal=person, session_key="s")
    assert (
        prefix_fetch(agent_id=agent.id, principal_id=person.id, session_key="s").sha256
        == plan.prefix_sha256
    )


def test_prefix_fetch_without_plan_says_what_to_do(agent):
    with pytest.raises(PlanNotFound, match="plan call"):
        prefix_fetch(agent_id=agent.id, session_key="nope")


def test_plan_build_follows_the_pinned_version_not_the_head(agent, person):
    plan = plan_get_or_rotate(agent=agent, principal=person, session_key="s")
    _edit(agent, "A goal the pinned plan must not show.")
    assert plan_build(plan) == plan.prefix_text
    assert "must not show" not in plan_build(plan)


def test_rotation_is_due_when_anything_the_plan_was_built_from_changed():
    pinned = PlanVersions(persona_version=3, doc_version=2, doc_state=5)
    assert rotation_due(pinned=pinned, current=pinned) is None
    assert rotation_due(pinned=pinned, current=PlanVersions(4, 2, 5)) == "agent_persona_changed"
    assert rotation_due(pinned=pinned, current=PlanVersions(3, 3, 5)) == "persona_changed"
    assert rotation_due(pinned=pinned, current=PlanVersions(3, None, 0)) == "persona_changed"
    assert rotation_due(pinned=pinned, current=PlanVersions(3, 2, 6)) == "entry_dormant"
    # no document (or an empty one): its row state changes nothing that renders
    nothing = PlanVersions(3, None, 0)
    assert rotation_due(pinned=nothing, current=PlanVersions(3, None, 7)) is None
