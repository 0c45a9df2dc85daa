"""Reads of the api app: tokens, and the rows a token may reach.

``Agent`` (from tenancy) is imported here and only here in the app.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from datetime import datetime
from typing import Any, TypeVar

from django.core.cache import cache
from django.db import connection, models
from django.db.models import QuerySet

from api.models import ApiToken
from learning.models import Proposal, Review
from persona.models import (
    AgentPersonaVersion,
    ContextPlan,
    PlanRotation,
)
from tenancy.models import Agent  # the one import of Agent in this app

__all__ = ["Agent"]

ROTATION_CACHE_SECONDS = 3600
M = TypeVar("M", bound=models.Model)


@functools.cache
def _one_sql(
    model: type[models.Model], keys: tuple[str, ...], vendor: str
) -> tuple[str, tuple[str, ...], tuple[tuple[int, tuple[Any, ...], Any], ...]]:
    """SELECT of every concrete column of ``model`` by ``keys``, and the database
    converters of each column (what the ORM applies: times, JSON, booleans)."""
    q = connection.ops.quote_name
    table = model._meta.db_table
    fields = [f for f in model._meta.concrete_fields]
    cols = ", ".join(q(str(f.column)) for f in fields)
    where = " AND ".join(f"{q(str(model._meta.get_field(k).column))} = %s" for k in keys)  # type: ignore[union-attr]
    converters = []
    for i, field in enumerate(fields):
        col = field.get_col(table)
        funcs = tuple(connection.ops.get_db_converters(col) + col.get_db_converters(connection))
        if funcs:
            converters.append((i, funcs, col))
    sql = f"SELECT {cols} FROM {q(table)} WHERE {where} LIMIT 2"
    return sql, tuple(f.attname for f in fields), tuple(converters)


def _one(model: type[M], **where: Any) -> M | None:
    """The row of ``model`` with these (unique) column values, as a model instance.

    Plain SQL built once per model: on the hot path (every prefix fetch) the ORM spends
    several times longer compiling a query than the database spends answering it from
    a unique index (the reason ``persona.plans.prefix_fetch`` does the same).
    """
    keys = tuple(sorted(where))
    sql, names, converters = _one_sql(model, keys, connection.vendor)
    with connection.cursor() as cursor:
        cursor.execute(sql, [where[k] for k in keys])
        row = cursor.fetchone()
    if row is None:
        return None
    values = list(row)
    for i, funcs, col in converters:
        for func in funcs:
            values[i] = func(values[i], col, connection)
    return model.from_db(connection.alias, list(names), values)  # type: ignore[return-value]


def token_by_sha256(sha256: str) -> ApiToken | None:
    """One read through the unique index on sha256 (the bound user loads when needed)."""
    return _one(ApiToken, sha256=sha256)


def tokens_of_tenants(tenant_ids: list[int] | None) -> QuerySet[ApiToken]:
    """Tokens of these tenants (all when None), newest first, with what the list shows."""
    qs = ApiToken.objects.select_related("tenant", "agent", "user", "principal")
    if tenant_ids is not None:
        qs = qs.filter(tenant_id__in=tenant_ids)
    return qs.order_by("-created_at", "-id")


def agent_in_tenant(*, tenant_id: int, slug: str) -> Agent | None:
    """One read through the unique slug index; another tenant's agent is None."""
    agent = _one(Agent, slug=slug)
    return agent if agent is not None and agent.tenant_id == tenant_id else None


def principal_in_tenant(*, tenant_id: int, external_id: str) -> Any | None:
    from memory.models import Principal

    return _one(Principal, tenant_id=tenant_id, external_id=external_id)


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


