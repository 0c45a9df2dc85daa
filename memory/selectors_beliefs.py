"""Reads of the memory kernel for hosts (the HTTP API and the MCP server): a person's
beliefs, one belief with its evidence, intentions and routines (issue 11).

Memory belongs to a person (a principal of a tenant), whichever of the tenant's agents
formed it: ``build_context`` reads it that way and so do these; ``agent`` is where a
belief came from and a filter, not an owner. Every read is scoped to one tenant: another
tenant's row is None, exactly like an absent one. Hosts read up to
``HOST_MAX_SENSITIVITY`` (the context pack's ceiling): a restricted belief is left out
of lists and is None by id. A sealed conversation's words are never shown: its quote
and span are withheld, only the ids remain.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.db.models import QuerySet

from memory.models import Belief, Intention, Routine
from memory.models_beliefs import SENSITIVITY_BY_NAME

#: The highest sensitivity a host reads (the default ceiling of ``build_context``).
HOST_MAX_SENSITIVITY = "confidential"
#: ``status`` filter meaning every status.
ANY_STATUS = "all"
#: At most this many words of a search text are matched.
MAX_SEARCH_WORDS = 8
_PUNCTUATION = "\"'.,;:!?()[]{}<>«»“”‘’"


def search_words(text: str | None) -> list[str]:
    """The words a search text asks for: split on white space, outer punctuation dropped."""
    found: list[str] = []
    for raw in (text or "").split():
        word = raw.strip(_PUNCTUATION)
        if word and word.lower() not in found:
            found.append(word.lower())
    return found[:MAX_SEARCH_WORDS]


#: statuses no host ever reaches, whatever it asks (``status=all`` included)
HIDDEN_FROM_HOSTS = (Belief.Status.MUTED, Belief.Status.REDACTED)


def beliefs_of_principal(
    *,
    tenant_id: int,
    principal_id: int,
    agent_id: int | None = None,
    category: str | None = None,
    status: str = Belief.Status.ACTIVE,
    text: str | None = None,
    max_sensitivity: str = HOST_MAX_SENSITIVITY,
) -> QuerySet[Belief]:
    """A person's beliefs (unordered: the caller pages them), with their agent in the
    same query. ``text``: every word of it appears in the statement (any case)."""
    qs = Belief.objects.select_related("agent", "principal").filter(
        tenant_id=tenant_id,
        principal_id=principal_id,
        sensitivity__lte=SENSITIVITY_BY_NAME[max_sensitivity],
    )
    # a muted or redacted belief is never given to a host, whatever the filter asks
    qs = qs.exclude(status__in=HIDDEN_FROM_HOSTS)
    if status != ANY_STATUS:
        qs = qs.filter(status=status)
    if agent_id is not None:
        qs = qs.filter(agent_id=agent_id)
    if category:
        qs = qs.filter(category=category)
    for word in search_words(text):
        qs = qs.filter(statement__icontains=word)
    return qs


def belief_in_tenant(
    *,
    tenant_id: int,
    belief_id: int,
    principal_id: int | None = None,
    max_sensitivity: str = HOST_MAX_SENSITIVITY,
    include_muted: bool = False,
) -> Belief | None:
    """One belief with its agent, person and evidence message (one query). A muted
    belief is not found unless ``include_muted`` (hosts never reach it)."""
    qs = Belief.objects.select_related(
        "agent", "principal", "evidence_message__conversation"
    ).filter(
        pk=belief_id,
        tenant_id=tenant_id,
        sensitivity__lte=SENSITIVITY_BY_NAME[max_sensitivity],
    )
    if principal_id is not None:
        qs = qs.filter(principal_id=principal_id)
    if not include_muted:
        qs = qs.exclude(status__in=HIDDEN_FROM_HOSTS)
    return qs.first()


def belief_dict(belief: Belief, *, now: datetime) -> dict[str, Any]:
    """A belief as plain values: what ``memory beliefs list --json`` prints, with where
    it came from (agent, source, derivation) and whom it is about."""
    from memory.importer_beliefs import belief_as_dict

    return {
        **belief_as_dict(belief, now=now),
        "agent": belief.agent.slug,
        "principal": belief.principal.external_id,
        "source": belief.source,
        "derivation": belief.derivation,
        "last_reinforced_at": belief.last_reinforced_at.isoformat(),
    }


def belief_evidence(belief: Belief) -> dict[str, Any]:
    """Why the belief is held: the message and the quote in it, or the host that wrote it.

    A sealed conversation is never quoted: ``quote``, ``start`` and ``end`` are None and
    ``sealed`` is true. Needs ``evidence_message__conversation`` loaded (``belief_in_tenant``).
    """
    message = belief.evidence_message
    sealed = bool(message is not None and message.conversation.sealed)
    shown = message is not None and not sealed and bool(belief.evidence_quote)
    return {
        "message_id": message.pk if message is not None else None,
        "conversation": message.conversation.external_id if message is not None else None,
        "quote": belief.evidence_quote if shown else None,
        "start": belief.evidence_start if shown else None,
        "end": belief.evidence_end if shown else None,
        "host": belief.source_host or None,
        "sealed": sealed,
    }


# --- intentions and routines -----------------------------------------------------------


def intentions_of_principal(
    *, tenant_id: int, principal_id: int, state: str | None = Intention.State.OPEN
) -> QuerySet[Intention]:
    """A person's intentions, soonest due first (``state`` None: every state)."""
    qs = Intention.objects.filter(tenant_id=tenant_id, principal_id=principal_id)
    if state is not None:
        qs = qs.filter(state=state)
    return qs.order_by("due_at", "id")


def intention_in_tenant(
    *, tenant_id: int, intention_id: int, principal_id: int | None = None
) -> Intention | None:
    qs = Intention.objects.filter(pk=intention_id, tenant_id=tenant_id)
    if principal_id is not None:
        qs = qs.filter(principal_id=principal_id)
    return qs.first()


def intention_dict(intention: Intention, *, now: datetime) -> dict[str, Any]:
    return {
        "id": intention.pk,
        "action": intention.action,
        "due_at": intention.due_at.isoformat(),
        "state": intention.state,
        "importance": intention.importance,
        "confidence": intention.confidence,
        "lead_time_seconds": int(intention.lead_time.total_seconds()),
        "grace_seconds": int(intention.grace.total_seconds()),
        "agenda_score": round(intention.agenda_score(now), 4),
        "overdue": intention.state == Intention.State.OPEN and now > intention.due_at,
    }


def routine_in_tenant(
    *, tenant_id: int, routine_id: int, principal_id: int | None = None
) -> Routine | None:
    qs = Routine.objects.filter(pk=routine_id, tenant_id=tenant_id)
    if principal_id is not None:
        qs = qs.filter(principal_id=principal_id)
    return qs.first()


def routine_dict(routine: Routine) -> dict[str, Any]:
    return {
        "id": routine.pk,
        "action": routine.action,
        "weekdays": list(routine.weekdays or []),
        "time": routine.time.strftime("%H:%M"),
        "anchor_date": routine.anchor_date.isoformat(),
        "valid_until": routine.valid_until.isoformat() if routine.valid_until else None,
        "status": routine.status,
        "observations": routine.observations,
        "last_feedback": routine.last_feedback or None,
        "last_feedback_on": (
            routine.last_feedback_on.isoformat() if routine.last_feedback_on else None
        ),
    }
