"""Writes to conversation memory. Every path that stores messages goes through here."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from django.db import transaction
from django.utils import timezone

from memory.models import Conversation, EntityFact, Message, Principal
from memory.signals import conversation_sealed, turns_recorded
from personaweb.errors import Refusal

MAX_MESSAGE_CHARS = 100_000
MAX_LABEL_CHARS = 200
# The years a message may be stamped with: wide enough for any real history, and far
# from the ends of what Python and the databases hold (year 9999 at -14:00 is year
# 10000 in UTC, which overflows when it is stored).
MESSAGE_YEARS = (1900, 2200)


class MemoryInputError(Refusal):
    """Bad input from a host, a file or a form; the message says what to fix."""


def text_sha256(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def message_dedupe_key(*, role: str, at: datetime, text: str) -> str:
    """Identity of a message inside its conversation: same role, time and text = same message."""
    stamp = at.astimezone(UTC).isoformat(timespec="microseconds")
    return hashlib.sha256(f"{role}\x00{stamp}\x00{text}".encode()).hexdigest()


def validate_label(value: str, *, what: str) -> str:
    value = (value or "").strip()
    if not value:
        raise MemoryInputError(f"The {what} is empty; give a non-empty {what}.")
    if len(value) > MAX_LABEL_CHARS:
        raise MemoryInputError(
            f"The {what} is {len(value)} characters long; the limit is {MAX_LABEL_CHARS}."
        )
    return value


def _kind_of(value: object) -> str:
    """What a value is, in the words of a JSON file."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true or false"
    if isinstance(value, int | float):
        return "a number"
    if isinstance(value, list | tuple):
        return "a list"
    if isinstance(value, dict):
        return "an object"
    return type(value).__name__


def validate_message_text(text: object, *, role: str) -> str:
    if not isinstance(text, str):
        raise MemoryInputError(
            f"The {role} text must be text (a string in quotes), not {_kind_of(text)}."
        )
    if not text.strip():
        raise MemoryInputError(f"The {role} text is empty; send the words of the message.")
    if len(text) > MAX_MESSAGE_CHARS:
        raise MemoryInputError(
            f"The {role} text is {len(text):,} characters long; the limit is {MAX_MESSAGE_CHARS:,}. Split it into several messages."
        )
    return text


def message_time_refusal(at: datetime) -> str:
    """Why ``at`` cannot stamp a message ('' when it can): no time zone, or a year
    outside ``MESSAGE_YEARS``."""
    if timezone.is_naive(at):
        return "it has no time zone; add an offset, e.g. 2026-11-29T12:00:00+00:00."
    low, high = MESSAGE_YEARS
    if not low <= at.year <= high:
        return f"it is outside the years {low} to {high}; check the date."
    return ""


def principal_get_or_create(*, tenant_id: int, external_id: str) -> Principal:
    external_id = validate_label(external_id, what="user id")
    principal, _ = Principal.objects.get_or_create(tenant_id=tenant_id, external_id=external_id)
    return principal


@dataclass(frozen=True)
class TurnResult:
    conversation: Conversation
    messages: list[Message]
    created_conversation: bool


@transaction.atomic
def record_turn(
    *,
    agent,
    principal_external_id: str,
    conversation: str,
    user_text: str,
    assistant_text: str | None = None,
    at: datetime | None = None,
    sealed: bool | None = None,
    memory_scope: str = "default",
    context_pack: int | None = None,
) -> TurnResult:
    """Store one turn: the user's message and, optionally, the assistant's reply.

    Creates the person and the conversation the first time they are seen. A
    conversation belongs to one person; a turn naming another person for an existing
    conversation is refused. Counts the turn towards the agent's next learning review.
    ``context_pack`` (the id ``build_context`` answered) links the reply to the pack
    that shaped it (``memory.packs``); it needs the reply, and a pack of this person
    that no other turn named.
    """
    from memory.tasks import schedule_embedding

    label = validate_label(conversation, what="conversation label")
    user_text = validate_message_text(user_text, role="user")
    if assistant_text is not None:
        assistant_text = validate_message_text(assistant_text, role="assistant")
    at = at or timezone.now()
    if timezone.is_naive(at):
        raise MemoryInputError(
            "The time has no time zone; send it with an offset, e.g. 2026-11-29T12:00:00+00:00."
        )
    if reason := message_time_refusal(at):
        raise MemoryInputError(f"The time {at.isoformat()} cannot be stored: {reason}")
    if context_pack is not None and assistant_text is None:
        raise MemoryInputError(
            "A context pack shapes an answer: send it with the turn's assistant_text."
        )
    principal = principal_get_or_create(
        tenant_id=agent.tenant_id, external_id=principal_external_id
    )
    pack = None
    if context_pack is not None:
        from memory.packs import context_pack_for_turn

        pack = context_pack_for_turn(pack_id=context_pack, agent=agent, principal_id=principal.pk)
    if sealed:
        # sealing withdraws evidence from the person's beliefs: the person is locked
        # before the conversation, the lock order of belief_write
        Principal.objects.select_for_update().filter(pk=principal.pk).values_list("pk").first()

    conv, created = Conversation.objects.select_for_update().get_or_create(
        agent=agent,
        external_id=label,
        defaults={
            "principal": principal,
            "started_at": at,
            "last_message_at": at,
            "memory_scope": memory_scope,
            "sealed": bool(sealed),
        },
    )
    if conv.principal_id != principal.id:
        raise MemoryInputError(
            f"Conversation {label!r} belongs to another person; start a new conversation label for this user."
        )
    rows = [(Message.Role.USER, user_text)]
    if assistant_text is not None:
        rows.append((Message.Role.ASSISTANT, assistant_text))
    messages = []
    seq = conv.message_count
    for offset, (role, text) in enumerate(rows):
        seq += 1
        # the reply is stamped a microsecond after the question so order and keys stay distinct
        when = at + timedelta(microseconds=offset)
        messages.append(
            Message(
                conversation=conv,
                seq=seq,
                role=role,
                text=text,
                created_at=when,
                dedupe_key=message_dedupe_key(role=role, at=when, text=text),
                text_sha256=text_sha256(text),
            )
        )
    Message.objects.bulk_create(messages)
    if pack is not None:
        from memory.packs import context_pack_link

        context_pack_link(record=pack, agent=agent, message=messages[-1])
    conv.message_count = seq
    conv.last_message_at = max(conv.last_message_at, at)
    update_fields = ["message_count", "last_message_at"]
    newly_sealed = bool(sealed) and not conv.sealed
    if newly_sealed:
        # sealing is one way: sealed=False (or None) leaves a sealed conversation sealed
        conv.sealed = True
        update_fields.append("sealed")
    conv.save(update_fields=update_fields)
    turns_recorded.send(sender=Message, agent_id=agent.id, turns=1)
    if newly_sealed:
        from memory.sealing import sealed_evidence_withdraw

        sealed_evidence_withdraw(conversation_ids=[conv.pk])
        conversation_sealed.send(sender=Conversation, conversation=conv)
    transaction.on_commit(schedule_embedding)
    return TurnResult(conversation=conv, messages=messages, created_conversation=created)


