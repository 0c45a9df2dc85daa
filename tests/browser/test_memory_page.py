"""A person's memory in headless Chromium (issue 11): open it from the people list,
correct a belief and see its row swap in place, retire one, tick off an intention, ask
the recall box; screenshots at both widths (nothing may scroll sideways)."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from django.utils import timezone

from memory.models import Belief, Intention, Principal
from memory.sealing import conversation_seal
from memory.services_beliefs import intention_write, routine_label
from tests.builders import add_belief, person_said
from tests.factories import TenantFactory, make_agent, make_user

WIDE = {"width": 1280, "height": 800}
NARROW = {"width": 800, "height": 900}


@pytest.fixture(autouse=True)
def fast_settings(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    # words only: the flow is about the page, not the embedding model
    settings.MEMORY_BELIEF_EMBEDDINGS = False


@pytest.fixture
def ana(transactional_db) -> dict[str, Any]:
    tenant = TenantFactory(name="Acme", slug="acme")
    agent = make_agent(tenant=tenant, slug="helper", name="Helper")
    make_user("olivia", role="operator", tenants=[tenant])
    now = timezone.now()
    tea_msg = person_said(
        agent, "Honestly I prefer green tea in the afternoon, not coffee.", conversation="tea-chat"
    )
    tea = add_belief(
        agent,
        "Prefers green tea in the afternoon",
        category="likes",
        quote_from=tea_msg,
        quote="prefer green tea in the afternoon",
    )
    run_msg = person_said(
        agent, "I'm training for the Lisbon half marathon in March.", conversation="running"
    )
    add_belief(
        agent,
        "Is training for the Lisbon half marathon",
        category="goals",
        valid_until=now - timedelta(days=2),
        quote_from=run_msg,
        quote="training for the Lisbon half marathon",
    )
    nut_msg = person_said(agent, "Please remember I am allergic to peanuts.", conversation="dinner")
    add_belief(
        agent,
        "Is allergic to peanuts",
        category="constraints",
        confidence=0.95,
        sensitivity="confidential",
        quote_from=nut_msg,
        quote="allergic to peanuts",
    )
    add_belief(
        agent,
        "Works as a structural engineer",
        category="expertise",
        evidence={"host": "hermes-extractor"},
    )
    private = person_said(agent, "I see a therapist on Tuesdays.", conversation="private")
    add_belief(
        agent,
        "Sees a therapist on Tuesdays",
        category="habit",
        sensitivity="restricted",
        quote_from=private,
        quote="see a therapist on Tuesdays",
    )
    conversation_seal(conversation=private.conversation)
    add_belief(agent, "Lives in Berlin", category="identity")
    add_belief(agent, "Lives in Lisbon", category="identity", confidence=0.9)
    add_belief(agent, "Prefers short answers with a list", category="style_notes", confidence=0.6)
    invoice = intention_write(
        agent=agent,
        principal_external_id="ana",
        action="Send the bakery invoice",
        due=now + timedelta(hours=5),
        source="direct",
    )
    intention_write(
        agent=agent,
        principal_external_id="ana",
        action="Book the dentist",
        due=now + timedelta(days=9),
        source="direct",
    )
    routine_label(
        agent=agent,
        principal_external_id="ana",
        action="Swims at the lido",
        weekdays=[1, 3, 5],
        time="07:30",
        anchor_date=(now - timedelta(days=40)).date(),
    )
    return {
        "agent": agent,
        "tea": tea,
        "invoice": invoice,
        "principal": Principal.objects.get(external_id="ana"),
    }


def _no_sideways_scroll(page: Any, what: str) -> None:
    overflow = page.evaluate(
        "document.documentElement.scrollWidth - document.documentElement.clientWidth"
    )
    assert overflow <= 1, f"{what} scrolls sideways by {overflow}px"


def test_correct_retire_and_recall_on_a_persons_memory(
    page, live_server, login, ana, screenshot_dir: Path
):
    login(page, live_server, "olivia", "pw-olivia")
    page.goto(f"{live_server.url}/memory/people/")
    _no_sideways_scroll(page, "people")
    page.screenshot(path=str(screenshot_dir / "memory-people-wide.png"), full_page=True)
    page.get_by_role("link", name="ana", exact=True).click()
    page.wait_for_selector("#beliefs")
    assert page.url.endswith(f"/memory/people/{ana['principal'].pk}/")
    tea = f"#belief-{ana['tea'].pk}"
    assert "Honestly I prefer green tea in the afternoon, not coffee." in page.inner_text(tea)
    # the belief resting on a sealed conversation alone ended: not listed, no words shown
    assert "Sees a therapist on Tuesdays" not in page.inner_text("#beliefs")
    assert "therapist on Tuesdays." not in page.inner_text("#beliefs")
    _no_sideways_scroll(page, "memory page")
    page.screenshot(path=str(screenshot_dir / "memory-person-wide.png"), full_page=True)

    # correct the tea belief: the new row takes the old one's place
    page.locator(f"{tea} summary", has_text="Correct").click()
    page.locator(f"{tea} textarea[name=statement]").fill("Prefers white tea in the afternoon")
    page.locator(f"{tea} [data-action=correct]").click()
    page.wait_for_selector(f"{tea}", state="detached")
    new = Belief.objects.get(supersedes_id=ana["tea"].pk)
    row = page.locator(f"#belief-{new.pk}")
    row.wait_for()
    text = row.inner_text()
    assert "Prefers white tea in the afternoon" in text
    assert f"Corrected: this belief replaces #{ana['tea'].pk}" in text
    assert "prefer green tea in the afternoon" in text  # the person's words still back it
    assert Belief.objects.get(pk=ana["tea"].pk).status == "superseded"
    row.screenshot(path=str(screenshot_dir / "memory-corrected-row.png"))

    # a correction that holds a secret is refused in the row, and nothing is stored
    row.locator("summary", has_text="Correct").click()
    row.locator("textarea[name=statement]").fill("api_key = 'sk-live-4f9a8b7c6d5e4f3a2b1c0d9e8f7a'")
    row.locator("[data-action=correct]").click()
    page.wait_for_selector(f"#belief-{new.pk} .msg-error")
    assert "looks like it holds a secret" in page.inner_text(f"#belief-{new.pk}")
    assert not Belief.objects.filter(supersedes_id=new.pk).exists()
    page.locator(f"#belief-{new.pk}").screenshot(
        path=str(screenshot_dir / "memory-refused-row.png")
    )

    # retire (after the confirm dialog) and tick off an intention
    lisbon = Belief.objects.get(statement="Lives in Lisbon")
    page.once("dialog", lambda dialog: dialog.accept())
    page.locator(f"#belief-{lisbon.pk} [data-action=retire]").click()
    page.wait_for_selector(f"#belief-{lisbon.pk}[data-status=retired]")
    assert Belief.objects.get(pk=lisbon.pk).status == "retired"
    invoice = f"#intention-{ana['invoice'].pk}"
    page.locator(f"{invoice} [data-action=done]").click()
    page.wait_for_selector(f"{invoice}[data-state=done]")
    assert Intention.objects.get(pk=ana["invoice"].pk).state == "done"

    # the recall box: the scored pack swaps in under the form
    page.locator("#recall select[name=agent]").select_option("helper")
    page.locator("#recall input[name=q]").fill("What should I cook for her tonight?")
    page.get_by_role("button", name="Ask").click()
    page.wait_for_selector("#recall-result .pack-item, #recall-result .msg-error")
    result = page.inner_text("#recall-result")
    assert "Is allergic to peanuts" in result  # pinned: a constraint
    assert "Lisbon half marathon" not in result  # expired: not for the present
    page.locator("#recall input[name=q]").fill("Which tea does she like in the afternoon?")
    page.get_by_role("button", name="Ask").click()
    page.wait_for_function(
        "() => (document.querySelector('#recall-result .pack-statement') || {}).textContent"
        " === 'Prefers white tea in the afternoon'",
        polling=100,
    )
    first = page.locator("#recall-result .pack-item").first.inner_text()
    assert "words" in first and "retention" in first and "prefer green tea" in first
    page.locator("#recall").screenshot(path=str(screenshot_dir / "memory-recall-box.png"))
    page.screenshot(path=str(screenshot_dir / "memory-recall-wide.png"), full_page=True)

    # narrow: the same page still fits
    page.set_viewport_size(NARROW)
    page.reload()
    page.wait_for_selector("#beliefs")
    _no_sideways_scroll(page, "memory page (narrow)")
    page.screenshot(path=str(screenshot_dir / "memory-person-narrow.png"), full_page=True)
    page.set_viewport_size(WIDE)