def persona_head_dict(*, agent: Agent, principal_id: int | None = None) -> dict[str, Any]:
    """The persona head of ``agent`` as plain values: fields, guardrails, rules, version
    and why the version was made. No tenant or principal identifiers. For a person
    (``principal_id``), the learned lines they muted are left out, as in their prefix."""
    from persona.learned_lines import without_muted
    from persona.mutes import muted_for

    head = (
        AgentPersonaVersion.objects.filter(agent=agent, version=agent.persona_version).first()
        if agent.persona_version
        else None
    )
    if head is not None and principal_id:
        head = without_muted(head, muted_for(principal_id, agent_id=agent.pk).lines)
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
    counters apart from the settings a person sets, and on each waiting proposal how many
    people muted its words for themselves (``muted_for``, as the queue card says it)."""
    from learning.selectors import learning_status
    from persona.mutes import muted_line_counts

    status = learning_status(agent=agent)
    muted = muted_line_counts([(agent.pk, p["text"]) for p in status["waiting"]])
    settings = dict(status["settings"])
    counters = {key: settings.pop(key, None) for key in COUNTER_KEYS}
    settings.pop("last_seen_message_id", None)  # an internal mark, not a setting
    return {
        "agent": agent.slug,
        "persona_version": status["persona_version"],
        "settings": settings,
        "counters": counters,
        "waiting": [
            {**p, "muted_for": muted.get((agent.pk, p["text"]), 0)} for p in status["waiting"]
        ],
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


# --- memory (the /v1 memory routes and the MCP memory tools) ------------------------------


def memory_dicts(beliefs: list[Any]) -> list[dict[str, Any]]:
    """Beliefs as the API shows them (``memory.selectors_beliefs.belief_dict``), their
    retention as of now."""
    from django.utils import timezone

    from memory.selectors_beliefs import belief_dict

    now = timezone.now()
    return [belief_dict(b, now=now) for b in beliefs]


def memory_detail(belief: Any) -> dict[str, Any]:
    """A belief with its evidence (``belief_in_tenant`` loaded what this reads)."""
    from memory.selectors_beliefs import belief_evidence

    return {**memory_dicts([belief])[0], "evidence": belief_evidence(belief)}


def memory_page(
    *,
    tenant_id: int,
    principal_id: int,
    agent_id: int | None = None,
    category: str | None = None,
    status: str = "active",
    text: str | None = None,
    after: str | None = None,
    limit: int = 50,
) -> dict[str, Any]:
    """One page of a person's beliefs, newest first: ``{"items", "next"}`` (one query).
    A category or status that does not exist is refused with the memory kernel's
    sentence; a cursor this API did not make is malformed."""
    from api.errors import Malformed
    from memory.models import Belief
    from memory.selectors_beliefs import ANY_STATUS, beliefs_of_principal
    from memory.services_beliefs import BeliefRefusal, validate_category
    from personaweb.paging import decode_cursor, keyset_page

    if category is not None:
        validate_category(category)
    if status != ANY_STATUS and status not in Belief.Status.values:
        raise BeliefRefusal(
            f"The status {status!r} is not one of {', '.join([*Belief.Status.values, ANY_STATUS])}."
        )
    if after and decode_cursor(after, kinds=[int]) is None:
        raise Malformed("The after cursor is not one this API made; pass `next` as it came.")
    page = keyset_page(
        beliefs_of_principal(
            tenant_id=tenant_id,
            principal_id=principal_id,
            agent_id=agent_id,
            category=category,
            status=status,
            text=text,
        ),
        fields=[("id", True)],
        kinds=[int],
        cursor=after,
        size=limit,
    )
    return {"items": memory_dicts(page.rows), "next": page.next_cursor}


@dataclass(frozen=True)
class TenantScope:
    """What ``memory.context.build_context`` reads of its ``agent``: the tenant. The pack
    is about the person, whichever agent of the tenant formed what is known, so a host
    need not name an agent (a token bound to a person only asks about that person)."""

    tenant_id: int


def context_pack(
    *, agent: Agent | None, tenant_id: int, principal: str, query: str, now: Any, limit: int
) -> dict[str, Any]:
    """``build_context`` for a host, at ``now`` (a time or ISO text; None = now): the
    pack as ``memory context --json`` prints it, up to the hosts' sensitivity, and
    ``text``, the same pack rendered for a prompt."""
    from django.utils import timezone

    from memory.context import build_context, render_context
    from memory.selectors_beliefs import HOST_MAX_SENSITIVITY
    from memory.services_beliefs import beliefs_mark_given, validate_time

    at = validate_time(now, what="now") or timezone.now()
    pack = build_context(
        agent=agent if agent is not None else TenantScope(tenant_id=tenant_id),
        principal_external_id=principal,
        query=query,
        now=at,
        limit=limit,
        max_sensitivity=HOST_MAX_SENSITIVITY,
    )
    beliefs_mark_given([item.id for item in (*pack.items, *pack.pinned, *pack.cross_category)])
    pack_id = _pack_store(agent=agent, tenant_id=tenant_id, principal=principal, pack=pack)
    return {**pack.as_dict(), "text": render_context(pack), "pack_id": pack_id}


def _pack_store(*, agent: Agent | None, tenant_id: int, principal: str, pack: Any) -> int:
    """Keep what the pack gave (``memory.packs``) with the prompt versions of the moment:
    the agent's persona version and the person's owner-document version (one query for
    the person and their document, one insert)."""
    from django.utils import timezone

    from memory.models import Principal
    from memory.packs import PackFacts, context_pack_store

    person, doc_version = (
        Principal.objects.filter(tenant_id=tenant_id, external_id=principal)
        .values_list("pk", "owner_document__version")
        .get()
    )
    return context_pack_store(
        facts=PackFacts(
            tenant_id=tenant_id,
            principal_id=person,
            agent_id=agent.pk if agent is not None else None,
            persona_version=(agent.persona_version or None) if agent is not None else None,
            owner_doc_version=doc_version or None,
        ),
        pack=pack,
        now=timezone.now(),  # when it was given (``at`` may be a time the host asked about)
    )


# --- the owner's persona document (the /v1/persona routes and the MCP persona tools) -------
#
# Explicit allow-lists: what the owner wrote and the annotations on it, never a tenant,
# principal or belief id.


def _sensitivity_name(value: int) -> str:
    from memory.models_beliefs import Sensitivity

    return str(Sensitivity(value).label)


def owner_entry_dict(entry: Any) -> dict[str, Any]:
    """One entry of the head: the owner's words, their provenance and the annotations."""
    return {
        "key": entry.key,
        "text": entry.text,
        "source": entry.source,
        "sensitivity": _sensitivity_name(entry.sensitivity),
        "tier": entry.tier,
        "reinforcement_count": entry.reinforcement_count,
        "last_reinforced_at": entry.last_reinforced_at,
        "stale": entry.stale,
        "stale_reason": entry.stale_reason,
        "dormant": entry.dormant,
    }


