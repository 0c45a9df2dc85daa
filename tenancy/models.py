"""Who is who: tenants, the agents (assistants) they run, and which dashboard users
belong to which tenant.

These rows sit below every feature app: memory's conversations belong to an agent,
persona versions describe one, learning reviews one. The tables keep the names they
had when the models lived in ``memory``, ``persona`` and ``personaweb``.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models

#: the longest slug of a tenant or an agent (every surface that takes one says so)
MAX_SLUG_CHARS = 100


class Tenant(models.Model):
    name = models.CharField(max_length=200)
    slug = models.SlugField(max_length=MAX_SLUG_CHARS, unique=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        db_table = "memory_tenant"
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name


class Agent(models.Model):
    """An assistant's identity. What it is told lives in ``persona``."""

    tenant = models.ForeignKey(Tenant, on_delete=models.CASCADE, related_name="agents")
    name = models.CharField(max_length=200)
    slug = models.SlugField(max_length=MAX_SLUG_CHARS, unique=True)
    multi_tenant = models.BooleanField(
        default=False,
        help_text="Serves people of several tenants; never learns unless team mode is on.",
    )
    # Head of the persona version history, written only by persona's version service
    # in the same transaction as the version row; lets a plan call see "nothing
    # changed" from one indexed row.
    persona_version = models.PositiveIntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        db_table = "persona_agent"
        ordering = ["name", "id"]
        indexes = [models.Index(fields=["tenant", "name", "id"], name="agent_tenant_name")]

    def __str__(self) -> str:
        return self.name


class Membership(models.Model):
    """A dashboard user belongs to one or more tenants; superusers see all."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="memberships"
    )
    tenant = models.ForeignKey(Tenant, on_delete=models.CASCADE, related_name="memberships")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        db_table = "personaweb_membership"
        constraints = [models.UniqueConstraint(fields=["user", "tenant"], name="membership_unique")]

    def __str__(self) -> str:
        return f"{self.user} in {self.tenant}"
