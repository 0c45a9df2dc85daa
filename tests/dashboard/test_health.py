"""The Memory health page: latest findings per tenant, remedies, the chart, and who may act."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from memory.audit import audit_tenants
from memory.models import Belief
from tests.builders import MAX_QUERIES, add_belief
from tests.factories import make_agent

pytestmark = pytest.mark.django_db


def _expired(agent, statement: str) -> Belief:
    belief = add_belief(agent, statement, category="state")
    Belief.objects.filter(pk=belief.pk).update(valid_until=timezone.now() - timedelta(days=3))
    return belief


def test_before_any_check_the_page_says_how_to_run_one(operator_client):
    page = operator_client.get(reverse("memory:health")).content.decode()
    assert "No health check has run yet" in page
    assert "python manage.py memory audit" in page


def test_findings_are_listed_with_their_remedies_in_constant_queries(
    operator_client, agent, tenant, django_assert_max_num_queries
):
    for statement in ("Is travelling to Oslo.", "Has a cold this week.", "Is moving desks."):
        _expired(agent, statement)
    audit_tenants(scan=False)
    audit_tenants(scan=False, now=timezone.now() - timedelta(days=1))
    with django_assert_max_num_queries(MAX_QUERIES):
        page = operator_client.get(reverse("memory:health")).content.decode()
    assert "Expired but still active" in page
    assert "Has a cold this week." in page
    assert page.count('value="retire"') == 3
    assert "Findings per day of the health check" in page  # the chart and its table
    assert "<svg" in page and 'role="img"' in page


def test_a_reviewer_sees_the_findings_but_no_buttons(reviewer_client, agent):
    _expired(agent, "Is on jury service.")
    audit_tenants(scan=False)
    page = reviewer_client.get(reverse("memory:health")).content.decode()
    assert "Is on jury service." in page
    assert 'value="retire"' not in page and "Run the check now" not in page
    belief = Belief.objects.get(statement="Is on jury service.")
    response = reviewer_client.post(
        reverse("memory:health_fix"), {"action": "retire", "belief": belief.pk}
    )
    assert response.status_code == 403
    belief.refresh_from_db()
    assert belief.status == Belief.Status.ACTIVE


def test_retiring_from_the_page_ends_the_belief_and_takes_it_off_the_list(operator_client, agent):
    belief = _expired(agent, "Is moving house in May.")
    audit_tenants(scan=False)
    response = operator_client.post(
        reverse("memory:health_fix"), {"action": "retire", "belief": belief.pk}, follow=True
    )
    belief.refresh_from_db()
    assert belief.status == Belief.Status.RETIRED
    page = response.content.decode()
    assert "Retired" in page
    assert "Is moving house in May." not in page
    assert "All of these have been dealt with" in page


def test_merging_from_the_page_folds_the_twin_into_the_earlier_belief(operator_client, agent):
    first = add_belief(agent, "Takes the train to work.")
    twin = add_belief(agent, "Has a season ticket.")
    Belief.objects.filter(pk=twin.pk).update(statement="takes the train to work")
    audit_tenants(scan=False)
    operator_client.post(
        reverse("memory:health_fix"), {"action": "merge", "belief": twin.pk, "into": first.pk}
    )
    twin.refresh_from_db()
    assert twin.status == Belief.Status.SUPERSEDED and twin.superseded_by_id == first.pk


def test_another_tenants_belief_is_not_found(operator_client, other_tenant):
    elsewhere = make_agent(tenant=other_tenant, slug="away")
    theirs = _expired(elsewhere, "Is abroad.")
    audit_tenants(scan=False)
    assert "Is abroad." not in operator_client.get(reverse("memory:health")).content.decode()
    response = operator_client.post(
        reverse("memory:health_fix"), {"action": "retire", "belief": theirs.pk}
    )
    assert response.status_code == 404
    theirs.refresh_from_db()
    assert theirs.status == Belief.Status.ACTIVE


def test_run_now_queues_the_check_for_the_operators_tenants(
    operator_client, tenant, monkeypatch, django_capture_on_commit_callbacks
):
    queued = []
    monkeypatch.setattr("memory.tasks.audit_memory.delay", lambda tids: queued.append(tids))
    with django_capture_on_commit_callbacks(execute=True):
        response = operator_client.post(reverse("memory:health_run"), follow=True)
    assert queued == [[tenant.pk]]
    assert "running in the background" in response.content.decode()