def muted_entry_keys(principal_id: int) -> frozenset[str]:
    """Keys of the person's entries muted for hosts (``persona.mutes``): no host answer
    carries them."""
    from persona.mutes import muted_for

    return muted_for(principal_id).entry_keys


def owner_doc_dict(principal_id: int, *, listing: bool = False) -> dict[str, Any]:
    """The head of a person's document (version 0: no entries), entries in document order
    (``listing``: seed 000's order, tier then reinforcement), without the entries the
    person muted. Four queries."""
    from persona import owner

    head = owner.doc_head(principal_id)
    muted = muted_entry_keys(principal_id)
    entries = owner.listing(head.entries) if listing else head.entries
    return {
        "version": head.version,
        "created_at": head.created_at,
        "entries": [owner_entry_dict(e) for e in entries if e.key not in muted],
    }


def owner_version_dict(version: Any, *, principal_id: int) -> dict[str, Any]:
    """The document as one write left it (``owner_doc_dict`` for that version, even when
    another write followed at once), without muted entries. Three queries."""
    muted = muted_entry_keys(principal_id)
    return {
        "version": version.version,
        "created_at": version.created_at,
        "entries": [
            owner_entry_dict(e) for e in version.entries.order_by("position") if e.key not in muted
        ],
    }


def owner_history_page(*, principal_id: int, after: str | None, limit: int) -> dict[str, Any]:
    """A person's document versions, newest first, each with its entries as written
    (two queries a page). A cursor this API did not make is malformed."""
    from django.db.models import Prefetch

    from api.errors import Malformed
    from persona.models import OwnerDocumentVersion, OwnerEntry
    from personaweb.paging import decode_cursor, keyset_page

    if after and decode_cursor(after, kinds=[int]) is None:
        raise Malformed("The after cursor is not one this API made; pass `next` as it came.")
    muted = muted_entry_keys(principal_id)
    page = keyset_page(
        OwnerDocumentVersion.objects.filter(document__principal_id=principal_id).prefetch_related(
            Prefetch("entries", queryset=OwnerEntry.objects.order_by("position"))
        ),
        fields=[("version", True)],
        kinds=[int],
        cursor=after,
        size=limit,
    )
    return {
        "items": [
            {
                "version": v.version,
                "source": v.source,
                "nomination_id": v.source_nomination_id,
                "note": v.note,
                "created_at": v.created_at,
                "entries": [
                    {
                        "key": e.key,
                        "text": e.text,
                        "source": e.source,
                        "sensitivity": _sensitivity_name(e.sensitivity),
                        "tier": e.tier,
                    }
                    for e in v.entries.all()
                    if e.key not in muted
                ],
            }
            for v in page.rows
        ],
        "next": page.next_cursor,
    }


