from __future__ import annotations

from datetime import timedelta

from django.urls import reverse
from django.utils import timezone

from memory.audit import audit_tenants
from memory.models import Belief
from tests.builders import add_belief


def test_an_operator_retires_a_finding_from_the_health_page(
    page, live_server, login, operator, agent, check_page
) -> None:
    for statement in ("Is travelling to Oslo.", "Has a cold this week."):
        belief = add_belief(agent, statement, category="state")
        Belief.objects.filter(pk=belief.pk).update(valid_until=timezone.now() - timedelta(days=2))
    add_belief(agent, "Takes the train to work.")
    twin = add_belief(agent, "Has a season ticket.")
    Belief.objects.filter(pk=twin.pk).update(statement="takes the train to work")
    for days in (3, 2, 1, 0):
        audit_tenants(scan=False, now=timezone.now() - timedelta(days=days))

    login(page, live_server, "olivia", "pw-olivia")
    page.goto(live_server.url + reverse("memory:health"))
    assert page.get_by_role("heading", name="Expired but still active (2)").is_visible()
    check_page(page, "memory-health")

    row = page.locator("li", has_text="Has a cold this week.")
    row.get_by_role("button", name="Retire").click()
    page.wait_for_load_state()
    assert "Retired" in page.inner_text("#messages")
    assert page.locator("li", has_text="Has a cold this week.").count() == 0
    page.locator("li", has_text="takes the train to work").get_by_role(
        "button", name="Merge"
    ).click()
    page.wait_for_load_state()
    assert "Merged" in page.inner_text("#messages")
