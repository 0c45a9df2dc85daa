from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.core.exceptions import EmptyResultSet
from django.db import connections
from django.db.models import QuerySet
from django.utils import timezone

from personaweb.models import Heartbeat
from tenancy.access import actor_for_user, visible_tenant_ids

#: Home counts rows up to this many per figure; past it the page shows "10,000+" (a
#: count over millions of rows would cost seconds, and the exact figure changes nothing).
COUNT_CAP = 10_000


@dataclass(frozen=True)
class HomeCounts:
    tenants: int
    agents: int
    learning_on: int
    principals: int
    conversations: int
    sealed_conversations: int
    messages: int
    messages_waiting_embedding: int
    persona_versions: int
    proposals_waiting: int
    #: waiting proposals this user may decide (``learning.owners.decide_refusal``)
    proposals_for_you: int
    reviews: int
    heartbeat_at: datetime | None
    heartbeat_runs: int
    heartbeat_stale: bool
    #: names of the figures above that reached ``COUNT_CAP`` (shown as "10,000+")
    capped: frozenset[str] = frozenset()


def _scoped(qs: QuerySet, path: str, tenant_ids: list[int] | None) -> QuerySet:
    return qs if tenant_ids is None else qs.filter(**{f"{path}__in": tenant_ids})


def bounded_counts(querysets: dict[str, QuerySet], *, cap: int) -> dict[str, int]:
    """How many rows each queryset has, counting no further than ``cap + 1`` (a figure
    above ``cap`` means "more than ``cap``"): one query, ``SELECT (SELECT COUNT(*) FROM
    (... LIMIT cap + 1)), ...``, so each count reads at most ``cap + 1`` index entries
    whatever the size of the table."""
    parts: list[str] = []
    params: list[Any] = []
    for k, qs in enumerate(querysets.values()):
        try:
            sql, p = qs.order_by().values("pk")[: cap + 1].query.sql_with_params()
        except EmptyResultSet:  # a filter no row can match (no tenant visible)
            parts.append("0")
            continue
        parts.append(f"(SELECT COUNT(*) FROM ({sql}) AS bounded_{k})")
        params.extend(p)
    using = next(iter(querysets.values())).db
    with connections[using].cursor() as cursor:
        cursor.execute("SELECT " + ", ".join(parts), params)
        row = cursor.fetchone()
    return dict(zip(querysets, (int(n) for n in row), strict=True))


def home_counts(*, user: AbstractBaseUser | AnonymousUser) -> HomeCounts:
    """Counts for the home page: a fixed number of queries whatever the data size, each
    figure bounded (``bounded_counts``, ``COUNT_CAP``)."""
    from learning.models import Proposal, Review
    from learning.selectors import proposals_waiting_for
    from memory.models import Conversation, Message, Principal
    from persona.models import AgentPersonaVersion
    from tenancy.models import Agent, Tenant

    tids = visible_tenant_ids(user)
    agents = _scoped(Agent.objects.all(), "tenant_id", tids)
    convs = _scoped(Conversation.objects.all(), "agent__tenant_id", tids)
    msgs = _scoped(Message.objects.all(), "conversation__agent__tenant_id", tids)
    counts = bounded_counts(
        {
            "agents": agents,
            "learning_on": agents.filter(learning__isnull=False).exclude(learning__mode="off"),
            "principals": _scoped(Principal.objects.all(), "tenant_id", tids),
            "conversations": convs,
            "sealed_conversations": convs.filter(sealed=True),
            "messages": msgs,
            "messages_waiting_embedding": msgs.filter(embedding__isnull=True),
            "persona_versions": _scoped(
                AgentPersonaVersion.objects.all(), "agent__tenant_id", tids
            ),
            "proposals_waiting": _scoped(
                Proposal.objects.filter(status="waiting"), "agent__tenant_id", tids
            ),
            "reviews": _scoped(Review.objects.all(), "agent__tenant_id", tids),
        },
        cap=COUNT_CAP,
    )
    capped = frozenset(name for name, n in counts.items() if n > COUNT_CAP)
    counts = {name: min(n, COUNT_CAP) for name, n in counts.items()}
    beat = Heartbeat.objects.filter(name="beat").first()
    # Three missed beats (and at least five minutes) mean the worker or beat stopped.
    stale_after = timedelta(seconds=max(300.0, 3 * settings.CELERY_HEARTBEAT_SECONDS))
    return HomeCounts(
        # the visible tenant ids are read already (one query, cached on the user)
        tenants=Tenant.objects.count() if tids is None else len(tids),
        proposals_for_you=proposals_waiting_for(actor_for_user(user)),
        heartbeat_at=beat.last_run_at if beat else None,
        heartbeat_runs=beat.runs if beat else 0,
        heartbeat_stale=bool(beat and timezone.now() - beat.last_run_at > stale_after),
        capped=capped,
        **counts,
    )
