"""Persona evolution tells the story: a feed of every persona change across the
assistants a person may see, its filters and pages, and a weekly chart of changes and
decisions."""

from __future__ import annotations

import re
from datetime import date, timedelta

import pytest
from django.utils import timezone

from dashboard.evolution import (
    FeedFilters,
    change_source,
    changes_queryset,
    chart_for,
    short_diff,
    weekly_activity,
)
from learning.services import proposal_apply, proposal_dismiss, proposal_undo
from persona.models import AgentPersonaVersion
from persona.services import ChangeTrigger, persona_version_create
from tests.builders import HX, MAX_QUERIES, add_proposal, count_queries, learning_on
from tests.factories import make_agent, make_user

pytestmark = pytest.mark.django_db
URL = "/persona/"


@pytest.fixture
def desk(tenant):
    agent = make_agent(tenant=tenant, slug="desk", name="Desk", goals="Answer claims.")
    learning_on(agent, standing_rules=True)
    return agent


@pytest.fixture
def ana(tenant):
    return make_user("ana", role="reviewer", tenants=[tenant])


def edit(agent, by="olivia", source="ui_form", **changes):
    return persona_version_create(
        agent=agent,
        changes=changes,
        trigger=ChangeTrigger(source_type=source, reason=f"because {by} said so", approved_by=by),
    )


def feed(html: str) -> str:
    m = re.search(r'<section id="feed".*?</section>', html, re.S)
    assert m
    return m.group(0)


def test_source_comes_from_the_trigger_and_an_unknown_one_shows_its_raw_name():
    assert change_source("ui_form") == change_source("manual") == "operator"
    assert change_source("host") == change_source("update_persona") == "host"
    assert change_source("persona_learning") == change_source("standing_rule") == "learning"
    assert change_source("revert") == change_source("undo") == "revert"
    assert change_source("persona_learning", undoes=True) == "revert"
    assert change_source("restore_from_backup") == "restore_from_backup"


def test_the_feed_shows_each_change_with_field_diff_source_who_when_why_and_evidence(
    operator_client, tenant, other_tenant, desk, ana
):
    edit(desk, goals="Answer claims and chase missing receipts.")
    proposal = add_proposal(
        desk,
        text="Writes claim summaries.",
        evidence=[{"quote": "q", "conversation_id": 1}, {"quote": "r", "conversation_id": 2}],
    )
    proposal_apply(proposal=proposal, by="ana")
    hidden = make_agent(tenant=other_tenant, slug="elsewhere", name="Elsewhere")
    edit(hidden, goals="Secret goals of another tenant.")
    html = feed(operator_client.get(URL).content.decode())
    assert "Elsewhere" not in html and "Secret goals" not in html
    changes = re.findall(r'<li class="change" data-source="(\w+)">', html)
    assert changes == ["learning", "operator", "operator"]  # newest first; v1 was made too
    assert "<del>claims.</del><ins>claims and chase missing receipts.</ins>" in html
    assert "because olivia said so" in html and "by olivia" in html and "by ana" in html
    assert "2 quotes of evidence" in html
    assert '<div class="diff-field">goals</div>' in html


def test_an_undo_of_a_learned_change_is_a_revert(operator_client, desk, ana):
    proposal = add_proposal(desk, text="Writes claim summaries.")
    proposal_apply(proposal=proposal, by="ana")
    proposal.refresh_from_db()
    proposal_undo(proposal=proposal, by="ana")
    html = feed(operator_client.get(URL).content.decode())
    assert re.findall(r'data-source="(\w+)"', html)[:2] == ["revert", "learning"]
    html = feed(operator_client.get(URL, {"source": "revert"}).content.decode())
    assert re.findall(r'data-source="(\w+)"', html) == ["revert"]
    html = feed(operator_client.get(URL, {"source": "learning"}).content.decode())
    assert re.findall(r'data-source="(\w+)"', html) == ["learning"]


def test_a_version_with_an_unknown_trigger_is_listed_under_its_raw_name(operator_client, desk):
    AgentPersonaVersion.objects.create(
        agent=desk,
        version=2,
        name="Desk",
        goals="Answer claims.",
        source_type="restored",
        reason="Restored from a backup.",
        fields_changed=[],
    )
    html = operator_client.get(URL, {"source": "restored"}).content.decode()
    assert re.findall(r'data-source="(\w+)"', feed(html)) == ["restored"]
    assert '<option value="restored" selected>restored</option>' in html


