"""The operator's journeys through the persona editors, in a real browser: edit goals with
a reason, preview the prompt diff, save, revert from the timeline and undo; and two
operators editing from one version, whose merge loses neither change."""

from __future__ import annotations

from django.urls import reverse

from persona.models import AgentPersonaVersion
from tests.browser.conftest import WIDE
from tests.builders import add_proposal, learning_on
from tests.factories import make_agent, make_user

GOALS = "Answer questions about opening hours."


def _desk(tenant):
    agent = make_agent(
        tenant=tenant,
        slug="desk",
        name="Front desk",
        role="Receptionist for a small hotel",
        goals=GOALS,
        background="A twelve-room hotel by the harbour.",
        guardrails=["Never share a guest's room number."],
    )
    learning_on(agent, standing_rules=True)
    return agent


def test_operator_edits_goals_previews_saves_reverts_and_undoes(
    page, live_server, login, operator, tenant, check_page
) -> None:
    desk = _desk(tenant)
    login(page, live_server, "olivia", "pw-olivia")
    page.goto(live_server.url + reverse("persona:agent", args=["desk"]))
    page.get_by_role("link", name="Edit persona").click()
    page.wait_for_url("**/persona/desk/edit/")

    goals = page.get_by_label("Goals")
    goals.fill(GOALS + " Quote today's room prices when asked.")
    # the budget is shown as you type
    assert "/ 6000" in page.locator("#id_goals + .char-count").inner_text()
    page.get_by_label("Reason for this change").fill("Guests keep asking for prices")
    page.get_by_role("button", name="Preview").click()
    diff = page.get_by_test_id("prompt-diff")
    diff.wait_for()
    assert "room prices" in diff.locator("ins").all_inner_texts()[-1]
    assert desk.versions.count() == 1  # a preview saves nothing
    check_page(page, "persona-edit-preview")

    page.get_by_role("button", name="Save as version 2").click()
    page.wait_for_url("**/persona/desk/#v2")
    assert "Saved as persona version 2 (goals)" in page.locator("#messages").inner_text()
    v2 = page.locator("#v2")
    assert "Guests keep asking for prices" in v2.inner_text()
    check_page(page, "persona-agent-after-edit")

    page.locator("#v1").get_by_role("link", name="Revert to v1…").click()
    page.wait_for_url("**/versions/1/revert/")
    assert "room prices" in page.locator(".diff-body del").all_inner_texts()[-1]
    page.get_by_label("Reason").fill("Prices change daily; keep them out")
    check_page(page, "persona-revert")
    page.get_by_role("button", name="Revert to version 1").click()
    page.wait_for_url("**/persona/desk/#v3")
    assert AgentPersonaVersion.objects.get(agent=desk, version=3).goals == GOALS

    page.locator("#v3").get_by_role("link", name="Undo this edit…").click()
    page.wait_for_url("**/versions/3/undo/")
    page.get_by_role("button", name="Undo version 3").click()
    page.wait_for_url("**/persona/desk/#v4")
    head = AgentPersonaVersion.objects.get(agent=desk, version=4)
    assert head.goals.endswith("Quote today's room prices when asked.")
    assert head.reason == "Undid version 3 (goals)." and head.approved_by == "olivia"
    assert "Version 3 undone: saved as version 4" in page.locator("#messages").inner_text()