# --- entity facts ------------------------------------------------------------------------

MAX_ENTITY_CHARS = 200
MAX_FACT_CHARS = 2_000


def clean_fact(fact: str) -> str:
    """A fact's words as stored: stripped; a one-line fact with its runs of spaces made
    one, a fact of several lines (a USER.md entry may span lines) kept line for line as
    written, its line breaks made ``\n``."""
    fact = fact.replace("\r\n", "\n").replace("\r", "\n").strip()
    return fact if "\n" in fact else " ".join(fact.split())


def entity_fact_check(
    *,
    tenant_id: int,
    entity: object,
    fact: object,
    principal: Principal | None = None,
    source_message: Message | None = None,
) -> tuple[str, str]:
    """The one validation of an entity fact (the service, the admin form, a USER.md
    import): the words (non-empty, within the limits, ``safety.checks.check_write``), and
    the person and the source message in the fact's tenant (another tenant's row is named
    like an unknown one). Returns the cleaned (entity, fact)."""
    from safety.checks import check_write

    if not isinstance(entity, str) or not entity.strip():
        raise MemoryInputError(
            "The entity name is empty; name the person, company, place or thing."
        )
    if not isinstance(fact, str) or not fact.strip():
        raise MemoryInputError("The fact is empty; write what is known about the entity.")
    entity, fact = " ".join(entity.split()), clean_fact(fact)
    if len(entity) > MAX_ENTITY_CHARS:
        raise MemoryInputError(
            f"The entity name {entity[:40]!r}… is over {MAX_ENTITY_CHARS} characters; shorten it."
        )
    if len(fact) > MAX_FACT_CHARS:
        raise MemoryInputError(
            f"The fact is {len(fact):,} characters; the limit is {MAX_FACT_CHARS:,}. Shorten it."
        )
    if principal is not None and principal.tenant_id != tenant_id:
        raise MemoryInputError("That person is not one of this tenant's; choose one of its people.")
    if source_message is not None:
        message_tenant = (
            Message.objects.filter(pk=source_message.pk)
            .values_list("conversation__agent__tenant_id", flat=True)
            .first()
        )
        if message_tenant != tenant_id:
            raise MemoryInputError(
                "That source message is not in a conversation of this tenant; choose one of "
                "its messages or leave the source empty."
            )
    check_write(entity, "entity")
    check_write(fact, "entity_fact")
    return entity, fact


def entity_fact_create(
    *,
    tenant_id: int,
    entity: str,
    fact: str,
    kind: str = "thing",
    principal: Principal | None = None,
    source_message: Message | None = None,
) -> EntityFact:
    """Store a fact about an entity after ``entity_fact_check`` (one insert; the check,
    which may wait for the learned layer, runs outside any transaction of this one)."""
    entity, fact = entity_fact_check(
        tenant_id=tenant_id,
        entity=entity,
        fact=fact,
        principal=principal,
        source_message=source_message,
    )
    row = EntityFact(
        tenant_id=tenant_id,
        principal=principal,
        entity=entity,
        kind=kind,
        fact=fact,
        source_message=source_message,
    )
    row.full_clean()
    row.save()
    return row