def test_the_feed_filters_by_assistant_source_field_and_date(operator_client, tenant, desk):
    other = make_agent(tenant=tenant, slug="other", name="Other")
    edit(desk, background="A claims desk.")
    edit(other, guardrails=["Never promise a payout."])
    edit(desk, source="host", by="hostapp", role="Claims helper")

    def sources(**query):
        html = feed(operator_client.get(URL, query).content.decode())
        return re.findall(r'<a href="/persona/(\w+)/#v(\d+)"', html)

    assert sources(agent="other") == [("other", "2"), ("other", "1")]
    assert sources(source="host") == [("desk", "3")]
    assert sources(field="guardrails") == [("other", "2")]
    assert sources(field="background") == [("desk", "2")]
    today = timezone.localdate()
    assert len(sources(since=today.isoformat(), until=today.isoformat())) == 5
    assert sources(until=(today - timedelta(days=1)).isoformat()) == []
    # a date that is no date is no filter
    assert len(sources(since="not-a-date")) == 5
    html = operator_client.get(URL, {"field": "background", "agent": "other"}).content.decode()
    assert "No change matches these filters" in html


def test_the_feed_pages_by_keyset_and_htmx_returns_the_chart_and_feed_only(
    operator_client, desk, monkeypatch
):
    monkeypatch.setattr("dashboard.views.evolution.FEED_PAGE", 2)
    for i in range(4):
        edit(desk, background=f"Paragraph {i}.")
    seen: list[str] = []
    query: dict[str, str] = {"agent": "desk"}
    for _ in range(5):
        html = operator_client.get(URL, query, HTTP_HX_TARGET="story", **HX).content.decode()
        assert html.lstrip().startswith('<div id="story">') and "<html" not in html
        assert '<svg class="chart"' in html  # the chart follows the filters
        seen += re.findall(r'#v(\d+)"', html)
        m = re.search(r'changes_after=([\w-]+)"', html)
        if not m:
            break
        query = {"agent": "desk", "changes_after": m.group(1)}
    assert seen == ["5", "4", "3", "2", "1"]


def test_short_diff_keeps_a_few_words_around_a_change():
    runs = [
        ("eq", " ".join(f"w{i}" for i in range(30)) + " "),
        ("ins", "new words"),
        ("eq", " tail"),
    ]
    short = short_diff(runs)
    assert short[0][1].startswith("…") and short[0][1].endswith("w29 ")
    assert short[1] == ("ins", "new words")
    long = short_diff([("ins", "x" * 1000)])
    assert len(long[0][1]) <= 321


def test_the_chart_counts_changes_and_decisions_per_week(operator, desk, ana):
    first = add_proposal(desk, text="Writes claim summaries.")
    proposal_apply(proposal=first, by="ana")
    first.refresh_from_db()
    proposal_undo(proposal=first, by="ana")
    second = add_proposal(desk, text="Chases missing receipts.")
    proposal_dismiss(proposal=second, by="ana")
    weeks = weekly_activity(operator, FeedFilters())
    assert len(weeks) == 12
    now = weeks[-1]
    assert now.start == timezone.localdate() - timedelta(days=timezone.localdate().weekday())
    assert (now.changes, now.approved, now.turned_down, now.undone) == (3, 1, 1, 1)
    assert all(w.changes == 0 for w in weeks[:-1])
    chart = chart_for(weeks)
    classes = [b.cls for b in chart.bars]
    assert classes == ["bar-changes", "bar-approved", "bar-turned-down", "bar-undone"]
    assert chart.total_changes == 3 and chart.total_decisions == 3
    # the dates given choose the weeks, at most 26
    weeks = weekly_activity(operator, FeedFilters(since=date(2020, 1, 1), until=date(2026, 1, 1)))
    assert len(weeks) == 26


