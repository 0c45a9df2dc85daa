"""Issue 9, faults: the queue down when a review is enqueued, a worker killed in the
middle of a review, the database restarted between two reviews."""

from __future__ import annotations

import os
from datetime import timedelta

import pytest
from django.db import close_old_connections, connection, transaction
from django.utils import timezone

from learning.models import LearningSettings, Review
from learning.services import review_enqueue, review_run
from tests.learning.helpers import learning_on, seed_work
from tests.learning.scripted import GOOD_SENTENCE, ScriptedProposer


@pytest.mark.django_db(transaction=True)
def test_queue_down_when_a_review_is_enqueued(agent, monkeypatch):
    from kombu.exceptions import OperationalError

    from learning.tasks import review_agent

    learning_on(agent)
    LearningSettings.objects.filter(agent=agent).update(due_at=None)

    def down(*args, **kwargs):
        raise OperationalError("Error 111 connecting to 127.0.0.1:6379. Connection refused.")

    monkeypatch.setattr(review_agent, "delay", down)
    with transaction.atomic():
        review = review_enqueue(agent=agent, by="rita")
    review.refresh_from_db()
    assert review.outcome == Review.Outcome.ERROR
    assert "task queue could not be reached" in review.reason
    assert "next scheduled sweep" in review.reason
    settings = LearningSettings.objects.get(agent=agent)
    assert settings.due_at is not None and settings.due_at <= timezone.now()  # runs later


@pytest.mark.django_db
def test_a_worker_killed_mid_review_does_not_block_the_next(agent):
    learning_on(agent)
    seed_work(agent, n=4)
    dead = Review.objects.create(
        agent=agent,
        trigger=Review.Trigger.MANUAL,
        status=Review.Status.RUNNING,
        started_at=timezone.now() - timedelta(hours=1),
    )
    version_before = agent.persona_version
    fresh = review_enqueue(agent=agent, by="rita")
    dead.refresh_from_db()
    assert fresh.pk != dead.pk
    assert dead.status == Review.Status.DONE and dead.outcome == Review.Outcome.ERROR
    assert "nothing was written" in dead.reason
    agent.refresh_from_db()
    assert agent.persona_version == version_before  # no half-written version
    done = review_run(agent=agent, proposer=ScriptedProposer(GOOD_SENTENCE), review=fresh)
    assert done.outcome == Review.Outcome.PROPOSED, done.reason


@pytest.mark.postgres
@pytest.mark.skipif(
    not os.environ.get("DATABASE_URL", "").startswith("postgres"), reason="needs PostgreSQL"
)
@pytest.mark.django_db(transaction=True)
def test_the_database_restarted_between_two_reviews(agent):
    import psycopg

    learning_on(agent)
    seed_work(agent, n=4)
    first = review_run(agent=agent, proposer=ScriptedProposer(GOOD_SENTENCE))
    assert first.outcome == Review.Outcome.PROPOSED, first.reason
    pid = connection.connection.info.backend_pid
    params = connection.get_connection_params()
    params.pop("cursor_factory", None)
    params.pop("context", None)
    with psycopg.connect(
        **{k: v for k, v in params.items() if k in ("dbname", "user", "password", "host", "port")},
        autocommit=True,
    ) as admin:
        admin.execute("SELECT pg_terminate_backend(%s)", [pid])
    # what Celery's Django fix-up does before every task: drop unusable connections
    close_old_connections()
    second = review_run(agent=agent, proposer=ScriptedProposer(GOOD_SENTENCE))
    assert second.outcome in (Review.Outcome.NOTHING, Review.Outcome.PROPOSED)
