"""Persona learning: settings per agent, reviews, proposals with evidence."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q

from learning.validators import int_limit_validators, validate_model_base_url, validate_rule_owners


class Mode(models.TextChoices):
    OFF = "off", "off"
    ON = "on", "on (apply at once)"
    REVIEW = "on-with-review", "on, with review"


class ProposerKind(models.TextChoices):
    LOCAL = "local", "local (offline, extractive)"
    OPENAI = "openai", "OpenAI-compatible endpoint"


class LearningSettings(models.Model):
    """PRODUCT.md section 5 settings, with the counters that schedule reviews.

    ``due_at`` is maintained by the write paths (record_turn, a finished review, a
    settings change) so the beat sweep finds due agents with one indexed range scan.
    """

    agent = models.OneToOneField("tenancy.Agent", on_delete=models.CASCADE, related_name="learning")
    mode = models.CharField(max_length=20, choices=Mode.choices, default=Mode.OFF)
    proposer = models.CharField(max_length=10, choices=ProposerKind.choices, blank=True, default="")
    model_base_url = models.URLField(blank=True, validators=[validate_model_base_url])
    model_name = models.CharField(max_length=200, blank=True)
    every_n_turns = models.PositiveIntegerField(
        default=20, validators=int_limit_validators("every_n_turns")
    )
    every_hours = models.PositiveIntegerField(
        default=24, validators=int_limit_validators("every_hours")
    )
    min_conversations = models.PositiveSmallIntegerField(
        default=3, validators=int_limit_validators("min_conversations")
    )
    max_threads = models.PositiveSmallIntegerField(
        default=8, validators=int_limit_validators("max_threads")
    )
    max_messages_per_thread = models.PositiveSmallIntegerField(
        default=40, validators=int_limit_validators("max_messages_per_thread")
    )
    across_users = models.BooleanField(default=False)
    min_users = models.PositiveSmallIntegerField(
        default=2, validators=int_limit_validators("min_users")
    )
    standing_rules = models.BooleanField(default=False)
    min_corrections = models.PositiveSmallIntegerField(
        default=2, validators=int_limit_validators("min_corrections")
    )
    rule_owners = models.JSONField(default=list, blank=True, validators=[validate_rule_owners])
    # counters (persisted, so a restart keeps them)
    turns_since_review = models.PositiveIntegerField(default=0)
    last_review_at = models.DateTimeField(null=True, blank=True)
    #: when the agent's newest review was queued (``note_reviews_queued`` keeps it on
    #: every new review): persona evolution's "last review, newest first" sorts by it
    #: instead of looking up every agent's newest review
    last_queued_at = models.DateTimeField(null=True, blank=True)
    last_seen_message_id = models.BigIntegerField(default=0)
    due_at = models.DateTimeField(null=True, blank=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name_plural = "learning settings"
        indexes = [
            models.Index(fields=["due_at"], name="learning_due", condition=~Q(mode="off")),
        ]

    def __str__(self) -> str:
        return f"learning settings of agent {self.agent_id} ({self.mode})"

    @property
    def auto_apply(self) -> bool:
        return self.mode == Mode.ON


class ReviewQuerySet(models.QuerySet["Review"]):
    def bulk_create(self, objs, *args, **kwargs):  # type: ignore[no-untyped-def,override]
        made = super().bulk_create(objs, *args, **kwargs)
        note_reviews_queued(made)
        return made


class Review(models.Model):
    class Trigger(models.TextChoices):
        SCHEDULE = "schedule", "schedule"
        MANUAL = "manual", "review now"
        CLI = "cli", "CLI"

    class Status(models.TextChoices):
        QUEUED = "queued", "queued"
        RUNNING = "running", "running"
        DONE = "done", "done"

    class Outcome(models.TextChoices):
        PROPOSED = "proposed", "proposed"
        APPLIED = "applied", "applied"
        REFUSED = "refused", "refused"
        NOTHING = "nothing_to_do", "nothing to do"
        ERROR = "error", "error"
        SKIPPED = "skipped", "skipped (another review running)"

    agent = models.ForeignKey("tenancy.Agent", on_delete=models.CASCADE, related_name="reviews")
    trigger = models.CharField(max_length=20, choices=Trigger.choices)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.QUEUED)
    requested_by = models.CharField(max_length=150, blank=True)
    queued_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    threads_read = models.PositiveIntegerField(default=0)
    messages_read = models.PositiveIntegerField(default=0)
    model_calls = models.PositiveIntegerField(default=0)
    tokens_in = models.PositiveIntegerField(default=0)
    tokens_out = models.PositiveIntegerField(default=0)
    outcome = models.CharField(max_length=20, choices=Outcome.choices, blank=True)
    reason = models.TextField(blank=True)
    details = models.JSONField(default=dict, blank=True)
    #: recurring patterns the review saw and did not propose, each with a reason code
    #: (``learning.candidates``): [{"kind", "text", "reason", "conversations", "people",
    #: "detail"}], at most ``learning.candidates.MAX_RECORDED``
    passed_over = models.JSONField(default=list, blank=True)
    proposal = models.ForeignKey(
        "Proposal", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    objects = ReviewQuerySet.as_manager()

    class Meta:
        ordering = ["-queued_at", "-id"]
        constraints = [
            # the per-agent lock: at most one running review, whatever the workers
            models.UniqueConstraint(
                fields=["agent"], condition=Q(status="running"), name="review_one_running_per_agent"
            ),
        ]
        indexes = [
            models.Index(fields=["agent", "-queued_at", "-id"], name="review_agent_recent"),
            # the review log across agents, newest first
            models.Index(fields=["-queued_at", "-id"], name="review_recent"),
            models.Index(fields=["outcome"], name="review_outcome"),
        ]

    def __str__(self) -> str:
        return f"review {self.pk} of agent {self.agent_id}: {self.outcome or self.status}"

    def save(self, *args, **kwargs):  # type: ignore[no-untyped-def]
        adding = self._state.adding
        super().save(*args, **kwargs)
        if adding:
            note_reviews_queued([self])


def note_reviews_queued(reviews: list[Review]) -> None:
    """Keep ``LearningSettings.last_queued_at`` at the newest queued review of each agent:
    one UPDATE for a batch (the batch's newest time; never moves a time back). An agent
    without its settings row yet gets one with the defaults (as ``learning_settings_get``
    would make it) and the time; that costs two more statements, once per agent."""
    if not reviews:
        return
    at = max(r.queued_at for r in reviews)
    ids = {r.agent_id for r in reviews}
    newer = Q(last_queued_at__isnull=True) | Q(last_queued_at__lt=at)
    if LearningSettings.objects.filter(newer, agent_id__in=ids).update(last_queued_at=at) == len(
        ids
    ):
        return
    LearningSettings.objects.bulk_create(
        [LearningSettings(agent_id=i) for i in ids], ignore_conflicts=True
    )
    LearningSettings.objects.filter(newer, agent_id__in=ids).update(last_queued_at=at)


class Proposal(models.Model):
    class Kind(models.TextChoices):
        SENTENCE = "sentence", "goals/background sentence"
        RULE = "rule", "standing rule"

    class Status(models.TextChoices):
        WAITING = "waiting", "waiting"
        APPLIED = "applied", "applied"
        DISMISSED = "dismissed", "turned down"
        DROPPED = "dropped", "dropped"
        UNDONE = "undone", "undone"

    agent = models.ForeignKey("tenancy.Agent", on_delete=models.CASCADE, related_name="proposals")
    review = models.ForeignKey(
        Review, null=True, blank=True, on_delete=models.SET_NULL, related_name="proposals"
    )
    kind = models.CharField(max_length=10, choices=Kind.choices)
    field = models.CharField(max_length=20)  # goals | background | standing_rules
    text = models.TextField()
    content_key = models.CharField(max_length=64)
    evidence = models.JSONField(default=list)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.WAITING)
    status_reason = models.TextField(blank=True)
    base_version = models.PositiveIntegerField(
        help_text="persona version the proposal was made against"
    )
    applied_version = models.PositiveIntegerField(null=True, blank=True)
    applied_text = models.TextField(
        blank=True, help_text="the words applied (a rule owner may edit them)"
    )
    decided_by = models.CharField(max_length=150, blank=True)
    decided_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["created_at", "id"]
        constraints = [
            # one goals/background sentence waits at a time per agent
            models.UniqueConstraint(
                fields=["agent"],
                condition=Q(status="waiting", kind="sentence"),
                name="proposal_one_waiting_sentence",
            ),
        ]
        indexes = [
            models.Index(fields=["status", "created_at", "id"], name="proposal_queue"),
            models.Index(fields=["agent", "status"], name="proposal_agent_status"),
            # decisions per week on persona evolution
            models.Index(fields=["decided_at"], name="proposal_decided"),
        ]

    def __str__(self) -> str:
        return f"{self.kind} proposal {self.pk} ({self.status})"

    @property
    def persona_source_type(self) -> str:
        """The persona source an approval (or its undo) writes: what it drops depends
        on it (``learning.selectors.proposals_a_change_drops``)."""
        from persona.models import SourceType

        return (
            SourceType.STANDING_RULE if self.kind == self.Kind.RULE else SourceType.PERSONA_LEARNING
        )


class Rejection(models.Model):
    """Content that must never be proposed again for an agent (turned down or undone)."""

    agent = models.ForeignKey("tenancy.Agent", on_delete=models.CASCADE, related_name="rejections")
    content_key = models.CharField(max_length=64)
    text = models.TextField()
    reason = models.CharField(max_length=20)  # dismissed | undone
    by = models.CharField(max_length=150, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["agent", "content_key"], name="rejection_unique_content"
            ),
        ]

    def __str__(self) -> str:
        return f"rejected for agent {self.agent_id}: {self.text[:60]}"


class ReviewDigest(models.Model):
    """One digest sent to one person (``learning.digests``): at most one per period."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="review_digests"
    )
    username = models.CharField(max_length=150)
    period_start = models.DateTimeField()
    sent_at = models.DateTimeField()
    item_count = models.PositiveIntegerField()
    items = models.JSONField(default=list, help_text="what waited: kind, agent, since, link")
    emailed = models.BooleanField(default=False)
    webhook_status = models.PositiveSmallIntegerField(null=True, blank=True)

    class Meta:
        ordering = ["-sent_at", "-id"]
        constraints = [
            models.UniqueConstraint(
                fields=["user", "period_start"], name="review_digest_one_per_period"
            ),
        ]
        indexes = [models.Index(fields=["user", "sent_at"], name="review_digest_user_sent")]

    def __str__(self) -> str:
        return f"digest to {self.username} at {self.sent_at:%Y-%m-%d %H:%M} ({self.item_count})"
