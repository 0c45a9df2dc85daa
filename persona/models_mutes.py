""" "Don't mention this again" for a learned persona line or an owner-document entry
(issue 26, point 2): one row per mute, kept after an unmute (who, when and why both
ways), so nothing is deleted and the months can be counted. Writers and readers live in
``persona.mutes``; muted beliefs are ``memory``'s (``Belief.Status.MUTED``)."""

from __future__ import annotations

from django.db import models
from django.db.models import Q


class MuteQuerySet(models.QuerySet):
    def active(self) -> MuteQuerySet:
        """The mutes in force (not undone)."""
        return self.filter(unmuted_at__isnull=True)


class Mute(models.Model):
    """One person asked for one line of an assistant's persona (``LINE``: a sentence or
    standing rule that came from learning) or one entry of their own document
    (``ENTRY``) never to reach a host again. The words stay where they are; plans built
    for that person leave them out (``persona.plans``)."""

    class Kind(models.TextChoices):
        LINE = "line", "a learned persona line"
        ENTRY = "entry", "an owner-document entry"

    tenant = models.ForeignKey("tenancy.Tenant", on_delete=models.CASCADE, related_name="+")
    principal = models.ForeignKey("memory.Principal", on_delete=models.CASCADE, related_name="+")
    kind = models.CharField(max_length=5, choices=Kind.choices)
    #: a line: the assistant whose persona holds it, and its section
    agent = models.ForeignKey(
        "tenancy.Agent", null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )
    section = models.CharField(max_length=20, blank=True)  # goals | background | standing_rules
    #: an entry: its key (stable from document version to version)
    entry_key = models.CharField(max_length=32, blank=True)
    #: the words muted, as they stood (shown to the owner and operators, never to a host)
    text = models.CharField(max_length=1000)
    #: ``persona.mutes.text_key`` of ``text``: a line is matched by its words
    text_key = models.CharField(max_length=64)
    #: a line: the learning proposal it came from, when known
    proposal_id = models.BigIntegerField(null=True, blank=True)
    muted_at = models.DateTimeField()
    muted_by = models.CharField(max_length=150)
    reason = models.CharField(max_length=500, blank=True)
    unmuted_at = models.DateTimeField(null=True, blank=True)
    unmuted_by = models.CharField(max_length=150, blank=True)

    objects = MuteQuerySet.as_manager()

    class Meta:
        ordering = ["-muted_at", "-id"]
        constraints = [
            models.UniqueConstraint(
                fields=["principal", "agent", "section", "text_key"],
                condition=Q(kind="line", unmuted_at__isnull=True),
                name="mute_one_active_line",
            ),
            models.UniqueConstraint(
                fields=["principal", "entry_key"],
                condition=Q(kind="entry", unmuted_at__isnull=True),
                name="mute_one_active_entry",
            ),
            models.CheckConstraint(
                condition=(Q(kind="line") & Q(agent__isnull=False) & ~Q(section=""))
                | (Q(kind="entry") & Q(agent__isnull=True) & ~Q(entry_key="")),
                name="mute_line_or_entry",
            ),
        ]
        indexes = [
            models.Index(fields=["principal", "unmuted_at"], name="mute_principal_active"),
            models.Index(fields=["tenant", "muted_at"], name="mute_tenant_month"),
        ]

    def __str__(self) -> str:
        return f"{self.kind} muted for {self.principal_id}: {self.text[:50]}"
