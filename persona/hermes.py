"""Hermes interop: ``MEMORY.md`` / ``USER.md`` files and the Hermes-style blocks.

The file format is Hermes's own (``tools/memory_tool.py`` of hermes-agent 0.19.0,
``MemoryStore``): a file is its entries joined with ``"\\n§\\n"`` and nothing else (no
trailing newline; no entries -> an empty file). Reading splits on exactly that
delimiter, strips each entry and drops empty and repeated ones, so an entry may span
lines, and a line of ``§`` with spaces around it stays inside its entry (Hermes keeps
it as one). Line endings are read the way Python's text mode reads them (``\\r\\n`` and
``\\r`` are newlines). Hermes caps each file by characters of the joined entries
(``settings.HERMES_MEMORY_CHAR_LIMIT`` / ``HERMES_USER_CHAR_LIMIT``, Hermes's defaults
2,200 and 1,375): over that, Hermes refuses every new memory.

What maps to what
-----------------
* ``MEMORY.md`` <-> the agent's persona (head version). Export writes labelled
  entries: ``Name: …``, ``Role: …``, one ``Guardrail: …`` per guardrail, one
  ``Standing rule: …`` per rule, ``Goals: …``, then each paragraph of the background
  (paragraphs are separated by a blank line) as an unlabelled entry: Hermes's notes.
  Import reads the labels back (a labelled text field replaces that field, a
  ``Background:`` entry the whole background, ``Standing rule:`` entries the rule
  list). An entry without a label is a note: it becomes a paragraph of the background
  of its own, unless that paragraph is there already, so a note comes back as the same
  entry, byte for byte (a note holding a blank line comes back as one entry per
  paragraph). ``Guardrail:`` entries that differ from the guardrails are refused with
  the difference shown (``GuardrailImportRefused``) unless the import is told to
  replace them and says why. The whole import is one persona version written by
  ``persona_version_create`` with source ``manual``, so every limit, the guardrail
  rule and the secret scan apply; nothing changed -> no version.
* ``USER.md`` <-> the principal's entity facts. Export writes a fact about the person
  themself as its bare text and any other fact as ``Entity: fact``. Import reads an
  entry written exactly ``Entity: fact`` (a short label, one space) as a fact about
  that entity, and any other entry, a self-label (``Maya Okafor: …``) included, as a
  fact about the person kept whole; an identical fact is not stored twice.

Size and count are checked before anything is scanned (``check_import_size``:
``settings.HERMES_IMPORT_MAX_CHARS``, ``HERMES_IMPORT_MAX_ENTRIES``). Every entry is
then checked (``safety.checks.check_write``: secrets, the word patterns and the learned
layer): a blocked or secret entry is reported with its pattern ids or secret kinds and
not imported; the rest are. Export writes every entry through
``safety.checks.render_safe`` and fits each file within its Hermes limit: entries that
do not fit are left out and named (``ExportReport.left_out``), or with ``trim=False``
the export is refused and nothing is written; name, role, guardrails, standing rules
and goals are never left out (if they alone are over the limit, the export is
refused).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from django.conf import settings
from django.db import transaction

from persona.models import AgentPersonaVersion, SourceType
from persona.selectors import persona_head
from persona.services import ChangeTrigger, PersonaInputError, persona_version_create
from personaweb.errors import Refusal
from tenancy.models import Agent

ENTRY_DELIMITER = "\n§\n"
MEMORY_CHAR_LIMIT = 2_200  # Hermes's defaults; settings.HERMES_*_CHAR_LIMIT override
USER_CHAR_LIMIT = 1_375
IMPORT_MAX_CHARS = 100_000
IMPORT_MAX_ENTRIES = 300
SEPARATOR = "═" * 46
HEADERS = {
    "memory": "MEMORY (your personal notes)",
    "user": "USER PROFILE (who the user is)",
}
FILES = {"memory": "MEMORY.md", "user": "USER.md"}

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
_ENTITY_RE = re.compile(r"^([^:\n.!?]{1,60}): (\S.*)$", re.DOTALL)
_PARAGRAPH_BREAK = re.compile(r"\n[ \t]*\n")


class HermesFileRefused(PersonaInputError):
    """A Hermes file too large to import, or an export over Hermes's limit; nothing
    was written."""


class GuardrailImportRefused(PersonaInputError):
    """A ``MEMORY.md`` whose ``Guardrail:`` entries would change the guardrails, imported
    without ``replace_guardrails`` and a reason. ``diff`` lists the difference."""

    def __init__(self, diff: list[str]) -> None:
        self.diff = diff
        super().__init__(
            f"This MEMORY.md would change the agent's guardrails ({'; '.join(diff)}). Nothing "
            "was imported; to replace the guardrails with the file's, import again with "
            '--replace-guardrails --reason "why" (replace_guardrails=True and a reason), or '
            "remove the Guardrail: entries from the file to keep them."
        )


def limits() -> dict[str, int]:
    """Hermes's character limit per file (settings, defaulting to Hermes's own)."""
    return {
        "memory": int(getattr(settings, "HERMES_MEMORY_CHAR_LIMIT", MEMORY_CHAR_LIMIT)),
        "user": int(getattr(settings, "HERMES_USER_CHAR_LIMIT", USER_CHAR_LIMIT)),
    }


# -- the file format ------------------------------------------------------------------


def parse_entries(text: str) -> list[str]:
    """Entries of a Hermes file as Hermes reads them: split on ``"\\n§\\n"`` only,
    stripped, empty and repeated entries dropped (first kept, order kept)."""
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    entries = (part.strip() for part in text.split(ENTRY_DELIMITER))
    return list(dict.fromkeys(entry for entry in entries if entry))


def entries_text(entries: list[str]) -> str:
    return ENTRY_DELIMITER.join(entries)


def check_import_size(text: str, *, target: str) -> list[str]:
    """The entries of ``text``, or ``HermesFileRefused`` when the file or its entry count
    is over the import caps; runs before any scan (splitting is cheap, scanning is not)."""
    name = FILES[target]
    max_chars = int(getattr(settings, "HERMES_IMPORT_MAX_CHARS", IMPORT_MAX_CHARS))
    max_entries = int(getattr(settings, "HERMES_IMPORT_MAX_ENTRIES", IMPORT_MAX_ENTRIES))
    limit = limits()[target]
    if len(text) > max_chars:
        raise HermesFileRefused(
            f"{name} is {len(text):,} characters; an import takes at most {max_chars:,} "
            f"(Hermes itself keeps {limit:,}). Nothing was imported; shorten the file."
        )
    entries = parse_entries(text)
    if len(entries) > max_entries:
        raise HermesFileRefused(
            f"{name} has {len(entries):,} entries; an import takes at most {max_entries:,}. "
            "Nothing was imported; split the file or remove entries."
        )
    return entries


def usage(entries: list[str], *, limit: int) -> tuple[int, int]:
    """(percent, chars) as Hermes shows them: chars of the joined entries, the percent
    rounded down and shown at most 100."""
    chars = len(entries_text(entries))
    percent = min(100, chars * 100 // limit) if limit > 0 else 0
    return percent, chars


def usage_header(target: str, entries: list[str], *, limit: int | None = None) -> str:
    """``USER PROFILE (who the user is) [86% — 1,184/1,375 chars]``."""
    limit = limits()[target] if limit is None else limit
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


def paragraphs(text: str) -> list[str]:
    """The paragraphs of a background (blank-line separated), each stripped."""
    return [p.strip() for p in _PARAGRAPH_BREAK.split(text or "") if p.strip()]


def persona_memory_entries(version: AgentPersonaVersion | None) -> tuple[list[str], list[str]]:
    """(kept, notes): the labelled entries that are never left out, then the background
    paragraphs (Hermes's notes)."""
    if version is None:
        return [], []
    entries = [f"Name: {version.name}"]
    if version.role:
        entries.append(f"Role: {version.role}")
    entries += [f"Guardrail: {g}" for g in version.guardrails or []]
    entries += [f"Standing rule: {r}" for r in version.standing_rules or []]
    if version.goals:
        entries.append(f"Goals: {version.goals}")
    return entries, paragraphs(version.background)


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


def _short(entry: str) -> str:
    one = " ".join(entry.split())
    return f'"{one[:60]}…"' if len(one) > 60 else f'"{one}"'


def fit(
    target: str, kept: list[str], optional: list[str], *, trim: bool = True
) -> tuple[list[str], list[str]]:
    """(written, left_out): ``kept`` plus as many of ``optional`` (in order) as fit
    within Hermes's limit for ``target``. ``HermesFileRefused`` when ``kept`` alone is
    over it, or when anything would be left out and ``trim`` is off."""
    limit, name = limits()[target], FILES[target]
    if len(entries_text(kept)) > limit:
        raise HermesFileRefused(
            f"{name} would be {len(entries_text(kept)):,} characters without any note, over "
            f"Hermes's limit of {limit:,}; Hermes would refuse every new memory. Nothing was "
            "written; shorten the goals, guardrails or standing rules."
        )
    written, left_out = list(kept), []
    for entry in optional:
        if len(entries_text([*written, entry])) <= limit:
            written.append(entry)
        else:
            left_out.append(entry)
    if left_out and not trim:
        total = len(entries_text([*kept, *optional]))
        raise HermesFileRefused(
            f"{name} would be {total:,} characters, over Hermes's limit of {limit:,}; "
            f"{len(left_out)} entries would not fit ({', '.join(_short(e) for e in left_out)}). "
            "Nothing was written; export with trimming to leave them out."
        )
    return written, left_out


@dataclass
class ExportReport:
    paths: list[Path] = field(default_factory=list)
    left_out: dict[str, list[str]] = field(default_factory=dict)  # file name -> entries

    def __iter__(self):
        return iter(self.paths)

    @property
    def sentences(self) -> list[str]:
        """One sentence per trimmed file, naming what was left out."""
        lim = limits()
        out = []
        for name, entries in self.left_out.items():
            target = "user" if name == "USER.md" else "memory"
            out.append(
                f"Left out of {name} to stay within Hermes's {lim[target]:,}-character limit: "
                f"{len(entries)} entr{'y' if len(entries) == 1 else 'ies'} "
                f"({', '.join(_short(e) for e in entries)})."
            )
        return out


def export_files(*, agent: Agent, out_dir: Path, principal=None, trim: bool = True) -> ExportReport:
    """Write ``MEMORY.md`` (the persona) and, with a principal, ``USER.md`` (their
    facts) into ``out_dir`` as Hermes writes them, each within its Hermes limit (see
    ``fit``). Every entry passes ``safety.checks.render_safe`` (waited for): a secret or
    an injection-scan hit stored before a check caught it is written as
    ``[BLOCKED: ...]``, never as itself. Both files are fitted before either is
    written: a refusal writes nothing. With a principal, the learned lines they muted are
    left out of ``MEMORY.md`` (``persona.mutes``), as their prefix leaves them out."""
    from persona.learned_lines import without_muted
    from persona.mutes import muted_for
    from safety.checks import render_safe_many

    head = persona_head(agent=agent)
    if head is not None and principal is not None:
        head = without_muted(head, muted_for(principal.pk, agent_id=agent.pk).lines)
    kept, notes = persona_memory_entries(head)
    safe = render_safe_many([*kept, *notes], wait=True)
    files = {"memory": fit("memory", safe[: len(kept)], safe[len(kept) :], trim=trim)}
    if principal is not None:
        user = render_safe_many(principal_user_entries(principal), wait=True)
        files["user"] = fit("user", [], user, trim=trim)
    out_dir.mkdir(parents=True, exist_ok=True)
    report = ExportReport()
    for target, (written, left_out) in files.items():
        path = out_dir / FILES[target]
        path.write_text(entries_text(written), encoding="utf-8")
        report.paths.append(path)
        if left_out:
            report.left_out[FILES[target]] = left_out
    return report


# -- import ---------------------------------------------------------------------------


@dataclass
class ImportReport:
    imported: list[str] = field(default_factory=list)
    unchanged: list[str] = field(default_factory=list)
    blocked: list[dict[str, Any]] = field(default_factory=list)  # entry, pattern_ids
    secrets: list[dict[str, Any]] = field(default_factory=list)  # entry, kinds
    version: int | None = None  # the persona version written, if any
    guardrail_diff: list[str] = field(default_factory=list)  # when guardrails were replaced

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


def guardrail_diff(old: list[str], new: list[str]) -> list[str]:
    """The difference as lines: ``- kept out``, ``+ brought in``, ``  kept``; an order
    change alone is one line saying so."""
    if old == new:
        return []
    lines = [f"- {g}" for g in old if g not in new]
    lines += [f"+ {g}" for g in new if g not in old]
    lines += [f"  {g}" for g in old if g in new]
    if not any(line.startswith(("-", "+")) for line in lines):
        lines.insert(0, "~ the same guardrails in another order")
    return lines


def persona_import(
    *,
    agent: Agent,
    text: str,
    approved_by: str = "",
    source_type: str = SourceType.MANUAL,
    expected_version: int | None = None,
    replace_guardrails: bool = False,
    reason: str = "",
) -> ImportReport:
    """Import a ``MEMORY.md`` into the agent's persona (see the module docstring).
    Guardrail entries that differ from the guardrails need ``replace_guardrails`` and a
    ``reason``; otherwise ``GuardrailImportRefused`` (with the difference) and nothing
    is written."""
    entries = check_import_size(text, target="memory")
    if replace_guardrails and not reason.strip():
        raise PersonaInputError(
            "Replacing guardrails from a file needs a reason; say why with --reason."
        )
    report = ImportReport()
    entries = _screen(entries, report, kind="persona_entry")
    head = persona_head(agent=agent)
    labelled: dict[str, Any] = {}
    notes: list[str] = []
    for entry in entries:
        match = _LABEL_RE.match(entry)
        if match is None:
            notes.append(entry)
            continue
        key = _LABELS[match.group(1).lower()]
        value = entry[match.end() :].strip()
        if key in ("guardrails", "standing_rules"):
            labelled.setdefault(key, []).append(value)
        else:
            labelled[key] = value
    current: dict[str, Any] = {
        "name": head.name if head else agent.name,
        "role": head.role if head else "",
        "goals": head.goals if head else "",
        "background": head.background if head else "",
        "guardrails": list(head.guardrails) if head else [],
        "standing_rules": list(head.standing_rules) if head else [],
    }
    background = labelled.get("background", current["background"])
    have = paragraphs(background)
    new_notes: list[str] = []
    for note in notes:
        new_notes += [p for p in paragraphs(note) if p not in have and p not in new_notes]
    if new_notes:
        labelled["background"] = "\n\n".join([*have, *new_notes])
    changes = {k: v for k, v in labelled.items() if v != current[k]}
    if "guardrails" in changes:
        diff = guardrail_diff(current["guardrails"], changes["guardrails"])
        if not replace_guardrails:
            raise GuardrailImportRefused(diff)
        report.guardrail_diff = diff
    (report.imported if changes else report.unchanged).extend(entries)
    if changes:
        why = f"Imported from MEMORY.md ({len(entries)} entries, fields: {', '.join(sorted(changes))})"
        if reason.strip():
            why = f"{why}: {reason.strip()}"
        version = persona_version_create(
            agent=agent,
            changes=changes,
            trigger=ChangeTrigger(
                source_type=source_type, reason=why[:500], approved_by=approved_by
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

    entries = check_import_size(text, target="user")
    report = ImportReport()
    label = _principal_label(principal)
    rows: list[tuple[str, str, str, str]] = []
    for entry in _screen(entries, report, kind="entity_fact"):
        match = _ENTITY_RE.match(entry)
        if match and match.group(1).strip().casefold() != label.casefold():
            entity, fact = match.group(1), match.group(2)
            kind: str = EntityFact.Kind.THING.value
        else:  # a fact about the person, a self-label kept as written
            entity, fact = label, entry
            kind = EntityFact.Kind.PERSON.value
        try:
            entity, fact = entity_fact_check(
                tenant_id=principal.tenant_id, entity=entity, fact=fact, principal=principal
            )
        except Refusal as exc:
            raise PersonaInputError(
                f"{exc} (USER.md: {_short(entry)}) Nothing was imported."
            ) from None
        if kind == EntityFact.Kind.THING.value and f"{entity}: {fact}" != entry:
            # would not come back as written: keep the entry whole, about the person
            entity, fact = entity_fact_check(
                tenant_id=principal.tenant_id, entity=label, fact=entry, principal=principal
            )
            kind = EntityFact.Kind.PERSON.value
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
