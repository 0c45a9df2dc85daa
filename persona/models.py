"""Agents, their immutable persona versions, and pinned context plans."""

from __future__ import annotations

from django.db import models
from django.db.models import Q


class SourceType(models.TextChoices):
    HOST = "host", "host code"
    MANUAL = "manual", "manual (CLI/admin)"
    UI_FORM = "ui_form", "dashboard form"
    UPDATE_PERSONA = "update_persona", "update_persona tool"
    PERSONA_LEARNING = "persona_learning", "persona learning"
    STANDING_RULE = "standing_rule", "standing rule"
    #: an operator's revert to an earlier version, or undo of a manual edit
    REVERT = "revert", "revert"


#: Only these sources may write guardrails.
GUARDRAIL_WRITERS = frozenset(
    {SourceType.HOST, SourceType.MANUAL, SourceType.UI_FORM, SourceType.REVERT}
)


class AgentPersonaVersion(models.Model):
    """One immutable version of an agent's persona. Versions are dense from 1."""

    agent = models.ForeignKey("tenancy.Agent", on_delete=models.CASCADE, related_name="versions")
    version = models.PositiveIntegerField()
    name = models.CharField(max_length=200)
    role = models.CharField(max_length=500, blank=True)
    goals = models.TextField(blank=True)
    background = models.TextField(blank=True)
    guardrails = models.JSONField(default=list, blank=True)
    standing_rules = models.JSONField(default=list, blank=True)
    # change_trigger
    source_type = models.CharField(max_length=20, choices=SourceType.choices)
    reason = models.CharField(max_length=500)
    approved_by = models.CharField(max_length=150, blank=True)
    evidence = models.JSONField(default=list, blank=True)
    proposal_id = models.BigIntegerField(
        null=True, blank=True, help_text="learning.Proposal this came from"
    )
    fields_changed = models.JSONField(default=list, blank=True)
    # A revert: the version whose content this one restores (all fields, or for an undo
    # the fields the undone version changed).
    restores_version = models.PositiveIntegerField(null=True, blank=True)
    # Learned sentences still standing in goals/background, each with a reason that holds
    # no user words: [{"field", "sentence", "note"}]. Carried from version to version;
    # the prompt shows the note, the quotes stay in ``evidence``.
    learned = models.JSONField(default=list, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["agent", "-version"]
        constraints = [
            models.UniqueConstraint(fields=["agent", "version"], name="persona_version_unique"),
            models.CheckConstraint(condition=Q(version__gte=1), name="persona_version_positive"),
        ]
        indexes = [
            # the persona evolution feed: every change, newest first, and one assistant's
            models.Index(fields=["-created_at", "-id"], name="persona_version_feed"),
            models.Index(fields=["agent", "-created_at", "-id"], name="persona_version_agent_feed"),
            # the weekly chart's undone count: only versions that came from a proposal
            models.Index(
                fields=["created_at"],
                name="persona_version_proposed",
                condition=Q(proposal_id__isnull=False),
            ),
        ]

    def __str__(self) -> str:
        return f"{self.agent_id} v{self.version}"


class PersonaChangeCount(models.Model):
    """How many persona versions were written in one tenant in one UTC hour, per trigger
    and per changed field (``field`` "" counts every version once). Kept by
    ``persona.change_counts`` in the transaction that writes a version, so the weekly
    chart of the evolution page sums a few hundred rows instead of scanning every
    version (160,000 in twelve weeks at ten times the bench's data). Hours, not days:
    a week that starts at midnight in any whole-hour time zone is a whole number of them."""

    tenant = models.ForeignKey("tenancy.Tenant", on_delete=models.CASCADE, related_name="+")
    hour = models.DateTimeField()
    source_type = models.CharField(max_length=20)
    field = models.CharField(max_length=20, blank=True)
    n = models.IntegerField(default=0)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["tenant", "field", "hour", "source_type"], name="persona_change_count_key"
            ),
        ]

    def __str__(self) -> str:
        return (
            f"{self.tenant_id} {self.hour:%Y-%m-%d %H}h {self.source_type} {self.field}: {self.n}"
        )


