"""Acceptance 3: twenty concurrent writers on one agent, real PostgreSQL transactions."""

from __future__ import annotations

import threading

import pytest
from django.db import connection, connections

from persona.models import Agent, AgentPersonaVersion, SourceType
from persona.services import ChangeTrigger, PersonaVersionConflict, persona_version_create
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
