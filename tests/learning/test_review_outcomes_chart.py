"""The review log draws how reviews ended per week: one stacked bar a week, its
numbers as a table, the assistant filter applied, constant queries."""

from __future__ import annotations

from datetime import date, datetime, timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from learning.models import Review
from learning.selectors import OUTCOME_WEEKS, review_outcomes_chart
from personaweb.charts import Series, month_starts, stacked_chart, week_starts
from tests.builders import MAX_QUERIES, add_review, count_queries
from tests.factories import make_agent

pytestmark = pytest.mark.django_db

TODAY = date(2026, 12, 2)  # a Wednesday


def at(day: date) -> datetime:
    return timezone.make_aware(datetime(day.year, day.month, day.day, 10, 0))


def review_on(agent, day: date, outcome: str) -> Review:
    review = add_review(agent, outcome=outcome)
    Review.objects.filter(pk=review.pk).update(queued_at=at(day))
    return review


def test_weeks_and_months_end_with_todays_and_run_oldest_first():
    assert week_starts(TODAY, 3) == [date(2026, 11, 16), date(2026, 11, 23), date(2026, 11, 30)]
    assert month_starts(date(2026, 2, 10), 3) == [
        date(2025, 12, 1),
        date(2026, 1, 1),
        date(2026, 2, 1),
    ]


def test_a_stacked_chart_stacks_each_period_and_scales_to_the_tallest():
    series = [Series("a", "approved", "bar-approved"), Series("b", "refused", "bar-undone")]
    chart = stacked_chart(
        [("1 Nov", "week of 1 Nov", {"a": 2, "b": 2}), ("8 Nov", "week of 8 Nov", {"a": 1})],
        series,
        title="t",
        description="d",
        period_name="Week of",
    )
    assert [r.values for r in chart.rows] == [(2, 2), (1, 0)]
    assert chart.totals == (3, 2) and not chart.empty
    first_a, first_b, second_a = chart.segments
    # the tallest bar (4) fills the plot; the second week's single 1 is a quarter of it
    assert first_b.y + first_b.height == first_a.y  # stacked: b sits on a
    assert second_a.height == pytest.approx((first_a.height + first_b.height) / 4, abs=0.02)
    assert [s.label for s in chart.segments] == [
        "week of 1 Nov: 2 approved",
        "week of 1 Nov: 2 refused",
        "week of 8 Nov: 1 approved",
    ]
    assert stacked_chart([], series, title="t", description="d", period_name="p").empty


def test_outcomes_are_counted_per_week_for_the_last_weeks_only(agent):
    review_on(agent, TODAY, Review.Outcome.PROPOSED)
    review_on(agent, TODAY - timedelta(days=1), Review.Outcome.NOTHING)
    review_on(agent, TODAY - timedelta(days=9), Review.Outcome.NOTHING)
    review_on(agent, TODAY - timedelta(weeks=OUTCOME_WEEKS + 1), Review.Outcome.ERROR)
    running = review_on(agent, TODAY, "")
    Review.objects.filter(pk=running.pk).update(status=Review.Status.RUNNING)

    chart = review_outcomes_chart(Review.objects.all(), today=TODAY)

    assert len(chart.rows) == OUTCOME_WEEKS
    keys = [s.key for s in chart.series]
    this_week, last_week = chart.rows[-1], chart.rows[-2]
    assert this_week.label == "week of 30 Nov 2026"
    assert this_week.values[keys.index("proposed")] == 1
    assert this_week.values[keys.index("nothing_to_do")] == 1
    assert last_week.values[keys.index("nothing_to_do")] == 1
    assert chart.total == 3  # the old error and the running review are left out


def test_the_log_shows_the_chart_for_the_assistant_picked(reviewer_client, tenant, agent):
    other = make_agent(tenant=tenant, slug="other", name="Other")
    today = timezone.localdate()
    review_on(agent, today, Review.Outcome.REFUSED)
    review_on(other, today, Review.Outcome.ERROR)

    html = reviewer_client.get(reverse("learning:log")).content.decode()
    assert "How reviews ended, per week" in html
    assert "2 finished reviews over the last" in html

    picked = reviewer_client.get(reverse("learning:log") + f"?agent={agent.slug}")
    html = picked.content.decode()
    assert "1 finished review over the last" in html
    assert ": 1 refused</title>" in html and ": 1 error</title>" not in html


def test_no_chart_without_finished_reviews(reviewer_client, agent):
    html = reviewer_client.get(reverse("learning:log")).content.decode()
    assert "How reviews ended" not in html


def test_the_log_with_its_chart_keeps_a_constant_query_count(reviewer_client, agent):
    today = timezone.localdate()
    review_on(agent, today, Review.Outcome.PROPOSED)
    few = count_queries(reviewer_client, reverse("learning:log"))
    for k in range(20):
        review_on(agent, today - timedelta(days=k), Review.Outcome.NOTHING)
    assert count_queries(reviewer_client, reverse("learning:log")) == few <= MAX_QUERIES
