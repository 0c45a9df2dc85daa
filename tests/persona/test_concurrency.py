"""Acceptance 3: twenty concurrent writers on one agent, real PostgreSQL transactions."""

from __future__ import annotations

import threading

import pytest
from django.db import connection, connections

from persona.models import AgentPersonaVersion, SourceType
from persona.services import ChangeTrigger, PersonaVersionConflict, persona_version_create
from tenancy.models import Agent
from tests.factories import TenantFactory, make_agent

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.skipif(
        connection.vendor != "postgresql", reason="needs DATABASE_URL pointing at PostgreSQL"
    ),
]

WRITERS = 20


def _race(
    agent_id: int, *, expected_version: int | None
) -> tuple[dict[int, int], list[int], list[BaseException]]:
    """Start WRITERS threads at once; returns {thread: version landed}, conflicted threads, other errors."""
    barrier = threading.Barrier(WRITERS)
    landed: dict[int, int] = {}
    conflicts: list[int] = []
    errors: list[BaseException] = []
    lock = threading.Lock()

    def write(i: int) -> None:
        try:
            agent = Agent.objects.get(pk=agent_id)
            barrier.wait(timeout=30)
            try:
                version = persona_version_create(
                    agent=agent,
                    changes={"goals": f"Goal written by thread {i}."},
                    trigger=ChangeTrigger(source_type=SourceType.UI_FORM, reason=f"thread {i}"),
                    expected_version=expected_version,
                )
                with lock:
                    landed[i] = version.version
            except PersonaVersionConflict:
                with lock:
                    conflicts.append(i)
        except BaseException as exc:  # noqa: BLE001 - reported by the test
            with lock:
                errors.append(exc)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=write, args=(i,)) for i in range(WRITERS)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
    return landed, conflicts, errors


def _check_history(agent_id: int, landed: dict[int, int]) -> None:
    rows = list(
        AgentPersonaVersion.objects.filter(agent_id=agent_id)
        .order_by("version")
        .values_list("version", "goals", "reason")
    )
    versions = [v for v, _, _ in rows]
    assert versions == list(range(1, len(rows) + 1))  # dense and unique
    assert Agent.objects.get(pk=agent_id).persona_version == versions[-1]
    by_version = {v: (goals, reason) for v, goals, reason in rows}
    for thread, version in landed.items():
        # each landed write is its own version, carrying its own change
        assert by_version[version] == (f"Goal written by thread {thread}.", f"thread {thread}")
    assert len(set(landed.values())) == len(landed)


@pytest.mark.django_db(transaction=True)
def test_writers_without_expected_version_serialize_and_all_land():
    agent = make_agent(tenant=TenantFactory(slug="race"), slug="race-a")
    landed, conflicts, errors = _race(agent.pk, expected_version=None)
    assert errors == []
    assert len(landed) + len(conflicts) == WRITERS
    # the agent row lock serializes them: nobody conflicts, nothing is lost
    assert conflicts == [] and sorted(landed.values()) == list(range(2, WRITERS + 2))
    _check_history(agent.pk, landed)


@pytest.mark.django_db(transaction=True)
def test_writers_with_the_same_expected_version_one_lands_the_rest_conflict():
    agent = make_agent(tenant=TenantFactory(slug="race"), slug="race-b")
    landed, conflicts, errors = _race(agent.pk, expected_version=1)
    assert errors == []
    assert len(landed) + len(conflicts) == WRITERS
    assert list(landed.values()) == [2] and len(conflicts) == WRITERS - 1
    _check_history(agent.pk, landed)
    assert AgentPersonaVersion.objects.filter(agent=agent).count() == 2


def _plan_race(agent_id: int, principal_id: int, threads: int = 10) -> tuple[list, list]:
    from memory.models import Principal
    from persona.plans import plan_get_or_rotate

    barrier = threading.Barrier(threads)
    results: list[tuple[int, int, str]] = []
    errors: list[BaseException] = []
    lock = threading.Lock()

    def call() -> None:
        try:
            agent = Agent.objects.get(pk=agent_id)
            person = Principal.objects.get(pk=principal_id)
            barrier.wait(timeout=30)
            plan = plan_get_or_rotate(agent=agent, principal=person, session_key="shared")
            with lock:
                results.append((plan.pk, plan.epoch, plan.prefix_sha256))
        except BaseException as exc:  # noqa: BLE001 - reported by the test
            with lock:
                errors.append(exc)
        finally:
            connections.close_all()

    workers = [threading.Thread(target=call) for _ in range(threads)]
    for t in workers:
        t.start()
    for t in workers:
        t.join(timeout=120)
    return results, errors


@pytest.mark.django_db(transaction=True)
def test_concurrent_plan_calls_create_once_and_rotate_once():
    from persona.models import ContextPlan, PlanRotation
    from tests.factories import PrincipalFactory

    tenant = TenantFactory(slug="race")
    agent = make_agent(tenant=tenant, slug="race-c")
    person = PrincipalFactory(tenant=tenant)
    results, errors = _plan_race(agent.pk, person.pk)
    assert errors == [] and len(results) == 10
    assert len(set(results)) == 1 and results[0][1] == 1
    assert ContextPlan.objects.count() == 1

    persona_version_create(
        agent=agent,
        changes={"goals": "A goal added mid-session."},
        trigger=ChangeTrigger(source_type=SourceType.UI_FORM, reason="edit"),
    )
    results, errors = _plan_race(agent.pk, person.pk)
    assert errors == [] and len(results) == 10
    assert len(set(results)) == 1 and results[0][1] == 2
    assert PlanRotation.objects.count() == 1
