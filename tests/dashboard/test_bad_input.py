"""Bad input on pages: hand-edited query strings, cursors, ids and hidden fields get the
first page, a 400/404 page or a form error, never a 500 (issue 9, finding 5 and 6)."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse

from learning.models import LearningSettings
from persona.models import AgentPersonaVersion
from personaweb.paging import decode_cursor, encode_cursor
from tests.builders import add_conversations, add_proposal, add_versions
from tests.factories import make_agent

pytestmark = pytest.mark.django_db

# an aware time at the edge of what Python can hold: in UTC it is a year Python cannot
# represent, so a database adapter converting it to UTC overflows
EDGE_TIMES = ("9999-12-31T23:59:59-14:00", "0001-01-01T00:00:00+14:00")
HUGE = "9" * 30


@pytest.fixture
def desk(tenant):
    return make_agent(tenant=tenant, slug="helper", name="Helper")


def _cursor(at: str, pk: Any = 5) -> str:
    return encode_cursor([at, pk])


# --- the agent page's timeline paging ------------------------------------------------


@pytest.mark.parametrize("before", ["²", "٣", HUGE, "-1", "1e3", ""])
def test_agent_page_ignores_a_broken_before_and_shows_the_first_page(operator_client, desk, before):
    add_versions(desk, 3)
    response = operator_client.get(reverse("persona:agent", args=["helper"]), {"before": before})
    assert response.status_code == 200
    html = response.content.decode()
    assert "edit 2" in html  # the newest version is on the page


# --- keyset cursors --------------------------------------------------------------------


@pytest.mark.parametrize("at", EDGE_TIMES)
def test_decode_cursor_refuses_times_outside_the_years_a_database_keeps(at):
    from datetime import datetime

    assert decode_cursor(_cursor(at), kinds=[datetime, int]) is None
    assert decode_cursor(_cursor("1899-12-31T23:59:59+00:00"), kinds=[datetime, int]) is None
    assert decode_cursor(_cursor("2026-13-01T00:00:00+00:00"), kinds=[datetime, int]) is None
    assert decode_cursor(_cursor("2026-11-29T12:00:00+00:00"), kinds=[datetime, int]) is not None


def test_decode_cursor_refuses_numbers_a_database_cannot_hold_and_naive_times():
    from datetime import datetime

    assert decode_cursor(_cursor("2026-11-29T12:00:00+00:00", 2**63), kinds=[datetime, int]) is None
    assert decode_cursor(_cursor("2026-11-29T12:00:00+00:00", True), kinds=[datetime, int]) is None
    assert decode_cursor(_cursor("2026-11-29T12:00:00", 5), kinds=[datetime, int]) is None
    assert decode_cursor(encode_cursor([-(2**63) - 1]), kinds=[int]) is None
    assert decode_cursor(encode_cursor([2**63 - 1]), kinds=[int]) == [2**63 - 1]


@pytest.mark.parametrize("at", EDGE_TIMES)
def test_conversations_list_with_an_edited_cursor_shows_the_first_page(operator_client, desk, at):
    add_conversations(desk, n=2)
    response = operator_client.get(reverse("memory:conversations"), {"after": _cursor(at)})
    assert response.status_code == 200
    assert "conv-helper-0" in response.content.decode()


def test_conversations_list_with_a_huge_id_in_the_cursor_shows_the_first_page(
    operator_client, desk
):
    add_conversations(desk, n=1)
    cursor = _cursor("2026-11-29T12:00:00+00:00", 10**30)
    response = operator_client.get(reverse("memory:conversations"), {"after": cursor})
    assert response.status_code == 200
    assert "conv-helper-0" in response.content.decode()


@pytest.mark.parametrize("at", EDGE_TIMES)
def test_review_queue_with_an_edited_cursor_shows_the_first_page(reviewer_client, desk, at):
    add_proposal(desk)
    response = reviewer_client.get(reverse("learning:queue"), {"after": _cursor(at)})
    assert response.status_code == 200
    assert "Plan weekend bakery orders" in response.content.decode()


@pytest.mark.parametrize("at", EDGE_TIMES)
def test_review_log_with_an_edited_cursor_answers(operator_client, desk, at):
    response = operator_client.get(reverse("learning:log"), {"after": _cursor(at)})
    assert response.status_code == 200


# --- out-of-range numbers --------------------------------------------------------------


@pytest.mark.parametrize("value", ["99999999999999999999999", "-9223372036854775809", "9" * 5000])
def test_settings_page_refuses_a_number_above_2_63_with_a_form_error(operator_client, desk, value):
    data = {
        "mode": "on-with-review",
        "every_n_turns": "10",
        "every_hours": value,
        "min_conversations": "3",
        "max_threads": "8",
        "max_messages_per_thread": "40",
        "min_users": "2",
        "min_corrections": "2",
        "rule_owners": "",
        "proposer": "local",
        "model_base_url": "",
        "model_name": "",
    }
    response = operator_client.post(reverse("learning:settings", args=["helper"]), data)
    assert response.status_code == 200
    html = response.content.decode()
    assert "allowed value" in html or "Enter a whole number" in html
    assert LearningSettings.objects.get(agent=desk).every_hours == 24


def test_conversation_with_an_id_out_of_range_is_a_404(operator_client, desk):
    response = operator_client.get(f"/memory/conversations/{HUGE}/")
    assert response.status_code == 404


def test_review_status_with_an_id_out_of_range_is_a_404(operator_client, desk):
    response = operator_client.get(f"/learning/helper/reviews/{HUGE}/")
    assert response.status_code == 404


# --- the hidden expected_version of the list editors -----------------------------------

OUT_OF_DATE = "This page is out of date or incomplete; reload it."


def _post(client, url: str, **extra: Any):
    data: dict[str, Any] = {
        "item": ["Quote the tide table first."],
        "pos": ["1"],
        "reason": "Policy update",
    }
    data.update(extra)
    return client.post(url, data)


@pytest.mark.parametrize("expected", [None, "-1", "", "x", HUGE])
@pytest.mark.parametrize("editor", ["persona:guardrails", "persona:rules"])
def test_list_editor_with_a_missing_or_broken_expected_version_says_reload(
    client, tenant, desk, editor, expected
):
    from tests.factories import make_user

    owner = make_user("olivia", role="operator", tenants=[tenant])
    LearningSettings.objects.filter(agent=desk).update(rule_owners=["olivia"])
    client.force_login(owner)
    url = reverse(editor, args=["helper"])
    extra = {} if expected is None else {"expected_version": expected}
    response = _post(client, url, **extra)
    assert response.status_code == 200
    assert OUT_OF_DATE in response.content.decode()
    assert AgentPersonaVersion.objects.filter(agent=desk).count() == 1


def test_conversation_page_with_edited_marks_and_cursor_answers(operator_client, desk):
    message = add_conversations(desk, n=1)[0]
    mid = message.pk
    marks = [f"{mid}:²:3", f"{mid}:5:2", f"{mid}:-3:{HUGE}", f"{mid}:0:{'9' * 5000}", "x", "::"]
    url = reverse("memory:conversation", args=[message.conversation_id])
    response = operator_client.get(url, {"mark": marks, "after": encode_cursor([2**70])})
    assert response.status_code == 200
    assert message.text[:20] in response.content.decode()
