"""No silent drops in the queue: a card says how many other waiting proposals its
approval drops, and the approval redraws their rows (no stale Approve button stays)."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from learning.models import Proposal
from learning.selectors import approval_drop_counts, proposals_a_change_drops
from tests.builders import HX, add_conversations, add_proposal, count_queries, evidence_for
from tests.factories import make_agent

pytestmark = pytest.mark.django_db


@pytest.fixture
def desk(tenant):
    from tests.builders import learning_on

    agent = make_agent(tenant=tenant, slug="desk", name="Desk")
    learning_on(agent, standing_rules=True)
    return agent


def card(html: str, pk: int) -> str:
    m = re.search(rf'<li class="qrow[^"]*" id="proposal-{pk}".*?</li>', html, re.S)
    assert m, pk
    return m.group(0)


def waiting_trio(agent):
    proof = evidence_for(add_conversations(agent, n=3))
    # one waiting sentence per assistant (a constraint); rules may wait beside it
    first = add_proposal(agent, evidence=proof)
    second = add_proposal(agent, kind="rule", text="Say prices with the currency.", evidence=proof)
    rule = add_proposal(agent, kind="rule", evidence=proof)
    return first, second, rule


def test_the_counts_follow_the_one_drop_rule(desk, tenant):
    first, second, rule = waiting_trio(desk)
    other_agent = make_agent(tenant=tenant, slug="other", name="Other")
    alone = add_proposal(other_agent)
    counts = approval_drop_counts([first, second, rule, alone])
    for p in (first, second, rule, alone):
        expected = proposals_a_change_drops(
            agent=p.agent, source_type=p.persona_source_type, proposal_id=p.pk
        ).count()
        assert counts[p.pk] == expected
    assert counts == {first.pk: 2, second.pk: 1, rule.pk: 1, alone.pk: 0}


def test_a_card_says_what_its_approval_drops(reviewer_client, desk):
    first, _, _ = waiting_trio(desk)
    html = reviewer_client.get(reverse("learning:queue")).content.decode()
    row = card(html, first.pk)
    assert "Approving it also drops 2 other waiting proposals for Desk" in row
    assert row.index("drops-note") < row.index('data-action="approve"')


def test_an_approval_redraws_the_rows_it_dropped_out_of_band(reviewer_client, desk):
    first, second, rule = waiting_trio(desk)
    response = reviewer_client.post(reverse("learning:proposal_apply", args=[first.pk]), **HX)
    html = response.content.decode()
    assert response.status_code == 200
    assert Proposal.objects.get(pk=second.pk).status == Proposal.Status.DROPPED
    assert Proposal.objects.get(pk=rule.pk).status == Proposal.Status.DROPPED
    main = card(html, first.pk)
    assert "hx-swap-oob" not in main and "Approved for Desk" in main
    for dropped in (second, rule):
        row = card(html, dropped.pk)
        assert 'hx-swap-oob="outerHTML"' in row
        assert "Dropped" in row and 'data-action="approve"' not in row


def test_a_rule_approval_keeps_the_other_rules_and_says_so(reviewer_client, desk):
    first, second, rule = waiting_trio(desk)
    html = reviewer_client.get(reverse("learning:queue")).content.decode()
    assert "drops 1 other waiting proposal for Desk: it was made" in card(html, rule.pk)
    Proposal.objects.filter(pk=first.pk).delete()
    html = reviewer_client.get(reverse("learning:queue")).content.decode()
    assert "drops-note" not in card(html, rule.pk)


def test_the_queue_keeps_a_constant_query_count_with_drop_counts(reviewer_client, desk, tenant):
    waiting_trio(desk)
    few = count_queries(reviewer_client, reverse("learning:queue"))
    for i in range(4):
        agent = make_agent(tenant=tenant, slug=f"more-{i}", name=f"More {i}")
        add_proposal(agent)
        add_proposal(agent, kind="rule", text=f"Name shop {i} in full.")
    assert count_queries(reviewer_client, reverse("learning:queue")) == few
