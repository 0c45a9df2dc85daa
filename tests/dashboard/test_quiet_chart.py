"""The health page's "muted per month" chart: beliefs, learned lines and persona entries
muted, per month, for the tenants the viewer sees (a stacked chart a redaction series
can join)."""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from dashboard.views.health import quiet_chart
from memory.models import Principal
from memory.services_beliefs import belief_mute
from persona.mutes import entry_mute, line_mute, mute_undo
from persona.owner import owner_doc_write
from personaweb.actors import Actor
from tests.builders import LEARNED_SENTENCE, MAX_QUERIES, add_belief, add_learned_lines
from tests.factories import make_agent

pytestmark = pytest.mark.django_db
SYSTEM = Actor.system("test")
NOW = timezone.make_aware(datetime(2026, 12, 5, 12, 0))


@pytest.fixture
def muted(tenant, agent, other_tenant):
    add_learned_lines(agent)
    agent.refresh_from_db()
    ana = Principal.objects.create(tenant=tenant, external_id="ana")
    doc = owner_doc_write(principal=ana, expected_version=0, entries=[{"text": "Likes rye."}])
    assert doc is not None
    october = NOW - timedelta(days=50)
    belief_mute(belief=add_belief(agent, "Collects stamps."), by="olivia", now=october)
    belief_mute(belief=add_belief(agent, "Keeps bees."), by="olivia", now=NOW)
    line = line_mute(
        actor=SYSTEM, agent=agent, principal=ana, section="goals", text=LEARNED_SENTENCE, now=NOW
    )
    mute_undo(actor=SYSTEM, mute=line)  # an undone mute still counts in its month
    entry_mute(actor=SYSTEM, principal=ana, key=doc.entries.get().key, now=october)
    theirs = make_agent(tenant=other_tenant, slug="theirs")
    belief_mute(belief=add_belief(theirs, "Sails on weekends.", who="zed"), by="otto", now=NOW)
    return tenant


def row(chart, label):
    keys = [s.key for s in chart.series]
    values = next(r.values for r in chart.rows if r.label == label)
    return {k: v for k, v in zip(keys, values, strict=True) if v}


def test_the_chart_counts_each_kind_per_month_for_the_tenants_seen(muted):
    chart = quiet_chart([muted.pk], now=NOW)
    assert len(chart.rows) == 12 and chart.rows[-1].label == "December 2026"
    assert row(chart, "October 2026") == {"beliefs": 1, "entries": 1}
    assert row(chart, "December 2026") == {"beliefs": 1, "lines": 1}
    assert chart.total == 4
    assert quiet_chart(None, now=NOW).total == 5  # a superuser sees every tenant


def test_a_redaction_counts_in_its_month(muted, agent):
    from memory.models import Redaction

    Redaction.objects.create(
        tenant=muted,
        kind=Redaction.Kind.BELIEF,
        object_id=1,
        text_sha256="0" * 64,
        redacted_by="root",
        reason="asked by the person",
        redacted_at=NOW,
    )
    chart = quiet_chart([muted.pk], now=NOW)
    assert row(chart, "December 2026") == {"beliefs": 1, "lines": 1, "redacted": 1}
    assert [s.css for s in chart.segments][-3:] == [
        "series-beliefs",
        "series-lines",
        "series-redacted",
    ]


def test_the_health_page_draws_it_with_a_table(
    operator_client, muted, django_assert_max_num_queries
):
    with django_assert_max_num_queries(MAX_QUERIES):
        html = operator_client.get(reverse("memory:health")).content.decode()
    assert 'data-testid="quiet-chart"' in html and "Muted and redacted per month" in html
    assert '<th scope="col">Muted learned lines</th>' in html
