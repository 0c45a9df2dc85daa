"""Bulk import of messages from a JSONL file (``manage.py memory import``).

One message per line::

    {"agent": "desk", "user": "u-17", "conversation": "c-9", "role": "user",
     "text": "...", "at": "2026-11-29T12:00:00+00:00", "sealed": true}

``sealed`` is optional; ``true`` on any line seals that conversation (``false`` or no
key leaves it as it is). The import runs in two phases: every line is validated
first (``read_import_file``), so a bad line is reported with its number before
anything is written; then everything is written in one transaction
(``import_records``), so an error found while writing leaves nothing behind either.
Importing the same file again adds nothing: a message is known by its conversation
and ``dedupe_key`` (role, time, text).
"""

from __future__ import annotations

import json
import sys
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

from django.db import transaction
from django.db.models import Max
from django.utils.text import slugify

from memory.models import Conversation, Message, Principal
from memory.sealing import sealed_evidence_withdraw
from memory.services import (
    MESSAGE_YEARS,
    MemoryInputError,
    message_dedupe_key,
    text_sha256,
    validate_label,
    validate_message_text,
)
from memory.signals import conversation_sealed, turns_recorded
from personaweb.errors import Refusal
from tenancy.models import MAX_SLUG_CHARS

REQUIRED_KEYS = ("agent", "user", "conversation", "role", "text", "at")
ROLES = frozenset(Message.Role.values)
DEFAULT_BATCH_SIZE = 2_000
DEFAULT_TENANT = "default"  # where new agents go when no tenant is asked for
_IN_CHUNK = 900  # bound parameters per IN (...) query, under SQLite's old limit of 999
_PROGRESS_EVERY = 1_000

Progress = Callable[[int], None]


class ImportLineError(MemoryInputError):
    """A record that cannot be imported; names the line so the file can be fixed."""

    def __init__(self, line_no: int, reason: str) -> None:
        self.line_no = line_no
        self.reason = reason
        super().__init__(f"line {line_no}: {reason}")


@dataclass(frozen=True, slots=True)
class ImportRecord:
    line_no: int
    agent_slug: str
    agent_label: str
    user: str
    conversation: str
    role: str
    text: str
    at: datetime
    sealed: bool


@dataclass
class ImportPlan:
    """The validated content of a file, ready to write."""

    records: list[ImportRecord]
    lines: int = 0


@dataclass(frozen=True)
class ImportResult:
    lines: int
    messages_created: int
    messages_skipped: int
    agents_created: int
    principals_created: int
    conversations_created: int
    conversations_sealed: int


def _string(data: dict[str, Any], key: str) -> str:
    value = data[key]
    if not isinstance(value, str):
        raise MemoryInputError(f'"{key}" must be a string, not {type(value).__name__}.')
    return value


def _parse_time(value: str) -> datetime:
    try:
        at = datetime.fromisoformat(value)
    except ValueError:
        raise MemoryInputError(
            f'"at" is {value!r}, which is not an ISO-8601 time; write e.g. 2026-11-29T12:00:00+00:00.'
        ) from None
    if at.tzinfo is None or at.utcoffset() is None:
        raise MemoryInputError(
            f'"at" is {value!r}, which has no time zone; add an offset, e.g. 2026-11-29T12:00:00+00:00.'
        )
    low, high = MESSAGE_YEARS
    if not low <= at.year <= high:
        raise MemoryInputError(
            f'"at" is {value!r}, which is outside the years {low} to {high}; check the date.'
        )
    return at


