"""My persona in headless Chromium (issue 12): the owner edits their document; a second
tab that went stale meanwhile gets reload-and-merge without losing its text; the owner
affirms a nomination and sees the entry in the prompt. Screenshots go to
/tmp/shots/my-persona-*.png at both widths (nothing may scroll sideways)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from memory.models import Belief, Principal
from memory.services_beliefs import belief_correct
from persona.owner import doc_head, nomination_affirm, nomination_consider, owner_doc_write
from persona.owner_accounts import owner_account_link
from persona.plans import plan_get_or_rotate
from tests.builders import add_belief, person_said
from tests.factories import TenantFactory, make_agent, make_user

SHOTS = Path("/tmp/shots")
NARROW = {"width": 800, "height": 900}


@pytest.fixture(autouse=True)
def fast_settings(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    settings.MEMORY_BELIEF_EMBEDDINGS = False


def _nominate(agent: Any, statement: str, *, quote_from: Any = None, quote: str = "") -> Any:
    belief = add_belief(
        agent, statement, category="likes", confidence=0.9, quote_from=quote_from, quote=quote
    )
    Belief.objects.filter(pk=belief.pk).update(corroboration_count=3)
    belief.refresh_from_db()
    nomination = nomination_consider(belief=belief)
    assert nomination is not None
    return nomination


@pytest.fixture
def ana(transactional_db) -> dict[str, Any]:
    tenant = TenantFactory(name="Acme", slug="acme")
    agent = make_agent(tenant=tenant, slug="helper", name="Helper", role="Personal assistant")
    make_user("olivia", role="operator", tenants=[tenant])
    person_said(agent, "Hi, I'm Ana. Short answers please.", conversation="hello")
    principal = Principal.objects.get(external_id="ana")
    Principal.objects.filter(pk=principal.pk).update(display_name="Ana Souza")
    principal.refresh_from_db()
    user = make_user("ana", tenants=[tenant])
    owner_account_link(user=user, principal=principal)
    owner_doc_write(
        principal=principal,
        expected_version=0,
        entries=[
            {"text": "I am a structural engineer in Lisbon.", "tier": "permanent"},
            {"text": "Please keep answers short, with the summary first."},
            {"text": "I am training for the half marathon in March.", "tier": "working"},
        ],
        written_by="ana",
    )
    # an affirmed entry whose belief was corrected later: flagged stale for Ana
    jazz = _nominate(agent, "Likes jazz in the evening")
    nomination_affirm(principal=principal, nomination_id=jazz.pk, by="ana")
    belief_correct(
        belief=Belief.objects.get(pk=jazz.belief_id),
        statement="Likes jazz and soul in the evening",
        by="olivia",
    )
    said = person_said(
        agent,
        "Honestly, long walks by the canal are my favourite thing on Sundays.",
        conversation="weekend",
    )
    walks = _nominate(
        agent, "Likes long walks by the canal", quote_from=said, quote="long walks by the canal"
    )
    return {"agent": agent, "principal": principal, "walks": walks}


def _no_sideways_scroll(page: Any, what: str) -> None:
    overflow = page.evaluate(
        "document.documentElement.scrollWidth - document.documentElement.clientWidth"
    )
    assert overflow <= 1, f"{what} scrolls sideways by {overflow}px"


def _texts(page: Any) -> list[str]:
    return page.locator("#doc-form textarea[name=text]").evaluate_all(
        "areas => areas.map(a => a.value)"
    )


def test_owner_edits_merges_a_stale_tab_and_affirms_into_the_prompt(page, live_server, login, ana):
    SHOTS.mkdir(parents=True, exist_ok=True)
    principal = ana["principal"]
    login(page, live_server, "ana", "pw-ana")
    page.get_by_role("link", name="My persona").click()
    page.wait_for_selector("#doc-form")
    assert page.inner_text("[data-testid=version]") == "v2"
    assert page.locator("[data-testid=stale]").count() == 1
    assert "long walks by the canal" in page.inner_text("#nominations mark")
    _no_sideways_scroll(page, "my persona")
    page.screenshot(path=str(SHOTS / "my-persona-wide.png"), full_page=True)

    # a second tab opens the same version and is left open
    other = page.context.new_page()
    other.goto(f"{live_server.url}/me/")
    other.wait_for_selector("#doc-form")

    # the owner edits in the first tab: rewords one entry, adds one, saves
    page.locator("#doc-form textarea[name=text]").nth(1).fill(
        "Please keep answers short: the summary first, then details."
    )
    page.locator("#text-new").fill("I speak Portuguese and English.")
    page.locator("[data-action=save]").click()
    page.wait_for_selector("#workspace .msg-success")
    assert "Saved as version 3." in page.inner_text("#workspace .msg-success")
    assert page.inner_text("[data-testid=version]") == "v3"

    # the stale tab edits other words and saves: reload-and-merge, nothing lost
    mine = "I am a bridge engineer in Lisbon, working on the new Tagus crossing."
    other.locator("#doc-form textarea[name=text]").nth(0).fill(mine)
    other.locator("#text-new").fill("I cycle to work when it is dry.")
    other.locator("[data-action=save]").click()
    other.wait_for_selector("[data-testid=conflict]")
    assert "someone saved version 3 while you edited version 2" in other.inner_text(
        "[data-testid=error]"
    )
    texts = _texts(other)
    assert texts[0] == mine
    assert "I cycle to work when it is dry." in texts
    theirs = other.inner_text("[data-testid=theirs]")
    assert "the summary first, then details." in theirs
    assert "I speak Portuguese and English." in theirs
    _no_sideways_scroll(other, "reload-and-merge")
    other.screenshot(path=str(SHOTS / "my-persona-merge.png"), full_page=True)

    marks = other.locator("[data-testid=theirs] [data-mark]").evaluate_all(
        "spans => spans.map(s => s.dataset.mark)"
    )
    assert marks == ["yours", "theirs", "same", "same", "added"]
    # take the other tab's two changes into this edit, then save against the new head
    for button in other.locator(
        "li.mark-theirs [data-merge-use], li.mark-added [data-merge-use]"
    ).all():
        button.click()
    texts = _texts(other)
    assert "Please keep answers short: the summary first, then details." in texts
    assert "I speak Portuguese and English." in texts
    other.locator("[data-action=save]").click()
    other.wait_for_selector("#workspace .msg-success")
    assert "Saved as version 4." in other.inner_text("#workspace .msg-success")
    head = doc_head(principal.pk)
    assert head.version == 4
    saved = [e.text for e in head.entries]
    assert mine in saved
    assert "Please keep answers short: the summary first, then details." in saved
    assert "I speak Portuguese and English." in saved
    assert "I cycle to work when it is dry." in saved
    assert "Likes jazz in the evening" in saved  # the affirmed entry kept its place
    jazz = next(e for e in head.entries if e.text == "Likes jazz in the evening")
    assert jazz.source == "affirmation" and jazz.stale
    other.close()

    # affirm the nomination in the first tab (it is stale now too: nothing typed, so it
    # simply shows the new head) and see the entry in the prompt
    page.locator(f"#nomination-{ana['walks'].pk} [data-action=affirm]").click()
    page.wait_for_function(
        "() => Array.from(document.querySelectorAll('#doc-form textarea[name=text]'))"
        ".some(a => a.value === 'Likes long walks by the canal')",
        polling=100,
    )
    assert "Affirmed: it is in your document now (version 5)" in page.inner_text("#workspace")
    assert "No suggestion waits for you." in page.inner_text("#nominations")
    row = page.inner_text("[data-testid=row]")
    assert "- Likes long walks by the canal (affirmed by them)" in row
    page.locator("[data-testid=prefix-details] summary").click()
    shown = page.inner_text("[data-testid=prefix]")
    plan = plan_get_or_rotate(agent=ana["agent"], principal=principal, session_key="web")
    assert shown == plan.prefix_text
    assert "- Likes long walks by the canal (affirmed by them)" in plan.prefix_text
    _no_sideways_scroll(page, "my persona after affirming")
    page.screenshot(path=str(SHOTS / "my-persona-affirmed.png"), full_page=True)

    # reinforce one entry; remove another with a reason (Enter in the reason removes it)
    cycle = next(e for e in doc_head(principal.pk).entries if e.text.startswith("I cycle"))
    page.locator(f"#entry-{cycle.key} [data-action=reinforce]").click()
    page.wait_for_selector("#workspace .msg-success >> text=(1×)")
    assert "reinforced 1×" in page.inner_text(f"#entry-{cycle.key}")
    page.locator(f"#entry-{cycle.key} details.remove-now summary").click()
    page.locator(f"#reason-{cycle.key}").fill("I sold the bike.")
    page.locator(f"#reason-{cycle.key}").press("Enter")
    page.wait_for_selector(f"#entry-{cycle.key}", state="detached")
    assert "I sold the bike." in page.inner_text("#removed")
    head = doc_head(principal.pk)
    assert head.version == 6 and all(e.key != cycle.key for e in head.entries)

    # narrow: the same page still fits
    page.set_viewport_size(NARROW)
    page.reload()
    page.wait_for_selector("#doc-form")
    _no_sideways_scroll(page, "my persona (narrow)")
    page.screenshot(path=str(SHOTS / "my-persona-narrow.png"), full_page=True)


def test_a_login_without_a_person_sees_why(page, live_server, login, ana):
    SHOTS.mkdir(parents=True, exist_ok=True)
    login(page, live_server, "olivia", "pw-olivia")
    assert page.get_by_role("link", name="My persona").count() == 0
    page.goto(f"{live_server.url}/me/")
    assert "Your login is not linked to a person" in page.inner_text("main")
    page.screenshot(path=str(SHOTS / "my-persona-not-linked.png"), full_page=True)
    page.goto(f"{live_server.url}/learning/log/")
    counts = page.inner_text("[data-testid=owner-counts]")
    assert "affirmed" in counts and "stale entries" in counts
    page.screenshot(path=str(SHOTS / "my-persona-review-log.png"), full_page=True)
