"""Consolidation: beliefs formed from what people wrote (issue 11).

``consolidate(agent=...)`` reads the user messages of ``agent`` that arrived since the
last run (a watermark per agent, ``ConsolidationState``), asks a proposer for
first-person statements, verifies every quote word for word with the same verifier
persona learning uses (``memory.verification``) and stores what passes through
``belief_write`` (so a restatement corroborates and a contradiction supersedes).

What is never read, so never evidence for a belief:

- sealed conversations; assistant, system and tool messages;
- directive messages ("remember that you are ...", ``safety.directives``);
- a message holding a secret or an injection-scan hit: not even its harmless part;
- another person's conversations: each person's beliefs are verified against a corpus
  of that person's messages only.

A statement of a never-auto-store kind (``safety.never_store``: health,
finances, another person's details, credentials, ...) is not stored, and counted.

Two workers never consolidate one agent at once: a run claims the agent with a
conditional UPDATE (a lease, taken over after ``LEASE``), and the watermark moves
only when the run ends.
"""

from __future__ import annotations

import logging
from collections import Counter
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from memory.embeddings import vectors_for_texts
from memory.models import Belief, ConsolidationState, Message
from memory.proposers import BeliefCandidate, belief_proposer
from memory.redaction import REDACTED
from memory.services_beliefs import BeliefRefusal, belief_write, embeddings_enabled
from memory.signals import belief_consolidated
from memory.verification import ReadMessage, ReviewCorpus, verify_quotes
from safety.checks import UnsafeText
from safety.evidence import unsafe_kind
from safety.never_store import never_auto_store

logger = logging.getLogger(__name__)

#: A run reads at most this many new user messages; the next run goes on from there.
BATCH_MESSAGES = 500
#: A run that has not finished after this long is taken to have died.
LEASE = timedelta(minutes=10)


@dataclass
class ConsolidationReport:
    agent_slug: str
    messages_read: int = 0
    candidates: int = 0
    created: int = 0
    corroborated: int = 0
    superseded: int = 0
    skipped: Counter[str] = field(default_factory=Counter)  # reason -> count
    busy: bool = False  # another run holds the agent
    more: bool = False  # messages are left for the next run
    belief_ids: list[int] = field(default_factory=list)

    def as_dict(self) -> dict[str, Any]:
        return {
            "agent": self.agent_slug,
            "messages_read": self.messages_read,
            "candidates": self.candidates,
            "created": self.created,
            "corroborated": self.corroborated,
            "superseded": self.superseded,
            "skipped": dict(sorted(self.skipped.items())),
            "busy": self.busy,
            "more": self.more,
        }


def _claim(agent: Any, now: datetime) -> ConsolidationState | None:
    ConsolidationState.objects.get_or_create(agent=agent, defaults={"tenant_id": agent.tenant_id})
    won = ConsolidationState.objects.filter(
        Q(running_since__isnull=True) | Q(running_since__lt=now - LEASE), agent=agent
    ).update(running_since=now)
    if not won:
        return None
    return ConsolidationState.objects.get(agent=agent)


_UNSAFE_REASONS = {
    "directive": "directive message",
    "secret": "message holds a secret",
    "injection": "message holds an injection-scan hit",
}


def _unsafe_reason(text: str) -> str | None:
    kind = unsafe_kind(text)
    return _UNSAFE_REASONS[kind] if kind else None


def _read(
    agent: Any, after_id: int, ceiling: int, limit: int, report: ConsolidationReport
) -> list[Any]:
    rows = list(
        Message.objects.readable()
        .filter(
            conversation__agent=agent,
            role=Message.Role.USER,
            id__gt=after_id,
            id__lte=ceiling,
        )
        # a redacted message has no words left to learn from
        .exclude(text=REDACTED)
        .select_related("conversation__principal")
        .order_by("id")[: limit + 1]
    )
    report.more = len(rows) > limit
    return rows[:limit]


