"""Hermes interop: ``MEMORY.md`` / ``USER.md`` files and the Hermes-style blocks.

A Hermes file is its entries joined with ``"\\n§\\n"``; a line holding only ``§``
separates entries on import (so CRLF files and stray spaces still split).

What maps to what
-----------------
* ``MEMORY.md`` <-> the agent's persona (head version). Export writes labelled
  entries: ``Name: …``, ``Role: …``, one ``Guardrail: …`` per guardrail, one
  ``Standing rule: …`` per rule, ``Goals: …`` and ``Background: …``. Import reads
  those labels back (a file with any ``Guardrail:`` entries replaces the guardrail
  list, likewise standing rules; a labelled text field replaces that field). An entry
  without a label is a Hermes note: it is appended to the background as its own line,
  unless that line is there already. The whole import is one persona version written
  by ``persona_version_create`` with source ``manual`` (an operator's import), so
  every limit, the guardrail rule and the secret scan apply; nothing changed -> no
  version (importing the same file twice is a no-op).
* ``USER.md`` <-> the principal's entity facts. Export writes a fact about the person
  themself as its bare text and any other fact as ``Entity: fact``. Import reads an
  entry with a short ``Label:`` prefix as (entity, fact) and any other entry as a fact
  about the person; an identical fact is not stored twice.

Every entry is checked first (``safety.checks.check_write``: secrets, the word patterns
and the learned layer): a blocked or secret entry is reported with its pattern ids or
secret kinds and not imported; the rest are. Export writes every entry through
``safety.checks.render_safe``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from django.db import transaction

from persona.models import AgentPersonaVersion, SourceType
from persona.selectors import persona_head
from persona.services import ChangeTrigger, PersonaInputError, persona_version_create
from personaweb.errors import Refusal
from tenancy.models import Agent

ENTRY_DELIMITER = "\n§\n"
MEMORY_CHAR_LIMIT = 2_200
USER_CHAR_LIMIT = 1_375
SEPARATOR = "═" * 44
HEADERS = {
    "memory": "MEMORY (your personal notes)",
    "user": "USER PROFILE (who the user is)",
}
LIMITS = {"memory": MEMORY_CHAR_LIMIT, "user": USER_CHAR_LIMIT}

_SPLIT = re.compile(r"^[ \t]*§[ \t]*$", re.MULTILINE)
_LABELS = {
    "name": "name",
    "role": "role",
    "goals": "goals",
    "background": "background",
    "guardrail": "guardrails",
    "standing rule": "standing_rules",
}
_LABEL_RE = re.compile(
    r"^(name|role|goals|background|guardrail|standing rule):[ \t]*", re.IGNORECASE
)
_ENTITY_RE = re.compile(r"^([^:\n.!?]{1,60}):[ \t]+(\S.*)$", re.DOTALL)


# -- the file format ------------------------------------------------------------------


def parse_entries(text: str) -> list[str]:
    """Entries of a Hermes file: split on ``§`` lines, stripped, empty and duplicate
    entries dropped (order kept)."""
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    seen: dict[str, None] = {}
    for part in _SPLIT.split(text):
        entry = part.strip()
        if entry and entry not in seen:
            seen[entry] = None
    return list(seen)


def entries_text(entries: list[str]) -> str:
    return ENTRY_DELIMITER.join(entries)


def usage(entries: list[str], *, limit: int) -> tuple[int, int]:
    """(percent, chars) as Hermes shows them: chars of the joined entries, the percent
    rounded down and shown at most 100."""
    chars = len(entries_text(entries))
    percent = min(100, chars * 100 // limit) if limit > 0 else 0
    return percent, chars


def usage_header(target: str, entries: list[str], *, limit: int | None = None) -> str:
    """``USER PROFILE (who the user is) [86% — 1,184/1,375 chars]``."""
    limit = LIMITS[target] if limit is None else limit
    percent, chars = usage(entries, limit=limit)
    return f"{HEADERS[target]} [{percent}% — {chars:,}/{limit:,} chars]"


def render_block(target: str, entries: list[str], *, limit: int | None = None) -> str:
    """The Hermes-style block for a system prompt; every entry passes the injection
    scan at render (a hit shows ``[BLOCKED: ids]``). No entries -> zero bytes."""
    from safety.checks import render_safe_many

    if target not in HEADERS:
        raise PersonaInputError(f"Unknown block {target!r}; use 'memory' or 'user'.")
    safe = render_safe_many(entries, wait=True)
    if not safe:
        return ""
    header = usage_header(target, safe, limit=limit)
    return f"{SEPARATOR}\n{header}\n{SEPARATOR}\n{entries_text(safe)}"


# -- export ---------------------------------------------------------------------------


def persona_memory_entries(version: AgentPersonaVersion | None) -> list[str]:
    if version is None:
        return []
    entries = [f"Name: {version.name}"]
    if version.role:
        entries.append(f"Role: {version.role}")
    entries += [f"Guardrail: {g}" for g in version.guardrails or []]
    entries += [f"Standing rule: {r}" for r in version.standing_rules or []]
    if version.goals:
        entries.append(f"Goals: {version.goals}")
    if version.background:
        entries.append(f"Background: {version.background}")
    return entries


def _principal_label(principal) -> str:
    return principal.display_name or principal.external_id


def principal_user_entries(principal) -> list[str]:
    from memory.models import EntityFact

    label = _principal_label(principal).casefold()
    entries = []
    for entity, fact in (
        EntityFact.objects.filter(principal=principal).order_by("id").values_list("entity", "fact")
    ):
        fact = fact.strip()
        entries.append(fact if entity.strip().casefold() == label else f"{entity}: {fact}")
    return entries


def export_files(*, agent: Agent, out_dir: Path, principal=None) -> list[Path]:
    """Write ``MEMORY.md`` (the persona) and, with a principal, ``USER.md`` (their
    facts) into ``out_dir``; returns the paths written. Every entry passes
    ``safety.checks.render_safe`` (waited for): a secret or an injection-scan hit stored
    before a check caught it is written as ``[BLOCKED: ...]``, never as itself."""
    from safety.checks import render_safe_many

    out_dir.mkdir(parents=True, exist_ok=True)
    written = []
    memory_path = out_dir / "MEMORY.md"
    memory_entries = persona_memory_entries(persona_head(agent=agent))
    memory_path.write_text(
        entries_text(render_safe_many(memory_entries, wait=True)), encoding="utf-8"
    )
    written.append(memory_path)
    if principal is not None:
        user_path = out_dir / "USER.md"
        user_entries = principal_user_entries(principal)
        user_path.write_text(
            entries_text(render_safe_many(user_entries, wait=True)), encoding="utf-8"
        )
        written.append(user_path)
    return written


# -- import ---------------------------------------------------------------------------


@dataclass
class ImportReport:
    imported: list[str] = field(default_factory=list)
    unchanged: list[str] = field(default_factory=list)
    blocked: list[dict[str, Any]] = field(default_factory=list)  # entry, pattern_ids
    secrets: list[dict[str, Any]] = field(default_factory=list)  # entry, kinds
    version: int | None = None  # the persona version written, if any

    @property
    def refused(self) -> int:
        return len(self.blocked) + len(self.secrets)


def _screen(entries: list[str], report: ImportReport, *, kind: str) -> list[str]:
    """The entries that pass ``safety.checks.check_write`` as ``kind``; the others are
    recorded on ``report`` (a secret, or the injection scan's ids)."""
    from safety.checks import InjectionFound, SecretFound, check_write

    clean = []
    for i, entry in enumerate(entries, start=1):
        try:
            check_write(entry, kind, field=f"entry {i}")
        except SecretFound as exc:
            report.secrets.append({"index": i, "entry": entry, "kinds": list(exc.kinds)})
        except InjectionFound as exc:
            report.blocked.append(
                {"index": i, "entry": entry, "pattern_ids": list(exc.pattern_ids)}
            )
        else:
            clean.append(entry)
    return clean


def persona_import(
    *,
    agent: Agent,
    text: str,
    approved_by: str = "",
    source_type: str = SourceType.MANUAL,
    expected_version: int | None = None,
) -> ImportReport:
    """Import a ``MEMORY.md`` into the agent's persona (see the module docstring)."""
    report = ImportReport()
    entries = _screen(parse_entries(text), report, kind="persona_entry")
    head = persona_head(agent=agent)
    labelled: dict[str, Any] = {}
    notes: list[str] = []
    for entry in entries:
        match = _LABEL_RE.match(entry)
        if match is None:
            notes.append(" ".join(entry.split()))
            continue
        key = _LABELS[match.group(1).lower()]
        value = entry[match.end() :].strip()
        if key in ("guardrails", "standing_rules"):
            labelled.setdefault(key, []).append(value)
        else:
            labelled[key] = value
    current = {
        "name": head.name if head else agent.name,
        "role": head.role if head else "",
        "goals": head.goals if head else "",
        "background": head.background if head else "",
        "guardrails": list(head.guardrails) if head else [],
        "standing_rules": list(head.standing_rules) if head else [],
    }
    background = labelled.get("background", current["background"])
    lines = [line.strip() for line in background.splitlines() if line.strip()]
    new_notes = [n for n in notes if n not in lines]
    if new_notes:
        background = (
            "\n".join([background.rstrip(), *new_notes]).strip()
            if background
            else "\n".join(new_notes)
        )
        labelled["background"] = background
    changes = {k: v for k, v in labelled.items() if v != current[k]}
    (report.imported if changes else report.unchanged).extend(entries)
    if changes:
        version = persona_version_create(
            agent=agent,
            changes=changes,
            trigger=ChangeTrigger(
                source_type=source_type,
                reason=f"Imported from MEMORY.md ({len(entries)} entries, fields: {', '.join(sorted(changes))})",
                approved_by=approved_by,
            ),
            expected_version=expected_version,
        )
        report.version = version.version
    return report


def user_import(*, principal, text: str) -> ImportReport:
    """Import a ``USER.md`` as entity facts of ``principal``; idempotent. Every fact is
    written by ``memory.services.entity_fact_create`` (its checks, the tenant's)."""
    from memory.models import EntityFact
    from memory.services import entity_fact_check, entity_fact_create

    report = ImportReport()
    label = _principal_label(principal)
    rows: list[tuple[str, str, str, str]] = []
    for entry in _screen(parse_entries(text), report, kind="entity_fact"):
        match = _ENTITY_RE.match(entry)
        if match and match.group(1).strip().casefold() != label.casefold():
            entity, fact = match.group(1).strip(), " ".join(match.group(2).split())
            kind: str = EntityFact.Kind.THING.value
        else:
            entity, fact = label, " ".join((match.group(2) if match else entry).split())
            kind = EntityFact.Kind.PERSON.value
        try:
            entity, fact = entity_fact_check(
                tenant_id=principal.tenant_id, entity=entity, fact=fact, principal=principal
            )
        except Refusal as exc:
            raise PersonaInputError(str(exc)) from None
        rows.append((entry, entity, fact, kind))
    with transaction.atomic():
        for entry, entity, fact, kind in rows:
            exists = EntityFact.objects.filter(
                tenant_id=principal.tenant_id, principal=principal, entity=entity, fact=fact
            ).exists()
            if exists:
                report.unchanged.append(entry)
                continue
            entity_fact_create(
                tenant_id=principal.tenant_id,
                entity=entity,
                fact=fact,
                kind=kind,
                principal=principal,
            )
            report.imported.append(entry)
    return report
