"""The review queue in headless Chromium (issue 13, item 5): `d` then Undo restores the
proposal, `a` then Undo restores the persona, and a goals sentence edited then approved."""

from __future__ import annotations

from typing import Any

import pytest

from learning.models import Proposal
from persona.selectors import persona_head
from tenancy.models import Agent
from tests.builders import add_conversations, add_proposal, evidence_for, learning_on
from tests.factories import TenantFactory, make_agent, make_user


@pytest.fixture(autouse=True)
def fast_passwords(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def desk(transactional_db) -> Agent:
    tenant = TenantFactory()
    agent = make_agent(tenant=tenant, slug="bakery", name="Bakery")
    learning_on(agent)
    make_user("rita", role="reviewer", tenants=[tenant])
    return agent


def goals(agent: Agent) -> str:
    agent.refresh_from_db()
    return persona_head(agent=agent).goals


def open_queue(page: Any, live_server: Any, login: Any) -> None:
    login(page, live_server, "rita", "pw-rita")
    page.goto(f"{live_server.url}/learning/queue/")
    page.wait_for_selector(".qrow.current")


def test_turn_down_then_undo_restores_the_proposal(page, live_server, login, desk):
    proposal = add_proposal(desk, evidence=evidence_for(add_conversations(desk, n=3)))
    open_queue(page, live_server, login)
    # the quote is shown inside its sentence
    assert "Could you help me plan the sourdough order for the weekend market?" in page.inner_text(
        f"#proposal-{proposal.pk}"
    )
    page.keyboard.press("d")
    row = f"#proposal-{proposal.pk}"
    page.wait_for_selector(f"{row}[data-waiting='0']")
    assert "Turned down for Bakery" in page.inner_text(row)
    assert Proposal.objects.get(pk=proposal.pk).status == "dismissed"
    page.wait_for_timeout(10_500)  # the Undo is still there after ten seconds
    undo = page.locator(f"{row} [data-action=undo]")
    assert undo.is_visible()
    undo.click()
    page.wait_for_selector(f"{row}[data-waiting='1']")
    assert "waits for review again" in page.inner_text(row)
    assert Proposal.objects.get(pk=proposal.pk).status == "waiting"
    page.reload()
    assert page.locator(f"{row}[data-waiting='1']").count() == 1


def test_approve_then_undo_restores_the_persona(page, live_server, login, desk):
    before = goals(desk)
    proposal = add_proposal(desk)
    open_queue(page, live_server, login)
    row = f"#proposal-{proposal.pk}"
    page.keyboard.press("a")
    # data-ready: htmx has processed the decided card, so "u" undoes through htmx
    page.wait_for_selector(f"{row}[data-waiting='0'][data-ready='1']")
    assert proposal.text in goals(desk)
    page.keyboard.press("u")  # the key undoes the last decision
    page.wait_for_function(
        "s => document.querySelector(s).innerText.includes('Approval undone')",
        arg=row,
        polling=100,  # rAF polling can stall in headless Chromium after a key press
    )
    assert goals(desk) == before
    assert Proposal.objects.get(pk=proposal.pk).status == "undone"


def test_edit_then_approve_a_goals_sentence(page, live_server, login, desk):
    proposal = add_proposal(desk)
    open_queue(page, live_server, login)
    row = f"#proposal-{proposal.pk}"
    page.locator(f"{row} summary", has_text="Edit the wording").click()
    edited = "Plans the weekend sourdough orders for the market stalls."
    page.locator(f"{row} textarea[name=text]").fill(edited)
    page.locator(f"{row} [data-action=approve]").click()
    page.wait_for_selector(f"{row}[data-waiting='0']")
    assert "Approved in your words" in page.inner_text(row)
    text = goals(desk)
    assert edited in text and proposal.text not in text
