"""Owner documents under concurrent writers, real PostgreSQL transactions: one write per
version, the rest clean conflicts; an affirmation racing an edit never loses either."""

from __future__ import annotations

import threading
from collections.abc import Callable

import pytest
from django.db import connection, connections

from memory.models import Belief, Principal
from persona.models import OwnerDocumentVersion, OwnerNomination
from persona.owner import OwnerDocConflict, doc_head, nomination_affirm, owner_doc_write
from tests.factories import PrincipalFactory, TenantFactory, make_agent

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.skipif(
        connection.vendor != "postgresql", reason="needs DATABASE_URL pointing at PostgreSQL"
    ),
]


def _race(jobs: list[Callable[[], object]]) -> tuple[list[object], list[int], list[BaseException]]:
    barrier = threading.Barrier(len(jobs))
    done: list[object] = []
    conflicts: list[int] = []
    errors: list[BaseException] = []
    lock = threading.Lock()

    def run(i: int, job: Callable[[], object]) -> None:
        try:
            barrier.wait(timeout=30)
            try:
                result = job()
                with lock:
                    done.append(result)
            except OwnerDocConflict:
                with lock:
                    conflicts.append(i)
        except BaseException as exc:  # noqa: BLE001 - reported by the test
            with lock:
                errors.append(exc)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(i, j)) for i, j in enumerate(jobs)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
    return done, conflicts, errors


def test_ten_owners_tabs_saving_the_same_version(transactional_db):
    person = PrincipalFactory(tenant=TenantFactory(slug="race"), external_id="pat")

    def edit(i: int) -> Callable[[], object]:
        return lambda: owner_doc_write(
            principal=Principal.objects.get(pk=person.pk),
            expected_version=0,
            entries=[{"text": f"Written by tab {i}."}],
        )

    done, conflicts, errors = _race([edit(i) for i in range(10)])
    assert errors == []
    assert len(done) == 1 and len(conflicts) == 9
    assert OwnerDocumentVersion.objects.count() == 1
    assert doc_head(person).entries[0].text.startswith("Written by tab")


def test_affirmation_racing_an_edit(transactional_db):
    tenant = TenantFactory(slug="race2")
    agent = make_agent(tenant=tenant, slug="race-agent")
    person = PrincipalFactory(tenant=tenant, external_id="pat")
    owner_doc_write(principal=person, expected_version=0, entries=[{"text": "Runs a bakery."}])
    belief = Belief.objects.create(
        tenant=tenant, principal=person, agent=agent, category="likes",
        statement="Prefers short answers.", confidence=0.9, corroboration_count=3,
        stability_days=90, last_reinforced_at=person.created_at,
        created_at=person.created_at, updated_at=person.created_at,
    )  # fmt: skip
    nomination = OwnerNomination.objects.create(
        tenant=tenant, principal=person, belief=belief, statement=belief.statement,
        statement_key="prefers short answers", category="likes", confidence=0.9,
        corroboration_count=3, sensitivity=1, nominated_at=person.created_at,
    )  # fmt: skip
    jobs = [
        lambda: nomination_affirm(
            principal=Principal.objects.get(pk=person.pk), nomination_id=nomination.pk
        ),
        lambda: owner_doc_write(
            principal=Principal.objects.get(pk=person.pk),
            expected_version=1,
            entries=[{"text": "Runs two bakeries."}],
        ),
    ]
    done, conflicts, errors = _race(jobs)
    assert errors == []
    head = doc_head(person)
    texts = [e.text for e in head.entries]
    nomination.refresh_from_db()
    belief.refresh_from_db()
    if conflicts == [1]:
        # the affirmation went first: the edit named a stale version and wrote nothing
        assert head.version == 2 and texts == ["Runs a bakery.", "Prefers short answers."]
    else:
        # the edit went first: the affirmation extended the new head (it carries no version)
        assert conflicts == [] and head.version == 3
        assert texts == ["Runs two bakeries.", "Prefers short answers."]
    assert nomination.state == "affirmed" and belief.promoted
