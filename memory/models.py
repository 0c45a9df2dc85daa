"""Conversation memory: principals, conversations, messages, summaries,
entity facts and the embeddings of message texts."""

from __future__ import annotations

from django.db import models
from django.db.models import Q


class Principal(models.Model):
    """A person an assistant talks with, known by the host's external id."""

    tenant = models.ForeignKey(
        "tenancy.Tenant", on_delete=models.CASCADE, related_name="principals"
    )
    external_id = models.CharField(max_length=200)
    display_name = models.CharField(max_length=200, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    # a new random value on every change to this person's beliefs: build_context keeps
    # the person's scored candidates in memory and reloads them when this changes
    beliefs_token = models.CharField(max_length=32, blank=True, default="")
    # the token the person's packed ``BeliefBlock`` was built for, set in the same
    # statement that checks it is still ``beliefs_token``: equal means the block is current
    belief_block_token = models.CharField(max_length=32, blank=True, default="")

    class Meta:
        ordering = ["external_id"]
        constraints = [
            models.UniqueConstraint(
                fields=["tenant", "external_id"], name="principal_unique_external_id"
            ),
        ]

    def __str__(self) -> str:
        return self.display_name or self.external_id


class ConversationQuerySet(models.QuerySet["Conversation"]):
    """The sealed rule for conversations (``MessageQuerySet`` says it for messages)."""

    def readable(self) -> ConversationQuerySet:
        """Conversations that may be read, quoted and shown: not sealed."""
        return self.filter(sealed=False)

    def sealed(self) -> ConversationQuerySet:
        return self.filter(sealed=True)


class Conversation(models.Model):
    agent = models.ForeignKey(
        "tenancy.Agent", on_delete=models.CASCADE, related_name="conversations"
    )
    principal = models.ForeignKey(Principal, on_delete=models.CASCADE, related_name="conversations")
    external_id = models.CharField(
        max_length=200, help_text="The host's label for this conversation."
    )
    memory_scope = models.CharField(max_length=100, default="default")
    sealed = models.BooleanField(
        default=False, help_text="Sealed conversations are never read by learning."
    )
    started_at = models.DateTimeField()
    last_message_at = models.DateTimeField()
    message_count = models.PositiveIntegerField(default=0)

    objects = ConversationQuerySet.as_manager()

    class Meta:
        ordering = ["-last_message_at"]
        constraints = [
            models.UniqueConstraint(
                fields=["agent", "external_id"], name="conversation_unique_external_id"
            ),
        ]
        indexes = [
            # recent conversations of an agent (dashboard, learning)
            models.Index(fields=["agent", "-last_message_at", "-id"], name="conv_agent_recent"),
            # recent conversations of an agent with one person
            models.Index(
                fields=["agent", "principal", "-last_message_at"],
                name="conv_agent_principal_recent",
            ),
            # recent conversations across agents (the conversations page, newest first)
            models.Index(fields=["-last_message_at", "-id"], name="conv_recent"),
            # sealed conversations (home counts them; few among many)
            models.Index(fields=["agent"], name="conv_sealed", condition=Q(sealed=True)),
        ]

    def __str__(self) -> str:
        return self.external_id


class TextEmbedding(models.Model):
    """One embedding per distinct text (sha256 of the exact text), computed once."""

    sha256 = models.CharField(max_length=64, unique=True)
    model_name = models.CharField(max_length=100)
    dim = models.PositiveSmallIntegerField()
    vector = models.BinaryField(help_text="float32, little endian, L2-normalised")
    #: the question bank's reading of the text (``memory.bank_topics``): the topics of its
    #: nearest bank statements and their cosines, kept under ``bank_digest`` (the bank
    #: and model they were computed with); stored for a belief's text when it is written
    bank_votes = models.BinaryField(null=True, blank=True)
    bank_digest = models.CharField(max_length=16, blank=True, default="")
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"{self.model_name} {self.sha256[:12]}"


class ScanVerdict(models.Model):
    """A scanner's settled verdict on one exact text (``safety.memo``): read by every
    process instead of scanning the same text again. Keyed by a digest of the text and
    the scanner's build fingerprint; holds no text."""

    digest = models.CharField(max_length=32)
    scanner = models.CharField(max_length=40)
    verdict = models.JSONField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["digest", "scanner"], name="scan_verdict_once")
        ]

    def __str__(self) -> str:
        return f"{self.scanner} {self.digest[:12]}"


