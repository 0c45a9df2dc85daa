"""Reads of persona learning, for the dashboard, the CLI and the API.

Each function runs a fixed number of queries whatever the amount of data.
"""

from __future__ import annotations

import json
from datetime import date, datetime
from typing import Any

from django.db.models import (
    BooleanField,
    Case,
    Count,
    Min,
    Q,
    QuerySet,
    Sum,
    TextField,
    Value,
    When,
)
from django.db.models.functions import Cast, TruncWeek
from django.utils import timezone

from learning.models import LearningSettings, Proposal, Review
from learning.owners import decide_refusal
from learning.services.settings import learning_settings_get, settings_as_dict
from persona.models import AgentPersonaVersion, SourceType
from persona.selectors import persona_head
from personaweb.actors import LEARNING_DECIDE, Actor
from personaweb.charts import Series, StackedChart, stacked_chart, week_starts
from tenancy.models import Agent


def proposals_waiting(*, agent: Agent | None = None) -> QuerySet[Proposal]:
    """Waiting proposals, oldest first (the review queue; all agents when ``agent`` is None)."""
    qs = Proposal.objects.filter(status=Proposal.Status.WAITING).select_related("agent")
    if agent is not None:
        qs = qs.filter(agent=agent)
    return qs.order_by("created_at", "id")


def proposals_waiting_for(actor: Actor) -> int:
    """How many waiting proposals ``actor`` may decide (``learning.owners.decide_refusal``):
    what home counts as waiting for them. One query, whatever the number of agents: the
    waiting proposals grouped by what the decision depends on (the agent's tenant, for a
    rule also the agent's rule owners), and ``decide_refusal`` asked once per group with
    one agent of it."""
    if actor.kind == "user" and not actor.may(LEARNING_DECIDE):
        return 0
    waiting = Proposal.objects.filter(status=Proposal.Status.WAITING)
    if actor.tenant_ids is not None:
        waiting = waiting.filter(agent__tenant_id__in=actor.tenant_ids)
    if actor.agent_id is not None:
        waiting = waiting.filter(agent_id=actor.agent_id)
    groups = (
        waiting.order_by()
        .annotate(
            is_rule=Case(
                When(kind=Proposal.Kind.RULE, then=Value(True)),
                default=Value(False),
                output_field=BooleanField(),
            ),
            # the rule owners matter to rules only: one group per tenant for the others
            owners=Case(
                When(
                    kind=Proposal.Kind.RULE, then=Cast("agent__learning__rule_owners", TextField())
                ),
                default=Value(""),
                output_field=TextField(),
            ),
        )
        .values("agent__tenant_id", "is_rule", "owners")
        .annotate(n=Count("id"), one_agent=Min("agent_id"))
    )
    total = 0
    for r in groups:
        # what the decision reads of an agent: its id and tenant, and its rule owners
        agent = Agent(pk=r["one_agent"], tenant_id=r["agent__tenant_id"])
        owners = json.loads(r["owners"]) if r["owners"] else []
        settings = LearningSettings(agent_id=agent.pk, rule_owners=owners)
        kind = Proposal.Kind.RULE if r["is_rule"] else Proposal.Kind.SENTENCE
        if decide_refusal(actor, agent=agent, kind=kind, settings=settings) is None:
            total += r["n"]
    return total


def oldest_waiting(actor: Actor) -> Proposal | None:
    """The proposal that has waited longest among those ``actor`` may see (home shows how
    long: what the review digests announce). One query."""
    qs = Proposal.objects.filter(status=Proposal.Status.WAITING).select_related("agent")
    if actor.tenant_ids is not None:
        qs = qs.filter(agent__tenant_id__in=actor.tenant_ids)
    if actor.agent_id is not None:
        qs = qs.filter(agent_id=actor.agent_id)
    return qs.order_by("created_at", "id").first()


def proposal_get(*, agent: Agent, proposal_id: int) -> Proposal | None:
    return Proposal.objects.filter(agent=agent, pk=proposal_id).first()


def proposals_a_change_drops(
    *, agent: Agent, source_type: str, proposal_id: int | None = None
) -> QuerySet[Proposal]:
    """The waiting proposals a persona change from ``source_type`` drops (the part of the
    persona they were made against is gone). The one rule the drop itself
    (``learning.receivers``), the queue's "drops N" (``approval_drop_counts``) and the
    editors' warning share:

    - a change a person writes (an edit, a revert, a host, an import): every one;
    - a learned decision (the approval or undo of proposal ``proposal_id``): only the
      waiting sentences of the field that proposal writes. It leaves the standing rules
      waiting, each checked again against the persona of the moment when it is approved,
      and a sentence of a field it does not write waits on the same terms (an approved
      rule never drops a goals sentence, an approved sentence never drops a rule)."""
    qs = Proposal.objects.filter(agent=agent, status=Proposal.Status.WAITING)
    if proposal_id is not None and source_type in _LEARNED_SOURCES:
        written = Proposal.objects.filter(pk=proposal_id).values("field")
        qs = qs.exclude(pk=proposal_id).exclude(kind=Proposal.Kind.RULE).filter(field__in=written)
    return qs.order_by("created_at", "id")


