"""The memory kernel: beliefs about a person that hold for a while, one-off intentions
and weekly routines (issue 11; the model of seed 003, PersonaTrace).

A belief is not a bare fact: it has a validity window, a retention curve that decays
with time and grows each time the belief is reinforced, evidence (a message and the
quote in it, or the host that wrote it) and a history (``supersedes`` /
``superseded_by``). Writers live in ``memory.services_beliefs``; retrieval in
``memory.context``. Imported by ``memory.models`` so Django sees the models.
"""

from __future__ import annotations

import math
from datetime import date, datetime, timedelta

from django.db import models
from django.db.models import Q

#: Work track and persona track: the seed's 17 categories, defined here once.
WORK_CATEGORIES = (
    "explicit_facts",
    "expertise",
    "projects",
    "goals",
    "likes",
    "dislikes",
    "constraints",
)
PERSONA_CATEGORIES = (
    "identity",
    "traits",
    "interests",
    "style_notes",
    "behavior_patterns",
    "decision_style",
    "interpersonal",
    "boundaries",
    "habit",
    "state",
)
#: Categories that are always in a context pack, whatever the question.
PINNED_CATEGORIES = ("boundaries", "constraints", "identity")


class BeliefCategory(models.TextChoices):
    EXPLICIT_FACTS = "explicit_facts", "explicit facts"
    EXPERTISE = "expertise", "expertise"
    PROJECTS = "projects", "projects"
    GOALS = "goals", "goals"
    LIKES = "likes", "likes"
    DISLIKES = "dislikes", "dislikes"
    CONSTRAINTS = "constraints", "constraints"
    IDENTITY = "identity", "identity"
    TRAITS = "traits", "traits"
    INTERESTS = "interests", "interests"
    STYLE_NOTES = "style_notes", "style notes"
    BEHAVIOR_PATTERNS = "behavior_patterns", "behavior patterns"
    DECISION_STYLE = "decision_style", "decision style"
    INTERPERSONAL = "interpersonal", "interpersonal"
    BOUNDARIES = "boundaries", "boundaries"
    HABIT = "habit", "habit"
    STATE = "state", "state"


def category_track(category: str) -> str:
    """``work`` or ``persona``."""
    return "work" if category in WORK_CATEGORIES else "persona"


class Sensitivity(models.IntegerChoices):
    """Ordered: a reader cleared for one level sees it and every lower one."""

    PUBLIC = 0, "public"
    INTERNAL = 1, "internal"
    CONFIDENTIAL = 2, "confidential"
    RESTRICTED = 3, "restricted"


SENSITIVITY_BY_NAME = {label: value for value, label in Sensitivity.choices}


class MemorySource(models.TextChoices):
    """Where a write came from. A proactive (console) turn never writes user facts."""

    DIRECT = "direct", "direct"
    BRIDGE = "bridge", "bridge"
    CONSOLE = "console", "console"


#: Retention: exp(-days since reinforcement / stability). A new belief starts with
#: ``INITIAL_STABILITY_DAYS``; each reinforcement multiplies it by ``REINFORCE_FACTOR``.
INITIAL_STABILITY_DAYS = 30.0
#: Durable kinds of fact start with a longer stability (who someone is does not fade in
#: a month the way a passing state does); the rest start at ``INITIAL_STABILITY_DAYS``.
STABILITY_BY_CATEGORY = {
    **dict.fromkeys(
        (
            "identity",
            "boundaries",
            "constraints",
            "expertise",
            "explicit_facts",
            "interpersonal",
            "decision_style",
            "traits",
        ),
        365.0,
    ),
    **dict.fromkeys(
        (
            "likes",
            "dislikes",
            "interests",
            "style_notes",
            "behavior_patterns",
            "habit",
            "goals",
            "projects",
        ),
        90.0,
    ),
    "state": 7.0,
}


def initial_stability(category: str) -> float:
    return STABILITY_BY_CATEGORY.get(category, INITIAL_STABILITY_DAYS)


REINFORCE_FACTOR = 1.8
MAX_STABILITY_DAYS = 3650.0


def retention_at(*, stability_days: float, last_reinforced_at: datetime, now: datetime) -> float:
    """Share of the memory kept at ``now`` (1.0 right after reinforcement, towards 0)."""
    elapsed = max((now - last_reinforced_at).total_seconds(), 0.0) / 86_400
    return math.exp(-elapsed / max(stability_days, 1e-6))