class MessageQuerySet(models.QuerySet["Message"]):
    """Which messages may be read: the one place the sealed rule filters rows. Every page,
    host read, export, consolidation and learning selection reads messages through
    ``readable()``; ``sealed()`` is its complement (to withhold or withdraw)."""

    def readable(self) -> MessageQuerySet:
        """Messages of conversations that are not sealed."""
        return self.filter(conversation__sealed=False)

    def sealed(self) -> MessageQuerySet:
        """Messages of sealed conversations: never read, quoted, shown or evidence."""
        return self.filter(conversation__sealed=True)


class Message(models.Model):
    class Role(models.TextChoices):
        USER = "user", "user"
        ASSISTANT = "assistant", "assistant"
        SYSTEM = "system", "system"
        TOOL = "tool", "tool"

    conversation = models.ForeignKey(
        Conversation, on_delete=models.CASCADE, related_name="messages"
    )
    seq = models.PositiveIntegerField(help_text="Order inside the conversation, from 1.")
    role = models.CharField(max_length=10, choices=Role.choices)
    text = models.TextField()
    created_at = models.DateTimeField()
    # sha256 of (role, time, text): makes imports idempotent without trusting a host id
    dedupe_key = models.CharField(max_length=64)
    text_sha256 = models.CharField(max_length=64)
    embedding = models.ForeignKey(
        TextEmbedding, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    objects = MessageQuerySet.as_manager()

    class Meta:
        ordering = ["conversation", "seq"]
        constraints = [
            models.UniqueConstraint(fields=["conversation", "seq"], name="message_unique_seq"),
            models.UniqueConstraint(
                fields=["conversation", "dedupe_key"], name="message_unique_dedupe"
            ),
        ]
        indexes = [
            # user messages since a time, per conversation
            models.Index(fields=["conversation", "role", "created_at"], name="msg_conv_role_time"),
            models.Index(fields=["role", "created_at"], name="msg_role_time"),
            # messages still waiting for an embedding
            models.Index(
                fields=["id"], name="msg_needs_embedding", condition=Q(embedding__isnull=True)
            ),
        ]

    def __str__(self) -> str:
        return f"{self.conversation_id}#{self.seq} {self.role}"


class ConversationSummary(models.Model):
    conversation = models.ForeignKey(
        Conversation, on_delete=models.CASCADE, related_name="summaries"
    )
    text = models.TextField()
    upto_seq = models.PositiveIntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["conversation", "-created_at"]
        verbose_name_plural = "conversation summaries"

    def __str__(self) -> str:
        return f"summary of {self.conversation_id} up to #{self.upto_seq}"


class EntityFact(models.Model):
    """A fact about an entity (a person, a company, a place) known to memory.

    Learning reads these as context only; names of people and companies are used to
    keep them out of the persona, never as evidence.
    """

    class Kind(models.TextChoices):
        PERSON = "person", "person"
        COMPANY = "company", "company"
        PLACE = "place", "place"
        THING = "thing", "thing"

    tenant = models.ForeignKey(
        "tenancy.Tenant", on_delete=models.CASCADE, related_name="entity_facts"
    )
    principal = models.ForeignKey(
        Principal, null=True, blank=True, on_delete=models.CASCADE, related_name="entity_facts"
    )
    entity = models.CharField(max_length=200)
    kind = models.CharField(max_length=20, choices=Kind.choices, default=Kind.THING)
    fact = models.TextField()
    source_message = models.ForeignKey(
        Message, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["entity"]
        indexes = [models.Index(fields=["tenant", "kind"], name="entityfact_tenant_kind")]

    def __str__(self) -> str:
        return f"{self.entity} ({self.kind})"


class MemoryAudit(models.Model):
    """One run of the memory health check for one tenant (``memory.audit``): the count of
    each kind of finding and the findings kept (bounded), for the page and its chart."""

    tenant = models.ForeignKey("tenancy.Tenant", on_delete=models.CASCADE, related_name="+")
    ran_at = models.DateTimeField()
    counts = models.JSONField(default=dict)
    findings = models.JSONField(default=list)

    class Meta:
        ordering = ["-ran_at", "-id"]
        indexes = [models.Index(fields=["tenant", "-ran_at"], name="memory_audit_tenant_ran")]

    def __str__(self) -> str:
        return f"audit of tenant {self.tenant_id} at {self.ran_at:%Y-%m-%d %H:%M}"


class ContextPackRecord(models.Model):
    """What one ``build_context`` gave a host (issue 26.1): its id goes back with the
    context pack, and a turn recorded with that id links the assistant's reply to it,
    so the conversation page shows which memories (and which prompt version) shaped
    the answer. Kept ``CONTEXT_PACK_HOURS`` for the turn to name it; one named by a turn
    lives as long as its message (``memory.packs``)."""

    tenant = models.ForeignKey("tenancy.Tenant", on_delete=models.CASCADE, related_name="+")
    principal = models.ForeignKey(Principal, on_delete=models.CASCADE, related_name="+")
    #: the agent named (or the caller is bound to); None: the pack was about the person
    agent = models.ForeignKey(
        "tenancy.Agent", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    #: the agent's persona version and the person's owner-document version then
    persona_version = models.PositiveIntegerField(null=True, blank=True)
    owner_doc_version = models.PositiveIntegerField(null=True, blank=True)
    #: the beliefs given, in the pack's order (ranked, pinned, cross-category), no text
    belief_ids = models.JSONField(default=list, blank=True)
    pinned_ids = models.JSONField(default=list, blank=True)
    #: the assistant's reply the pack shaped (set once, by the turn that names it)
    message = models.OneToOneField(
        Message, null=True, blank=True, on_delete=models.CASCADE, related_name="context_pack"
    )
    created_at = models.DateTimeField()

    class Meta:
        indexes = [
            # packs no turn named, oldest first: what the retention sweep removes
            models.Index(
                fields=["created_at"], name="pack_unsent_age", condition=Q(message__isnull=True)
            ),
        ]

    def __str__(self) -> str:
        return f"context pack {self.pk} for principal {self.principal_id}"


class Redaction(models.Model):
    """A superuser removed the text of one row (``memory.redaction``, ``persona.redaction``):
    the row stays, its text is the marker ``[redacted]`` everywhere it was copied, and this
    record keeps who, when, why and the sha256 of the removed text (never the text)."""

    class Kind(models.TextChoices):
        MESSAGE = "message", "message"
        BELIEF = "belief", "belief"
        OWNER_ENTRY = "owner_entry", "owner document entry"
        PERSONA_VERSION = "persona_version", "persona version"

    tenant = models.ForeignKey("tenancy.Tenant", on_delete=models.CASCADE, related_name="+")
    kind = models.CharField(max_length=20, choices=Kind.choices)
    #: the redacted row (a message, belief, owner entry or persona version)
    object_id = models.BigIntegerField()
    text_sha256 = models.CharField(max_length=64)
    redacted_by = models.CharField(max_length=150)
    reason = models.CharField(max_length=500)
    redacted_at = models.DateTimeField()
    #: what else the redaction reached (ids only, never text): versions, entries, rows
    reached = models.JSONField(default=dict, blank=True)

    class Meta:
        ordering = ["-redacted_at", "-id"]
        indexes = [
            models.Index(fields=["kind", "object_id"], name="redaction_object"),
            models.Index(fields=["tenant", "-redacted_at"], name="redaction_tenant_recent"),
        ]

    def __str__(self) -> str:
        return f"{self.kind} {self.object_id} redacted by {self.redacted_by}"


# The memory kernel (beliefs, intentions, routines) lives in its own module.
from memory.models_beliefs import (  # noqa: E402
    Belief,
    BeliefBlock,
    BeliefEvidence,
    ConsolidationState,
    Intention,
    Routine,
)

__all__ = [
    "MemoryAudit",
    "ConsolidationState",
    "ContextPackRecord",
    "Belief",
    "BeliefBlock",
    "BeliefEvidence",
    "Conversation",
    "ConversationSummary",
    "EntityFact",
    "Intention",
    "Message",
    "Principal",
    "Redaction",
    "Routine",
    "TextEmbedding",
]
