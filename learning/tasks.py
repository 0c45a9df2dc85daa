"""Celery tasks of persona learning: thin wrappers around the services."""

from __future__ import annotations

from celery import shared_task
from django.db import OperationalError


@shared_task(name="learning.tasks.sweep_due_agents", ignore_result=True)
def sweep_due_agents() -> int:
    """Beat, every minute: claim the due agents and enqueue one review each."""
    from learning.services import sweep_due_agents_run

    return sweep_due_agents_run()


@shared_task(
    name="learning.tasks.review_agent",
    ignore_result=True,
    autoretry_for=(OperationalError,),  # e.g. "database is locked" on SQLite
    retry_backoff=True,
    max_retries=3,
)
def review_agent(
    agent_id: int,
    review_id: int | None = None,
    trigger: str = "schedule",
    whole_history: bool = False,
) -> str:
    """Run one review of an agent; a second one at the same time ends ``skipped``.

    ``whole_history`` reads every eligible conversation ("Review the whole history")."""
    from learning.models import Review
    from learning.services import review_run
    from tenancy.models import Agent

    agent = Agent.objects.filter(pk=agent_id).first()
    if agent is None:
        return "gone"
    review = Review.objects.filter(pk=review_id, agent_id=agent_id).first() if review_id else None
    if review_id and review is None:
        return "gone"
    return review_run(
        agent=agent, trigger=trigger, review=review, whole_history=bool(whole_history)
    ).outcome


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