def test_two_operators_edit_from_one_version_and_the_merge_loses_neither(
    browser, page, live_server, login, operator, tenant, check_page
) -> None:
    desk = _desk(tenant)
    waiting = add_proposal(desk, kind="rule", text="Give check-out times in full.")
    make_user("ann", role="operator", tenants=[tenant])
    edit_url = live_server.url + reverse("persona:edit", args=["desk"])
    login(page, live_server, "olivia", "pw-olivia")
    page.goto(edit_url)
    other = browser.new_context(viewport=WIDE)
    try:
        ann = other.new_page()
        login(ann, live_server, "ann", "pw-ann")
        ann.goto(edit_url)
        # both have version 1 open; ann saves first
        ann.get_by_label("Role").fill("Receptionist and concierge")
        ann.get_by_label("Reason for this change").fill("She books taxis now")
        ann.get_by_role("button", name="Save as version 2").click()
        # the waiting proposal is listed before the save drops it
        assert "Give check-out times in full." in ann.get_by_test_id("drops").inner_text()
        assert desk.versions.count() == 1  # asked first: nothing saved yet
        check_page(ann, "persona-drops")
        ann.get_by_label("Drop it when I save").check()
        ann.get_by_role("button", name="Save as version 2").click()
        ann.wait_for_url("**/persona/desk/#v2")
    finally:
        other.close()
    waiting.refresh_from_db()
    assert waiting.status == "dropped" and waiting.decided_by == "ann"
    assert "in version 2 (role)" in waiting.status_reason

    page.get_by_label("Goals").fill(GOALS + " Book tables at the harbour restaurant.")
    page.get_by_label("Reason for this change").fill("Restaurant partnership")
    page.get_by_role("button", name="Save as version 2").click()
    stale = page.get_by_test_id("stale")
    assert stale.inner_text().count("ann saved version 2") == 1
    theirs = page.get_by_test_id("theirs")
    assert "by ann" in theirs.inner_text() and "She books taxis now" in theirs.inner_text()
    # mine is kept in the form; theirs is offered per field
    assert page.get_by_label("Goals").input_value().endswith("harbour restaurant.")
    check_page(page, "persona-merge")
    theirs.locator("dd[data-field=role]").get_by_role("button", name="Use this").click()
    assert page.get_by_label("Role").input_value() == "Receptionist and concierge"
    page.get_by_role("button", name="Save as version 3").click()
    page.wait_for_url("**/persona/desk/#v3")
    head = AgentPersonaVersion.objects.get(agent=desk, version=3)
    assert head.role == "Receptionist and concierge"  # ann's change
    assert head.goals.endswith("Book tables at the harbour restaurant.")  # olivia's change
    assert head.approved_by == "olivia"


def test_two_operators_edit_guardrails_and_use_this_adds_their_line(
    browser, page, live_server, login, operator, tenant, check_page
) -> None:
    desk = _desk(tenant)
    make_user("ann", role="operator", tenants=[tenant])
    url = live_server.url + reverse("persona:guardrails", args=["desk"])
    login(page, live_server, "olivia", "pw-olivia")
    page.goto(url)
    other = browser.new_context(viewport=WIDE)
    try:
        ann = other.new_page()
        login(ann, live_server, "ann", "pw-ann")
        ann.goto(url)
        ann.get_by_label("Add a guardrail").fill("Never quote a price for another hotel.")
        ann.get_by_label("Reason for this change").fill("Competitors' prices change")
        ann.get_by_role("button", name="Save as version 2").click()
        ann.wait_for_url("**/persona/desk/#v2")
    finally:
        other.close()
    page.get_by_label("Add a guardrail").fill("Never give out the safe's code.")
    page.get_by_label("Reason for this change").fill("The safe")
    page.get_by_role("button", name="Preview").click()
    page.get_by_test_id("prompt-diff").wait_for()
    page.get_by_role("button", name="Save as version 2").click()
    theirs = page.get_by_test_id("theirs")
    theirs.wait_for()
    assert "added meanwhile" in theirs.inner_text()
    check_page(page, "guardrails-merge")
    theirs.get_by_role("button", name="Use this").click()
    page.get_by_role("button", name="Save as version 3").click()
    page.wait_for_url("**/persona/desk/#v3")
    assert AgentPersonaVersion.objects.get(agent=desk, version=3).guardrails == [
        "Never share a guest's room number.",
        "Never give out the safe's code.",
        "Never quote a price for another hotel.",
    ]