def parse_line(raw: str, *, line_no: int, labels: dict[str, str] | None = None) -> ImportRecord:
    """Validate one JSONL line; raise ``ImportLineError`` saying what is wrong.

    ``labels`` interns repeated agent/user/conversation strings so a large file keeps
    one copy of each.
    """
    intern = (lambda s: labels.setdefault(s, s)) if labels is not None else (lambda s: s)
    try:
        data = json.loads(raw)
    except json.JSONDecodeError as exc:
        raise ImportLineError(
            line_no, f"not valid JSON ({exc.msg} at column {exc.colno})."
        ) from None
    except RecursionError:
        raise ImportLineError(
            line_no, "the JSON is nested too deeply; each line must be one flat object {...}."
        ) from None
    except ValueError:
        # the only other ValueError json raises: an integer longer than Python converts
        raise ImportLineError(
            line_no,
            f"a number has more than {sys.get_int_max_str_digits():,} digits; "
            "write long values as text in quotes.",
        ) from None
    if not isinstance(data, dict):
        raise ImportLineError(line_no, "each line must be one JSON object {...}.")
    missing = [key for key in REQUIRED_KEYS if key not in data]
    if missing:
        raise ImportLineError(
            line_no,
            f"missing {', '.join(repr(k) for k in missing)}; every line needs {', '.join(REQUIRED_KEYS)}.",
        )
    try:
        agent_label = validate_label(_string(data, "agent"), what="agent")
        agent_slug = slugify(agent_label)
        if not agent_slug:
            raise MemoryInputError(
                f"the agent {agent_label!r} has no letters or digits to make a slug from."
            )
        if len(agent_slug) > MAX_SLUG_CHARS:
            raise MemoryInputError(
                f"the agent {agent_label!r} is {len(agent_slug)} characters long; the limit is {MAX_SLUG_CHARS}."
            )
        user = validate_label(_string(data, "user"), what="user id")
        conversation = validate_label(_string(data, "conversation"), what="conversation label")
        role = _string(data, "role")
        if role not in ROLES:
            raise MemoryInputError(f"the role {role!r} is not one of {', '.join(sorted(ROLES))}.")
        text = validate_message_text(data["text"], role=role)
        at = _parse_time(_string(data, "at"))
        sealed = data.get("sealed", False)
        if not isinstance(sealed, bool):
            raise MemoryInputError(f'"sealed" must be true or false, not {sealed!r}.')
    except MemoryInputError as exc:
        reason = str(exc)
        raise ImportLineError(line_no, reason[:1].lower() + reason[1:]) from None
    return ImportRecord(
        line_no=line_no,
        agent_slug=intern(agent_slug),
        agent_label=intern(agent_label),
        user=intern(user),
        conversation=intern(conversation),
        role=intern(role),
        text=text,
        at=at,
        sealed=sealed,
    )


def read_import_file(path: str | Path, *, on_progress: Progress | None = None) -> ImportPlan:
    """Validate every line of the file; the first bad line raises ``ImportLineError``.

    Blank lines are skipped. A conversation label names one person: a later line that
    gives the same conversation of the same agent another user is an error.
    """
    records: list[ImportRecord] = []
    labels: dict[str, str] = {}
    owner: dict[tuple[str, str], tuple[str, int]] = {}
    line_no = 0
    try:
        handle = open(path, "rb")  # noqa: SIM115 - closed below; bytes so bad UTF-8 gets a line number
    except OSError as exc:
        raise MemoryInputError(f"cannot read the file ({exc.strerror}).") from None
    with handle:
        for line_no, raw_bytes in enumerate(handle, start=1):
            try:
                raw = raw_bytes.decode("utf-8")
            except UnicodeDecodeError:
                raise ImportLineError(line_no, "not valid UTF-8; save the file as UTF-8.") from None
            if raw.strip():
                record = parse_line(raw, line_no=line_no, labels=labels)
                key = (record.agent_slug, record.conversation)
                first = owner.setdefault(key, (record.user, line_no))
                if first[0] != record.user:
                    raise ImportLineError(
                        line_no,
                        f"conversation {record.conversation!r} of agent {record.agent_slug!r} belongs to "
                        f"user {first[0]!r} (line {first[1]}), not {record.user!r}; "
                        "give this user's messages their own conversation label.",
                    )
                records.append(record)
            if on_progress and line_no % _PROGRESS_EVERY == 0:
                on_progress(_PROGRESS_EVERY)
    if on_progress and line_no % _PROGRESS_EVERY:
        on_progress(line_no % _PROGRESS_EVERY)
    return ImportPlan(records=records, lines=line_no)


def import_tenant_slug(slug: str | None) -> str | None:
    """The tenant slug asked for, checked (None = no tenant asked for)."""
    from tenancy.services import validate_tenant_slug

    if slug is None:
        return None
    try:
        return validate_tenant_slug(slug)
    except Refusal as exc:
        raise MemoryInputError(str(exc)) from None


def _chunks(items: Sequence[Any], size: int) -> Iterator[Sequence[Any]]:
    for start in range(0, len(items), size):
        yield items[start : start + size]


def _batched(items: Iterable[Message], size: int) -> Iterator[list[Message]]:
    batch: list[Message] = []
    for item in items:
        batch.append(item)
        if len(batch) >= size:
            yield batch
            batch = []
    if batch:
        yield batch


