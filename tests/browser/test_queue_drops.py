"""In a real browser: a queue card says what its approval drops, and approving redraws
the dropped card in place (no stale Approve button to press)."""

from __future__ import annotations

from learning.models import Proposal
from tests.builders import add_conversations, add_proposal, evidence_for, learning_on
from tests.factories import make_agent


def test_approving_redraws_the_card_it_dropped(
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
    assert "Approving it also drops 1 other waiting proposal for Desk" in card.inner_text()
    check_page(page, "queue-drops")

    card.get_by_role("button", name="Approve").click()
    dropped = page.locator(f"#proposal-{rule.pk}")
    dropped.locator(".decision").wait_for()
    assert "Dropped" in dropped.inner_text()
    assert dropped.get_by_role("button", name="Approve").count() == 0
    assert "Approved for Desk" in page.locator(f"#proposal-{sentence.pk}").inner_text()
    assert Proposal.objects.get(pk=rule.pk).status == Proposal.Status.DROPPED
