"""Celery tasks of persona learning: thin wrappers around the services."""

from __future__ import annotations

import logging
from typing import Any

from celery import shared_task
from django.db import OperationalError

logger = logging.getLogger(__name__)


@shared_task(name="learning.tasks.sweep_due_agents", ignore_result=True)
def sweep_due_agents() -> int:
    """Beat, every minute: claim the due agents and enqueue one review each."""
    from learning.services import sweep_due_agents_run

    return sweep_due_agents_run()


@shared_task(
    bind=True,
    name="learning.tasks.review_agent",
    ignore_result=True,
    autoretry_for=(OperationalError,),  # e.g. "database is locked" on SQLite
    retry_backoff=True,
    max_retries=3,
)
def review_agent(
    self: Any,
    agent_id: int,
    review_id: int | None = None,
    trigger: str = "schedule",
    whole_history: bool = False,
) -> str:
    """Run one review of an agent; a second one at the same time ends ``skipped``.

    ``whole_history`` reads every eligible conversation ("Review the whole history").

    With ``review_id`` (the sweep and "Review now" send one) the review runs once however
    often the broker delivers this task (late acks put a dead worker's tasks back): a
    delivery that finds it done does nothing, one that finds it running within its lease
    is retried when the lease ends, and one that finds it running past its lease (its
    worker died) takes it over."""
    from learning.models import Review
    from learning.services import review_run
    from learning.services.review import lease_left
    from tenancy.models import Agent

    agent = Agent.objects.filter(pk=agent_id).first()
    if agent is None:
        return "gone"
    review = Review.objects.filter(pk=review_id, agent_id=agent_id).first() if review_id else None
    if review_id and review is None:
        return "gone"
    redelivered = bool((self.request.delivery_info or {}).get("redelivered"))
    if redelivered:
        logger.info("review %s of agent %s: the broker delivered it again", review_id, agent_id)
    result = review_run(
        agent=agent,
        trigger=trigger,
        review=review,
        whole_history=bool(whole_history),
        worker=self.request.hostname or "",
        redelivered=redelivered,
    )
    if review is not None and result.status == Review.Status.RUNNING:
        # running elsewhere within its lease: look again when the lease ends (then it is
        # done, or its worker died and this task takes it over)
        raise self.retry(countdown=lease_left(result) + 1.0, max_retries=None)
    return result.outcome


@shared_task(name="learning.tasks.send_review_digests", ignore_result=True)
def send_review_digests() -> int:
    """Beat, hourly: one digest to each person something has waited too long for."""
    from learning.digests import digests_send

    return digests_send().sent


@shared_task(
    name="learning.tasks.send_digest_webhook",
    ignore_result=True,
    autoretry_for=(OSError,),  # network errors and non-2xx answers
    retry_backoff=True,
    max_retries=5,
)
def send_digest_webhook(digest_id: int) -> int | None:
    """POST one digest to the configured webhook, signed; retried on failure."""
    from learning.digests import webhook_send
    from learning.models import ReviewDigest

    row = ReviewDigest.objects.filter(pk=digest_id).first()
    if row is None:
        return None
    status = webhook_send(row)
    ReviewDigest.objects.filter(pk=digest_id).update(webhook_status=status)
    return status