@transaction.atomic
def import_records(
    *,
    plan: ImportPlan,
    tenant_slug: str | None = None,
    batch_size: int = DEFAULT_BATCH_SIZE,
    on_progress: Progress | None = None,
) -> ImportResult:
    """Write a validated plan in one transaction; any refusal rolls all of it back.

    Creates missing agents (through ``tenancy.services.agent_create``, in the tenant
    ``tenant_slug``, or ``DEFAULT_TENANT`` when it is None), principals and
    conversations. An agent that exists keeps its tenant: when ``tenant_slug`` names
    another one, the import is refused (naming both) rather than writing elsewhere. New messages of a conversation get
    ``seq`` in time order (file order breaks ties), after the messages it has already.
    Messages already stored (same conversation and dedupe key) and repeated lines are
    skipped. Query count grows with batches, agents and chunks of ~900 labels, never
    with messages.
    """
    from memory.tasks import schedule_embedding
    from tenancy.models import Agent
    from tenancy.services import agent_create, tenant_get_or_create

    tenant_slug = import_tenant_slug(tenant_slug)
    records = plan.records
    first_line: dict[str, int] = {}
    agent_labels: dict[str, str] = {}
    for record in records:
        if record.agent_slug not in first_line:
            first_line[record.agent_slug] = record.line_no
            agent_labels[record.agent_slug] = record.agent_label

    # agents: few, so one create call each is fine
    agents = {
        a.slug: a for a in Agent.objects.filter(slug__in=list(first_line)).select_related("tenant")
    }
    if tenant_slug is not None:
        for slug, agent in agents.items():
            if agent.tenant.slug != tenant_slug:
                raise ImportLineError(
                    first_line[slug],
                    f"agent {slug!r} exists already in tenant {agent.tenant.slug!r}, not in "
                    f"tenant {tenant_slug!r}; leave the tenant out to add to it, or give the "
                    "lines another agent.",
                )
    agents_created = 0
    missing_agents = [slug for slug in first_line if slug not in agents]
    if missing_agents:
        tenant, _ = tenant_get_or_create(slug=tenant_slug or DEFAULT_TENANT)
        for slug in missing_agents:
            try:
                agents[slug] = agent_create(
                    tenant=tenant, name=agent_labels[slug], slug=slug, created_by="memory import"
                )
            except Refusal as exc:
                raise ImportLineError(
                    first_line[slug], f"cannot create agent {slug!r}: {exc}"
                ) from None
            agents_created += 1

    # principals, per tenant of the agent
    wanted_principals = {(agents[r.agent_slug].tenant_id, r.user) for r in records}
    principals = _principals(wanted_principals)
    principals_created = len(wanted_principals) - len(principals)
    if principals_created:
        Principal.objects.bulk_create(
            [
                Principal(tenant_id=t, external_id=u)
                for t, u in wanted_principals
                if (t, u) not in principals
            ],
            batch_size=batch_size,
            ignore_conflicts=True,
        )
        principals = _principals(wanted_principals)

    # conversations: group the records, lock the ones that exist
    by_conv: dict[tuple[int, str], list[ImportRecord]] = {}
    for record in records:
        by_conv.setdefault((agents[record.agent_slug].id, record.conversation), []).append(record)
    convs = _conversations(by_conv, lock=True)
    for key, conv in convs.items():
        first = by_conv[key][0]
        if conv.principal_id != principals[(agents[first.agent_slug].tenant_id, first.user)]:
            raise ImportLineError(
                first.line_no,
                f"conversation {first.conversation!r} of agent {first.agent_slug!r} already belongs to "
                "another user; give this user's messages their own conversation label.",
            )
    # what the conversations that exist hold already
    known_keys: set[tuple[int, str]] = set()
    last_seq: dict[int, int] = {}
    existing_conv_ids = [conv.id for conv in convs.values()]
    for part in _chunks(existing_conv_ids, _IN_CHUNK):
        known_keys.update(
            Message.objects.filter(conversation_id__in=part).values_list(
                "conversation_id", "dedupe_key"
            )
        )
        last_seq.update(
            Message.objects.filter(conversation_id__in=part)
            .values("conversation_id")
            .annotate(top=Max("seq"))
            .values_list("conversation_id", "top")
        )

    # the new messages of each conversation, in time order (file order breaks ties)
    fresh: dict[tuple[int, str], list[tuple[ImportRecord, str]]] = {}
    skipped = 0
    for key, group in by_conv.items():
        conv_id = convs[key].id if key in convs else None
        group.sort(key=lambda r: (r.at, r.line_no))
        seen: set[str] = set()
        kept = fresh[key] = []
        for record in group:
            dedupe = message_dedupe_key(role=record.role, at=record.at, text=record.text)
            if dedupe in seen or (conv_id, dedupe) in known_keys:
                skipped += 1
                continue
            seen.add(dedupe)
            kept.append((record, dedupe))
    known_keys.clear()
    if on_progress and skipped:
        on_progress(skipped)  # lines already there count as done

    # new conversations are born with their final counts: no update pass over them
    new_convs = []
    for key, group in by_conv.items():
        if key in convs:
            continue
        first = group[0]
        kept = fresh[key]
        new_convs.append(
            Conversation(
                agent_id=key[0],
                principal_id=principals[(agents[first.agent_slug].tenant_id, first.user)],
                external_id=key[1],
                started_at=kept[0][0].at,
                last_message_at=kept[-1][0].at,
                message_count=len(kept),
                sealed=any(r.sealed for r in group),
            )
        )
    if new_convs:
        Conversation.objects.bulk_create(new_convs, batch_size=batch_size)
        convs = _conversations(by_conv, lock=False)
    sealed_count = sum(1 for c in new_convs if c.sealed)

    # conversations that existed: move their counts and times, seal them if asked
    touched: list[Conversation] = []
    newly_sealed: list[Conversation] = []
    existing = set(existing_conv_ids)
    for key, kept in fresh.items():
        conv = convs[key]
        if conv.id not in existing:
            continue
        seal = not conv.sealed and any(r.sealed for r in by_conv[key])
        if kept:
            conv.message_count = last_seq.get(conv.id, 0) + len(kept)
            conv.started_at = min(conv.started_at, kept[0][0].at)
            conv.last_message_at = max(conv.last_message_at, kept[-1][0].at)
        if seal:
            conv.sealed = True
            sealed_count += 1
            newly_sealed.append(conv)
        if kept or seal:
            touched.append(conv)

    user_turns: Counter[int] = Counter()

    def new_messages() -> Iterator[Message]:
        for key, kept in fresh.items():
            conv_id = convs[key].id
            seq = last_seq.get(conv_id, 0)
            for record, dedupe in kept:
                seq += 1
                if record.role == Message.Role.USER:
                    user_turns[key[0]] += 1
                yield Message(
                    conversation_id=conv_id,
                    seq=seq,
                    role=record.role,
                    text=record.text,
                    created_at=record.at,
                    dedupe_key=dedupe,
                    text_sha256=text_sha256(record.text),
                )

    created = 0
    for batch in _batched(new_messages(), batch_size):
        Message.objects.bulk_create(batch)
        created += len(batch)
        if on_progress:
            on_progress(len(batch))
    if touched:
        Conversation.objects.bulk_update(
            touched, ["message_count", "started_at", "last_message_at", "sealed"], batch_size=500
        )
    if newly_sealed:
        # sealing an existing conversation reaches what was learned from it, as
        # conversation_seal does (new conversations have nothing learned yet)
        sealed_evidence_withdraw(conversation_ids=[c.pk for c in newly_sealed])
        for conv in newly_sealed:
            conversation_sealed.send(sender=Conversation, conversation=conv)
    for agent_id, turns in user_turns.items():
        turns_recorded.send(sender=Message, agent_id=agent_id, turns=turns)
    if created:
        transaction.on_commit(schedule_embedding)
    return ImportResult(
        lines=plan.lines,
        messages_created=created,
        messages_skipped=skipped,
        agents_created=agents_created,
        principals_created=principals_created,
        conversations_created=len(new_convs),
        conversations_sealed=sealed_count,
    )


