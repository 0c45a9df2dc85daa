"""Home counts as waiting for you only the proposals you may decide."""

from __future__ import annotations

import pytest
from django.urls import reverse

from dashboard.selectors import home_counts
from tests.builders import MAX_QUERIES, add_proposal, count_queries, learning_on
from tests.factories import make_agent, make_user


@pytest.fixture
def desk(tenant):
    agent = make_agent(tenant=tenant, slug="helper", name="Helper")
    learning_on(agent, standing_rules=True, rule_owners=["ana"])
    add_proposal(agent)
    add_proposal(agent, kind="rule")
    add_proposal(agent, kind="rule", text="Write times in the 24-hour clock.")
    return agent


@pytest.fixture
def ana(tenant):
    return make_user("ana", role="reviewer", tenants=[tenant])


@pytest.mark.django_db
def test_rules_owned_by_someone_else_do_not_wait_for_a_reviewer(reviewer_client, reviewer, desk):
    counts = home_counts(user=reviewer)
    assert counts.proposals_waiting == 3 and counts.proposals_for_you == 1
    html = reviewer_client.get(reverse("home")).content.decode()
    assert "1 proposed change waits for you." in html
    assert "1 for you to decide" in html


@pytest.mark.django_db
def test_a_rule_owner_has_every_proposal_waiting_for_them(client, desk, ana):
    assert home_counts(user=ana).proposals_for_you == 3
    client.force_login(ana)
    assert "3 proposed changes wait for you." in client.get(reverse("home")).content.decode()


@pytest.mark.django_db
def test_nothing_waits_for_a_login_that_may_not_decide(client, tenant, desk):
    viewer = make_user("vic", tenants=[tenant])
    assert home_counts(user=viewer).proposals_for_you == 0
    client.force_login(viewer)
    html = client.get(reverse("home")).content.decode()
    assert "wait for you." not in html and "change waits for you" not in html
    assert "Nothing waits for you." in html


@pytest.mark.django_db
def test_home_query_count_does_not_grow_with_agents_and_proposals(
    reviewer_client, tenant, desk, django_assert_max_num_queries
):
    url = reverse("home")
    small = count_queries(reviewer_client, url)
    for i in range(8):
        agent = make_agent(tenant=tenant, slug=f"more-{i}")
        learning_on(agent, standing_rules=True, rule_owners=["ana"] if i % 2 else [])
        add_proposal(agent)
        add_proposal(agent, kind="rule")
    assert count_queries(reviewer_client, url) == small
    with django_assert_max_num_queries(MAX_QUERIES):
        reviewer_client.get(url)


@pytest.mark.django_db
def test_rules_of_agents_with_other_owners_are_not_counted_for_an_owner_of_one(
    tenant, desk, ana
) -> None:
    other = make_agent(tenant=tenant, slug="other-helper", name="Other helper")
    learning_on(other, standing_rules=True, rule_owners=["bo"])
    add_proposal(other)
    add_proposal(other, kind="rule")
    unowned = make_agent(tenant=tenant, slug="free-helper", name="Free helper")
    learning_on(unowned, standing_rules=True)
    add_proposal(unowned, kind="rule")
    # desk: 1 sentence + 2 rules ana owns; other: 1 sentence (rule owned by bo); unowned: 1 rule
    assert home_counts(user=ana).proposals_for_you == 3 + 1 + 1
