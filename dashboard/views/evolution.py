"""Persona evolution: every persona change across the assistants a person may see (who,
when, why, what, from where, on what evidence), a chart of changes and decisions per
week, and the assistants with what waits for a person."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from django.contrib.auth.decorators import login_required
from django.db.models import (
    Count,
    DateTimeField,
    Exists,
    IntegerField,
    OuterRef,
    Subquery,
    Value,
)
from django.db.models.functions import Coalesce
from django.http import HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from dashboard.evolution import (
    FIELDS,
    SOURCES,
    FeedFilters,
    changes_explained,
    changes_queryset,
    chart_for,
    weekly_activity,
)
from learning.models import Proposal, Review
from learning.owners import rule_owner_names
from learning.selectors import review_reasons_now
from personaweb.htmx import HtmxHttpRequest, is_partial, query_without
from personaweb.paging import keyset_page
from tenancy.access import visible_agents

_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
#: the feed's own cursor (the assistants table below pages with ``after``)
FEED_CURSOR = "changes_after"
#: changes a page of the feed shows (each with its word diffs)
FEED_PAGE = 20

SORTS: dict[str, tuple[str, list[tuple[str, bool]], list[type]]] = {
    "name": ("Name", [("name", False), ("id", False)], [str, int]),
    "recent": ("Last review, newest first", [("review_sort", True), ("id", True)], [datetime, int]),
    "version": ("Most versions first", [("persona_version", True), ("id", True)], [int, int]),
}
MODES = {"off": "off", "on": "on", "on-with-review": "on, with review"}
WAITING = {
    "change": "a change waiting",
    "rules": "rules waiting",
    "any": "anything waiting",
    "none": "nothing waiting",
}


def _evolution_queryset(user: Any, *, mode: str, waiting: str):
    waiting_qs = Proposal.objects.filter(agent=OuterRef("pk"), status=Proposal.Status.WAITING)
    rules_waiting = (
        waiting_qs.filter(kind=Proposal.Kind.RULE)
        .order_by()
        .values("agent")
        .annotate(n=Count("id"))
        .values("n")
    )
    last = Review.objects.filter(agent=OuterRef("pk")).order_by("-queued_at", "-id")
    qs = (
        visible_agents(user)
        .select_related("tenant", "learning")
        .annotate(
            mode_value=Coalesce("learning__mode", Value("off")),
            change_waiting=Exists(waiting_qs.filter(kind=Proposal.Kind.SENTENCE)),
            rules_waiting=Coalesce(Subquery(rules_waiting, output_field=IntegerField()), 0),
            last_review_at=Subquery(last.values("queued_at")[:1]),
            last_review_status=Subquery(last.values("status")[:1]),
            last_review_outcome=Subquery(last.values("outcome")[:1]),
            last_review_id=Subquery(last.values("id")[:1]),
            # maintained on every new review (``learning.models.note_reviews_queued``): the
            # sort reads one column per agent instead of each agent's newest review
            review_sort=Coalesce(
                "learning__last_queued_at", Value(_EPOCH, output_field=DateTimeField())
            ),
        )
    )
    if mode in MODES:
        qs = qs.filter(mode_value=mode)
    if waiting == "change":
        qs = qs.filter(change_waiting=True)
    elif waiting == "rules":
        qs = qs.filter(rules_waiting__gt=0)
    elif waiting == "any":
        qs = qs.filter(Exists(waiting_qs))
    elif waiting == "none":
        qs = qs.exclude(Exists(waiting_qs))
    return qs


def _agents_table(request: HtmxHttpRequest) -> dict[str, Any]:
    mode = request.GET.get("mode", "")
    waiting = request.GET.get("waiting", "")
    sort = request.GET.get("sort", "name")
    if sort not in SORTS:
        sort = "name"
    _, fields, kinds = SORTS[sort]
    page = keyset_page(
        _evolution_queryset(request.user, mode=mode, waiting=waiting),
        fields=fields,
        kinds=kinds,
        cursor=request.GET.get("after"),
    )
    # what each last review says, told from its proposals' state now (two queries)
    reviews = list(
        Review.objects.filter(pk__in=[a.last_review_id for a in page.rows if a.last_review_id])
    )
    reasons = review_reasons_now(reviews)
    for agent in page.rows:
        # the learning row is selected with the agent: no query per row
        agent.rule_owners = rule_owner_names(getattr(agent, "learning", None))
        agent.last_reasons = reasons.get(agent.last_review_id, [])
    return {
        "page": page,
        "mode": mode,
        "waiting": waiting,
        "sort": sort,
        "modes": MODES,
        "waitings": WAITING,
        "sorts": {k: v[0] for k, v in SORTS.items()},
        "filtered": bool(mode in MODES or waiting in WAITING),
        "base_query": query_without(request, "after"),
    }


def _feed(request: HtmxHttpRequest) -> dict[str, Any]:
    filters = FeedFilters.from_query(request.GET)
    page = keyset_page(
        changes_queryset(request.user, filters),
        fields=[("created_at", True), ("id", True)],
        kinds=[datetime, int],
        cursor=request.GET.get(FEED_CURSOR),
        size=FEED_PAGE,
    )
    sources = dict(SOURCES)
    if filters.source and filters.source not in sources:
        sources[filters.source] = filters.source  # a trigger the page does not know yet
    return {
        "filters": filters,
        "changes": changes_explained(list(page.rows)),
        "feed_page": page,
        "feed_query": query_without(request, FEED_CURSOR),
        "feed_cursor": FEED_CURSOR,
        "sources": sources,
        "fields": FIELDS,
        "agent_choices": list(
            visible_agents(request.user).order_by("name", "id").values_list("slug", "name")[:200]
        ),
        "chart": chart_for(weekly_activity(request.user, filters)),
    }


@require_GET
@login_required
def evolution(request: HtmxHttpRequest) -> HttpResponse:
    template = "dashboard/evolution.html"
    target = request.htmx.target if is_partial(request) else None
    if target == "agents-table":
        return render(request, template + "#agents-table", _agents_table(request))
    if target == "story":
        return render(request, template + "#story", _feed(request))
    return render(request, template, {**_feed(request), **_agents_table(request)})