def import_file(
    *,
    path: str | Path,
    tenant_slug: str | None = None,
    batch_size: int = DEFAULT_BATCH_SIZE,
    on_read: Progress | None = None,
    on_written: Progress | None = None,
) -> ImportResult:
    """Validate the whole file, then write it; a bad line means nothing is written."""
    import_tenant_slug(tenant_slug)  # before reading a large file
    plan = read_import_file(path, on_progress=on_read)
    return import_records(
        plan=plan, tenant_slug=tenant_slug, batch_size=batch_size, on_progress=on_written
    )


def _principals(wanted: set[tuple[int, str]]) -> dict[tuple[int, str], int]:
    found: dict[tuple[int, str], int] = {}
    tenant_ids = {t for t, _ in wanted}
    users = sorted({u for _, u in wanted})
    for part in _chunks(users, _IN_CHUNK):
        rows = Principal.objects.filter(tenant_id__in=tenant_ids, external_id__in=part)
        for pk, tenant_id, external_id in rows.values_list("id", "tenant_id", "external_id"):
            if (tenant_id, external_id) in wanted:
                found[(tenant_id, external_id)] = pk
    return found


def _conversations(
    keys: Iterable[tuple[int, str]], *, lock: bool
) -> dict[tuple[int, str], Conversation]:
    wanted = set(keys)
    agent_ids = {a for a, _ in wanted}
    labels = sorted({label for _, label in wanted})
    found: dict[tuple[int, str], Conversation] = {}
    for part in _chunks(labels, _IN_CHUNK):
        rows = Conversation.objects.filter(agent_id__in=agent_ids, external_id__in=part)
        if lock:
            rows = rows.select_for_update()
        for conv in rows.only(
            "id",
            "agent_id",
            "external_id",
            "principal_id",
            "sealed",
            "started_at",
            "last_message_at",
            "message_count",
        ):
            key = (conv.agent_id, conv.external_id)
            if key in wanted:
                found[key] = conv
    return found
