"""Redaction in headless Chromium (issue 26.5): a superuser redacts a belief on the
person's page (the row swaps in place after the confirmation) and a message on its
conversation; both pages then say who redacted, when and why, and hold none of the
words. Screenshots at 1280 and 800 px, axe-core on each."""

from __future__ import annotations

from typing import Any

import pytest

from memory.models import Belief, Message
from memory.redaction import REDACTED
from persona.models import AgentPersonaVersion
from persona.services import ChangeTrigger, persona_version_create
from tests.builders import add_belief, person_said
from tests.factories import TenantFactory, make_agent, make_user

REASON = "Ana asked for her sister's address to be removed."
PASSAGE = "Send the Brora lighthouse keeper a card every June."


@pytest.fixture(autouse=True)
def fast_settings(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    settings.MEMORY_BELIEF_EMBEDDINGS = False


@pytest.fixture
def ana(transactional_db) -> dict[str, Any]:
    tenant = TenantFactory(name="Acme", slug="acme")
    agent = make_agent(tenant=tenant, slug="helper", name="Helper")
    make_user("root", superuser=True)
    said = person_said(
        agent, "My sister Petra lives at 4 Harbour Row in Brora.", conversation="family"
    )
    sister = add_belief(
        agent,
        "Has a sister, Petra, in Brora",
        category="interpersonal",
        quote_from=said,
        quote="sister Petra lives at 4 Harbour Row in Brora",
    )
    add_belief(agent, "Prefers green tea in the afternoon", category="likes")
    persona_version_create(
        agent=agent,
        changes={"goals": f"Help with bakery orders. {PASSAGE}"},
        trigger=ChangeTrigger(source_type="ui_form", reason="goals", approved_by="olivia"),
    )
    return {
        "agent": agent,
        "said": said,
        "sister": sister,
        "principal": said.conversation.principal,
    }


def test_a_superuser_redacts_a_belief_and_a_message(page, live_server, login, ana, check_page):
    page.on("dialog", lambda dialog: dialog.accept())  # htmx's confirmation
    login(page, live_server, "root", "pw-root")
    page.goto(f"{live_server.url}/memory/people/{ana['principal'].pk}/")
    row = f"#belief-{ana['sister'].pk}"
    page.click(f"{row} details.redact summary")
    page.fill(f"#redact-reason-{ana['sister'].pk}", REASON)
    page.click(f'{row} button[data-action="redact"]')
    page.wait_for_selector(f'{row} [data-testid="redacted"]')
    text = page.inner_text(row)
    assert "Redacted by root on" in text and REASON in text
    assert "Petra" not in page.inner_text("#beliefs")
    assert Belief.objects.get(pk=ana["sister"].pk).status == "redacted"
    check_page(page, "redacted-belief")

    page.goto(f"{live_server.url}/memory/conversations/{ana['said'].conversation_id}/")
    item = f"#m{ana['said'].seq}"
    page.click(f"{item} details.redact summary")
    page.fill(f"#redact-reason-{ana['said'].pk}", REASON)
    page.click(f'{item} button[data-action="redact"]')
    page.wait_for_selector(f'{item} [data-testid="redacted"]')
    assert "Harbour Row" not in page.inner_text("#messages-list")
    assert Message.objects.get(pk=ana["said"].pk).text == REDACTED
    check_page(page, "redacted-message")


def test_a_superuser_redacts_words_of_a_persona_version(page, live_server, login, ana, check_page):
    login(page, live_server, "root", "pw-root")
    page.goto(f"{live_server.url}/persona/helper/")
    page.click('#v2 [data-testid="redact-version"]')
    page.wait_for_selector("#id_passage")
    check_page(page, "version-redact")
    page.fill("#id_passage", PASSAGE)
    page.fill("#id_reason", REASON)
    page.get_by_role("button", name="Redact for good").click()
    page.wait_for_selector('#v2 [data-testid="redacted"]')
    assert "lighthouse keeper" not in page.inner_text("main")
    assert PASSAGE not in AgentPersonaVersion.objects.get(agent=ana["agent"], version=2).goals
    check_page(page, "redacted-version")
