"""The dashboard in headless Chromium on seed_demo data (PRODUCT.md section 6).

Reviews run for real (the local proposer) in the test thread while the page polls the
review record: the broker call of "Review now" is replaced by a recorder, which is
what a worker would pick up.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command

from learning.models import Proposal, Review
from memory.models import Conversation
from persona.models import AgentPersonaVersion
from tenancy.models import Agent, Tenant
from tests.factories import make_agent, make_user

WIDE = {"width": 1280, "height": 800}
NARROW = {"width": 800, "height": 900}


@pytest.fixture(autouse=True)
def fast_passwords(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def queued(monkeypatch) -> list[tuple[int, int, str]]:
    """Reviews "Review now" handed to the task queue: (agent id, review id, trigger)."""
    calls: list[tuple[int, int, str]] = []

    def delay(agent_id: int, review_id: int | None = None, trigger: str = "schedule") -> None:
        calls.append((agent_id, review_id, trigger))

    monkeypatch.setattr("learning.tasks.review_agent.delay", delay)
    return calls


def run_queued(queued: list[tuple[int, int, str]]) -> None:
    """What the worker does with the queued reviews."""
    from learning.tasks import review_agent

    while queued:
        review_agent(*queued.pop(0))


def run_review(slug: str) -> Review:
    from learning.services import review_run

    return review_run(agent=Agent.objects.get(slug=slug), trigger="manual")


def desk_rule_waiting() -> Proposal:
    """Review the claims desk until its standing rule waits.

    The desk's corrections also back its goals sentence; one message never backs a
    sentence and a rule waiting side by side (issue 13), so the sentence is turned down
    first and the next review (a decision is something new) proposes the rule."""
    from learning.services import proposal_dismiss

    for _ in range(3):
        run_review("claims-desk")
        rule = Proposal.objects.filter(
            agent__slug="claims-desk", kind="rule", status="waiting"
        ).first()
        if rule is not None:
            return rule
        for sentence in Proposal.objects.filter(
            agent__slug="claims-desk", kind="sentence", status="waiting"
        ):
            proposal_dismiss(proposal=sentence, by="priya")
    raise AssertionError("the claims desk never proposed its standing rule")


def with_password(username: str) -> None:
    from django.contrib.auth.models import User

    user = User.objects.get(username=username)
    user.set_password(f"pw-{username}")
    user.save()


@pytest.fixture
def demo(transactional_db) -> dict[str, Any]:
    call_command("seed_demo", verbosity=0)
    olivia = make_user("olivia", role="operator", tenants=list(Tenant.objects.all()))
    for name in ("dev", "callum", "priya", "maya"):
        with_password(name)
    return {"operator": olivia}


def wait_for_text(page: Any, selector: str, text: str, timeout: int = 30_000) -> None:
    page.wait_for_function(
        "([s, t]) => { const el = document.querySelector(s); return el && el.innerText.includes(t); }",
        arg=[selector, text],
        timeout=timeout,
        polling=100,
    )


# --- operator: review now -> approve -> undo -------------------------------------------------


def test_operator_reviews_approves_and_undoes(
    page, live_server, login, demo, queued, screenshot_dir: Path
):
    login(page, live_server, "olivia", "pw-olivia")
    page.get_by_role("navigation", name="Main").get_by_role(
        "link", name="Persona evolution"
    ).click()
    page.wait_for_load_state()
    assert page.get_by_role("heading", name="Persona evolution").is_visible()
    page.get_by_role("link", name="Pip", exact=True).click()
    page.wait_for_load_state()
    assert "/persona/pip/" in page.url
    prompt_before = page.locator("[data-testid=prompt]").inner_text()

    page.get_by_role("button", name="Review now").click()
    page.wait_for_selector("#review-status[data-status='queued']")
    assert len(queued) == 1
    run_queued(queued)  # the worker runs it; the page is polling meanwhile
    page.wait_for_selector("#review-status[data-status='done']", timeout=60_000)
    status = page.locator("#review-status")
    proposal = Proposal.objects.get(agent__slug="pip", status="waiting")
    assert proposal.text in status.inner_text()
    assert status.locator("mark").count() >= 3  # the quotes, from several conversations
    page.screenshot(path=str(screenshot_dir / "flow-review-done-wide.png"), full_page=True)

    status.get_by_role("button", name="Approve").click()
    page.wait_for_load_state()
    assert "/persona/pip/" in page.url
    assert "Approved for Pip" in page.locator("#messages").inner_text()
    prompt_after = page.locator("[data-testid=prompt]").inner_text()
    assert proposal.text in prompt_after and proposal.text not in prompt_before
    newest = page.locator("li.version").first
    assert proposal.text in newest.locator("ins").first.inner_text()
    assert "persona learning" in newest.inner_text()
    # an evidence quote opens its conversation with the quote marked
    href = newest.locator(".quote-source a").first.get_attribute("href")
    assert "mark=" in href

    newest.get_by_role("link", name="Undo this change…").click()
    page.wait_for_load_state()
    assert page.get_by_role("heading", name="Take back this learned change?").is_visible()
    page.screenshot(path=str(screenshot_dir / "flow-undo-confirm-wide.png"), full_page=True)
    page.get_by_role("button", name="Yes, take it back").click()
    page.wait_for_load_state()
    assert "Taken back" in page.locator("#messages").inner_text()
    assert proposal.text not in page.locator("[data-testid=prompt]").inner_text()
    assert proposal.text in page.locator("li.version").first.locator("del").first.inner_text()
    proposal.refresh_from_db()
    assert proposal.status == "undone"

    page.goto(live_server.url + href)
    mark = page.locator(".message#quote mark").first
    assert mark.is_visible()


# --- reviewer: clear a queue of three with the keyboard ----------------------------------------


def test_reviewer_clears_three_proposals_with_the_keyboard(page, live_server, login, demo):
    from tests.builders import add_proposal

    run_review("pip")
    rule = desk_rule_waiting()
    # the desk's sentence was turned down to let the rule wait (its quotes back the
    # rule); a sentence of the desk without quotes waits before the rule instead
    sentence = Proposal.objects.filter(
        agent__slug="claims-desk", kind="sentence", status="waiting"
    ).first()
    if sentence is None:  # the desk's next review found no other theme
        sentence = add_proposal(
            Agent.objects.get(slug="claims-desk"),
            text="Answers questions about open insurance claims.",
        )
        pip = Proposal.objects.get(agent__slug="pip", status="waiting")
        Proposal.objects.filter(pk=sentence.pk).update(
            created_at=pip.created_at + (rule.created_at - pip.created_at) / 2
        )
    waiting = list(Proposal.objects.filter(status="waiting").order_by("created_at", "id"))
    assert [p.kind for p in waiting] == ["sentence", "sentence", "rule"]
    assert [p.pk for p in waiting[1:]] == [sentence.pk, rule.pk]
    # dev reviews for both tenants and owns the desk's rules
    from tenancy.models import Membership

    Membership.objects.get_or_create(
        user=make_user_ref("dev"), tenant=Tenant.objects.get(slug="maya")
    )
    login(page, live_server, "dev", "pw-dev")
    page.goto(f"{live_server.url}/learning/queue/")
    rows = page.locator(".qrow[data-waiting='1']")
    assert rows.count() == 3
    page.wait_for_selector(".qrow.current")
    page.keyboard.press("j")
    assert page.locator(".qrow.current").get_attribute("id") == f"proposal-{waiting[1].pk}"
    page.keyboard.press("k")
    assert page.locator(".qrow.current").get_attribute("id") == f"proposal-{waiting[0].pk}"

    page.keyboard.press("a")  # approve Pip's sentence
    page.wait_for_selector(f"#proposal-{waiting[0].pk}[data-waiting='0']")
    page.wait_for_selector(f"#proposal-{waiting[1].pk}.current")
    page.keyboard.press("d")  # turn down the desk's sentence (a new version would drop the rule)
    page.wait_for_selector(f"#proposal-{waiting[1].pk}[data-waiting='0']")
    page.wait_for_selector(f"#proposal-{waiting[2].pk}.current")
    page.keyboard.press("a")  # approve the rule: dev is a rule owner
    page.wait_for_selector(f"#proposal-{waiting[2].pk}[data-waiting='0']")
    assert page.locator(".qrow[data-waiting='1']").count() == 0
    statuses = [Proposal.objects.get(pk=p.pk).status for p in waiting]
    assert statuses == ["applied", "dismissed", "applied"]
    assert (
        "Write dates in full."
        in AgentPersonaVersion.objects.filter(agent__slug="claims-desk").first().standing_rules
    )
    page.reload()
    assert "Nothing waits for review" in page.inner_text("main")


def make_user_ref(username: str):
    from django.contrib.auth.models import User

    return User.objects.get(username=username)


# --- rule owner approves, a non-owner is refused ---------------------------------------------


def test_rule_owner_approves_while_a_non_owner_is_refused(browser, live_server, login, demo):
    rule = desk_rule_waiting()

    priya = browser.new_context(viewport=WIDE).new_page()
    login(priya, live_server, "priya", "pw-priya")
    priya.goto(f"{live_server.url}/learning/queue/")
    row = priya.locator(f"#proposal-{rule.pk}")
    # priya may not decide the rule: no buttons, only who does (a direct POST is
    # refused by the service: tests/learning/test_may_decide.py)
    assert "Only its rule owners (dev, callum) decide this rule." in row.inner_text()
    assert row.get_by_role("button", name="Approve").count() == 0
    assert row.get_by_role("button", name="Turn down").count() == 0
    assert row.get_attribute("data-waiting") == "1"
    rule.refresh_from_db()
    assert rule.status == "waiting"
    priya.context.close()

    callum = browser.new_context(viewport=WIDE).new_page()
    login(callum, live_server, "callum", "pw-callum")
    callum.goto(f"{live_server.url}/learning/queue/")
    row = callum.locator(f"#proposal-{rule.pk}")
    row.locator("summary", has_text="Edit the wording").click()
    row.locator("textarea[name=text]").fill("Write dates in full, with the month as a word.")
    row.get_by_role("button", name="Approve").click()
    wait_for_text(callum, f"#proposal-{rule.pk}", "Rule approved")
    rule.refresh_from_db()
    assert rule.status == "applied" and rule.decided_by == "callum"
    assert rule.applied_text == "Write dates in full, with the month as a word."
    callum.context.close()


# --- screenshots of every page, empty and full, wide and narrow -------------------------------


def _shoot(page: Any, base: str, path: str, name: str, out: Path, shots: list[str]) -> None:
    for label, size in (("wide", WIDE), ("narrow", NARROW)):
        page.set_viewport_size(size)
        response = page.goto(base + path)
        assert response is not None and response.status < 400, (path, response and response.status)
        page.wait_for_load_state("networkidle")
        # nothing may stick out sideways at either width
        overflow = page.evaluate(
            "document.documentElement.scrollWidth - document.documentElement.clientWidth"
        )
        assert overflow <= 1, f"{name} {label} scrolls sideways by {overflow}px"
        file = out / f"{name}-{label}.png"
        page.screenshot(path=str(file), full_page=True)
        shots.append(file.name)


def test_screenshots_of_every_page(
    page, live_server, login, transactional_db, queued, screenshot_dir: Path
):
    shots: list[str] = []
    tenant = Tenant.objects.create(name="Empty Co", slug="empty-co")
    make_user("olivia", role="operator", tenants=[tenant])
    login(page, live_server, "olivia", "pw-olivia")
    base = live_server.url

    def shoot(path: str, name: str) -> None:
        _shoot(page, base, path, name, screenshot_dir, shots)

    for path, name in [
        ("/persona/", "evolution-empty"),
        ("/learning/queue/", "queue-empty"),
        ("/learning/log/", "log-empty"),
        ("/memory/conversations/", "conversations-empty"),
    ]:
        shoot(path, name)
    make_agent(tenant=tenant, slug="blank", name="Blank assistant", role="")
    for path, name in [
        ("/persona/blank/", "agent-empty"),
        ("/persona/blank/guardrails/", "guardrails-empty"),
        ("/persona/blank/rules/", "rules-empty"),
        ("/learning/blank/settings/", "settings-empty"),
    ]:
        shoot(path, name)

    call_command("seed_demo", verbosity=0)
    from tenancy.models import Membership

    user = make_user_ref("olivia")
    for t in Tenant.objects.all():
        Membership.objects.get_or_create(user=user, tenant=t)
    run_review("pip")
    review = run_review("claims-desk")
    from learning.services import learning_settings_update, proposal_apply

    desk = Agent.objects.get(slug="claims-desk")
    learning_settings_update(
        agent=desk, values={"rule_owners": ["dev", "callum", "olivia"]}, by="test"
    )

    proposal_apply(proposal=Proposal.objects.get(agent__slug="pip", status="waiting"), by="olivia")
    conv = (
        Conversation.objects.filter(agent__slug="claims-desk", sealed=False)
        .order_by("-last_message_at")
        .first()
    )
    sealed = Conversation.objects.filter(sealed=True).first()
    for path, name in [
        ("/persona/", "evolution-full"),
        ("/persona/pip/", "agent-full"),
        ("/persona/claims-desk/", "agent-desk-full"),
        ("/persona/claims-desk/guardrails/", "guardrails-full"),
        ("/persona/claims-desk/rules/", "rules-full"),
        ("/persona/pip/undo/", "undo-confirm"),
        ("/learning/claims-desk/settings/", "settings-full"),
        (f"/learning/claims-desk/reviews/{review.pk}/", "review-status"),
        ("/learning/queue/", "queue-full"),
        ("/learning/log/", "log-full"),
        ("/memory/conversations/", "conversations-full"),
        (f"/memory/conversations/{conv.pk}/", "conversation-full"),
        (f"/memory/conversations/{sealed.pk}/", "conversation-sealed"),
    ]:
        shoot(path, name)
    # an editor with a refused save (limits checked on the server too)
    page.set_viewport_size(WIDE)
    page.goto(base + "/persona/claims-desk/guardrails/")
    page.locator("textarea[name=item]").last.fill("x" * 250)
    assert "too many" in page.locator(".edit-row").last.locator(".char-count").inner_text()
    assert page.locator("[data-submit]").is_disabled()
    page.screenshot(path=str(screenshot_dir / "guardrails-over-limit-wide.png"), full_page=True)
    assert len(shots) == 2 * 21
    assert all(re.match(r"[\w-]+-(wide|narrow)\.png$", s) for s in shots)
