"""Learning pages: settings with Review now and its live status, the review queue with
in-place decisions, the review log; CSRF on the POST actions."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from learning.models import LearningSettings, Proposal, Review
from persona.models import AgentPersonaVersion
from tests.builders import (
    HX,
    MAX_QUERIES,
    add_conversations,
    add_proposal,
    add_review,
    count_queries,
    evidence_for,
    learning_on,
)
from tests.factories import make_agent, make_user


@pytest.fixture
def desk(tenant):
    agent = make_agent(tenant=tenant, slug="helper", name="Helper")
    learning_on(agent, standing_rules=True, rule_owners=["rex"])
    return agent


@pytest.fixture
def rex(tenant):
    return make_user("rex", role="reviewer", tenants=[tenant])


# --- settings ------------------------------------------------------------------------------

SETTINGS = {
    "mode": "on-with-review",
    "every_n_turns": "10",
    "every_hours": "0",
    "min_conversations": "3",
    "max_threads": "8",
    "max_messages_per_thread": "40",
    "min_users": "2",
    "min_corrections": "2",
    "rule_owners": "rex, olivia",
    "proposer": "local",
    "model_base_url": "",
    "model_name": "",
    "standing_rules": "on",
}


@pytest.mark.django_db
def test_settings_form_shows_every_field_with_limits(operator_client, desk):
    html = operator_client.get(reverse("learning:settings", args=["helper"])).content.decode()
    for name in (
        "mode",
        "every_n_turns",
        "every_hours",
        "min_conversations",
        "max_threads",
        "max_messages_per_thread",
        "across_users",
        "min_users",
        "standing_rules",
        "min_corrections",
        "rule_owners",
        "proposer",
        "model_base_url",
        "model_name",
    ):
        assert f'name="{name}"' in html, name
    assert 'min="2"' in html and 'max="50"' in html
    assert "Review now" in html


@pytest.mark.django_db
def test_operator_saves_settings(operator_client, desk, rex):
    response = operator_client.post(reverse("learning:settings", args=["helper"]), SETTINGS)
    assert response.status_code == 302
    settings = LearningSettings.objects.get(agent=desk)
    assert settings.every_n_turns == 10 and settings.every_hours == 0
    assert settings.rule_owners == ["rex", "olivia"]
    assert settings.standing_rules is True and settings.across_users is False


@pytest.mark.django_db
def test_settings_refuse_values_below_the_lowest(operator_client, desk):
    data = {**SETTINGS, "min_conversations": "1", "rule_owners": "nobody-here"}
    response = operator_client.post(reverse("learning:settings", args=["helper"]), data)
    html = response.content.decode()
    assert response.status_code == 200
    assert "min_conversations is 1; the lowest allowed value is 2." in html
    assert "No account is called nobody-here" in html
    assert LearningSettings.objects.get(agent=desk).min_conversations == 3


@pytest.mark.django_db
def test_reviewer_reads_settings_but_cannot_save(reviewer_client, desk):
    url = reverse("learning:settings", args=["helper"])
    html = reviewer_client.get(url).content.decode()
    assert "Only an operator can change these settings" in html
    assert "disabled" in html
    assert reviewer_client.post(url, SETTINGS).status_code == 403


@pytest.mark.django_db
def test_settings_query_count(operator_client, desk, django_assert_max_num_queries):
    url = reverse("learning:settings", args=["helper"])
    small = count_queries(operator_client, url)
    for _ in range(8):
        add_review(desk)
    assert count_queries(operator_client, url) == small
    with django_assert_max_num_queries(MAX_QUERIES):
        operator_client.get(url, **HX)


# --- Review now and its status ------------------------------------------------------------


@pytest.mark.django_db
def test_review_now_with_htmx_returns_a_polling_status(operator_client, desk):
    response = operator_client.post(
        reverse("learning:review_now", args=["helper"]), {"origin": "agent"}, **HX
    )
    html = response.content.decode()
    review = Review.objects.get(agent=desk)
    assert review.status == "queued" and review.requested_by == "olivia"
    assert 'id="review-status"' in html and 'hx-trigger="every 1s"' in html
    assert f"/learning/helper/reviews/{review.pk}/?origin=agent" in html
    # a second click returns the same review
    operator_client.post(reverse("learning:review_now", args=["helper"]), **HX)
    assert Review.objects.filter(agent=desk).count() == 1


@pytest.mark.django_db
def test_review_now_without_htmx_redirects_to_the_status_page(operator_client, desk):
    response = operator_client.post(reverse("learning:review_now", args=["helper"]))
    review = Review.objects.get(agent=desk)
    assert response.status_code == 302
    assert response["Location"].startswith(
        reverse("learning:review_status", args=["helper", review.pk])
    )


@pytest.mark.django_db
def test_review_status_stops_polling_when_done_and_says_why(operator_client, desk):
    review = add_review(desk, outcome="nothing_to_do", reason="Nothing new since the last review.")
    url = reverse("learning:review_status", args=["helper", review.pk])
    part = operator_client.get(url, **HX).content.decode()
    assert "hx-trigger" not in part
    assert "Nothing new since the last review." in part and "nothing to do" in part
    assert "<html" not in part
    assert "<html" in operator_client.get(url).content.decode()


@pytest.mark.django_db
def test_review_status_shows_the_proposal_with_quotes(operator_client, desk):
    messages = add_conversations(desk, n=3)
    proposal = add_proposal(desk, evidence=evidence_for(messages))
    review = add_review(
        desk, outcome="proposed", reason="Proposed one sentence.", proposal=proposal
    )
    part = operator_client.get(
        reverse("learning:review_status", args=["helper", review.pk]), {"origin": "agent"}, **HX
    ).content.decode()
    assert proposal.text in part
    assert "<mark>plan the sourdough order</mark>" in part
    assert 'value="/persona/helper/"' in part  # approving goes back to the agent page


@pytest.mark.django_db
def test_review_status_of_another_agent_is_404(operator_client, tenant, desk):
    other = make_agent(tenant=tenant, slug="other")
    review = add_review(other)
    assert (
        operator_client.get(
            reverse("learning:review_status", args=["helper", review.pk])
        ).status_code
        == 404
    )


# --- queue ---------------------------------------------------------------------------------


@pytest.mark.django_db
def test_queue_lists_waiting_proposals_oldest_first_with_grouped_quotes(
    reviewer_client, tenant, other_tenant, desk
):
    messages = add_conversations(desk, n=3)
    first = add_proposal(desk, evidence=evidence_for(messages))
    second = add_proposal(desk, kind="rule", evidence=evidence_for(messages))
    elsewhere = make_agent(tenant=other_tenant, slug="elsewhere")
    add_proposal(elsewhere, text="Hidden sentence from another tenant.")
    html = reviewer_client.get(reverse("learning:queue")).content.decode()
    assert html.index(f'id="proposal-{first.pk}"') < html.index(f'id="proposal-{second.pk}"')
    assert "Hidden sentence" not in html
    assert "3 quotes from 3 conversations" in html
    assert html.count('class="quote-group"') == 6
    # rita reviews the sentence; only rex, the rule owner, decides the rule
    assert "Only its rule owners (rex) decide this rule." in html
    assert html.count("Edit the wording, then approve") == 1


@pytest.mark.django_db
def test_queue_approve_with_htmx_updates_the_row_in_place(reviewer_client, desk):
    messages = add_conversations(desk, n=3)
    proposal = add_proposal(desk, evidence=evidence_for(messages))
    response = reviewer_client.post(reverse("learning:proposal_apply", args=[proposal.pk]), **HX)
    html = response.content.decode()
    assert html.lstrip().startswith(
        f'<li class="qrow proposal decided" id="proposal-{proposal.pk}"'
    )
    assert 'data-waiting="0"' in html and "Approved for Helper: persona version 2." in html
    proposal.refresh_from_db()
    assert proposal.status == "applied" and proposal.decided_by == "rita"
    assert proposal.text in AgentPersonaVersion.objects.get(agent=desk, version=2).goals


@pytest.mark.django_db
def test_queue_dismiss_without_htmx_redirects_with_a_message(reviewer_client, desk):
    proposal = add_proposal(desk)
    response = reviewer_client.post(
        reverse("learning:proposal_dismiss", args=[proposal.pk]), follow=True
    )
    assert "Turned down for Helper" in response.content.decode()
    proposal.refresh_from_db()
    assert proposal.status == "dismissed"


@pytest.mark.django_db
def test_rule_approval_by_a_non_owner_is_refused_and_keeps_waiting(
    reviewer_client, client, desk, rex
):
    proposal = add_proposal(desk, kind="rule")
    html = reviewer_client.post(
        reverse("learning:proposal_apply", args=[proposal.pk]), **HX
    ).content.decode()
    assert (
        "Only a rule owner (rex) may decide a standing rule; rita is not one. The rule keeps waiting."
        in html
    )
    assert 'data-waiting="1"' in html
    proposal.refresh_from_db()
    assert proposal.status == "waiting"
    # the owner approves it, in their own words
    client.force_login(rex)
    html = client.post(
        reverse("learning:proposal_apply", args=[proposal.pk]),
        {"text": "Write dates out in full."},
        **HX,
    ).content.decode()
    assert "Rule approved" in html
    proposal.refresh_from_db()
    assert proposal.status == "applied" and proposal.applied_text == "Write dates out in full."
    assert AgentPersonaVersion.objects.get(agent=desk, version=2).standing_rules == [
        "Write dates out in full."
    ]


@pytest.mark.django_db
def test_a_decided_proposal_cannot_be_decided_twice(reviewer_client, desk):
    proposal = add_proposal(desk)
    reviewer_client.post(reverse("learning:proposal_dismiss", args=[proposal.pk]), **HX)
    html = reviewer_client.post(
        reverse("learning:proposal_apply", args=[proposal.pk]), **HX
    ).content.decode()
    assert "no longer waiting" in html


@pytest.mark.django_db
def test_queue_empty_state_and_viewer_refused(reviewer_client, client, tenant):
    html = reviewer_client.get(reverse("learning:queue")).content.decode()
    assert "Nothing waits for review" in html
    client.force_login(make_user("vic", tenants=[tenant]))
    assert client.get(reverse("learning:queue")).status_code == 403


@pytest.mark.django_db
def test_queue_pages_by_keyset(reviewer_client, desk, monkeypatch):
    monkeypatch.setattr("learning.views.QUEUE_PAGE", 2)
    ids = [
        add_proposal(desk, kind="rule", text=f"Rule number {i} for the desk.").pk for i in range(5)
    ]
    seen: list[int] = []
    url = reverse("learning:queue")
    query: dict[str, str] = {}
    for _ in range(5):
        html = reviewer_client.get(url, query, HTTP_HX_TARGET="queue-list", **HX).content.decode()
        assert "<html" not in html
        seen += [int(x) for x in re.findall(r'<li class="qrow proposal" id="proposal-(\d+)"', html)]
        m = re.search(r'after=([\w-]+)"', html)
        if not m:
            break
        query = {"after": m.group(1)}
    assert seen == ids


@pytest.mark.django_db
def test_queue_query_count_does_not_grow(
    reviewer_client, tenant, desk, django_assert_max_num_queries
):
    url = reverse("learning:queue")
    messages = add_conversations(desk, n=3)
    add_proposal(desk, evidence=evidence_for(messages))
    small = count_queries(reviewer_client, url)
    for i in range(10):
        agent = make_agent(tenant=tenant, slug=f"more-{i}")
        learning_on(agent, rule_owners=["rex"])
        add_proposal(agent, evidence=evidence_for(messages))
        add_proposal(agent, kind="rule", evidence=evidence_for(messages))
    assert count_queries(reviewer_client, url) == small
    with django_assert_max_num_queries(MAX_QUERIES):
        reviewer_client.get(url, HTTP_HX_TARGET="queue-list", **HX)


# --- log -----------------------------------------------------------------------------------


@pytest.mark.django_db
def test_log_lists_reviews_with_counts(operator_client, other_tenant, desk):
    add_review(desk, outcome="nothing_to_do", reason="Too few conversations: 1 of 3.")
    add_review(
        desk,
        outcome="refused",
        reason="The sentence holds a rule.",
        model_calls=1,
        tokens_in=900,
        tokens_out=40,
    )
    add_review(
        desk,
        outcome="refused",
        reason="Quotes not found.",
        model_calls=1,
        tokens_in=800,
        tokens_out=30,
    )
    add_review(make_agent(tenant=other_tenant, slug="elsewhere"), reason="Hidden review.")
    html = operator_client.get(reverse("learning:log")).content.decode()
    assert "Too few conversations: 1 of 3." in html and "Hidden review." not in html
    counts = dict(
        (label, int(n))
        for n, label in re.findall(
            r'<span class="num">([\d,]+)</span><span class="label">([\w ]+)</span>', html
        )
    )
    assert counts["reviews"] == 3 and counts["refused"] == 2 and counts["nothing to do"] == 1
    assert counts["model calls"] == 2
    html = operator_client.get(reverse("learning:log"), {"outcome": "refused"}).content.decode()
    assert "Too few conversations" not in html and "Quotes not found." in html


@pytest.mark.django_db
def test_log_htmx_and_paging(operator_client, desk, monkeypatch):
    monkeypatch.setattr("personaweb.paging.PAGE_SIZE", 2)
    for i in range(3):
        add_review(desk, reason=f"Reason {i}.")
    part = operator_client.get(
        reverse("learning:log"), {"agent": "helper"}, HTTP_HX_TARGET="log-body", **HX
    )
    html = part.content.decode()
    assert html.lstrip().startswith('<div id="log-body">') and "<html" not in html
    assert "Reason 2." in html and "Reason 0." not in html
    after = re.search(r'after=([\w-]+)"', html).group(1)
    html = operator_client.get(
        reverse("learning:log"), {"agent": "helper", "after": after}
    ).content.decode()
    assert "Reason 0." in html and "Reason 2." not in html


@pytest.mark.django_db
def test_log_empty_state(operator_client):
    assert "No reviews yet" in operator_client.get(reverse("learning:log")).content.decode()


@pytest.mark.django_db
def test_log_query_count_does_not_grow(
    operator_client, tenant, desk, django_assert_max_num_queries
):
    url = reverse("learning:log")
    add_review(desk)
    small = count_queries(operator_client, url)
    for i in range(6):
        agent = make_agent(tenant=tenant, slug=f"more-{i}")
        for outcome in ("refused", "proposed", "nothing_to_do"):
            add_review(agent, outcome=outcome)
    assert count_queries(operator_client, url) == small
    with django_assert_max_num_queries(MAX_QUERIES):
        operator_client.get(url, {"agent": "helper"}, HTTP_HX_TARGET="log-body", **HX)


# --- CSRF ------------------------------------------------------------------------------------


@pytest.mark.django_db
def test_every_post_needs_the_csrf_token(operator, desk):
    proposal = add_proposal(desk)
    client = Client(enforce_csrf_checks=True)
    client.force_login(operator)
    posts = [
        reverse("learning:proposal_apply", args=[proposal.pk]),
        reverse("learning:proposal_dismiss", args=[proposal.pk]),
        reverse("learning:review_now", args=["helper"]),
        reverse("learning:settings", args=["helper"]),
        reverse("persona:guardrails", args=["helper"]),
        reverse("persona:rules", args=["helper"]),
        reverse("persona:undo", args=["helper"]),
    ]
    for url in posts:
        assert client.post(url, {}).status_code == 403, url
        assert client.post(url, {}, **HX).status_code == 403, url
    proposal.refresh_from_db()
    assert proposal.status == "waiting"
    assert not Review.objects.filter(agent=desk).exists()
    # the token the page carries (hx-headers on <body>) is accepted
    page = client.get(reverse("learning:queue")).content.decode()
    token = re.search(r'"X-CSRFToken": "([^"]+)"', page).group(1)
    response = client.post(
        reverse("learning:proposal_dismiss", args=[proposal.pk]), {}, HTTP_X_CSRFTOKEN=token, **HX
    )
    assert response.status_code == 200
    assert Proposal.objects.get(pk=proposal.pk).status == "dismissed"
