"""A team of three reviewers in headless Chromium (issue 25): a standing rule only its
owner may decide and team mode with min_users 2. A reviewer who is no rule owner sees
who decides before pressing a key; the review log explains a pattern of one person and
one outside the recent conversations; persona evolution shows the change feed and the
weekly chart."""

from __future__ import annotations

from typing import Any

import pytest

from learning.models import Proposal, Review
from learning.proposers.local import LocalProposer
from learning.services import proposal_apply, review_run
from tenancy.models import Agent
from tests.builders import learning_on
from tests.factories import TenantFactory, make_agent, make_user
from tests.learning.helpers import WORK, turn

KILN = [
    "Please draft the kiln firing schedule for next week.",
    "Can you draft the kiln firing schedule for the bisque load?",
    "Draft the kiln firing schedule again, the glaze firing this time.",
]
OTHER = [
    "Is the studio heating on a timer this winter?",
    "Where did we store the spare shelving brackets?",
]
RULE = "Write dates in full, like 4 March 2026."


@pytest.fixture(autouse=True)
def fast_passwords(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def studio(transactional_db) -> Agent:
    tenant = TenantFactory(name="Clay Studio")
    for name in ("ana", "bo", "cy"):
        make_user(name, role="reviewer", tenants=[tenant])
    agent = make_agent(tenant=tenant, slug="studio", name="Studio desk")
    learning_on(
        agent,
        across_users=True,
        min_users=2,
        min_conversations=3,
        max_threads=5,
        standing_rules=True,
        rule_owners=["ana"],
    )
    # older: a request two people made in four conversations (outside the 5 most recent)
    for i in range(4):
        turn(agent, ("maya", "tom")[i % 2], f"order-{i}", WORK[i], i)
    # recent: one person's request in three conversations, and two other conversations
    for i, text in enumerate(KILN):
        turn(agent, "maya", f"kiln-{i}", text, 10 + i)
    for i, text in enumerate(OTHER):
        turn(agent, "tom", f"misc-{i}", text, 20 + i)
    review = review_run(agent=agent, trigger=Review.Trigger.MANUAL, proposer=LocalProposer())
    assert {c["reason"] for c in review.passed_over} >= {"too_few_people", "outside_window"}
    evidence = [
        {"quote": "write dates in full", "conversation_id": 1, "principal_id": 1, "user": "maya"},
        {"quote": "write dates in full", "conversation_id": 2, "principal_id": 2, "user": "tom"},
    ]
    sentence = Proposal.objects.create(
        agent=agent,
        kind=Proposal.Kind.SENTENCE,
        field="goals",
        text="Plans kiln firings for the studio.",
        content_key="sentence-kiln",
        evidence=evidence,
        base_version=agent.persona_version,
    )
    proposal_apply(proposal=sentence, by="cy")
    # a rule waiting for its owner (made after the approval, which drops what waits)
    Proposal.objects.create(
        agent=agent,
        kind=Proposal.Kind.RULE,
        field="standing_rules",
        text=RULE,
        content_key="rule-dates",
        evidence=evidence,
        base_version=agent.persona_version + 1,
    )
    return agent


def test_a_team_queue_log_and_evolution_explain_themselves(
    page: Any, live_server: Any, login: Any, check_page: Any, studio: Agent
) -> None:
    rule = Proposal.objects.get(agent=studio, kind=Proposal.Kind.RULE)
    login(page, live_server, "bo", "pw-bo")

    # the queue: bo is no rule owner and sees it before pressing a key
    page.goto(f"{live_server.url}/learning/queue/")
    card = page.locator(f"#proposal-{rule.pk}")
    card.wait_for()
    text = card.inner_text()
    assert "not yours to decide" in text
    assert "Only its rule owners (ana) decide this rule." in text
    assert "Backed by 2 conversations" in text and "2 people" in text
    assert card.locator("[data-action=approve]").count() == 0
    page.locator(f"#proposal-{rule.pk}").focus()
    page.keyboard.press("a")
    page.wait_for_selector(f"#proposal-{rule.pk} .deciders.flash")
    assert Proposal.objects.get(pk=rule.pk).status == Proposal.Status.WAITING
    check_page(page, "team-queue")

    # the review log: why each recurring pattern was not proposed
    page.goto(f"{live_server.url}/learning/log/?agent=studio")
    passed = page.locator("details.passed-over").first
    passed.wait_for()
    said = passed.inner_text()
    assert "Drafts kiln firing schedules." in said
    assert "Said by 1 person in 3 conversations; team mode needs 2 people (min users)." in said
    assert "Prices wholesale orders." in said
    assert "not often enough in the 5 most recent conversations" in said
    assert page.get_by_role("button", name="Review the whole history of Studio desk").is_visible()
    assert "0/0 tok." not in page.inner_text("main")
    assert "approved by a person later" in page.inner_text("main")
    outcomes = page.get_by_role("img", name="How reviews ended, per week")
    assert outcomes.is_visible()
    assert page.locator("[data-testid=outcomes-chart] rect").count() >= 1
    check_page(page, "team-log")

    # persona evolution: the change feed and the weekly chart
    page.goto(f"{live_server.url}/persona/")
    feed = page.locator("#feed")
    feed.wait_for()
    first = feed.locator("li.change").first.inner_text()
    assert "Studio desk v2" in first and "learning" in first and "by cy" in first
    assert "Plans kiln firings for the studio." in first
    assert "2 quotes of evidence" in first
    chart = page.get_by_role("img", name="Persona changes and decisions per week")
    assert chart.is_visible()
    assert page.locator("svg.chart rect.bar-approved").count() == 1
    assert "1 rule waits for its owner (ana)" in page.inner_text("#agents-table")
    page.locator("details.chart-table summary").click()
    assert page.locator("details.chart-table table").is_visible()
    page.select_option("select[name=source]", "operator")
    page.wait_for_function(
        "() => document.querySelectorAll('#feed li.change').length === 1", polling=100
    )
    assert "operator" in page.inner_text("#feed li.change")
    check_page(page, "evolution")
