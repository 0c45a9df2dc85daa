"""Each queue card says who may decide it and what backs it against the settings."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from learning.selectors import proposal_backing
from tests.builders import HX, MAX_QUERIES, add_proposal, count_queries, learning_on
from tests.factories import make_agent, make_user

pytestmark = pytest.mark.django_db


@pytest.fixture
def desk(tenant):
    agent = make_agent(tenant=tenant, slug="desk", name="Desk")
    learning_on(
        agent,
        standing_rules=True,
        rule_owners=["ana"],
        across_users=True,
        min_users=2,
        min_conversations=3,
        min_corrections=2,
    )
    return agent


def evidence(*pairs):
    return [
        {"quote": "q", "conversation_id": conv, "principal_id": who, "user": f"p{who}"}
        for conv, who in pairs
    ]


def card(html: str, pk: int) -> str:
    m = re.search(rf'<li class="qrow[^"]*" id="proposal-{pk}".*?</li>', html, re.S)
    assert m, pk
    return m.group(0)


def test_a_reviewer_who_is_no_rule_owner_sees_who_decides_before_any_key(reviewer_client, desk):
    rule = add_proposal(desk, kind="rule", evidence=evidence((1, 1), (2, 2)))
    html = reviewer_client.get(reverse("learning:queue")).content.decode()
    row = card(html, rule.pk)
    assert "not yours to decide" in row
    assert "Only its rule owners (ana) decide this rule." in row
    assert "are not offered to you" in row
    assert 'data-action="approve"' not in row and 'data-action="dismiss"' not in row
    # said above the proposal, before its text
    assert row.index("deciders") < row.index("proposal-text")


def test_a_rule_owner_sees_the_card_is_theirs(client, tenant, desk):
    client.force_login(make_user("ana", role="reviewer", tenants=[tenant]))
    rule = add_proposal(desk, kind="rule", evidence=evidence((1, 1), (2, 2)))
    row = card(client.get(reverse("learning:queue")).content.decode(), rule.pk)
    assert "yours to decide" in row and "You are one of its rule owners (ana)." in row
    assert 'data-action="approve"' in row


def test_a_card_says_how_many_conversations_and_people_back_it_against_the_settings(
    reviewer_client, desk
):
    sentence = add_proposal(desk, evidence=evidence((1, 1), (2, 1), (3, 2)))
    rule = add_proposal(desk, kind="rule", evidence=evidence((4, 1), (5, 1)))
    html = reviewer_client.get(reverse("learning:queue")).content.decode()
    row = card(html, sentence.pk)
    assert "Backed by <strong>3 conversations</strong> (needs 3: min conversations)" in row
    assert "<strong>2 people</strong> (team mode needs 2: min users)" in row
    assert "below the settings now" not in row
    row = card(html, rule.pk)
    assert "<strong>2 conversations</strong> (needs 2: min corrections)" in row
    assert "<strong>1 person</strong>" in row and "below the settings now" in row


def test_backing_in_single_person_mode_asks_for_no_people():
    class Settings:
        across_users = False
        min_conversations = 3
        min_corrections = 2
        min_users = 2

    class P:
        kind = "sentence"
        evidence = evidence((1, 1), (2, 1), (2, 1), (3, 1))

    b = proposal_backing(P(), Settings())
    assert b == {
        "conversations": 3,
        "people": 1,
        "needed_conversations": 3,
        "conversations_setting": "min conversations",
        "needed_people": 0,
        "team": False,
        "enough": True,
    }


def test_the_queue_query_count_does_not_grow_with_cards(
    reviewer_client, tenant, desk, django_assert_max_num_queries
):
    url = reverse("learning:queue")
    add_proposal(desk, kind="rule", evidence=evidence((1, 1)))
    small = count_queries(reviewer_client, url)
    for i in range(6):
        agent = make_agent(tenant=tenant, slug=f"more-{i}")
        learning_on(agent, standing_rules=True, rule_owners=["ana"], across_users=True)
        add_proposal(agent, evidence=evidence((1, 1), (2, 2)))
        add_proposal(agent, kind="rule", evidence=evidence((3, 1)))
    assert count_queries(reviewer_client, url) == small
    with django_assert_max_num_queries(MAX_QUERIES):
        reviewer_client.get(url, HTTP_HX_TARGET="queue-list", **HX)
