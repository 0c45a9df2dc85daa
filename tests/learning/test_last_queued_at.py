"""Persona evolution sorts assistants by their newest review from one maintained column,
``LearningSettings.last_queued_at``: every way a review is queued keeps it, it never moves
back, and an agent without a settings row gets one."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from learning.models import LearningSettings, Review, note_reviews_queued
from learning.services.schedule import due_reviews_queue
from tests.builders import add_review, agents_table, learning_on
from tests.factories import make_agent

pytestmark = pytest.mark.django_db


def last_queued(agent):
    return LearningSettings.objects.get(agent=agent).last_queued_at


def test_a_created_review_sets_the_time_even_for_an_agent_without_settings(agent):
    LearningSettings.objects.filter(agent=agent).delete()
    review = add_review(agent)
    assert last_queued(agent) == review.queued_at
    later = add_review(agent)
    assert last_queued(agent) == later.queued_at


def test_the_sweeps_bulk_queue_sets_each_agents_time(agent, tenant):
    other = make_agent(tenant=tenant, slug="other", name="Other")
    learning_on(agent)
    learning_on(other)
    ids = due_reviews_queue([agent.pk, other.pk])
    newest = max(r.queued_at for r in Review.objects.filter(pk__in=ids.values()))
    # one statement for the batch: each agent gets the batch's newest time
    assert last_queued(agent) == last_queued(other) == newest


def test_the_time_never_moves_back(agent):
    review = add_review(agent)
    older = Review(agent=agent, queued_at=review.queued_at - timedelta(days=3))
    note_reviews_queued([older])
    assert last_queued(agent) == review.queued_at


def test_saving_a_review_again_does_not_touch_the_time(agent):
    review = add_review(agent)
    LearningSettings.objects.filter(agent=agent).update(last_queued_at=None)
    review.reason = "Edited."
    review.save()
    assert last_queued(agent) is None


def test_evolution_sorts_by_the_newest_review(operator_client, agent, tenant):
    from django.urls import reverse

    quiet = make_agent(tenant=tenant, slug="quiet2", name="Quiet two")
    add_review(agent)
    first = add_review(quiet)
    Review.objects.filter(pk=first.pk).update(queued_at=timezone.now() - timedelta(days=9))
    LearningSettings.objects.filter(agent=quiet).update(
        last_queued_at=first.queued_at - timedelta(days=9)
    )
    html = agents_table(
        operator_client.get(reverse("persona:evolution"), {"sort": "recent"}).content.decode()
    )
    assert html.index(f"/persona/{agent.slug}/") < html.index("/persona/quiet2/")
    add_review(quiet)
    html = agents_table(
        operator_client.get(reverse("persona:evolution"), {"sort": "recent"}).content.decode()
    )
    assert html.index("/persona/quiet2/") < html.index(f"/persona/{agent.slug}/")
