"""No silent drops in the queue: a card says how many other waiting proposals its
approval drops (only the sentences of the field it writes), and a decision redraws the
rows it dropped (no stale Approve button stays)."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from learning.models import Proposal
from learning.selectors import approval_drop_counts, proposals_a_change_drops
from persona.models import SourceType
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


def applied_sentence_and_another_waiting(agent, reviewer):
    """An approved goals sentence, and the next goals sentence waiting: what undoing the
    first drops (it writes the field the second was made against)."""
    from learning.services import proposal_apply
    from tenancy.access import actor_for_user

    proof = evidence_for(add_conversations(agent, n=3))
    applied = proposal_apply(
        proposal=add_proposal(agent, evidence=proof), by=actor_for_user(reviewer)
    )
    agent.refresh_from_db()
    waiting = add_proposal(agent, text="Drafts glaze orders for market stalls.", evidence=proof)
    return applied, waiting


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
    # a sentence's approval writes its field only, a rule's the rules only: neither drops
    assert counts == {first.pk: 0, second.pk: 0, rule.pk: 0, alone.pk: 0}


def test_a_person_s_change_still_drops_every_waiting_proposal(desk):
    first, second, rule = waiting_trio(desk)
    dropped = proposals_a_change_drops(agent=desk, source_type=SourceType.UI_FORM)
    assert list(dropped) == [first, second, rule]


def test_no_card_warns_of_drops_when_an_approval_writes_no_field_they_wait_on(
    reviewer_client, desk
):
    first, second, rule = waiting_trio(desk)
    html = reviewer_client.get(reverse("learning:queue")).content.decode()
    for p in (first, second, rule):
        assert "drops-note" not in card(html, p.pk)


def test_a_sentence_approval_leaves_the_waiting_rules_on_the_page(reviewer_client, desk):
    first, second, rule = waiting_trio(desk)
    response = reviewer_client.post(reverse("learning:proposal_apply", args=[first.pk]), **HX)
    html = response.content.decode()
    assert response.status_code == 200
    assert "Approved for Desk" in card(html, first.pk)
    assert "hx-swap-oob" not in html
    for p in (second, rule):
        assert Proposal.objects.get(pk=p.pk).status == Proposal.Status.WAITING
    response = reviewer_client.post(reverse("learning:proposal_apply", args=[rule.pk]), **HX)
    assert "Rule approved for Desk" in card(response.content.decode(), rule.pk)
    assert Proposal.objects.get(pk=rule.pk).status == Proposal.Status.APPLIED


def test_an_undo_redraws_the_rows_it_dropped_out_of_band(reviewer_client, reviewer, desk):
    applied, waiting = applied_sentence_and_another_waiting(desk, reviewer)
    response = reviewer_client.post(reverse("learning:proposal_undo", args=[applied.pk]), **HX)
    html = response.content.decode()
    assert response.status_code == 200
    assert Proposal.objects.get(pk=waiting.pk).status == Proposal.Status.DROPPED
    assert "hx-swap-oob" not in card(html, applied.pk)
    row = card(html, waiting.pk)
    assert 'hx-swap-oob="outerHTML"' in row
    assert "Dropped" in row and 'data-action="approve"' not in row


def test_the_queue_keeps_a_constant_query_count_with_drop_counts(reviewer_client, desk, tenant):
    waiting_trio(desk)
    few = count_queries(reviewer_client, reverse("learning:queue"))
    for i in range(4):
        agent = make_agent(tenant=tenant, slug=f"more-{i}", name=f"More {i}")
        add_proposal(agent)
        add_proposal(agent, kind="rule", text=f"Name shop {i} in full.")
    assert count_queries(reviewer_client, reverse("learning:queue")) == few
