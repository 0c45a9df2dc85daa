"""The persisted counters that schedule reviews (turns since the last review, due time)."""

from __future__ import annotations

from datetime import timedelta

from django.db.models import Case, F, Value, When
from django.db.models.functions import Least
from django.utils import timezone

from learning.models import LearningSettings, Mode


def note_turns(*, agent_id: int, turns: int = 1) -> None:
    """Count turns towards the next review; one UPDATE, no read.

    When the count reaches ``every_n_turns`` the agent becomes due now (``due_at`` is
    pulled forward, never pushed back), so the sweep finds it with one indexed range scan.
    """
    now = timezone.now()
    LearningSettings.objects.filter(agent_id=agent_id).update(
        turns_since_review=F("turns_since_review") + turns,
        due_at=Case(
            When(
                turns_since_review__gte=F("every_n_turns") - turns,
                then=Case(
                    When(due_at__isnull=True, then=Value(now)),
                    default=Least(F("due_at"), Value(now)),
                ),
            ),
            default=F("due_at"),
        ),
    )


def next_due_at(settings: LearningSettings, *, now=None):
    """When the hours rule makes this agent due next (None when off or hours is 0)."""
    if settings.mode == Mode.OFF:
        return None
    now = now or timezone.now()
    if settings.turns_since_review >= settings.every_n_turns:
        return now
    if settings.every_hours == 0:
        return None
    base = settings.last_review_at or now
    return base + timedelta(hours=settings.every_hours)
