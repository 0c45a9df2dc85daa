"""Issue 26.1 in headless Chromium: on the agent page a line of the prompt opens its
story (a learned line with its proposal, approver and quotes); on a conversation, the
reply a host recorded with its context pack shows the prompt version and the memories
it was given. Screenshots at both widths; no serious axe-core finding."""

from __future__ import annotations

from typing import Any

import pytest

from learning.services import proposal_apply
from memory.services import record_turn
from persona.services_edits import persona_edit
from tenancy.access import actor_for_user
from tests.builders import add_belief, add_conversations, add_pack, add_proposal, evidence_for
from tests.factories import TenantFactory, make_agent, make_user


@pytest.fixture(autouse=True)
def fast_settings(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    settings.MEMORY_BELIEF_EMBEDDINGS = False


@pytest.fixture
def desk(transactional_db) -> dict[str, Any]:
    tenant = TenantFactory(name="Acme", slug="acme")
    agent = make_agent(tenant=tenant, slug="helper", name="Helper", role="Bakery assistant")
    olivia = make_user("olivia", role="operator", tenants=[tenant])
    persona_edit(
        agent=agent,
        by=actor_for_user(olivia),
        changes={
            "guardrails": ["Never share a customer's address."],
            "goals": "Help small bakeries plan their orders.",
        },
        reason="Privacy first, and what the desk is for",
        base_version=1,
    )
    messages = add_conversations(agent, n=3)
    proposal = add_proposal(agent, evidence=evidence_for(messages))
    proposal_apply(proposal=proposal, by="olivia")
    agent.refresh_from_db()
    soup = add_belief(agent, "Likes lentil soup", who="ana", category="likes")
    meat = add_belief(agent, "Eats no meat", who="ana", category="constraints")
    turn = record_turn(
        agent=agent,
        principal_external_id="ana",
        conversation="dinner-plans",
        user_text="What should I cook tonight?",
        assistant_text="A lentil soup: no meat, and you like it.",
        context_pack=add_pack(agent, [soup, meat], pinned=[meat]),
    )
    return {"agent": agent, "proposal": proposal, "conversation": turn.conversation}


def test_a_prompt_line_opens_its_story_and_a_reply_shows_what_shaped_it(
    page, live_server, login, desk, check_page
):
    login(page, live_server, "olivia", "pw-olivia")
    page.goto(f"{live_server.url}/persona/helper/")
    prompt = page.get_by_test_id("prompt")
    learned = prompt.locator("details.pl", has_text="(Learned:")
    story = learned.get_by_test_id("line-story")
    assert not story.is_visible()
    learned.locator("summary").click()
    assert story.is_visible()
    text = story.inner_text()
    assert f"learned from proposal {desk['proposal'].pk}, approved by olivia" in text
    assert "plan the sourdough order" in text
    guardrail = prompt.locator("details.pl", has_text="Never share a customer")
    guardrail.locator("summary").click()
    assert "dashboard form by olivia" in guardrail.inner_text()
    learned.scroll_into_view_if_needed()
    check_page(page, "agent-prompt-line-story")

    page.goto(f"{live_server.url}/memory/conversations/{desk['conversation'].pk}/")
    shaped = page.get_by_test_id("shaped")
    shaped.locator("summary").click()
    text = shaped.inner_text()
    assert "2 memories given" in text and "Likes lentil soup" in text and "pinned" in text
    check_page(page, "conversation-shaped-by")
    shaped.get_by_role("link", name="Likes lentil soup").click()
    page.wait_for_load_state()
    assert "/memory/people/" in page.url
