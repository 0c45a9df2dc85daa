""" "Don't mention this again" in headless Chromium: the owner mutes an entry of their
document with a reason, a line an assistant learned and a belief about them (htmx swaps
the workspace), sees them muted with Unmute, and the prompt preview leaves them out; an
operator mutes on the person's muting page; the health page draws the month.
Screenshots at 1280 and 800 px (``check_page``), axe-core clean."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse

from memory.models import Principal
from persona.models import Mute
from persona.owner import owner_doc_write
from persona.owner_accounts import owner_account_link
from tests.builders import LEARNED_RULE, LEARNED_SENTENCE, add_belief, add_learned_lines
from tests.factories import TenantFactory, make_agent, make_user

PRIVATE = "I have a twin brother called Tom."


@pytest.fixture(autouse=True)
def fast_settings(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    settings.MEMORY_BELIEF_EMBEDDINGS = False


@pytest.fixture
def ana(transactional_db) -> dict[str, Any]:
    tenant = TenantFactory(name="Acme", slug="acme")
    agent = make_agent(tenant=tenant, slug="helper", name="Helper", role="Personal assistant")
    add_learned_lines(agent)
    make_user("olivia", role="operator", tenants=[tenant])
    principal = Principal.objects.create(tenant=tenant, external_id="ana", display_name="Ana Souza")
    owner_account_link(user=make_user("ana", tenants=[tenant]), principal=principal)
    owner_doc_write(
        principal=principal,
        expected_version=0,
        entries=[
            {"text": "I am a structural engineer in Lisbon.", "tier": "permanent"},
            {"text": PRIVATE},
        ],
    )
    add_belief(agent, "Keeps bees on the roof.", who="ana", category="interests")
    return {"principal": principal, "agent": agent}


def test_the_owner_mutes_an_entry_and_a_learned_line_and_the_prompt_leaves_them_out(
    page, live_server, login, check_page, ana
) -> None:
    login(page, live_server, "ana", "pw-ana")
    page.goto(live_server.url + reverse("owner:persona"))
    row = page.locator("li.entry", has_text="twin brother")
    row.get_by_text("Don't mention this again…").click()
    row.locator("input[name^=mute_reason_]").fill("Only my family should know")
    row.get_by_role("button", name="Mute").click()
    page.locator('[data-testid="muted-note"]').wait_for()
    assert "Only my family should know" in page.inner_text('[data-testid="muted-note"]')
    assert (
        page.locator("li.entry", has_text="twin brother")
        .get_by_role("button", name="Unmute")
        .is_visible()
    )
    assert "twin brother" not in page.inner_text('[data-testid="row"]')

    line = page.locator("li.learned-line", has_text=LEARNED_RULE)
    line.get_by_text("Don't mention this again…").click()
    line.get_by_label("Why").fill("I prefer short dates")
    line.get_by_role("button", name="Mute for me").click()
    page.locator("li.learned-line.is-muted").wait_for()
    assert Mute.objects.active().count() == 2
    page.get_by_text("The whole prompt prefix").click()
    prefix = page.inner_text('[data-testid="prefix"]')
    assert LEARNED_RULE not in prefix and LEARNED_SENTENCE in prefix
    assert "twin brother" not in prefix

    belief = page.locator("li.learned-line", has_text="Keeps bees")
    belief.get_by_text("Don't mention this again…").click()
    belief.get_by_label("Why").fill("Not your business")
    belief.get_by_role("button", name="Mute").click()
    page.locator("li.learned-line.is-muted", has_text="Keeps bees").wait_for()
    check_page(page, "my-persona-muted")

    page.locator("li.entry", has_text="twin brother").get_by_role("button", name="Unmute").click()
    page.wait_for_function("() => !document.querySelector('[data-testid=\"muted-note\"]')")
    assert "twin brother" in page.inner_text('[data-testid="row"]')


def test_an_operator_mutes_on_the_persons_muting_page_and_sees_the_month(
    page, live_server, login, check_page, ana
) -> None:
    login(page, live_server, "olivia", "pw-olivia")
    person = ana["principal"]
    page.goto(live_server.url + reverse("memory:person", args=[person.pk]))
    page.get_by_role("link", name="Their entries and learned lines").click()
    page.wait_for_load_state()
    line = page.locator("li.learned-line", has_text=LEARNED_SENTENCE)
    line.get_by_text("Don't mention this again…").click()
    line.get_by_label("Why").fill("Ana asked")
    line.get_by_role("button", name="Mute").click()
    page.locator("li.learned-line.is-muted", has_text=LEARNED_SENTENCE).wait_for()
    assert "Muted by olivia" in page.inner_text("#muting")
    check_page(page, "person-muting")

    page.goto(live_server.url + reverse("memory:health"))
    chart = page.locator('[data-testid="quiet-chart"]')
    assert "1 in the last 12 months" in chart.inner_text()
    check_page(page, "memory-health-muted")