#: the sources of a learned decision (``Proposal.persona_source_type``)
_LEARNED_SOURCES = frozenset([SourceType.PERSONA_LEARNING, SourceType.STANDING_RULE])


def approval_drop_counts(proposals: list[Proposal]) -> dict[int, int]:
    """For each waiting proposal of ``proposals``: how many other waiting proposals
    approving it drops, by the rule of ``proposals_a_change_drops`` (the other waiting
    sentences of the field it writes; none for a standing rule). One query for all."""
    waiting = [p for p in proposals if p.status == Proposal.Status.WAITING]
    if not waiting:
        return {}
    rows = (
        Proposal.objects.filter(
            agent_id__in={p.agent_id for p in waiting}, status=Proposal.Status.WAITING
        )
        .exclude(kind=Proposal.Kind.RULE)
        .values("agent_id", "field")
        .annotate(n=Count("id"))
        .order_by()
    )
    sentences = {(row["agent_id"], row["field"]): row["n"] for row in rows}
    out: dict[int, int] = {}
    for p in waiting:
        if p.kind == Proposal.Kind.RULE:
            out[p.pk] = 0
        else:
            out[p.pk] = max(sentences.get((p.agent_id, p.field), 0) - 1, 0)  # the others
    return out


def proposal_oldest_waiting(*, agent: Agent, kind: str | None = None) -> Proposal | None:
    qs = proposals_waiting(agent=agent)
    if kind:
        qs = qs.filter(kind=kind)
    return qs.first()


def proposals_decided(*, agent: Agent, limit: int = 20) -> QuerySet[Proposal]:
    return (
        Proposal.objects.filter(agent=agent)
        .exclude(status=Proposal.Status.WAITING)
        .order_by("-decided_at", "-id")[:limit]
    )


def reviews_recent(*, agent: Agent | None = None, limit: int = 10) -> QuerySet[Review]:
    qs = Review.objects.select_related("agent")
    if agent is not None:
        qs = qs.filter(agent=agent)
    return qs.order_by("-queued_at", "-id")[:limit]


def review_get(*, review_id: int) -> Review | None:
    return Review.objects.select_related("agent", "proposal").filter(pk=review_id).first()


def learned_changes(*, agent: Agent, limit: int = 50) -> QuerySet[AgentPersonaVersion]:
    """Persona versions written by learning or a rule decision, newest first."""
    return AgentPersonaVersion.objects.filter(
        agent=agent, source_type__in=[SourceType.PERSONA_LEARNING, SourceType.STANDING_RULE]
    ).order_by("-version")[:limit]


def proposal_as_dict(p: Proposal) -> dict[str, Any]:
    return {
        "id": p.pk,
        "kind": p.kind,
        "field": p.field,
        "text": p.text,
        "status": p.status,
        "status_reason": p.status_reason,
        "evidence": p.evidence,
        "base_version": p.base_version,
        "applied_version": p.applied_version,
        "applied_text": p.applied_text,
        "decided_by": p.decided_by,
        "decided_at": p.decided_at.isoformat() if p.decided_at else None,
        "created_at": p.created_at.isoformat() if p.created_at else None,
        "review_id": p.review_id,
    }


def review_as_dict(r: Review) -> dict[str, Any]:
    return {
        "id": r.pk,
        "trigger": r.trigger,
        "status": r.status,
        "requested_by": r.requested_by,
        "queued_at": r.queued_at.isoformat() if r.queued_at else None,
        "started_at": r.started_at.isoformat() if r.started_at else None,
        "finished_at": r.finished_at.isoformat() if r.finished_at else None,
        "threads_read": r.threads_read,
        "messages_read": r.messages_read,
        "model_calls": r.model_calls,
        "tokens_in": r.tokens_in,
        "tokens_out": r.tokens_out,
        "outcome": r.outcome,
        "reason": r.reason,
        "proposal_id": r.proposal_id,
        "details": r.details,
        "passed_over": r.passed_over,
    }


