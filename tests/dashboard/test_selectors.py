from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from dashboard.selectors import home_counts
from personaweb.models import Heartbeat
from personaweb.tasks import heartbeat


@pytest.mark.django_db
def test_no_heartbeat_yet(operator) -> None:
    counts = home_counts(user=operator)
    assert counts.heartbeat_at is None
    assert counts.heartbeat_runs == 0
    assert not counts.heartbeat_stale


@pytest.mark.django_db
def test_recent_heartbeat_is_not_stale(operator) -> None:
    assert heartbeat() == 1
    assert heartbeat() == 2
    counts = home_counts(user=operator)
    assert counts.heartbeat_runs == 2
    assert not counts.heartbeat_stale


@pytest.mark.django_db
def test_old_heartbeat_is_stale_and_the_home_page_says_so(operator_client, operator) -> None:
    heartbeat()
    Heartbeat.objects.filter(name="beat").update(last_run_at=timezone.now() - timedelta(hours=2))
    assert home_counts(user=operator).heartbeat_stale
    html = operator_client.get(reverse("home")).content.decode()
    assert "seems to have stopped" in html


@pytest.mark.django_db
def test_anonymous_user_sees_no_tenant_data(tenant) -> None:
    from django.contrib.auth.models import AnonymousUser

    from tests.factories import make_agent

    make_agent(tenant=tenant, slug="hidden")
    counts = home_counts(user=AnonymousUser())
    assert counts.agents == 0
    assert counts.tenants == 0
