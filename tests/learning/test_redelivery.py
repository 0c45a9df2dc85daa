"""A review runs once however often the broker delivers its task: late acks put a dead
worker's tasks back, and a sweep may claim an agent again after its claim expired."""

from __future__ import annotations

from datetime import timedelta

import pytest
from celery.exceptions import Retry
from django.utils import timezone

from learning import tasks
from learning.models import LearningSettings, Review
from learning.services import review_run, sweep_due_agents_run
from learning.services.review import lease_left
from tests.factories import make_agent
from tests.learning.helpers import learning_on, seed_work


@pytest.fixture
def sent(monkeypatch):
    """Review tasks the sweep sends, captured instead of going to a broker."""
    calls: list[tuple] = []
    monkeypatch.setattr(
        tasks.review_agent, "apply_async", lambda args, **kw: calls.append(tuple(args))
    )
    return calls


@pytest.fixture
def due_agents(tenant):
    agents = [make_agent(tenant=tenant, slug=f"due-{i}") for i in range(3)]
    for agent in agents:
        learning_on(agent, mode="on")
    LearningSettings.objects.filter(agent__in=agents).update(
        due_at=timezone.now() - timedelta(minutes=1)
    )
    return agents


def sweep(django_capture_on_commit_callbacks) -> int:
    with django_capture_on_commit_callbacks(execute=True):
        return sweep_due_agents_run()


@pytest.mark.django_db
def test_sweep_queues_one_review_per_agent_and_sends_its_id(
    due_agents, sent, django_capture_on_commit_callbacks
):
    assert sweep(django_capture_on_commit_callbacks) == 3
    queued = dict(Review.objects.values_list("agent_id", "id"))
    assert sorted(sent) == sorted(
        (agent.id, queued[agent.id], Review.Trigger.SCHEDULE) for agent in due_agents
    )
    assert set(Review.objects.values_list("status", flat=True)) == {Review.Status.QUEUED}


@pytest.mark.django_db
def test_a_sweep_that_claims_an_agent_again_sends_the_same_review(
    due_agents, sent, django_capture_on_commit_callbacks
):
    sweep(django_capture_on_commit_callbacks)
    first = sorted(sent)
    # the claims expired before any worker ran the tasks (a worker died with them)
    LearningSettings.objects.filter(agent__in=due_agents).update(
        due_at=timezone.now() - timedelta(minutes=1)
    )
    sent.clear()
    assert sweep(django_capture_on_commit_callbacks) == 3
    assert sorted(sent) == first
    assert Review.objects.count() == 3


@pytest.mark.django_db
def test_a_review_delivered_twice_runs_once(due_agents, sent, django_capture_on_commit_callbacks):
    sweep(django_capture_on_commit_callbacks)
    args = sent[0]
    assert tasks.review_agent(*args) == Review.Outcome.NOTHING
    review = Review.objects.get(pk=args[1])
    finished = review.finished_at
    assert tasks.review_agent(*args) == Review.Outcome.NOTHING  # the second delivery
    review.refresh_from_db()
    assert review.status == Review.Status.DONE and review.finished_at == finished
    assert Review.objects.filter(agent_id=args[0]).count() == 1


@pytest.mark.django_db
def test_a_review_running_within_its_lease_is_retried_not_run(
    due_agents, sent, django_capture_on_commit_callbacks, settings
):
    settings.LEARNING_REVIEW_STALE_SECONDS = 600
    sweep(django_capture_on_commit_callbacks)
    args = sent[0]
    started = timezone.now() - timedelta(seconds=60)
    Review.objects.filter(pk=args[1]).update(
        status=Review.Status.RUNNING, started_at=started, details={"worker": "w2@host"}
    )
    with pytest.raises(Retry):
        tasks.review_agent(*args)
    review = Review.objects.get(pk=args[1])
    assert review.status == Review.Status.RUNNING and review.started_at == started
    assert 530 < lease_left(review) <= 540


@pytest.mark.django_db
def test_a_review_left_running_by_a_dead_worker_is_taken_over_after_its_lease(
    due_agents, sent, django_capture_on_commit_callbacks, settings
):
    settings.LEARNING_REVIEW_STALE_SECONDS = 30
    sweep(django_capture_on_commit_callbacks)
    agent_id, review_id, trigger = sent[0]
    Review.objects.filter(pk=review_id).update(
        status=Review.Status.RUNNING,
        started_at=timezone.now() - timedelta(seconds=31),
        details={"worker": "w2@host"},
    )
    assert tasks.review_agent(agent_id, review_id, trigger) == Review.Outcome.NOTHING
    review = Review.objects.get(pk=review_id)
    assert review.status == Review.Status.DONE and review.details["taken_over"] is True
    assert LearningSettings.objects.get(agent_id=agent_id).last_review_at == review.finished_at


@pytest.mark.django_db
def test_a_review_taken_over_does_not_overwrite_the_record_of_the_one_that_took_it(
    agent, monkeypatch
):
    """The finishing write is fenced by started_at: the slow first run (taken over past
    its lease) leaves the record and the counters to the run that took over."""
    from learning.services import review as review_module

    learning_on(agent, mode="on")
    seed_work(agent, n=4)
    review = Review.objects.create(agent=agent, trigger=Review.Trigger.SCHEDULE)
    body = review_module._review_body
    taken_at = timezone.now() + timedelta(seconds=5)

    def taken_over_meanwhile(**kwargs):
        result = body(**kwargs)
        Review.objects.filter(pk=review.pk).update(
            started_at=taken_at, details={"worker": "w1@host", "taken_over": True}
        )
        return result

    monkeypatch.setattr(review_module, "_review_body", taken_over_meanwhile)
    before = LearningSettings.objects.get(agent=agent)
    review_run(agent=agent, trigger=Review.Trigger.SCHEDULE, review=review, worker="w2@host")
    review.refresh_from_db()
    assert review.status == Review.Status.RUNNING and review.started_at == taken_at
    assert review.details == {"worker": "w1@host", "taken_over": True}
    after = LearningSettings.objects.get(agent=agent)
    assert after.last_review_at == before.last_review_at
    assert after.last_seen_message_id == before.last_seen_message_id


@pytest.mark.django_db
def test_a_review_run_by_a_worker_names_the_worker_and_a_redelivery(agent):
    learning_on(agent, mode="on")
    review = Review.objects.create(agent=agent, trigger=Review.Trigger.SCHEDULE)
    review_run(agent=agent, review=review, worker="w1@host", redelivered=True)
    review.refresh_from_db()
    assert review.details["worker"] == "w1@host" and review.details["redelivered"] is True
    assert "taken_over" not in review.details