def learning_status(*, agent: Agent, reviews: int = 5) -> dict[str, Any]:
    """Settings, counters, waiting proposals, rules in force, recent reviews."""
    settings: LearningSettings = learning_settings_get(agent)
    head = persona_head(agent=agent)
    return {
        "agent": agent.slug,
        "persona_version": agent.persona_version,
        "settings": settings_as_dict(settings),
        "waiting": [proposal_as_dict(p) for p in proposals_waiting(agent=agent)],
        "rules_in_force": list(head.standing_rules) if head else [],
        "goals": head.goals if head else "",
        "background": head.background if head else "",
        "recent_reviews": [review_as_dict(r) for r in reviews_recent(agent=agent, limit=reviews)],
        "recent_decisions": [proposal_as_dict(p) for p in proposals_decided(agent=agent, limit=10)],
    }


# --- what a review says, told from the state things are in now -------------------------

_PART_WHAT = {"sentence": "sentence", "rule": "standing rule"}


def _part_now(kind: str, reason: str, proposal: Proposal | None) -> str:
    """A part's reason, unless its proposal was decided since: then what became of it
    (the stored "it waits for a rule owner" would no longer be true)."""
    if proposal is None or proposal.status == Proposal.Status.WAITING:
        return reason
    what = _PART_WHAT.get(kind, "change")
    by = f" by {proposal.decided_by}" if proposal.decided_by else ""
    if proposal.status == Proposal.Status.APPLIED:
        version = (
            f" as persona version {proposal.applied_version}" if proposal.applied_version else ""
        )
        return f"Proposed a {what}; it was approved{by}{version}."
    if proposal.status == Proposal.Status.DISMISSED:
        return f"Proposed a {what}; it was turned down{by}."
    if proposal.status == Proposal.Status.UNDONE:
        return f"Proposed a {what}; it was approved, then undone. {proposal.status_reason}".strip()
    return f"Proposed a {what}; it was dropped{by}. {proposal.status_reason}".strip()


def review_reasons_now(reviews: list[Review]) -> dict[int, list[str]]:
    """Each review's reasons as a list (``learning.candidates.review_reasons``), a part
    whose proposal was decided since saying what became of it. One query for all."""
    from learning.candidates import review_reasons

    ids: set[int] = set()
    for r in reviews:
        parts = (r.details or {}).get("parts") if isinstance(r.details, dict) else None
        for part in (parts or {}).values():
            if isinstance(part, dict) and isinstance(part.get("proposal_id"), int):
                ids.add(part["proposal_id"])
        if r.proposal_id:
            ids.add(r.proposal_id)
    proposals = {p.pk: p for p in Proposal.objects.filter(pk__in=ids)} if ids else {}
    out: dict[int, list[str]] = {}
    for r in reviews:
        details = r.details if isinstance(r.details, dict) else {}
        parts = details.get("parts")
        if isinstance(parts, dict) and parts:
            now = {
                kind: {
                    **part,
                    "reason": _part_now(
                        kind,
                        str(part.get("reason") or ""),
                        proposals.get(part.get("proposal_id") or 0),
                    ),
                }
                for kind, part in parts.items()
                if isinstance(part, dict)
            }
            out[r.pk] = review_reasons(reason=r.reason, details={"parts": now})
        else:
            reason = r.reason
            if r.proposal_id and r.proposal_id in proposals:
                p = proposals[r.proposal_id]
                reason = _part_now(p.kind, reason, p)
            out[r.pk] = review_reasons(reason=reason, details={})
    return out


def decisions_since(*, tenant_ids: list[int] | None, agent: Agent | None = None) -> dict[str, int]:
    """What people decided of the proposals reviews made (approved, turned down,
    undone), whatever the review's own outcome says: one aggregate query."""
    qs = Proposal.objects.all()
    if tenant_ids is not None:
        qs = qs.filter(agent__tenant_id__in=tenant_ids)
    if agent is not None:
        qs = qs.filter(agent=agent)
    return qs.aggregate(
        approved=Count("id", filter=Q(applied_version__isnull=False) & ~Q(decided_by="auto")),
        turned_down=Count("id", filter=Q(status=Proposal.Status.DISMISSED)),
        undone=Count("id", filter=Q(status=Proposal.Status.UNDONE)),
    )


def model_called(review: Review) -> bool:
    """Whether a language model was asked: the offline proposer asks none, so a token
    count of 0 would say nothing true."""
    proposer = (review.details or {}).get("proposer") if isinstance(review.details, dict) else None
    return bool(review.model_calls) and (
        proposer not in ("local", None) or bool(review.tokens_in or review.tokens_out)
    )


