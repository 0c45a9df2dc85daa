from __future__ import annotations

from pathlib import Path

from django.urls import reverse

from memory.services import record_turn
from tests.browser.conftest import NARROW
from tests.factories import make_agent


def _demo(tenant) -> None:
    for i, (slug, name) in enumerate([("helper", "Helper"), ("desk", "Team desk")]):
        agent = make_agent(tenant=tenant, slug=slug, name=name)
        for person in ("ana", "ben")[: i + 1]:
            record_turn(
                agent=agent,
                principal_external_id=person,
                conversation=f"{slug}-{person}",
                user_text="Please summarise the incident review notes for the on-call rota.",
                assistant_text="Here is a short summary of the incident review.",
            )


def test_operator_logs_in_and_sees_home_counts(
    page, live_server, login, operator, tenant, screenshot_dir: Path, check_page
) -> None:
    _demo(tenant)
    page.goto(live_server.url + reverse("home"))
    assert "/login/" in page.url  # anonymous: sent to the login page first
    page.screenshot(path=str(screenshot_dir / "login.png"), full_page=True)

    login(page, live_server, "olivia", "pw-olivia")
    assert page.url.rstrip("/") == live_server.url
    counts = page.get_by_role("region", name="Counts")
    assert counts.locator(".stat", has_text="agents").locator(".num").inner_text() == "2"
    assert counts.locator(".stat", has_text="conversations").locator(".num").inner_text() == "3"
    assert counts.locator(".stat", has_text="messages").locator(".num").inner_text() == "6"
    assert page.get_by_role("navigation", name="Main").get_by_role("link", name="Home").is_visible()
    check_page(page, "home")

    # Log out sits in the account menu under the name, at every width
    page.set_viewport_size(NARROW)
    page.screenshot(path=str(screenshot_dir / "home-narrow.png"), full_page=True)
    page.locator(".who summary").click()
    assert page.get_by_role("button", name="Log out").is_visible()

    page.get_by_role("button", name="Log out").click()
    page.wait_for_url("**/login/")
    page.goto(live_server.url + reverse("home"))
    assert "/login/" in page.url


def test_wrong_password_is_explained(page, live_server, operator) -> None:
    page.goto(f"{live_server.url}/login/")
    page.get_by_label("Username").fill("olivia")
    page.get_by_label("Password").fill("wrong")
    page.get_by_role("button", name="Log in").click()
    assert (
        page.get_by_role("alert").inner_text().startswith("That username and password do not match")
    )
