"""Scheduling: the beat sweep that claims due agents, and "Review now"."""

from __future__ import annotations

import logging
from datetime import timedelta

from django.conf import settings as django_settings
from django.db import connection, transaction
from django.db.models import Q
from django.utils import timezone

from learning.models import LearningSettings, Mode, Review

logger = logging.getLogger(__name__)

#: A claimed agent becomes due again after this long if its review never finished
#: (a lost task); a finished review sets the real next due time.
CLAIM_RETRY = timedelta(seconds=getattr(django_settings, "LEARNING_CLAIM_RETRY_SECONDS", 3600))
SWEEP_LIMIT = getattr(django_settings, "LEARNING_SWEEP_LIMIT", 5000)


def due_agents_claim(*, now=None, limit: int = SWEEP_LIMIT) -> list[int]:
    """Claim the agents due for a review, in ONE statement; return their agent ids.

    ``mode <> 'off' AND due_at <= now`` is served by the partial index ``learning_due``.
    The same UPDATE moves their ``due_at`` forward by ``CLAIM_RETRY`` so the next sweep
    does not enqueue them again; the query count does not depend on how many agents
    there are. On PostgreSQL the rows are claimed with ``FOR UPDATE SKIP LOCKED`` so
    two sweeps running at once never claim the same agent.
    """
    now = now or timezone.now()
    due = (
        LearningSettings.objects.filter(~Q(mode=Mode.OFF), due_at__lte=now)
        .order_by("due_at")
        .values("id")[:limit]
    )
    sub_sql, sub_params = due.query.sql_with_params()
    table = connection.ops.quote_name(LearningSettings._meta.db_table)
    if connection.vendor == "postgresql":
        sub_sql += " FOR UPDATE SKIP LOCKED"
    sql = f"UPDATE {table} SET due_at = %s WHERE id IN ({sub_sql}) RETURNING agent_id"
    params = [connection.ops.adapt_datetimefield_value(now + CLAIM_RETRY), *sub_params]
    with connection.cursor() as cursor:  # one statement: atomic on its own
        cursor.execute(sql, params)
        return [row[0] for row in cursor.fetchall()]


def due_reviews_queue(agent_ids: list[int]) -> dict[int, int]:
    """One open review per agent: {agent id: review id}, in two queries whatever the number.

    An agent that has a review queued or running already (a claim that expired while its
    task waited, or "Review now") keeps that one, so however many sweeps claim it, and
    however often the broker delivers the tasks, the review runs once."""
    if not agent_ids:
        return {}
    open_reviews = dict(
        Review.objects.filter(
            agent_id__in=agent_ids, status__in=[Review.Status.QUEUED, Review.Status.RUNNING]
        )
        .order_by("id")
        .values_list("agent_id", "id")
    )
    new = Review.objects.bulk_create(
        [
            Review(agent_id=agent_id, trigger=Review.Trigger.SCHEDULE)
            for agent_id in agent_ids
            if agent_id not in open_reviews
        ]
    )
    open_reviews.update({review.agent_id: review.pk for review in new})
    return open_reviews


def sweep_due_agents_run(*, now=None) -> int:
    """Claim the due agents, queue one review each (``due_reviews_queue``) and enqueue its
    task after commit, carrying the review's id: a task delivered twice (a worker died
    before acknowledging it) finds the review running or done and does not run it again."""
    from learning.tasks import review_agent

    with transaction.atomic():
        agent_ids = due_agents_claim(now=now)
        reviews = due_reviews_queue(agent_ids)

        def enqueue() -> None:
            if not agent_ids:
                return
            try:
                # one producer (one broker connection) for the whole batch
                with review_agent.app.producer_or_acquire() as producer:
                    for agent_id in agent_ids:
                        review_agent.apply_async(
                            (agent_id, reviews[agent_id], Review.Trigger.SCHEDULE),
                            producer=producer,
                        )
            except (
                Exception
            ):  # broker down: the claims expire; a later sweep sends these reviews again
                logger.warning("could not enqueue %d reviews", len(agent_ids), exc_info=True)

        transaction.on_commit(enqueue)
    return len(agent_ids)


@transaction.atomic
def review_enqueue(
    *, agent, by: str, trigger: str = Review.Trigger.MANUAL, whole_history: bool = False
) -> Review:
    """ "Review now": a queued review record, run by a worker after commit.

    ``whole_history`` ("Review the whole history") reads every eligible conversation,
    bounded (``review_run``); the flag is kept on the record and sent to the task.

    A review already queued or running for the agent is returned instead of a new one,
    so a double click runs one review. The dashboard polls the returned record.
    """
    from learning.services.review import review_lease
    from learning.tasks import review_agent

    # A review whose worker died (killed mid-review) must not block "Review now" for ever.
    Review.objects.filter(
        agent=agent, status=Review.Status.RUNNING, started_at__lt=timezone.now() - review_lease()
    ).update(
        status=Review.Status.DONE,
        outcome=Review.Outcome.ERROR,
        finished_at=timezone.now(),
        reason="This review stopped without finishing (its worker went away); nothing was written.",
    )
    existing = (
        Review.objects.select_for_update()
        .filter(agent=agent, status__in=[Review.Status.QUEUED, Review.Status.RUNNING])
        .order_by("-id")
        .first()
    )
    if existing is not None:
        return existing
    review = Review.objects.create(
        agent=agent,
        trigger=trigger,
        requested_by=(by or "").strip(),
        details={"whole_history": True} if whole_history else {},
    )

    def enqueue() -> None:
        try:
            if whole_history:
                review_agent.delay(agent.pk, review.pk, trigger, True)
            else:
                review_agent.delay(agent.pk, review.pk, trigger)
        except Exception as exc:
            logger.warning("could not enqueue review %s", review.pk, exc_info=True)
            Review.objects.filter(pk=review.pk, status=Review.Status.QUEUED).update(
                status=Review.Status.DONE,
                outcome=Review.Outcome.ERROR,
                finished_at=timezone.now(),
                reason=(
                    f"The task queue could not be reached ({type(exc).__name__}); the review will "
                    "run at the next scheduled sweep once the queue is back, or run "
                    "`python manage.py learning review` on the server."
                ),
            )
            # Nothing is lost: the agent is due now, so the next sweep (once the broker
            # answers) enqueues the review again.
            LearningSettings.objects.filter(agent=agent).update(due_at=timezone.now())

    transaction.on_commit(enqueue)
    return review
