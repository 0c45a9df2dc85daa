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
