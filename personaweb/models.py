"""Who may see which tenant, and the worker heartbeat shown on the home page."""

from __future__ import annotations

from django.conf import settings
from django.db import models


class Membership(models.Model):
    """A dashboard user belongs to one or more tenants; superusers see all."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="memberships"
    )
    tenant = models.ForeignKey(
        "memory.Tenant", on_delete=models.CASCADE, related_name="memberships"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "tenant"], name="membership_unique")]

    def __str__(self) -> str:
        return f"{self.user} in {self.tenant}"


class Heartbeat(models.Model):
    """Written by a beat-scheduled task: proves the worker and beat are running."""

    name = models.CharField(max_length=100, unique=True)
    runs = models.PositiveBigIntegerField(default=0)
    last_run_at = models.DateTimeField()
    hostname = models.CharField(max_length=200, blank=True)

    def __str__(self) -> str:
        return self.name
