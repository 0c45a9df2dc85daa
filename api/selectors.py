"""Reads of the api app: tokens, and the rows a token may reach.

``Agent`` is imported here and only here in the app (it is moving from persona to
memory: the move is this one line).
"""

from __future__ import annotations

from typing import Any

from django.core.cache import cache
from django.db.models import QuerySet

from api.models import ApiToken
from learning.models import Proposal, Review
from persona.models import AgentPersonaVersion, ContextPlan, PlanRotation
from tenancy.models import Agent  # the one import of Agent in this app

__all__ = ["Agent"]

ROTATION_CACHE_SECONDS = 3600


def token_by_sha256(sha256: str) -> ApiToken | None:
    """One indexed read (the unique index on sha256), with the bound user."""
    return ApiToken.objects.select_related("user").filter(sha256=sha256).first()


def tokens_of_tenants(tenant_ids: list[int] | None) -> QuerySet[ApiToken]:
    """Tokens of these tenants (all when None), newest first, with what the list shows."""
    qs = ApiToken.objects.select_related("tenant", "agent", "user")
    if tenant_ids is not None:
        qs = qs.filter(tenant_id__in=tenant_ids)
    return qs.order_by("-created_at", "-id")


def agent_in_tenant(*, tenant_id: int, slug: str) -> Agent | None:
    return Agent.objects.filter(tenant_id=tenant_id, slug=slug).first()


def agents_of_tenant(*, tenant_id: int, agent_id: int | None = None) -> QuerySet[Agent]:
    qs = Agent.objects.filter(tenant_id=tenant_id)
    if agent_id is not None:
        qs = qs.filter(pk=agent_id)
    return qs


def review_in_tenant(
    *, tenant_id: int, review_id: int, agent_id: int | None = None
) -> Review | None:
    qs = Review.objects.select_related("agent").filter(pk=review_id, agent__tenant_id=tenant_id)
    if agent_id is not None:
        qs = qs.filter(agent_id=agent_id)
    return qs.first()


def proposal_in_tenant(
    *, tenant_id: int, proposal_id: int, agent_id: int | None = None
) -> Proposal | None:
    qs = Proposal.objects.select_related("agent", "agent__learning").filter(
        pk=proposal_id, agent__tenant_id=tenant_id
    )
    if agent_id is not None:
        qs = qs.filter(agent_id=agent_id)
    return qs.first()


def latest_applied(*, agent: Agent) -> Proposal | None:
    """The latest learned change still in force: what undo takes back (as on the agent page)."""
    return (
        Proposal.objects.filter(
            agent=agent, status=Proposal.Status.APPLIED, applied_version__isnull=False
        )
        .order_by("-applied_version", "-id")
        .first()
    )


def persona_head_dict(*, agent: Agent) -> dict[str, Any]:
    """The persona head of ``agent`` as plain values: fields, guardrails, rules, version
    and why the version was made. No tenant or principal identifiers."""
    head = (
        AgentPersonaVersion.objects.filter(agent=agent, version=agent.persona_version).first()
        if agent.persona_version
        else None
    )
    return {
        "slug": agent.slug,
        "version": agent.persona_version,
        "name": head.name if head else agent.name,
        "role": head.role if head else "",
        "goals": head.goals if head else "",
        "background": head.background if head else "",
        "guardrails": list(head.guardrails or []) if head else [],
        "standing_rules": list(head.standing_rules or []) if head else [],
        "source_type": head.source_type if head else "",
        "reason": head.reason if head else "",
        "created_at": head.created_at if head else None,
    }


def rotation_reason(plan: ContextPlan) -> str | None:
    """Why the plan's current epoch began (None at epoch 1).

    Rotations are immutable, so the answer is cached per (plan, epoch): the hot prefix
    path reads it from the cache, not the database.
    """
    if plan.epoch <= 1:
        return None
    key = f"pw:api:rotation:{plan.pk}:{plan.epoch}"
    reason = cache.get(key)
    if reason is None:
        reason = (
            PlanRotation.objects.filter(plan_id=plan.pk, to_epoch=plan.epoch)
            .values_list("reason", flat=True)
            .first()
        ) or ""
        cache.set(key, reason, ROTATION_CACHE_SECONDS)
    return reason or None


COUNTER_KEYS = ("turns_since_review", "last_review_at", "due_at")


def reviews_of_agent(*, agent: Agent) -> QuerySet[Review]:
    return Review.objects.filter(agent=agent)


def review_dict(review: Review, *, agent: Agent) -> dict[str, Any]:
    from learning.selectors import review_as_dict

    return {**review_as_dict(review), "agent": agent.slug}


def learning_status_dict(*, agent: Agent) -> dict[str, Any]:
    """``learning.selectors.learning_status`` (what ``learning status`` prints), with the
    counters apart from the settings a person sets."""
    from learning.selectors import learning_status

    status = learning_status(agent=agent)
    settings = dict(status["settings"])
    counters = {key: settings.pop(key, None) for key in COUNTER_KEYS}
    settings.pop("last_seen_message_id", None)  # an internal mark, not a setting
    return {
        "agent": agent.slug,
        "persona_version": status["persona_version"],
        "settings": settings,
        "counters": counters,
        "waiting": status["waiting"],
        "rules_in_force": status["rules_in_force"],
        "recent_reviews": [{**r, "agent": agent.slug} for r in status["recent_reviews"]],
        "recent_decisions": status["recent_decisions"],
    }


def conversation_of_another_person(*, agent: Agent, label: str, principal: str) -> bool:
    """Does ``label`` name a conversation of ``agent`` with someone other than ``principal``?"""
    from memory.models import Conversation

    return (
        Conversation.objects.filter(agent=agent, external_id=label.strip())
        .exclude(principal__external_id=principal.strip())
        .exists()
    )