def proposal_backing(proposal: Proposal, settings: Any) -> dict[str, Any]:
    """How many conversations and people a proposal's evidence comes from, against what
    the agent's learning settings ask (min conversations or min corrections; min users
    in team mode). No query."""
    convs: set[Any] = set()
    people: set[Any] = set()
    for item in proposal.evidence or []:
        if not isinstance(item, dict):
            continue
        conv = item.get("conversation_id") or item.get("conversation")
        if conv is not None:
            convs.add(conv)
        who = item.get("principal_id") or item.get("user") or item.get("principal_external_id")
        if who not in (None, ""):
            people.add(who)
    rule = proposal.kind == Proposal.Kind.RULE
    team = bool(getattr(settings, "across_users", False))
    need_convs = int(getattr(settings, "min_corrections" if rule else "min_conversations", 0) or 0)
    need_people = int(getattr(settings, "min_users", 0) or 0) if team else 0
    return {
        "conversations": len(convs),
        "people": len(people),
        "needed_conversations": need_convs,
        "conversations_setting": "min corrections" if rule else "min conversations",
        "needed_people": need_people,
        "team": team,
        "enough": len(convs) >= need_convs and len(people) >= need_people,
    }


#: the review log's chart: how each finished review ended, in this order (bottom up)
OUTCOME_SERIES = (
    Series(Review.Outcome.APPLIED, "applied", "bar-approved"),
    Series(Review.Outcome.PROPOSED, "proposed", "bar-changes"),
    Series(Review.Outcome.NOTHING, "nothing to do", "bar-nothing"),
    Series(Review.Outcome.REFUSED, "refused", "bar-turned-down"),
    Series(Review.Outcome.SKIPPED, "skipped", "bar-skipped"),
    Series(Review.Outcome.ERROR, "error", "bar-undone"),
)
OUTCOME_WEEKS = 12


def review_outcomes_chart(reviews: QuerySet[Review], *, today: date) -> StackedChart:
    """How the ``reviews`` queued in the last ``OUTCOME_WEEKS`` weeks ended, per week
    (one query; reviews still queued or running have no outcome yet and are left out)."""
    return review_log_figures(reviews, today=today)[1]


def review_log_figures(
    reviews: QuerySet[Review], *, today: date
) -> tuple[dict[str, int], StackedChart]:
    """The review log's totals (reviews, running, per outcome, model calls and tokens,
    offline proposer runs) and its chart of outcomes per week, from **one** pass over
    ``reviews``: the rows grouped by week and outcome (a few hundred groups at most)
    and summed here, instead of one scan for the totals and another for the chart."""
    mondays = week_starts(today, OUTCOME_WEEKS)
    rows = (
        reviews.annotate(week=TruncWeek("queued_at"))
        .order_by()
        .values("week", "outcome")
        .annotate(
            n=Count("id"),
            calls_all=Sum("model_calls"),
            # the offline proposer is counted as a call but asks no model
            offline_calls=Sum("model_calls", filter=Q(details__proposer="local")),
            tokens_in=Sum("tokens_in"),
            tokens_out=Sum("tokens_out"),
            running=Count("id", filter=~Q(status=Review.Status.DONE)),
        )
    )
    sums = ("n", "calls_all", "offline_calls", "tokens_in", "tokens_out", "running")
    totals: dict[str, int] = dict.fromkeys(sums, 0)
    totals.update({f"o_{value}": 0 for value in Review.Outcome.values})
    counts: dict[date, dict[str, int]] = {m: {} for m in mondays}
    for row in rows:
        values: dict[str, Any] = dict(row)
        for key in sums:
            totals[key] += values[key] or 0
        outcome = row["outcome"]
        if outcome in Review.Outcome.values:
            totals[f"o_{outcome}"] += row["n"]
        if not outcome:  # queued or running: no outcome to draw yet
            continue
        week = row["week"]
        day = timezone.localtime(week).date() if isinstance(week, datetime) else week
        if day in counts:
            counts[day][outcome] = counts[day].get(outcome, 0) + row["n"]
    totals["total"] = totals.pop("n")
    totals["model_calls"] = totals["calls_all"] - totals["offline_calls"]
    drawn = sum(sum(c.values()) for c in counts.values())
    chart = stacked_chart(
        [(m.strftime("%-d %b"), f"week of {m:%-d %b %Y}", counts[m]) for m in mondays],
        OUTCOME_SERIES,
        title="How reviews ended, per week",
        description=(
            f"{drawn} finished review{'s' if drawn != 1 else ''} over the last "
            f"{OUTCOME_WEEKS} weeks, from the week of {mondays[0]:%-d %B %Y}; each bar "
            "stacks applied, proposed, nothing to do, refused, skipped and error."
        ),
        period_name="Week of",
    )
    return totals, chart