def nomination_dicts(nominations: list[Any]) -> list[dict[str, Any]]:
    """Nominations as the owner reviews them: the statement, why it qualified and the
    person's words it came from (withheld once that conversation is sealed). One query
    for the whole list (the sealed ones)."""
    from persona.owner import sealed_nominations

    sealed = sealed_nominations(list(nominations))
    out = []
    for n in nominations:
        hidden = n.pk in sealed
        out.append(
            {
                "id": n.pk,
                "statement": n.statement,
                "category": n.category,
                "confidence": n.confidence,
                "corroboration_count": n.corroboration_count,
                "sensitivity": _sensitivity_name(n.sensitivity),
                "evidence_quote": None if hidden or not n.evidence_quote else n.evidence_quote,
                "sealed": hidden,
                "state": n.state,
                "nominated_at": n.nominated_at,
                "resolved_at": n.resolved_at,
                "affirmed_version": n.affirmed_version,
            }
        )
    return out


def nomination_page(
    *, principal_id: int, state: str | None, after: str | None, limit: int
) -> dict[str, Any]:
    """A person's nominations, newest first, optionally in one state (two queries)."""
    from api.errors import Malformed
    from persona.models import OwnerNomination
    from personaweb.paging import decode_cursor, keyset_page

    if after and decode_cursor(after, kinds=[datetime, int]) is None:
        raise Malformed("The after cursor is not one this API made; pass `next` as it came.")
    qs = OwnerNomination.objects.filter(principal_id=principal_id)
    if state is not None:
        qs = qs.filter(state=state)
    page = keyset_page(
        qs,
        fields=[("nominated_at", True), ("id", True)],
        kinds=[datetime, int],
        cursor=after,
        size=limit,
    )
    return {"items": nomination_dicts(page.rows), "next": page.next_cursor}


def nomination_of(*, principal_id: int, nomination_id: int) -> Any | None:
    """A nomination of this person (another person's or an unknown id: None)."""
    from persona.models import OwnerNomination

    return OwnerNomination.objects.filter(pk=nomination_id, principal_id=principal_id).first()