def test_the_chart_is_an_accessible_svg_with_a_table_and_no_inline_style(operator_client, desk):
    edit(desk, goals="Answer claims quickly.")
    html = operator_client.get(URL).content.decode()
    svg = re.search(r"<svg class=\"chart\".*?</svg>", html, re.S).group(0)
    assert 'role="img"' in svg and 'aria-labelledby="chart-title chart-desc"' in svg
    assert '<title id="chart-title">' in svg and '<desc id="chart-desc">' in svg
    assert "style=" not in html
    assert "The chart as a table" in html and '<th scope="col">Turned down</th>' in html


def test_waiting_says_rules_wait_for_their_owners(operator_client, tenant):
    agent = make_agent(tenant=tenant, slug="team", name="Team")
    learning_on(agent, standing_rules=True, rule_owners=["ana", "bo"])
    add_proposal(agent, kind="rule")
    add_proposal(agent, kind="rule", text="Say the claim number first.")
    html = operator_client.get(URL).content.decode()
    assert "2 rules wait for their owners (ana, bo)" in html


def test_the_evolution_page_query_count_does_not_grow(
    operator_client, tenant, desk, ana, django_assert_max_num_queries
):
    edit(desk, goals="Answer claims quickly.")
    proposal = add_proposal(desk, text="Writes claim summaries.")
    proposal_apply(proposal=proposal, by="ana")
    small = count_queries(operator_client, URL)
    for i in range(8):
        agent = make_agent(tenant=tenant, slug=f"more-{i}")
        learning_on(agent, standing_rules=True, rule_owners=["ana"])
        edit(agent, goals=f"Goals {i}.")
        edit(agent, source="host", by="hostapp", background=f"Background {i}.")
        add_proposal(agent, kind="rule")
        p = add_proposal(agent, text=f"Prices batch {i}.")
        proposal_apply(proposal=p, by="ana")
    assert count_queries(operator_client, URL) == small
    assert count_queries(operator_client, URL, HTTP_HX_TARGET="story", **HX) <= small
    with django_assert_max_num_queries(MAX_QUERIES):
        operator_client.get(URL, {"source": "learning", "field": "goals"})


def test_one_assistants_feed_is_read_in_order_from_its_index(operator, desk):
    """One assistant's changes, newest first, come straight from the (agent, -created_at,
    -id) index: no sort of all its versions (SQLite's plan; PostgreSQL's planner may
    prefer a scan of a tiny test table, so only the index's existence is asserted there)."""
    from django.db import connection

    names = {i.name for i in AgentPersonaVersion._meta.indexes}
    assert {"persona_version_feed", "persona_version_agent_feed"} <= names
    if connection.vendor != "sqlite":
        return
    qs = changes_queryset(operator, FeedFilters(agent="desk")).order_by("-created_at", "-id")
    plan = qs[:21].explain()
    assert "persona_version_agent_feed" in plan and "TEMP B-TREE" not in plan


def test_the_assistants_table_tells_the_last_review_from_its_proposals_state(
    operator_client, tenant, desk
):
    from tests.builders import add_review

    make_user("rex", role="reviewer", tenants=[tenant])
    learning_on(desk, standing_rules=True, rule_owners=["rex"])
    proposal = add_proposal(desk, kind="rule")
    waits = "Proposed a standing rule from corrections in 2 conversations; it waits for a rule owner (rex)."
    add_review(
        desk,
        outcome="proposed",
        reason=f"Standing rule: {waits}",
        proposal=proposal,
        details={"parts": {"rule": {"reason": waits, "proposal_id": proposal.pk}}},
    )
    assert "waits for a rule owner" in operator_client.get(URL).content.decode()
    proposal_apply(proposal=proposal, by="rex")
    html = operator_client.get(URL).content.decode()
    assert "waits for a rule owner" not in html and "it was approved by rex" in html


def test_a_field_diff_diffs_only_what_lies_between_the_common_ends():
    from dashboard.evolution import field_diff

    old = " ".join(f"word{i}" for i in range(2000))
    new = old.replace("word1000 ", "word1000 inserted ")
    runs = field_diff(old, new)
    assert [op for op, _ in runs] == ["eq", "ins", "eq"]
    assert runs[1][1].strip() == "inserted"
    assert "".join(t for op, t in runs if op != "del") == new
    assert "".join(t for op, t in runs if op != "ins") == old
    # a wholly new text is shown as removed and added
    runs = field_diff(old, "something else entirely " * 300)
    assert [op for op, _ in runs] == ["del", "ins"]
