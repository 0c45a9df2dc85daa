"""In a real browser: approving a goals sentence leaves a waiting standing rule in the
queue, its card still offered for approval on the same page (an approval drops only the
waiting sentences of the field it writes)."""

from __future__ import annotations

from learning.models import Proposal
from tests.builders import add_conversations, add_proposal, evidence_for, learning_on
from tests.factories import make_agent


def test_approving_a_sentence_leaves_the_waiting_rule_to_approve(
    page, live_server, login, reviewer, tenant, check_page
):
    desk = make_agent(tenant=tenant, slug="desk", name="Desk")
    learning_on(desk, standing_rules=True)
    proof = evidence_for(add_conversations(desk, n=3))
    sentence = add_proposal(desk, evidence=proof)
    rule = add_proposal(desk, kind="rule", evidence=proof)

    login(page, live_server, reviewer.username, "pw-" + reviewer.username)
    page.goto(f"{live_server.url}/learning/queue/")
    card = page.locator(f"#proposal-{sentence.pk}")
    card.wait_for()
    assert "drops" not in card.inner_text()
    check_page(page, "queue-drops")

    card.get_by_role("button", name="Approve").click()
    card.locator(".decision").wait_for()
    assert "Approved for Desk" in card.inner_text()
    waiting = page.locator(f"#proposal-{rule.pk}")
    assert "Dropped" not in waiting.inner_text()
    assert Proposal.objects.get(pk=rule.pk).status == Proposal.Status.WAITING

    waiting.get_by_role("button", name="Approve").click()
    waiting.locator(".decision").wait_for()
    assert "Rule approved for Desk" in waiting.inner_text()
    assert Proposal.objects.get(pk=rule.pk).status == Proposal.Status.APPLIED
