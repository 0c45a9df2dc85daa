"""The hourly persona change counts behind the evolution chart stay exact: every write
through the service counts, deletions take off what they remove, a migration-style
rebuild agrees, two writers at once both count, and the chart read from the counts
equals the chart counted from the versions for every filter and time zone."""

from __future__ import annotations

import threading
import zoneinfo
from datetime import date, timedelta

import pytest
from django.db import connection, connections
from django.utils import timezone

from dashboard.evolution import FeedFilters, weekly_activity
from learning.services import proposal_apply, proposal_undo
from persona.change_counts import counted_from_versions, rebuild, stored
from persona.models import AgentPersonaVersion, PersonaChangeCount
from persona.services import ChangeTrigger, persona_version_create
from tenancy.models import Agent
from tests.builders import add_proposal, learning_on
from tests.factories import TenantFactory, make_agent, make_user

pytestmark = pytest.mark.django_db


def edit(agent, source="ui_form", **changes):
    return persona_version_create(
        agent=agent,
        changes=changes,
        trigger=ChangeTrigger(source_type=source, reason="a reason", approved_by="olivia"),
    )


@pytest.fixture
def history(tenant):
    """Two assistants with edits of every kind: operator, host, a learned change and its
    undo, and a second tenant's assistant."""
    desk = make_agent(tenant=tenant, slug="desk", name="Desk", goals="Answer claims.")
    learning_on(desk, standing_rules=True)
    other = make_agent(tenant=tenant, slug="other", name="Other")
    edit(desk, background="A claims desk.")
    edit(other, guardrails=["Never promise a payout."])
    edit(desk, source="host", role="Claims helper", goals="Answer claims fast.")
    proposal = add_proposal(desk, text="Writes claim summaries.")
    proposal_apply(proposal=proposal, by="olivia")
    proposal.refresh_from_db()
    proposal_undo(proposal=proposal, by="olivia")
    elsewhere = make_agent(tenant=TenantFactory(slug="elsewhere"), slug="far")
    edit(elsewhere, goals="Something else.")
    return desk, other, elsewhere


def test_every_write_through_the_service_is_counted_once_overall_and_per_field(history):
    assert stored() == counted_from_versions()
    total = sum(n for (_, _, _, f), n in stored().items() if f == "")
    assert total == AgentPersonaVersion.objects.count()
    goals = sum(n for (_, _, _, f), n in stored().items() if f == "goals")
    assert goals == sum("goals" in v.fields_changed for v in AgentPersonaVersion.objects.all())


def test_deleting_a_version_an_agent_or_a_tenant_takes_off_what_it_removed(history):
    desk, other, elsewhere = history
    AgentPersonaVersion.objects.filter(agent=other, version=2).delete()
    assert stored() == counted_from_versions()
    Agent.objects.get(pk=desk.pk).delete()
    assert stored() == counted_from_versions()
    elsewhere.tenant.delete()
    assert stored() == counted_from_versions()
    assert not PersonaChangeCount.objects.filter(tenant_id=elsewhere.tenant_id).exists()


def test_a_rebuild_counts_what_the_writes_counted(history):
    before = stored()
    PersonaChangeCount.objects.all().delete()
    assert rebuild() == len(before)
    assert stored() == before


def _spread_over_weeks() -> None:
    """Move the versions back in time (a day and some hours apart each), then count
    them again, as the migration does for old data."""
    now = timezone.now()
    for i, pk in enumerate(AgentPersonaVersion.objects.order_by("pk").values_list("pk", flat=True)):
        AgentPersonaVersion.objects.filter(pk=pk).update(
            created_at=now - timedelta(days=3 * i, hours=7 * i, minutes=13)
        )
    rebuild()


FILTERS = [
    FeedFilters(),
    FeedFilters(source="operator"),
    FeedFilters(source="host"),
    FeedFilters(source="learning"),
    FeedFilters(source="revert"),
    FeedFilters(source="restored"),
    FeedFilters(field="goals"),
    FeedFilters(field="guardrails", source="operator"),
    FeedFilters(source="revert", field="goals"),
    FeedFilters(agent="desk"),
]


@pytest.mark.parametrize("zone", ["UTC", "America/New_York", "Asia/Kolkata"])
def test_the_chart_from_the_counts_equals_the_chart_from_the_versions(history, zone):
    operator = make_user("olivia", role="operator", tenants=[history[0].tenant])
    root = make_user("root", superuser=True)
    _spread_over_weeks()
    today = timezone.localdate()
    spans = [
        FeedFilters(),
        FeedFilters(since=today - timedelta(days=9), until=today - timedelta(days=2)),
        FeedFilters(since=date(2020, 1, 1), until=today),
    ]
    with timezone.override(zoneinfo.ZoneInfo(zone)):
        for user in (operator, root):
            for f in FILTERS:
                for span in spans:
                    both = FeedFilters(**{**f.__dict__, "since": span.since, "until": span.until})
                    counted = weekly_activity(user, both, counted=True)
                    scanned = weekly_activity(user, both, counted=False)
                    assert counted == scanned, (zone, user.username, both)
    # the data is spread: the comparison above is not one of zeros
    weeks = weekly_activity(root, FeedFilters(since=date(2020, 1, 1)), counted=False)
    assert sum(1 for w in weeks if w.changes) >= 3
    assert sum(w.undone for w in weeks) == 1


def test_the_chart_reads_the_counts_not_the_versions(history, django_assert_num_queries):
    operator = make_user("olivia", role="operator", tenants=[history[0].tenant])
    # shift every version one week back without recounting: the counted chart still
    # shows them this week (it never scans the versions), the scanned one does not
    AgentPersonaVersion.objects.update(created_at=timezone.now() - timedelta(weeks=1))
    counted = weekly_activity(operator, FeedFilters(source="operator"), counted=True)
    scanned = weekly_activity(operator, FeedFilters(source="operator"), counted=False)
    assert counted[-1].changes > 0 and scanned[-1].changes == 0


@pytest.mark.postgres
@pytest.mark.skipif(connection.vendor != "postgresql", reason="needs PostgreSQL")
@pytest.mark.django_db(transaction=True)
def test_two_writers_at_once_on_one_tenant_both_count():
    tenant = TenantFactory(slug="race-counts")
    agents = [make_agent(tenant=tenant, slug=f"race-count-{i}") for i in range(2)]
    writes = 15
    barrier = threading.Barrier(2)
    errors: list[BaseException] = []

    def writer(agent_id: int) -> None:
        try:
            agent = Agent.objects.get(pk=agent_id)
            barrier.wait(timeout=30)
            for i in range(writes):
                edit(agent, goals=f"Goal {i} of {agent_id}.", background=f"Note {i}.")
        except BaseException as exc:  # noqa: BLE001 - reported by the test
            errors.append(exc)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=writer, args=(a.pk,)) for a in agents]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
    assert errors == []
    assert AgentPersonaVersion.objects.filter(agent__tenant=tenant).count() == 2 * (writes + 1)
    assert stored() == counted_from_versions()
