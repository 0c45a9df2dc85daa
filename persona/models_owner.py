"""The owner's persona document (PRODUCT.md section 3; seed 001 with seed 000's tiers).

One document per person (``memory.Principal``, so per tenant and principal), versioned
as a whole. A version's content (its entries' text, source, source belief, sensitivity
and tier, in order) never changes after it is written; version 0 is the empty document
(no row). What does change on the head's entries are annotations that are not the
owner's words: reinforcement count and time, the stale flag (the affirmed belief was
superseded or corrected) and the dormant flag (a ``working`` entry not reinforced for a
while). An entry keeps its ``key`` from version to version, so those annotations follow
it. Writers live in ``persona.owner``.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q

from memory.models_beliefs import Sensitivity


class EntrySource(models.TextChoices):
    USER_EDIT = "user_edit", "typed by the owner"
    AFFIRMATION = "affirmation", "affirmed by the owner"


class Author(models.TextChoices):
    """Who wrote an entry's words (or affirmed it): the prompt says "by them" only for
    the first two."""

    OWNER = "owner", "the owner, signed in"
    OWNER_TOKEN = "owner_token", "the owner, through a token they made"
    ON_BEHALF = "on_behalf", "someone on the owner's behalf"


#: The authors that are the owner themself.
BY_OWNER = frozenset({Author.OWNER, Author.OWNER_TOKEN})


class Tier(models.TextChoices):
    PERMANENT = "permanent", "permanent"
    LONG_TERM = "long_term", "long term"
    WORKING = "working", "working"


#: Listing order of the tiers (seed 000): permanent first.
TIER_ORDER: dict[str, int] = {"permanent": 0, "long_term": 1, "working": 2}


class OwnerDocument(models.Model):
    """The head pointer of one person's document (no row = version 0)."""

    tenant = models.ForeignKey("tenancy.Tenant", on_delete=models.CASCADE, related_name="+")
    principal = models.OneToOneField(
        "memory.Principal", on_delete=models.CASCADE, related_name="owner_document"
    )
    version = models.PositiveIntegerField(default=0)
    # bumped when what renders changes without a new version (an entry went dormant or
    # came back): the next plan rotates with reason ``entry_dormant``
    row_state = models.PositiveIntegerField(default=0)
    # bumped when a learned line or an entry is muted or unmuted for this person
    # (``persona.mutes``): the next plan rotates with reason ``muted``
    mute_state = models.PositiveIntegerField(default=0)
    updated_at = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"persona document of {self.principal_id} v{self.version}"


