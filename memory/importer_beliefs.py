"""Import of host-extracted beliefs from a JSONL file (``manage.py memory beliefs import``).

One belief per line::

    {"agent": "desk", "principal": "u-17", "category": "likes",
     "statement": "Prefers green tea", "confidence": 0.8, "source": "direct",
     "valid_from": "...", "valid_until": "...", "due": "...", "sensitivity": "internal"}

The last four keys are optional. Every line is checked first (the same checks as
``belief_write``, ``safety.checks.check_write`` included), so a bad line is reported
as ``line N: ...`` before anything is written; then all beliefs are written in one
transaction through ``belief_write`` (restatements corroborate, contradictions
supersede), creating missing agents and people. Statement vectors are computed in one
batch before the transaction.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.text import slugify

from memory.services import MemoryInputError, validate_label
from memory.services_beliefs import (
    belief_write,
    embeddings_enabled,
    validate_category,
    validate_sensitivity,
    validate_source,
    validate_statement,
    validate_time,
    validate_unit,
)
from personaweb.errors import Refusal
from safety.checks import check_write
from tenancy.models import MAX_SLUG_CHARS

REQUIRED_KEYS = ("agent", "principal", "category", "statement", "confidence", "source")
OPTIONAL_KEYS = ("valid_from", "valid_until", "due", "sensitivity")


class BeliefLineError(MemoryInputError):
    def __init__(self, line_no: int, reason: str) -> None:
        self.line_no = line_no
        super().__init__(f"line {line_no}: {reason}")


@dataclass(frozen=True)
class BeliefRecord:
    line_no: int
    agent_slug: str
    agent_label: str
    principal: str
    category: str
    statement: str
    confidence: float
    source: str
    valid_from: datetime | None
    valid_until: datetime | None
    due: datetime | None
    sensitivity: str


@dataclass(frozen=True)
class BeliefImportResult:
    lines: int
    created: int
    corroborated: int
    superseded: int
    agents_created: int
    #: restatements of a belief the person asked not to be mentioned again: not stored
    muted: int = 0


def parse_belief_line(raw: str, *, line_no: int) -> BeliefRecord:
    try:
        data = json.loads(raw)
    except json.JSONDecodeError as exc:
        raise BeliefLineError(
            line_no, f"not valid JSON ({exc.msg} at column {exc.colno})."
        ) from None
    if not isinstance(data, dict):
        raise BeliefLineError(line_no, "each line must be one JSON object {...}.")
    missing = [k for k in REQUIRED_KEYS if k not in data]
    if missing:
        raise BeliefLineError(
            line_no,
            f"missing {', '.join(repr(k) for k in missing)}; every line needs {', '.join(REQUIRED_KEYS)}.",
        )
    unknown = sorted(set(data) - set(REQUIRED_KEYS) - set(OPTIONAL_KEYS))
    if unknown:
        raise BeliefLineError(line_no, f"unknown key {', '.join(repr(k) for k in unknown)}.")
    try:
        for key in ("agent", "principal"):
            if not isinstance(data[key], str):
                raise MemoryInputError(f'"{key}" must be a string.')
        agent_label = validate_label(data["agent"], what="agent")
        agent_slug = slugify(agent_label)
        if not agent_slug or len(agent_slug) > MAX_SLUG_CHARS:
            raise MemoryInputError(f"the agent {agent_label!r} does not make a usable slug.")
        principal = validate_label(data["principal"], what="principal")
        category = validate_category(data["category"])
        statement = validate_statement(data["statement"])
        confidence = validate_unit(data["confidence"], what="confidence")
        source = validate_source(data["source"], writes="facts")
        sensitivity = data.get("sensitivity", "internal")
        validate_sensitivity(sensitivity)
        start = validate_time(data.get("valid_from"), what="valid_from")
        until = validate_time(data.get("valid_until"), what="valid_until")
        due = validate_time(data.get("due"), what="due time")
        if start and until and until < start:
            raise MemoryInputError("valid_until is before valid_from.")
        check_write(statement, "belief")
    except Refusal as exc:
        reason = str(exc)
        raise BeliefLineError(line_no, reason[:1].lower() + reason[1:]) from None
    return BeliefRecord(
        line_no=line_no,
        agent_slug=agent_slug,
        agent_label=agent_label,
        principal=principal,
        category=category,
        statement=statement,
        confidence=confidence,
        source=source,
        valid_from=start,
        valid_until=until,
        due=due,
        sensitivity=str(sensitivity),
    )


def read_beliefs_file(path: str | Path) -> tuple[list[BeliefRecord], int]:
    """Every line checked; the first bad one raises ``BeliefLineError``."""
    records: list[BeliefRecord] = []
    line_no = 0
    try:
        handle = open(path, "rb")  # noqa: SIM115 - closed below
    except OSError as exc:
        raise MemoryInputError(f"cannot read the file ({exc.strerror}).") from None
    with handle:
        for line_no, raw_bytes in enumerate(handle, start=1):
            try:
                raw = raw_bytes.decode("utf-8")
            except UnicodeDecodeError:
                raise BeliefLineError(line_no, "not valid UTF-8; save the file as UTF-8.") from None
            if raw.strip():
                records.append(parse_belief_line(raw, line_no=line_no))
    return records, line_no


def import_beliefs(
    *,
    records: list[BeliefRecord],
    lines: int,
    tenant_slug: str = "default",
    now: datetime | None = None,
) -> BeliefImportResult:
    """Write checked records in one transaction (a refusal rolls all of it back)."""
    from tenancy.models import Agent
    from tenancy.services import agent_create, tenant_get_or_create

    now = now or timezone.now()
    if embeddings_enabled() and records:
        from memory.embeddings import vectors_for_texts

        vectors_for_texts([r.statement for r in records])  # one batch, stored once per text
    counts = {"created": 0, "corroborated": 0, "superseded": 0, "muted": 0}
    agents_created = 0
    with transaction.atomic():
        slugs = list(dict.fromkeys(r.agent_slug for r in records))
        agents = {a.slug: a for a in Agent.objects.filter(slug__in=slugs)}
        for record in records:
            if record.agent_slug not in agents:
                tenant, _ = tenant_get_or_create(slug=tenant_slug)
                try:
                    agents[record.agent_slug] = agent_create(
                        tenant=tenant,
                        name=record.agent_label,
                        slug=record.agent_slug,
                        created_by="memory beliefs import",
                    )
                except Refusal as exc:
                    raise BeliefLineError(
                        record.line_no, f"cannot create agent {record.agent_slug!r}: {exc}"
                    ) from None
                agents_created += 1
            try:
                result = belief_write(
                    agent=agents[record.agent_slug],
                    principal_external_id=record.principal,
                    category=record.category,
                    statement=record.statement,
                    confidence=record.confidence,
                    source=record.source,
                    valid_from=record.valid_from,
                    valid_until=record.valid_until,
                    due=record.due,
                    sensitivity=record.sensitivity,
                    evidence={"host": "memory beliefs import"},
                    now=now,
                )
            except Refusal as exc:
                raise BeliefLineError(record.line_no, str(exc)) from None
            counts[result.outcome] += 1
    return BeliefImportResult(lines=lines, agents_created=agents_created, **counts)


def belief_as_dict(belief: Any, *, now: datetime) -> dict[str, Any]:
    def iso(value: datetime | None) -> str | None:
        return None if value is None else value.isoformat()

    return {
        "id": belief.pk,
        "category": belief.category,
        "statement": belief.statement,
        "confidence": belief.confidence,
        "corroboration_count": belief.corroboration_count,
        "status": belief.status,
        "sensitivity": belief.get_sensitivity_display(),
        "valid_from": iso(belief.valid_from),
        "valid_until": iso(belief.valid_until),
        "due_at": iso(belief.due_at),
        "retention": round(belief.retention(now), 4),
        "supersedes": belief.supersedes_id,
        "superseded_by": belief.superseded_by_id,
        "created_at": iso(belief.created_at),
    }
