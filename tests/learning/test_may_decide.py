"""Who may decide a proposal: one rule (``learning.owners.decide_refusal``) for the
services, the API and the pages, which draw Approve / Edit / Turn down only for those
who may decide and otherwise say who does."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import AnonymousUser
from django.urls import reverse

from learning.owners import decide_refusal, may_decide
from learning.selectors import proposals_waiting_for
from personaweb.actors import LEARNING_DECIDE, LEARNING_READ, Actor
from tenancy.access import actor_for_user
from tenancy.models import Agent
from tests.builders import (
    HX,
    MAX_QUERIES,
    add_conversations,
    add_proposal,
    count_queries,
    evidence_for,
    learning_on,
)
from tests.factories import make_agent, make_user


@pytest.fixture
def desk(tenant):
    agent = make_agent(tenant=tenant, slug="helper", name="Helper")
    learning_on(agent, standing_rules=True, rule_owners=["ana", "bo"])
    return Agent.objects.get(pk=agent.pk)  # its learning settings as a page reads them


@pytest.fixture
def ana(tenant):
    return make_user("ana", role="reviewer", tenants=[tenant])


def proposals(desk, evidence=None):
    return (
        add_proposal(desk, evidence=evidence),
        add_proposal(desk, kind="rule", evidence=evidence),
    )


def approve_buttons(html: str, proposal) -> int:
    row = re.search(rf'<li class="qrow[^"]*" id="proposal-{proposal.pk}".*?</li>', html, re.S)
    assert row is not None
    return row.group(0).count('data-action="approve"')


# --- the rule -----------------------------------------------------------------------------


@pytest.mark.django_db
def test_a_reviewer_who_is_no_rule_owner_may_decide_a_sentence_but_not_a_rule(desk, reviewer, ana):
    sentence, rule = proposals(desk)
    rita = actor_for_user(reviewer)
    assert may_decide(rita, sentence) and not may_decide(rita, rule)
    assert decide_refusal(rita, agent=desk, kind="rule") == (
        "Only a rule owner (ana, bo) may decide a standing rule; rita is not one."
    )
    owner = actor_for_user(ana)
    assert may_decide(owner, sentence) and may_decide(owner, rule)


@pytest.mark.django_db
def test_with_no_rule_owners_any_reviewer_of_the_tenant_decides_a_rule(tenant, reviewer):
    agent = make_agent(tenant=tenant, slug="open")
    learning_on(agent, standing_rules=True, rule_owners=[])
    assert may_decide(actor_for_user(reviewer), add_proposal(agent, kind="rule"))


@pytest.mark.django_db
def test_nobody_outside_the_tenant_or_without_a_role_decides(desk, other_tenant, tenant):
    sentence, rule = proposals(desk)
    stranger = make_user("ana", role="reviewer", tenants=[other_tenant])  # a rule owner's name
    viewer = make_user("vic", tenants=[tenant])
    for user in (stranger, viewer, AnonymousUser()):
        actor = actor_for_user(user)
        assert not may_decide(actor, sentence) and not may_decide(actor, rule)
    assert "another tenant" in decide_refusal(actor_for_user(stranger), agent=desk, kind="sentence")
    assert "needs learning.decide" in decide_refusal(actor_for_user(viewer), agent=desk, kind=None)


@pytest.mark.django_db
def test_an_inactive_account_decides_nothing(desk, ana):
    ana.is_active = False
    ana.save()
    assert not any(may_decide(actor_for_user(ana), p) for p in proposals(desk))


@pytest.mark.django_db
def test_a_token_decides_only_as_a_bound_person_with_the_scope(desk, tenant, reviewer, ana):
    sentence, rule = proposals(desk)

    def token(user, scopes=(LEARNING_DECIDE,)):
        return Actor(
            kind="token",
            name="token:t",
            tenant_ids=frozenset({tenant.pk}),
            capabilities=frozenset(scopes),
            user=user,
        )

    assert decide_refusal(token(None), agent=desk, kind="sentence") == (
        "Decisions need a token bound to a person (--user); this one is not."
    )
    assert not may_decide(token(ana, scopes=(LEARNING_READ,)), sentence)
    assert may_decide(token(reviewer), sentence) and not may_decide(token(reviewer), rule)
    assert may_decide(token(ana), rule)


@pytest.mark.django_db
def test_the_automatic_approver_decides_sentences_and_never_rules(desk):
    sentence, rule = proposals(desk)
    beat = Actor.system("learning")
    assert may_decide(beat, sentence) and not may_decide(beat, rule)


# --- actor_for_user -----------------------------------------------------------------------


@pytest.mark.django_db
def test_a_logins_actor_has_its_roles_capabilities_in_its_tenants(
    tenant, other_tenant, reviewer, operator
):
    rita = actor_for_user(reviewer)
    assert rita.kind == "user" and rita.name == "rita" and rita.user == reviewer
    assert rita.capabilities == {LEARNING_READ, LEARNING_DECIDE}
    assert rita.tenant_ids == {tenant.pk}
    olivia = actor_for_user(operator)
    assert {"host", "memory.read", "memory.write", LEARNING_DECIDE} <= olivia.capabilities
    root = actor_for_user(make_user("root", superuser=True))
    assert root.tenant_ids is None and olivia.capabilities <= root.capabilities
    assert root.reaches_tenant(other_tenant.pk)
    nobody = actor_for_user(AnonymousUser())
    assert nobody.capabilities == frozenset() and nobody.tenant_ids == frozenset()


@pytest.mark.django_db
def test_building_an_actor_reads_roles_and_tenants_once(reviewer, desk, django_assert_num_queries):
    with django_assert_num_queries(2):  # groups, memberships
        actor = actor_for_user(reviewer)
    with django_assert_num_queries(0):
        assert actor_for_user(reviewer).capabilities == actor.capabilities
        assert actor.reaches_agent(desk)


# --- the pages draw buttons from it ---------------------------------------------------------


@pytest.mark.django_db
def test_the_queue_shows_a_non_owner_approve_on_a_sentence_and_who_decides_a_rule(
    reviewer_client, desk
):
    sentence, rule = proposals(desk)
    html = reviewer_client.get(reverse("learning:queue")).content.decode()
    assert approve_buttons(html, sentence) == 1
    assert approve_buttons(html, rule) == 0
    assert "Only its rule owners (ana, bo) decide this rule." in html
    assert html.count("Edit the wording, then approve") == 1
    assert html.count('data-action="dismiss"') == 1


@pytest.mark.django_db
def test_the_queue_shows_a_rule_owner_every_button(client, desk, ana):
    sentence, rule = proposals(desk)
    client.force_login(ana)
    html = client.get(reverse("learning:queue")).content.decode()
    assert approve_buttons(html, sentence) == 1 and approve_buttons(html, rule) == 1
    assert "decide this rule" not in html


@pytest.mark.django_db
def test_a_refused_rule_row_comes_back_without_buttons(reviewer_client, desk):
    _, rule = proposals(desk)
    html = reviewer_client.post(
        reverse("learning:proposal_apply", args=[rule.pk]), **HX
    ).content.decode()
    assert "The rule keeps waiting." in html
    assert 'data-action="approve"' not in html
    assert "Only its rule owners (ana, bo) decide this rule." in html


@pytest.mark.django_db
def test_the_agent_page_draws_buttons_only_for_what_the_user_may_decide(
    reviewer_client, client, desk, ana
):
    proposals(desk)
    url = reverse("persona:agent", args=["helper"])
    html = reviewer_client.get(url).content.decode()
    assert html.count('data-action="approve"') == 1
    assert "Only its rule owners (ana, bo) decide this rule." in html
    client.force_login(ana)
    assert client.get(url).content.decode().count('data-action="approve"') == 2


@pytest.mark.django_db
def test_the_review_status_page_draws_no_approve_for_a_rule_the_user_may_not_decide(
    reviewer_client, desk
):
    from tests.builders import add_review

    _, rule = proposals(desk)
    review = add_review(desk, outcome="proposed", reason="Proposed a rule.", proposal=rule)
    html = reviewer_client.get(
        reverse("learning:review_status", args=["helper", review.pk]), **HX
    ).content.decode()
    assert rule.text in html and 'data-action="approve"' not in html


@pytest.mark.django_db
def test_the_queue_asks_the_rule_without_a_query_per_row(
    reviewer_client, tenant, desk, django_assert_max_num_queries
):
    url = reverse("learning:queue")
    messages = add_conversations(desk, n=3)
    proposals(desk, evidence=evidence_for(messages))
    small = count_queries(reviewer_client, url)
    for i in range(8):
        agent = make_agent(tenant=tenant, slug=f"more-{i}")
        learning_on(agent, standing_rules=True, rule_owners=["ana"] if i % 2 else [])
        add_proposal(agent, evidence=evidence_for(messages))
        add_proposal(agent, kind="rule", evidence=evidence_for(messages))
    assert count_queries(reviewer_client, url) == small
    with django_assert_max_num_queries(MAX_QUERIES):
        reviewer_client.get(url)


# --- what waits for whom --------------------------------------------------------------------


@pytest.mark.django_db
def test_proposals_waiting_for_counts_only_what_the_actor_may_decide(
    tenant, other_tenant, desk, reviewer, ana, django_assert_max_num_queries
):
    proposals(desk)
    add_proposal(desk, kind="rule", text="Write times in the 24-hour clock.")
    open_desk = make_agent(tenant=tenant, slug="open")
    learning_on(open_desk, standing_rules=True, rule_owners=[])
    add_proposal(open_desk, kind="rule")
    add_proposal(make_agent(tenant=other_tenant, slug="away"))
    rita, owner = actor_for_user(reviewer), actor_for_user(ana)
    with django_assert_max_num_queries(1):
        assert proposals_waiting_for(rita) == 2  # desk's sentence, open's rule
    assert proposals_waiting_for(owner) == 4  # and desk's two rules
    assert proposals_waiting_for(actor_for_user(AnonymousUser())) == 0
