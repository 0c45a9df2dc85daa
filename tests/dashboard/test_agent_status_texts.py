"""The agent page's learning card says what is true now, never a stored message that
went stale."""

from __future__ import annotations

import pytest
from django.urls import reverse

from learning.services import proposal_apply, proposal_undo
from tests.builders import HX, MAX_QUERIES, add_proposal, add_review, learning_on
from tests.factories import make_agent, make_user

pytestmark = pytest.mark.django_db

WAITS = (
    "Proposed a standing rule from corrections in 2 conversations; it waits for a rule owner (rex)."
)


@pytest.fixture
def desk(tenant):
    agent = make_agent(tenant=tenant, slug="desk", name="Desk")
    learning_on(agent, standing_rules=True, rule_owners=["rex"])
    return agent


@pytest.fixture
def rex(tenant):
    return make_user("rex", role="reviewer", tenants=[tenant])


def rule_review(agent):
    proposal = add_proposal(agent, kind="rule")
    review = add_review(
        agent,
        outcome="proposed",
        reason=f"Goals/background: Nothing new since the last review. Standing rule: {WAITS}",
        proposal=proposal,
        details={
            "proposer": "local",
            "parts": {
                "sentence": {"reason": "Nothing new since the last review."},
                "rule": {"reason": WAITS, "proposal_id": proposal.pk},
            },
        },
        model_calls=1,
    )
    return proposal, review


def test_the_last_review_stops_saying_a_rule_waits_once_it_was_approved_and_undone(
    client, rex, desk
):
    client.force_login(rex)
    url = reverse("persona:agent", args=["desk"])
    proposal, _ = rule_review(desk)
    html = client.get(url).content.decode()
    assert "waits for a rule owner" in html and "No change waits for review" not in html
    proposal_apply(proposal=proposal, by="rex")
    html = client.get(url).content.decode()
    assert "waits for a rule owner" not in html
    assert "it was approved by rex as persona version 2" in html
    proposal.refresh_from_db()
    proposal_undo(proposal=proposal, by="rex")
    html = client.get(url).content.decode()
    assert "waits for a rule owner" not in html and "approved, then undone" in html
    assert "No change waits for review" in html
    # the offline proposer: no token count
    assert "the offline proposer, no model called" in html and "0 tokens in" not in html


def test_a_finished_review_tells_the_agent_page_to_refresh_its_learning_card(
    client, rex, desk, django_assert_max_num_queries
):
    client.force_login(rex)
    proposal, review = rule_review(desk)
    status = client.get(
        reverse("learning:review_status", args=["desk", review.pk]),
        {"origin": "agent"},
        HTTP_HX_TARGET="review-status",
        **HX,
    )
    assert "learning-changed" in status.headers.get("HX-Trigger", "")
    with django_assert_max_num_queries(MAX_QUERIES):
        card = client.get(
            reverse("persona:agent", args=["desk"]), HTTP_HX_TARGET="learning", **HX
        ).content.decode()
    assert card.lstrip().startswith('<section class="card" id="learning"')
    assert "<html" not in card
    assert f'id="proposal-{proposal.pk}"' in card and "No change waits for review" not in card
    # the card refreshes itself on the event, and the status poll never says it anywhere else
    assert 'hx-trigger="learning-changed from:body"' in card
    settings_status = client.get(
        reverse("learning:review_status", args=["desk", review.pk]),
        {"origin": "settings"},
        HTTP_HX_TARGET="review-status",
        **HX,
    )
    assert "learning-changed" not in settings_status.headers.get("HX-Trigger", "")


def test_the_settings_pages_recent_reviews_follow_the_proposals_state(client, rex, desk):
    client.force_login(rex)
    proposal, _ = rule_review(desk)
    url = reverse("learning:settings", args=["desk"])
    assert "it waits" in client.get(url).content.decode()
    proposal_apply(proposal=proposal, by="rex")
    html = client.get(url).content.decode()
    assert "it waits" not in html and "Proposed a standing rule; it was approved" in html
