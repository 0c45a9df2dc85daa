from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db.models import Count, Q, QuerySet
from django.utils import timezone

from personaweb.models import Heartbeat
from tenancy.access import actor_for_user, visible_tenant_ids


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


def _scoped(qs: QuerySet, path: str, tenant_ids: list[int] | None) -> QuerySet:
    return qs if tenant_ids is None else qs.filter(**{f"{path}__in": tenant_ids})


def home_counts(*, user: AbstractBaseUser | AnonymousUser) -> HomeCounts:
    """Counts for the home page: a fixed number of aggregate queries, whatever the data size."""
    from learning.models import Proposal, Review
    from learning.selectors import proposals_waiting_for
    from memory.models import Conversation, Message, Principal
    from persona.models import AgentPersonaVersion
    from tenancy.models import Agent, Tenant

    tids = visible_tenant_ids(user)
    agents = _scoped(Agent.objects.all(), "tenant_id", tids).aggregate(
        n=Count("id"),
        learning_on=Count("id", filter=~Q(learning__mode="off") & Q(learning__isnull=False)),
    )
    convs = _scoped(Conversation.objects.all(), "agent__tenant_id", tids).aggregate(
        n=Count("id"), sealed=Count("id", filter=Q(sealed=True))
    )
    msgs = _scoped(Message.objects.all(), "conversation__agent__tenant_id", tids).aggregate(
        n=Count("id"), pending=Count("id", filter=Q(embedding__isnull=True))
    )
    beat = Heartbeat.objects.filter(name="beat").first()
    # Three missed beats (and at least five minutes) mean the worker or beat stopped.
    stale_after = timedelta(seconds=max(300.0, 3 * settings.CELERY_HEARTBEAT_SECONDS))
    return HomeCounts(
        # the visible tenant ids are read already (one query, cached on the user)
        tenants=Tenant.objects.count() if tids is None else len(tids),
        agents=agents["n"],
        learning_on=agents["learning_on"],
        principals=_scoped(Principal.objects.all(), "tenant_id", tids).count(),
        conversations=convs["n"],
        sealed_conversations=convs["sealed"],
        messages=msgs["n"],
        messages_waiting_embedding=msgs["pending"],
        persona_versions=_scoped(
            AgentPersonaVersion.objects.all(), "agent__tenant_id", tids
        ).count(),
        proposals_waiting=_scoped(
            Proposal.objects.filter(status="waiting"), "agent__tenant_id", tids
        ).count(),
        proposals_for_you=proposals_waiting_for(actor_for_user(user)),
        reviews=_scoped(Review.objects.all(), "agent__tenant_id", tids).count(),
        heartbeat_at=beat.last_run_at if beat else None,
        heartbeat_runs=beat.runs if beat else 0,
        heartbeat_stale=bool(beat and timezone.now() - beat.last_run_at > stale_after),
    )
