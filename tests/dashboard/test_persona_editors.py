"""The persona editors' pages: fields, guardrails and rules (preview, drops, merge),
revert and undo from the timeline."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse

from learning.models import Proposal
from learning.selectors import learning_status
from persona.models import AgentPersonaVersion, SourceType
from persona.services import MAX_FIELD_CHARS, MAX_NAME_CHARS, MAX_ROLE_CHARS
from persona.services_edits import persona_edit
from tenancy.access import actor_for_user
from tests.builders import (
    HX,
    MAX_QUERIES,
    add_proposal,
    add_review,
    add_versions,
    count_queries,
    learning_on,
)
from tests.factories import make_agent, make_user


@pytest.fixture
def desk(tenant):
    agent = make_agent(
        tenant=tenant,
        slug="desk",
        name="Desk",
        role="Front desk",
        goals="Answer questions about opening hours.",
        guardrails=["Never share a customer's address."],
    )
    learning_on(agent, standing_rules=True)
    return agent


@pytest.fixture
def ann(tenant):
    return make_user("ann", role="operator", tenants=[tenant])


def _fields(agent: Any, **over: str) -> dict[str, str]:
    data = {
        "name": agent.name,
        "role": "Front desk",
        "goals": "Answer questions about opening hours.",
        "background": "",
        "reason": "Clearer goals",
        "expected_version": str(agent.persona_version),
        "seen_version": str(agent.persona_version),
        "action": "save",
    }
    data.update(over)
    return data


EDIT = reverse("persona:edit", args=["desk"])


@pytest.mark.django_db
def test_the_edit_page_shows_every_field_with_its_budget(operator_client, desk):
    html = operator_client.get(EDIT).content.decode()
    for name, limit in (
        ("name", MAX_NAME_CHARS),
        ("role", MAX_ROLE_CHARS),
        ("goals", MAX_FIELD_CHARS),
        ("background", MAX_FIELD_CHARS),
    ):
        assert f'name="{name}"' in html
        assert f'data-max-chars="{limit}"' in html
    assert "Answer questions about opening hours." in html
    assert 'name="expected_version" value="1"' in html
    assert "js/persona_editor.js" in html and "<script>" not in html and "style=" not in html


@pytest.mark.django_db
def test_the_agent_page_links_every_editor(operator_client, desk):
    html = operator_client.get(reverse("persona:agent", args=["desk"])).content.decode()
    assert EDIT in html
    assert reverse("persona:guardrails", args=["desk"]) in html
    assert reverse("persona:rules", args=["desk"]) in html


@pytest.mark.django_db
def test_preview_shows_the_prompt_word_diff_and_saves_nothing(operator_client, desk):
    data = _fields(desk, goals="Answer questions about opening hours and prices.", action="preview")
    html = operator_client.post(EDIT, data).content.decode()
    assert 'data-testid="prompt-diff"' in html
    assert "<del>hours.</del><ins>hours and prices.</ins>" in html
    assert desk.versions.count() == 1
    partial = operator_client.post(EDIT, data, **HX).content.decode()
    assert partial.lstrip().startswith('<section id="preview"')
    assert "<html" not in partial


@pytest.mark.django_db
def test_preview_says_what_a_save_would_refuse(operator_client, desk):
    data = _fields(desk, background="Use the key AKIAIOSFODNN7EXAMPLE.", action="preview")
    html = operator_client.post(EDIT, data).content.decode()
    assert 'data-testid="preview-refusal"' in html and "secret" in html


@pytest.mark.django_db
def test_saving_needs_a_reason_and_then_writes_a_version(operator_client, desk):
    bad = operator_client.post(EDIT, _fields(desk, goals="Greet people.", reason=""))
    assert "Say why you are making this change" in bad.content.decode()
    assert desk.versions.count() == 1
    ok = operator_client.post(EDIT, _fields(desk, goals="Greet people."))
    assert ok.status_code == 302 and ok["Location"].endswith("#v2")
    version = AgentPersonaVersion.objects.get(agent=desk, version=2)
    assert version.goals == "Greet people." and version.approved_by == "olivia"
    assert version.source_type == SourceType.UI_FORM and version.reason == "Clearer goals"


@pytest.mark.django_db
def test_a_save_that_drops_proposals_lists_them_and_asks_first(operator_client, desk):
    waiting = add_proposal(desk, kind="rule")
    page = operator_client.get(EDIT).content.decode()
    assert 'data-testid="drops"' in page and "Give dates in full." in page
    first = operator_client.post(EDIT, _fields(desk, goals="Greet people."))
    html = first.content.decode()
    assert first.status_code == 200 and "Tick the box to confirm" in html
    assert desk.versions.count() == 1
    waiting.refresh_from_db()
    assert waiting.status == Proposal.Status.WAITING
    confirmed = _fields(desk, goals="Greet people.", confirm_drops=str(waiting.pk))
    assert operator_client.post(EDIT, confirmed).status_code == 302
    waiting.refresh_from_db()
    assert waiting.status == Proposal.Status.DROPPED
    assert waiting.decided_by == "olivia" and "in version 2 (goals)" in waiting.status_reason


@pytest.mark.django_db
def test_a_proposal_that_arrived_after_the_list_was_shown_is_asked_about(operator_client, desk):
    shown = add_proposal(desk, kind="rule")
    add_proposal(desk, kind="sentence")
    data = _fields(desk, goals="Greet people.", confirm_drops=str(shown.pk))
    assert "Tick the box to confirm" in operator_client.post(EDIT, data).content.decode()
    assert desk.versions.count() == 1


@pytest.mark.django_db
def test_a_stale_save_shows_theirs_beside_yours_and_saves_against_the_new_version(
    operator_client, desk, ann
):
    persona_edit(
        agent=desk,
        by=actor_for_user(ann),
        changes={"role": "Reception"},
        reason="New title",
        base_version=1,
    )
    html = operator_client.post(
        EDIT, _fields(desk, goals="Greet people.", expected_version="1", seen_version="1")
    ).content.decode()
    assert html.count("ann saved version 2") == 1
    assert "“New title”" in html and 'data-testid="theirs"' in html
    assert 'data-mark="theirs"' in html  # the role changed meanwhile
    assert 'data-mark="yours"' in html  # the goals changed by you
    assert "Greet people." in html  # yours kept
    assert 'name="expected_version" value="2"' in html and 'name="seen_version" value="1"' in html
    assert desk.versions.count() == 2
    # "Use this" without JavaScript copies their role into the edit; nothing is saved
    used = operator_client.post(
        EDIT,
        _fields(desk, goals="Greet people.", expected_version="2", seen_version="1", use="role"),
    ).content.decode()
    assert 'data-testid="theirs"' in used and "Reception</textarea>" in used
    assert desk.versions.count() == 2
    merged = _fields(desk, goals="Greet people.", role="Reception", expected_version="2")
    assert operator_client.post(EDIT, merged).status_code == 302
    head = AgentPersonaVersion.objects.get(agent=desk, version=3)
    assert head.role == "Reception" and head.goals == "Greet people."  # both changes kept


@pytest.mark.django_db
def test_a_stale_guardrail_save_marks_each_line_and_use_this_adds_it(operator_client, desk, ann):
    url = reverse("persona:guardrails", args=["desk"])
    persona_edit(
        agent=desk,
        by=actor_for_user(ann),
        changes={"guardrails": ["Never share a customer's address.", "Never quote prices."]},
        reason="Prices are the shop's",
        base_version=1,
    )
    mine = ["Never share a customer's address.", "Never share a phone number."]
    data = {
        "item": mine,
        "pos": ["1", "2"],
        "reason": "Phones",
        "expected_version": "1",
        "seen_version": "1",
        "action": "save",
    }
    html = operator_client.post(url, data).content.decode()
    assert html.count("ann saved version 2") == 1
    assert 'data-mark="added"' in html and "Never quote prices." in html
    assert "Never share a phone number." in html
    used = operator_client.post(url, {**data, "expected_version": "2", "use": "1"}).content.decode()
    assert used.count(">Never quote prices.</textarea>") == 1
    data.update(item=[*mine, "Never quote prices."], pos=["1", "2", "3"], expected_version="2")
    assert operator_client.post(url, data).status_code == 302
    assert AgentPersonaVersion.objects.get(agent=desk, version=3).guardrails == [
        *mine,
        "Never quote prices.",
    ]


@pytest.mark.django_db
def test_revert_from_the_timeline_asks_for_a_reason_and_can_be_undone(operator_client, desk):
    operator_client.post(EDIT, _fields(desk, goals="Greet people."))
    agent_html = operator_client.get(reverse("persona:agent", args=["desk"])).content.decode()
    revert_url = reverse("persona:revert", args=["desk", 1])
    assert revert_url in agent_html
    assert reverse("persona:undo_edit", args=["desk", 2]) in agent_html
    page = operator_client.get(revert_url).content.decode()
    assert "Revert to version 1?" in page and "<del>Greet</del>" in page
    refused = operator_client.post(revert_url, {"reason": "", "expected_version": "2"})
    assert "Say why" in refused.content.decode()
    done = operator_client.post(revert_url, {"reason": "Back", "expected_version": "2"})
    assert done.status_code == 302
    head = AgentPersonaVersion.objects.get(agent=desk, version=3)
    assert head.goals == "Answer questions about opening hours."
    timeline = operator_client.get(reverse("persona:agent", args=["desk"])).content.decode()
    assert "restores v1" in timeline and "Reverted to version 1: Back" in timeline
    undo_url = reverse("persona:undo_edit", args=["desk", 3])
    assert "Undo version 3?" in operator_client.get(undo_url).content.decode()
    assert operator_client.post(undo_url, {"reason": ""}).status_code == 302
    assert AgentPersonaVersion.objects.get(agent=desk, version=4).goals == "Greet people."


@pytest.mark.django_db
def test_undo_page_says_why_it_is_refused(operator_client, desk):
    operator_client.post(EDIT, _fields(desk, goals="Greet people."))
    operator_client.post(EDIT, _fields(desk, goals="Greet people warmly.", expected_version="2"))
    url = reverse("persona:undo_edit", args=["desk", 2])
    html = operator_client.get(url).content.decode()
    assert "changed again in version 3" in html and 'data-testid="undo-refusal"' in html
    assert operator_client.post(url, {"reason": "x"}).status_code == 200
    assert desk.versions.count() == 3


@pytest.mark.django_db
def test_a_reviewer_cannot_reach_the_editors(reviewer_client, desk):
    for url in (
        EDIT,
        reverse("persona:revert", args=["desk", 1]),
        reverse("persona:guardrails", args=["desk"]),
    ):
        assert reviewer_client.get(url).status_code == 403
    assert reviewer_client.post(EDIT, _fields(desk, goals="x")).status_code == 403
    assert desk.versions.count() == 1


@pytest.mark.django_db
def test_another_tenants_agent_is_404_on_every_editor(operator_client, other_tenant):
    make_agent(tenant=other_tenant, slug="theirs")
    for name, args in (
        ("persona:edit", ["theirs"]),
        ("persona:guardrails", ["theirs"]),
        ("persona:revert", ["theirs", 1]),
        ("persona:undo_edit", ["theirs", 1]),
    ):
        assert operator_client.get(reverse(name, args=args)).status_code == 404


@pytest.mark.django_db
def test_editor_pages_run_a_constant_number_of_queries(
    operator_client, desk, django_assert_max_num_queries
):
    urls = [EDIT, reverse("persona:revert", args=["desk", 1])]
    add_versions(desk, 1)
    small = [count_queries(operator_client, url) for url in urls]
    olivia = actor_for_user(make_user("olive", role="operator", tenants=[desk.tenant]))
    for i in range(15):
        persona_edit(
            agent=desk,
            by=olivia,
            changes={"goals": f"Goal number {i}."},
            reason="more",
            base_version=desk.persona_version,
        )
    for _ in range(4):
        add_proposal(desk, kind="rule", text=f"Give dates in full number {_}.")
    assert [count_queries(operator_client, url) for url in urls] == small
    for url in urls:
        with django_assert_max_num_queries(MAX_QUERIES):
            operator_client.get(url)
    undo = reverse("persona:undo_edit", args=["desk", 2])
    with django_assert_max_num_queries(MAX_QUERIES):
        operator_client.get(undo)


@pytest.mark.django_db
def test_the_review_log_says_why_a_proposal_was_dropped(operator_client, desk):
    waiting = add_proposal(desk, kind="rule")
    add_review(desk, outcome="proposed", reason="Proposed a standing rule.", proposal=waiting)
    data = _fields(desk, goals="Greet people.", confirm_drops=str(waiting.pk))
    assert operator_client.post(EDIT, data).status_code == 302
    log = operator_client.get(reverse("learning:log") + "?agent=desk").content.decode()
    assert "it was dropped by olivia. The persona changed in version 2 (goals)" in log
    assert "“Clearer goals”" in log
    decided = learning_status(agent=desk)["recent_decisions"][0]
    assert decided["status"] == "dropped" and decided["decided_by"] == "olivia"
    assert "version 2 (goals)" in decided["status_reason"]