class OwnerDocumentVersion(models.Model):
    document = models.ForeignKey(OwnerDocument, on_delete=models.CASCADE, related_name="versions")
    version = models.PositiveIntegerField()
    source = models.CharField(max_length=20, choices=EntrySource.choices)
    source_nomination = models.ForeignKey(
        "persona.OwnerNomination",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    written_by = models.CharField(max_length=150, blank=True)
    note = models.CharField(max_length=300, blank=True)
    created_at = models.DateTimeField()

    class Meta:
        ordering = ["document", "-version"]
        constraints = [
            # a concurrent append of the same version is a conflict, never a lost write
            models.UniqueConstraint(
                fields=["document", "version"], name="owner_doc_version_unique"
            ),
            models.CheckConstraint(condition=Q(version__gte=1), name="owner_doc_version_positive"),
        ]

    def __str__(self) -> str:
        return f"{self.document_id} v{self.version}"


class OwnerEntry(models.Model):
    version = models.ForeignKey(
        OwnerDocumentVersion, on_delete=models.CASCADE, related_name="entries"
    )
    position = models.PositiveSmallIntegerField()
    key = models.CharField(max_length=32, help_text="Stable across versions.")
    text = models.CharField(max_length=500)
    source = models.CharField(max_length=20, choices=EntrySource.choices)
    source_belief = models.ForeignKey(
        "memory.Belief",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="persona_entries",
    )
    sensitivity = models.PositiveSmallIntegerField(
        choices=Sensitivity.choices, default=Sensitivity.INTERNAL
    )
    tier = models.CharField(max_length=10, choices=Tier.choices, default=Tier.LONG_TERM)
    # who wrote these words (or affirmed them); kept while the text stays the same. The
    # default is the cautious one: a writer that is not known to be the owner is not
    # the owner.
    author = models.CharField(max_length=12, choices=Author.choices, default=Author.ON_BEHALF)
    written_by = models.CharField(max_length=150, blank=True)
    # annotations (not the owner's words), carried from version to version by key
    reinforcement_count = models.PositiveIntegerField(default=0)
    last_reinforced_at = models.DateTimeField()
    stale = models.BooleanField(default=False)
    stale_reason = models.CharField(max_length=200, blank=True)
    dormant = models.BooleanField(default=False)

    class Meta:
        ordering = ["version", "position"]
        constraints = [
            models.UniqueConstraint(fields=["version", "position"], name="owner_entry_position"),
            models.UniqueConstraint(fields=["version", "key"], name="owner_entry_key"),
            # a typed entry never points at a belief (an affirmed one does, unless the
            # belief row was deleted later: the entry stays, the link is gone)
            models.CheckConstraint(
                condition=~(Q(source="user_edit") & Q(source_belief__isnull=False)),
                name="owner_entry_typed_has_no_belief",
            ),
        ]
        indexes = [models.Index(fields=["source_belief"], name="owner_entry_belief")]

    def __str__(self) -> str:
        return self.text[:60]


class OwnerTombstone(models.Model):
    """What a demote removed, and why (seed 000)."""

    document = models.ForeignKey(OwnerDocument, on_delete=models.CASCADE, related_name="tombstones")
    removed_in_version = models.PositiveIntegerField()
    key = models.CharField(max_length=32)
    text = models.CharField(max_length=500)
    source = models.CharField(max_length=20, choices=EntrySource.choices)
    source_belief_id = models.BigIntegerField(null=True, blank=True)
    tier = models.CharField(max_length=10, choices=Tier.choices)
    reason = models.CharField(max_length=300)
    removed_by = models.CharField(max_length=150, blank=True)
    removed_at = models.DateTimeField()

    class Meta:
        ordering = ["document", "-removed_at"]

    def __str__(self) -> str:
        return f"removed in v{self.removed_in_version}: {self.text[:50]}"


class OwnerNomination(models.Model):
    """A belief consolidation proposes for the owner's document; only the owner moves it in."""

    class State(models.TextChoices):
        NOMINATED = "nominated", "nominated"
        AFFIRMED = "affirmed", "affirmed"
        DECLINED = "declined", "declined"
        WITHDRAWN = "withdrawn", "withdrawn"

    tenant = models.ForeignKey("tenancy.Tenant", on_delete=models.CASCADE, related_name="+")
    principal = models.ForeignKey(
        "memory.Principal", on_delete=models.CASCADE, related_name="owner_nominations"
    )
    belief = models.ForeignKey(
        "memory.Belief", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    # a canonical, self-contained copy: the nomination outlives its belief
    statement = models.CharField(max_length=500)
    statement_key = models.CharField(max_length=500, help_text="Case-folded statement.")
    category = models.CharField(max_length=30)
    confidence = models.FloatField()
    corroboration_count = models.PositiveIntegerField()
    sensitivity = models.PositiveSmallIntegerField(choices=Sensitivity.choices)
    evidence_quote = models.CharField(max_length=2000, blank=True)
    evidence_message_id = models.BigIntegerField(null=True, blank=True)
    state = models.CharField(max_length=10, choices=State.choices, default=State.NOMINATED)
    nominated_at = models.DateTimeField()
    resolved_at = models.DateTimeField(null=True, blank=True)
    resolved_by = models.CharField(max_length=150, blank=True)
    affirmed_version = models.PositiveIntegerField(null=True, blank=True)

    class Meta:
        ordering = ["principal", "-nominated_at"]
        constraints = [
            # one open nomination per belief
            models.UniqueConstraint(
                fields=["belief"],
                condition=Q(state="nominated"),
                name="nomination_one_open_per_belief",
            ),
        ]
        indexes = [
            models.Index(fields=["principal", "state"], name="nomination_principal_state"),
            models.Index(fields=["principal", "statement_key"], name="nomination_statement"),
        ]

    def __str__(self) -> str:
        return f"{self.statement[:60]} ({self.state})"


class OwnerAccount(models.Model):
    """A login linked to the person it is (so they can curate their own document)."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="owner_account"
    )
    principal = models.OneToOneField(
        "memory.Principal", on_delete=models.CASCADE, related_name="owner_account"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"{self.user_id} is principal {self.principal_id}"