def consolidate(
    *, agent: Any, now: datetime | None = None, limit: int = BATCH_MESSAGES
) -> ConsolidationReport:
    """Form beliefs from ``agent``'s new user messages (see the module docstring)."""
    now = now or timezone.now()
    report = ConsolidationReport(agent_slug=agent.slug)
    state = _claim(agent, now)
    if state is None:
        report.busy = True
        return report
    newest = state.last_message_id
    try:
        # read up to the newest user message that exists now (sealed ones included, so
        # a sealed conversation never keeps the agent "due"); later ones wait their turn
        ceiling = (
            Message.objects.filter(conversation__agent=agent, role=Message.Role.USER)
            .order_by("-id")
            .values_list("id", flat=True)
            .first()
            or 0
        )
        rows = _read(agent, state.last_message_id, ceiling, limit, report)
        newest = rows[-1].id if report.more else max(ceiling, state.last_message_id)
        report.messages_read = len(rows)
        by_person: dict[int, list[ReadMessage]] = {}
        external: dict[int, str] = {}
        for m in rows:
            reason = _unsafe_reason(m.text)
            if reason:
                report.skipped[reason] += 1
                continue
            conv = m.conversation
            external[conv.principal_id] = conv.principal.external_id
            by_person.setdefault(conv.principal_id, []).append(
                ReadMessage(
                    id=m.id,
                    conversation_id=conv.id,
                    conversation_label=conv.external_id,
                    principal_id=conv.principal_id,
                    principal_external_id=conv.principal.external_id,
                    seq=m.seq,
                    text=m.text,
                    created_at=m.created_at,
                    after_assistant=False,
                )
            )
        proposer = belief_proposer()
        proposed = [(pid, proposer.propose(messages)) for pid, messages in by_person.items()]
        if embeddings_enabled():
            # one batch for every statement (stored per text): belief_write then finds them
            vectors_for_texts([c.statement for _, cands in proposed for c in cands])
        for principal_id, cands in proposed:
            messages = by_person[principal_id]
            corpus = ReviewCorpus(agent_id=agent.id, messages=messages)
            corpus.conversation_ids = list(dict.fromkeys(m.conversation_id for m in messages))
            for cand in cands:
                report.candidates += 1
                _store(agent, external[principal_id], cand, corpus, now, report)
    finally:
        ConsolidationState.objects.filter(pk=state.pk).update(
            running_since=None,
            last_message_id=newest,
            last_run_at=now,
            runs=state.runs + 1,
        )
    if report.created or report.corroborated or report.superseded:
        logger.info(
            "consolidated %s: %d messages, %d new, %d corroborated, %d superseded",
            agent.slug,
            report.messages_read,
            report.created,
            report.corroborated,
            report.superseded,
        )
    return report


def _store(
    agent: Any,
    principal_external_id: str,
    cand: BeliefCandidate,
    corpus: ReviewCorpus,
    now: datetime,
    report: ConsolidationReport,
) -> None:
    kind = never_auto_store(cand.statement) or never_auto_store(cand.quote)
    if kind:
        report.skipped[f"never stored automatically ({kind})"] += 1
        return
    check = verify_quotes(
        text=cand.statement,
        quotes=[{"quote": cand.quote}],
        corpus=corpus,
        min_conversations=1,
        min_users=None,
    )
    verdict = check.verdicts[0] if check.verdicts else None
    if not check.ok or verdict is None or verdict.message_id is None:
        report.skipped["quote not verified"] += 1
        return
    message = next(m for m in corpus.messages if m.id == verdict.message_id)
    assert verdict.start is not None and verdict.end is not None
    try:
        with transaction.atomic():
            result = belief_write(
                agent=agent,
                principal_external_id=principal_external_id,
                category=cand.category,
                statement=cand.statement,
                confidence=cand.confidence,
                source="direct",
                sensitivity="internal",
                evidence={
                    "message_id": message.id,
                    "quote": message.text[verdict.start : verdict.end],
                    "start": verdict.start,
                    "end": verdict.end,
                },
                now=now,
            )
            if result.outcome != "muted":
                belief_consolidated.send(
                    sender=Belief, belief=result.belief, outcome=result.outcome, now=now
                )
    except (BeliefRefusal, UnsafeText) as exc:
        report.skipped["refused by the belief rules"] += 1
        logger.debug("consolidation refused a statement: %s", exc)
        return
    if result.outcome == "muted":
        report.skipped["muted (don't mention this again)"] += 1
        return
    report.belief_ids.append(result.belief.pk)
    if result.outcome == "created":
        report.created += 1
    elif result.outcome == "corroborated":
        report.corroborated += 1
    else:
        report.superseded += 1


def agents_due() -> list[int]:
    """Ids of agents with user messages newer than their watermark (one query)."""
    from django.db.models import Max, OuterRef, Subquery

    from tenancy.models import Agent

    mark = ConsolidationState.objects.filter(agent=OuterRef("pk")).values("last_message_id")[:1]
    rows = (
        Agent.objects.annotate(
            newest=Max(
                "conversations__messages__id",
                filter=Q(conversations__messages__role=Message.Role.USER),
            ),
            mark=Subquery(mark),
        )
        .filter(newest__isnull=False)
        .values_list("id", "newest", "mark")
    )
    return [pk for pk, newest, mark_id in rows if newest > (mark_id or 0)]


def consolidation_enabled() -> bool:
    return bool(getattr(settings, "MEMORY_CONSOLIDATION_ENABLED", True))
