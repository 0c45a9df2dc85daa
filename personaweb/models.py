"""The worker heartbeat shown on the home page."""

from __future__ import annotations

from django.db import models


class Heartbeat(models.Model):
    """Written by a beat-scheduled task: proves the worker and beat are running."""

    name = models.CharField(max_length=100, unique=True)
    runs = models.PositiveBigIntegerField(default=0)
    last_run_at = models.DateTimeField()
    hostname = models.CharField(max_length=200, blank=True)

    def __str__(self) -> str:
        return self.name
