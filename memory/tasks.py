"""Celery tasks of the memory app: thin wrappers around services."""

from __future__ import annotations

import logging
import time

from celery import shared_task
from django.conf import settings
from django.core.cache import cache
from django.db import OperationalError

logger = logging.getLogger(__name__)

#: Turns recorded within this window share one embedding run.
EMBED_DEBOUNCE_SECONDS = 5
_DEBOUNCE_KEY = "memory:embed:scheduled"


@shared_task(
    name="memory.tasks.embed_pending_messages",
    ignore_result=True,
    autoretry_for=(OperationalError,),  # e.g. "database is locked" on SQLite
    retry_backoff=True,
    max_retries=3,
)
def embed_pending_messages(time_budget: float | None = None) -> int:
    """Embed waiting messages chunk by chunk until none are left or the budget is spent.

    The budget defaults to one beat interval, so beat ticks never pile up behind a long
    backlog: what is left is picked up by the next tick. Returns the messages linked.
    """
    from memory.embeddings import embed_pending

    budget = settings.CELERY_EMBED_SECONDS if time_budget is None else time_budget
    deadline = time.monotonic() + budget
    chunk = settings.EMBEDDING_TASK_CHUNK
    total = 0
    while True:
        linked = embed_pending(limit=chunk)
        total += linked
        if linked < chunk or time.monotonic() >= deadline:
            break
    if total:
        logger.info("embedded %d messages", total)
    return total


def schedule_embedding() -> bool:
    """Ask for an embedding run soon; at most one request per debounce window.

    Meant for ``transaction.on_commit`` after messages are written. Returns whether a
    task was enqueued. A broker that cannot be reached is logged, not raised: the turn
    is stored already and the beat schedule embeds it on its next tick. In eager mode
    (tests) nothing is enqueued, because the run would happen inside the caller's
    request and load the model there.
    """
    if settings.CELERY_TASK_ALWAYS_EAGER:
        return False
    if not cache.add(_DEBOUNCE_KEY, 1, timeout=EMBED_DEBOUNCE_SECONDS):
        return False
    try:
        # the countdown gathers the turns of the whole window into one run
        embed_pending_messages.apply_async(countdown=EMBED_DEBOUNCE_SECONDS, retry=False)
    except Exception:  # broker down: beat catches up
        logger.warning("could not enqueue the embedding task; beat will embed later", exc_info=True)
        cache.delete(_DEBOUNCE_KEY)
        return False
    return True


@shared_task(
    name="memory.tasks.consolidate_agent",
    ignore_result=True,
    autoretry_for=(OperationalError,),
    retry_backoff=True,
    max_retries=3,
)
def consolidate_agent(agent_id: int) -> dict[str, object] | None:
    """Form beliefs from one agent's new messages (``memory.consolidation``)."""
    from memory.consolidation import consolidate
    from tenancy.models import Agent

    agent = Agent.objects.filter(pk=agent_id).first()
    if agent is None:
        return None
    return consolidate(agent=agent).as_dict()


@shared_task(name="memory.tasks.consolidate_due", ignore_result=True)
def consolidate_due() -> int:
    """Beat: one consolidation task per agent with new user messages."""
    from memory.consolidation import agents_due, consolidation_enabled

    if not consolidation_enabled():
        return 0
    due = agents_due()
    for agent_id in due:
        consolidate_agent.delay(agent_id)
    return len(due)


@shared_task(name="memory.tasks.audit_memory", ignore_result=True)
def audit_memory(tenant_ids: list[int] | None = None) -> int:
    """Beat, daily (and the Memory health page's "Run now"): the memory health check,
    recorded per tenant. Returns the number of findings."""
    from memory.audit import audit_tenants

    report = audit_tenants(tenant_ids=tenant_ids)
    return sum(report.counts.values())


@shared_task(
    name="memory.tasks.prune_context_packs",
    ignore_result=True,
    autoretry_for=(OperationalError,),
    retry_backoff=True,
    max_retries=3,
)
def prune_context_packs() -> int:
    """Remove the context packs no turn named once ``CONTEXT_PACK_HOURS`` have passed."""
    from memory.packs import context_packs_prune

    removed = context_packs_prune()
    if removed:
        logger.info("removed %d context packs no turn named", removed)
    return removed


@shared_task(
    name="memory.tasks.prune_scan_verdicts",
    ignore_result=True,
    autoretry_for=(OperationalError,),
    retry_backoff=True,
    max_retries=3,
)
def prune_scan_verdicts() -> int:
    """Remove the scan verdicts recorded by another build of the scanner (no process
    reads them after an upgrade; ``safety.memo``)."""
    from memory.scan_verdicts import forget_other_scanners

    removed = forget_other_scanners()
    if removed:
        logger.info("removed %d scan verdicts of an earlier scanner", removed)
    return removed


@shared_task(
    name="memory.tasks.rebuild_belief_block",
    ignore_result=True,
    autoretry_for=(OperationalError,),
    retry_backoff=True,
    max_retries=3,
)
def rebuild_belief_block(principal_id: int) -> int | None:
    """After a change to the beliefs of a person with many: pack them again in one row
    (``memory.candidates``), so every process's next cold read is one row."""
    from memory.candidates import rebuild_block

    return rebuild_block(principal_id)