class ContextPlan(models.Model):
    """The prompt prefix pinned for one (agent, principal, session).

    The plan stores the exact prefix bytes and the versions they were built from;
    fetching a pinned prefix is one indexed read (or a cache hit).
    """

    agent = models.ForeignKey("tenancy.Agent", on_delete=models.CASCADE, related_name="plans")
    principal = models.ForeignKey(
        "memory.Principal", null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )
    # "" when the plan has no principal; unique together with agent and session.
    principal_key = models.CharField(max_length=40, default="")
    session_key = models.CharField(max_length=200, default="")
    epoch = models.PositiveIntegerField(default=1)
    persona_version = models.PositiveIntegerField()
    owner_doc_version = models.PositiveIntegerField(null=True, blank=True)
    # the owner document's row_state the prefix was built from (dormant entries)
    owner_doc_state = models.PositiveIntegerField(default=0)
    # keys of entries left out because they were dormant or muted (so a rebuild is exact)
    owner_doc_hidden = models.JSONField(default=list, blank=True)
    # the person's mute state the prefix was built from (``OwnerDocument.mute_state``)
    mute_state = models.PositiveIntegerField(default=0)
    # [section, text_key] of the learned lines left out because the person muted them
    # (entries muted are in ``owner_doc_hidden``), so a rebuild is exact
    muted_lines = models.JSONField(default=list, blank=True)
    # entries above this sensitivity are left out of the prefix (fixed at creation)
    sensitivity_ceiling = models.PositiveSmallIntegerField(default=1)
    prefix_text = models.TextField()
    prefix_sha256 = models.CharField(max_length=64)
    token_count = models.PositiveIntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["agent", "principal_key", "session_key"], name="plan_unique_session"
            ),
        ]

    def __str__(self) -> str:
        return f"plan {self.pk} of agent {self.agent_id}, epoch {self.epoch}"


class PlanRotation(models.Model):
    class Reason(models.TextChoices):
        AGENT_PERSONA_CHANGED = "agent_persona_changed", "agent persona changed"
        PERSONA_CHANGED = "persona_changed", "owner document changed"
        ENTRY_DORMANT = "entry_dormant", "an entry went dormant"
        #: a superuser redacted words the prefix held (``persona.redaction``): rebuilt at
        #: once, not at the next plan call, so no pinned prefix keeps them
        REDACTED = "redacted", "text redacted"
        MUTED = "muted", "a line or entry was muted or unmuted for this person"

    plan = models.ForeignKey(ContextPlan, on_delete=models.CASCADE, related_name="rotations")
    from_epoch = models.PositiveIntegerField()
    to_epoch = models.PositiveIntegerField()
    reason = models.CharField(max_length=40, choices=Reason.choices)
    old_sha256 = models.CharField(max_length=64)
    new_sha256 = models.CharField(max_length=64)
    from_persona_version = models.PositiveIntegerField()
    to_persona_version = models.PositiveIntegerField()
    from_owner_doc_version = models.PositiveIntegerField(null=True, blank=True)
    to_owner_doc_version = models.PositiveIntegerField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at"]
        constraints = [
            models.UniqueConstraint(fields=["plan", "to_epoch"], name="rotation_unique_epoch"),
        ]

    def __str__(self) -> str:
        return f"rotation {self.from_epoch}->{self.to_epoch} ({self.reason})"


# The owner's persona document lives in its own module.
from persona.models_mutes import Mute  # noqa: E402
from persona.models_owner import (  # noqa: E402
    OwnerAccount,
    OwnerDocument,
    OwnerDocumentVersion,
    OwnerEntry,
    OwnerNomination,
    OwnerTombstone,
)

__all__ = [
    "Mute",
    "AgentPersonaVersion",
    "ContextPlan",
    "OwnerAccount",
    "OwnerDocument",
    "OwnerDocumentVersion",
    "OwnerEntry",
    "OwnerNomination",
    "OwnerTombstone",
    "PersonaChangeCount",
    "PlanRotation",
    "SourceType",
]