class Belief(models.Model):
    class Status(models.TextChoices):
        ACTIVE = "active", "active"
        SUPERSEDED = "superseded", "superseded"
        RETIRED = "retired", "retired"
        DELETED = "deleted", "deleted"
        # every message it rested on was sealed (``memory.sealing``); unsealing does not
        # bring it back
        SEALED = "sealed", "sealed"
        # "don't mention this again": kept, never given to a host, never learned again
        # (``belief_mute``); unmuting makes it active again
        MUTED = "muted", "muted"
        # a superuser removed its text (``memory.redaction``): never given, never shown
        REDACTED = "redacted", "redacted"

    class Derivation(models.TextChoices):
        DIRECT = "direct", "direct (the person said it)"
        HYPOTHESIS = "hypothesis", "hypothesis (inferred)"

    class Authority(models.TextChoices):
        """Who vouches for the belief: the person, the host's extraction, an operator."""

        PERSON = "person", "the person"
        HOST = "host", "the host"
        OPERATOR = "operator", "an operator"

    tenant = models.ForeignKey("tenancy.Tenant", on_delete=models.CASCADE, related_name="+")
    principal = models.ForeignKey(
        "memory.Principal", on_delete=models.CASCADE, related_name="beliefs"
    )
    agent = models.ForeignKey("tenancy.Agent", on_delete=models.CASCADE, related_name="+")
    category = models.CharField(max_length=30, choices=BeliefCategory.choices)
    statement = models.TextField()
    confidence = models.FloatField()
    corroboration_count = models.PositiveIntegerField(default=1)
    status = models.CharField(max_length=12, choices=Status.choices, default=Status.ACTIVE)
    derivation = models.CharField(
        max_length=12, choices=Derivation.choices, default=Derivation.DIRECT
    )
    authority = models.CharField(max_length=12, choices=Authority.choices, default=Authority.HOST)
    source = models.CharField(
        max_length=10, choices=MemorySource.choices, default=MemorySource.DIRECT
    )
    sensitivity = models.PositiveSmallIntegerField(
        choices=Sensitivity.choices, default=Sensitivity.INTERNAL
    )
    valid_from = models.DateTimeField(null=True, blank=True)
    valid_until = models.DateTimeField(null=True, blank=True)
    due_at = models.DateTimeField(null=True, blank=True)
    stability_days = models.FloatField(default=INITIAL_STABILITY_DAYS)
    last_reinforced_at = models.DateTimeField()
    # evidence: a message and the quote in it, or the host that wrote the belief
    evidence_message = models.ForeignKey(
        "memory.Message", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    evidence_quote = models.TextField(blank=True)
    evidence_start = models.PositiveIntegerField(null=True, blank=True)
    evidence_end = models.PositiveIntegerField(null=True, blank=True)
    source_host = models.CharField(max_length=200, blank=True)
    supersedes = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    superseded_by = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    promoted = models.BooleanField(
        default=False, help_text="Nominated into the owner's persona document."
    )
    text_sha256 = models.CharField(max_length=64)
    embedding = models.ForeignKey(
        "memory.TextEmbedding", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField()
    updated_at = models.DateTimeField()
    muted_at = models.DateTimeField(null=True, blank=True)
    muted_by = models.CharField(max_length=150, blank=True)
    mute_reason = models.CharField(max_length=500, blank=True)
    #: when a host's context pack last carried it (``beliefs_mark_given``); the health
    #: check lists beliefs no host was given in a while
    last_given_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["principal", "category", "-created_at"]
        indexes = [
            # build_context and the dedup lock: one person's beliefs by status and category
            models.Index(
                fields=["principal", "status", "category"], name="belief_principal_status"
            ),
            # a person's beliefs page: by category, newest first, from the index alone
            models.Index(
                fields=["principal", "status", "category", "-created_at", "-id"],
                name="belief_principal_listing",
            ),
            models.Index(fields=["tenant", "principal"], name="belief_tenant_principal"),
            # the time facet: due beliefs of a person
            models.Index(
                fields=["principal", "due_at"],
                name="belief_principal_due",
                condition=Q(due_at__isnull=False),
            ),
            # the beliefs muted per month (the health page's chart): muted ones only
            models.Index(
                fields=["tenant", "muted_at"],
                name="belief_tenant_muted",
                condition=Q(muted_at__isnull=False),
            ),
        ]
        constraints = [
            models.CheckConstraint(
                condition=Q(confidence__gte=0) & Q(confidence__lte=1),
                name="belief_confidence_0_1",
            ),
            models.CheckConstraint(
                condition=Q(valid_until__isnull=True)
                | Q(valid_from__isnull=True)
                | Q(valid_until__gte=models.F("valid_from")),
                name="belief_validity_ordered",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.category}: {self.statement[:60]}"

    def retention(self, now: datetime) -> float:
        return retention_at(
            stability_days=self.stability_days, last_reinforced_at=self.last_reinforced_at, now=now
        )

    def reinforce(self, now: datetime) -> None:
        """Grow stability and restart the curve (the caller saves)."""
        self.stability_days = min(self.stability_days * REINFORCE_FACTOR, MAX_STABILITY_DAYS)
        self.last_reinforced_at = max(self.last_reinforced_at, now)

    def expired(self, now: datetime) -> bool:
        return self.valid_until is not None and self.valid_until < now

    def not_yet_valid(self, now: datetime) -> bool:
        return self.valid_from is not None and self.valid_from > now


class BeliefEvidence(models.Model):
    """One message a belief rests on: the one it was formed from and each one that
    corroborated it (``Belief.evidence_message`` is the one shown). Sealing a
    conversation deletes its rows (``memory.sealing``); a belief left with none, and no
    host behind it, ends."""

    belief = models.ForeignKey(Belief, on_delete=models.CASCADE, related_name="evidence_rows")
    message = models.ForeignKey("memory.Message", on_delete=models.CASCADE, related_name="+")
    quote = models.TextField()
    start = models.PositiveIntegerField(null=True, blank=True)
    end = models.PositiveIntegerField(null=True, blank=True)
    created_at = models.DateTimeField()

    class Meta:
        ordering = ["belief", "created_at", "id"]
        constraints = [
            models.UniqueConstraint(fields=["belief", "message"], name="belief_evidence_unique"),
        ]
        indexes = [models.Index(fields=["message"], name="belief_evidence_message")]

    def __str__(self) -> str:
        return f"belief {self.belief_id} <- message {self.message_id}"


class Intention(models.Model):
    """A one-off commitment: something to do by a time, on the agenda around it."""

    class State(models.TextChoices):
        OPEN = "open", "open"
        DONE = "done", "done"
        DROPPED = "dropped", "dropped"
        MISSED = "missed", "missed"

    tenant = models.ForeignKey("tenancy.Tenant", on_delete=models.CASCADE, related_name="+")
    principal = models.ForeignKey(
        "memory.Principal", on_delete=models.CASCADE, related_name="intentions"
    )
    agent = models.ForeignKey("tenancy.Agent", on_delete=models.CASCADE, related_name="+")
    action = models.CharField(max_length=500)
    due_at = models.DateTimeField()
    lead_time = models.DurationField(
        default=timedelta(days=1), help_text="How long before the due time it is on the agenda."
    )
    grace = models.DurationField(
        default=timedelta(hours=12), help_text="How long after the due time it may still be done."
    )
    importance = models.FloatField(default=0.5)
    confidence = models.FloatField(default=0.8)
    state = models.CharField(max_length=10, choices=State.choices, default=State.OPEN)
    source = models.CharField(
        max_length=10, choices=MemorySource.choices, default=MemorySource.DIRECT
    )
    created_at = models.DateTimeField()
    updated_at = models.DateTimeField()

    class Meta:
        ordering = ["due_at"]
        indexes = [
            # the agenda: a person's open intentions by due time
            models.Index(fields=["principal", "state", "due_at"], name="intention_agenda"),
        ]
        constraints = [
            models.CheckConstraint(
                condition=Q(importance__gte=0)
                & Q(importance__lte=1)
                & Q(confidence__gte=0)
                & Q(confidence__lte=1),
                name="intention_scores_0_1",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.action[:60]} (due {self.due_at:%Y-%m-%d %H:%M})"

    def agenda_score(self, now: datetime) -> float:
        """0 off the agenda; otherwise importance x confidence x urgency.

        Urgency is 0 before ``due - lead_time``, climbs from 0.5 to 1.0 up to the due
        time, stays 1.0 through the grace period and is 0 after it (missed).
        """
        if self.state != self.State.OPEN:
            return 0.0
        opens = self.due_at - self.lead_time
        closes = self.due_at + self.grace
        if now < opens or now > closes:
            return 0.0
        if now >= self.due_at:
            urgency = 1.0
        else:
            lead = max(self.lead_time.total_seconds(), 1.0)
            urgency = 0.5 + 0.5 * (1 - (self.due_at - now).total_seconds() / lead)
        return self.importance * (0.5 + 0.5 * self.confidence) * urgency


class Routine(models.Model):
    """Something the person does weekly (weekdays 1 = Monday ... 7 = Sunday, at a time).

    One observation makes a ``candidate``; an explicit label or a confirmation makes it
    ``confirmed`` (weekly). Feedback keeps skipped-today, denied and silence apart.
    """

    class Status(models.TextChoices):
        CANDIDATE = "candidate", "candidate"
        CONFIRMED = "confirmed", "confirmed"
        TRUSTED = "trusted", "trusted"
        PAUSED = "paused", "paused"
        DORMANT = "dormant", "dormant"

    class Feedback(models.TextChoices):
        NONE = "", "none yet"
        CONFIRMED = "confirmed", "confirmed"
        SKIPPED_TODAY = "skipped_today", "skipped today"
        DENIED = "denied", "denied"
        SILENCE = "silence", "silence"

    tenant = models.ForeignKey("tenancy.Tenant", on_delete=models.CASCADE, related_name="+")
    principal = models.ForeignKey(
        "memory.Principal", on_delete=models.CASCADE, related_name="routines"
    )
    agent = models.ForeignKey("tenancy.Agent", on_delete=models.CASCADE, related_name="+")
    action = models.CharField(max_length=500)
    weekdays = models.JSONField(default=list, help_text="ISO weekdays, 1 = Monday ... 7 = Sunday.")
    time = models.TimeField()
    anchor_date = models.DateField()
    valid_until = models.DateField(null=True, blank=True)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.CANDIDATE)
    observations = models.PositiveIntegerField(default=1)
    last_feedback = models.CharField(
        max_length=15, choices=Feedback.choices, default=Feedback.NONE, blank=True
    )
    last_feedback_on = models.DateField(null=True, blank=True)
    created_at = models.DateTimeField()
    updated_at = models.DateTimeField()

    class Meta:
        ordering = ["principal", "time"]
        indexes = [models.Index(fields=["principal", "status"], name="routine_principal_status")]

    def __str__(self) -> str:
        return f"{self.action[:60]} ({self.status})"

    def applies_on(self, day: date) -> bool:
        """Whether the routine is expected on ``day`` (status aside)."""
        if day < self.anchor_date or (self.valid_until is not None and day > self.valid_until):
            return False
        return day.isoweekday() in (self.weekdays or [])


class ConsolidationState(models.Model):
    """Where consolidation of one agent's messages has got to (``memory.consolidation``).

    ``last_message_id`` is the watermark: every user message up to it was read (or may
    never be read). ``running_since`` is the lease a run holds, so two workers never
    consolidate one agent at once.
    """

    tenant = models.ForeignKey("tenancy.Tenant", on_delete=models.CASCADE, related_name="+")
    agent = models.OneToOneField(
        "tenancy.Agent", on_delete=models.CASCADE, related_name="consolidation_state"
    )
    last_message_id = models.BigIntegerField(default=0)
    running_since = models.DateTimeField(null=True, blank=True)
    last_run_at = models.DateTimeField(null=True, blank=True)
    runs = models.PositiveIntegerField(default=0)

    def __str__(self) -> str:
        return f"consolidation of agent {self.agent_id} up to message {self.last_message_id}"


class BeliefBlock(models.Model):
    """A person's active beliefs as ``build_context`` scores them, packed in one row:
    statements and the fields a pack shows, each belief's stored vector (float32), and
    the content-word postings, for the person's ``beliefs_token`` it was built from
    (``memory.candidates``). Kept only for people with many beliefs, rebuilt by a task
    after their beliefs change; a block whose token is not the person's current one is
    never read, so it cannot be stale, only unused."""

    principal = models.OneToOneField(
        "memory.Principal", on_delete=models.CASCADE, primary_key=True, related_name="+"
    )
    token = models.CharField(max_length=32)
    rows = models.PositiveIntegerField()
    data = models.BinaryField()
    built_at = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"belief block of {self.principal_id}: {self.rows} rows"
