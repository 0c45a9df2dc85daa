"""Where every line of a prompt prefix came from (issue 26.1).

``explain_prefix`` renders a prefix exactly as a plan pins it (``persona.plans``) and
gives each line its story:

* a line personaweb writes around the persona (a heading, the authority line, the owner
  row's heading): ``kind`` "frame", no story;
* a line of persona text (a guardrail, a standing rule, the name, the role, a goals or
  background line, a learned note): the persona version that gave the line its present
  form, and how that version came to be (an operator's edit with its reason, host code,
  a revert, or learning: proposal N, who approved it and the quotes it rests on); when
  the line stood in the persona before and came back (a revert, an undo), the runs
  before it too, newest first;
* an owner-document entry: typed by the owner (or written on their behalf), or affirmed
  from belief N, with the belief and its evidence.

Everything comes from rows that exist already (a version records its source, reason,
approver, proposal and evidence), in a constant number of queries: the versions (the
newest ``HISTORY_DEPTH`` of them), the owner entries, their beliefs, and which quoted
conversations are sealed. A sealed conversation's quote is never shown.

The lines joined with ``"\\n"`` (blank lines between sections included) are the prefix
bytes: ``ExplainedPrefix.text``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from persona.models import AgentPersonaVersion, SourceType
from persona.render import Piece, _lines, _one_line, rendered_sections

#: How many persona versions (newest first) a story is looked for in: a line older than
#: that says so ("before version N") instead of reading an agent's whole history.
HISTORY_DEPTH = 500
#: At most this many runs of one line are told (its present form, then earlier ones).
MAX_RUNS = 3

_VERSION_FIELDS = (
    "version",
    "name",
    "role",
    "goals",
    "background",
    "guardrails",
    "standing_rules",
    "learned",
    "source_type",
    "reason",
    "approved_by",
    "evidence",
    "proposal_id",
    "restores_version",
    "created_at",
)


@dataclass(frozen=True)
class VersionStory:
    """How one persona version came to be."""

    version: int
    source_type: str
    reason: str
    by: str
    at: Any
    proposal_id: int | None
    restores_version: int | None
    #: the quotes a learned version rests on: quote, conversation, conversation_id,
    #: message_id, verified, sealed (a sealed conversation's quote is empty)
    quotes: list[dict[str, Any]] = field(default_factory=list)

    @property
    def source(self) -> str:
        try:
            return str(SourceType(self.source_type).label)
        except ValueError:
            return self.source_type

    @property
    def summary(self) -> str:
        """One sentence: what made the version (no user words in it)."""
        v = f"Version {self.version}"
        if self.source_type == SourceType.PERSONA_LEARNING and self.proposal_id:
            if self.quotes:
                who = "applied automatically" if self.by == "auto" else f"approved by {self.by}"
                return f"{v}: learned from proposal {self.proposal_id}, {who}."
            return f"{v}: proposal {self.proposal_id} undone by {self.by or 'someone'}."
        if self.source_type == SourceType.STANDING_RULE and self.proposal_id:
            verb = "approved" if self.quotes else "undone"
            return f"{v}: standing rule of proposal {self.proposal_id}, {verb} by {self.by}."
        if self.source_type == SourceType.REVERT:
            back = f" to version {self.restores_version}" if self.restores_version else ""
            return f"{v}: reverted{back} by {self.by or 'an operator'}."
        by = f" by {self.by}" if self.by else ""
        return f"{v}: {self.source}{by}."

    def as_dict(self) -> dict[str, Any]:
        return {
            "version": self.version,
            "source_type": self.source_type,
            "source": self.source,
            "summary": self.summary,
            "reason": self.reason,
            "by": self.by,
            "at": self.at,
            "proposal_id": self.proposal_id,
            "restores_version": self.restores_version,
            "quotes": self.quotes,
        }


@dataclass(frozen=True)
class EntryStory:
    """Where an owner-document entry came from."""

    key: str
    source: str
    author: str
    written_by: str
    document_version: int
    tier: str
    sensitivity: str
    #: the belief an affirmed entry came from (None for a typed entry, or a belief row
    #: that was deleted): id, statement, category, status, muted, evidence
    belief: dict[str, Any] | None = None
    belief_id: int | None = None

    @property
    def summary(self) -> str:
        from persona.models_owner import BY_OWNER

        who = "the owner" if self.author in BY_OWNER else (self.written_by or "someone")
        if self.source == "affirmation":
            of = f" from belief {self.belief_id}" if self.belief_id else ""
            return f"Affirmed{of} by {who} (document version {self.document_version})."
        if self.author in BY_OWNER:
            return f"Typed by the owner (document version {self.document_version})."
        return f"Written on the owner's behalf by {who} (document version {self.document_version})."

    def as_dict(self) -> dict[str, Any]:
        return {
            "key": self.key,
            "source": self.source,
            "author": self.author,
            "written_by": self.written_by,
            "document_version": self.document_version,
            "tier": self.tier,
            "sensitivity": self.sensitivity,
            "summary": self.summary,
            "belief_id": self.belief_id,
            "belief": self.belief,
        }


@dataclass
class ExplainedLine:
    n: int
    text: str
    #: guardrails, standing_rules, identity, goals, background, authority, owner ("" for
    #: the blank line between two sections)
    section: str
    #: frame, blank, guardrail, standing_rule, name, role, goals_line, background_line,
    #: learned_note, owner_entry
    kind: str
    label: str = ""
    #: a persona line's runs, newest first: the version that gave it its present form,
    #: then (when it stood before and came back) the earlier ones
    runs: list[VersionStory] = field(default_factory=list)
    #: the line is older than the history read (``HISTORY_DEPTH``)
    older_than: int | None = None
    entry: EntryStory | None = None

    @property
    def summary(self) -> str:
        if self.kind == "frame":
            return "Written by personaweb around the persona (the same for every agent)."
        if self.kind == "blank":
            return ""
        if self.entry is not None:
            return self.entry.summary
        if self.runs:
            return self.runs[0].summary
        if self.older_than:
            return f"Stands since before version {self.older_than} (older history not read here)."
        return ""

    def as_dict(self) -> dict[str, Any]:
        return {
            "n": self.n,
            "text": self.text,
            "section": self.section,
            "kind": self.kind,
            "label": self.label,
            "summary": self.summary,
            "since": self.runs[0].as_dict() if self.runs else None,
            "earlier": [r.as_dict() for r in self.runs[1:]],
            "older_than": self.older_than,
            "entry": self.entry.as_dict() if self.entry is not None else None,
        }


@dataclass
class ExplainedPrefix:
    persona_version: int
    owner_doc_version: int | None
    lines: list[ExplainedLine]

    @property
    def text(self) -> str:
        return "\n".join(line.text for line in self.lines)


# --- persona lines ---------------------------------------------------------------------


class _Row:
    """One version's content, with the sets a presence check needs built once."""

    def __init__(self, values: dict[str, Any]) -> None:
        self.values = values
        self._sets: dict[str, set[str]] = {}

    def has(self, piece: Piece) -> bool:
        v = self.values
        if piece.kind in ("name", "role"):
            return _one_line(v[piece.kind] or "") == piece.text
        if piece.kind not in self._sets:
            self._sets[piece.kind] = self._set_of(piece.kind)
        key = f"{piece.section}\x00{piece.text}" if piece.kind == "learned_note" else piece.text
        return key in self._sets[piece.kind]

    def _set_of(self, kind: str) -> set[str]:
        v = self.values
        if kind == "guardrail":
            return {_one_line(x) for x in v["guardrails"] or [] if isinstance(x, str)}
        if kind == "standing_rule":
            return {_one_line(x) for x in v["standing_rules"] or [] if isinstance(x, str)}
        if kind == "goals_line":
            return set(_lines(v["goals"] or ""))
        if kind == "background_line":
            return set(_lines(v["background"] or ""))
        if kind == "learned_note":
            return {
                f"{e.get('field', '')}\x00{_one_line(str(e.get('sentence', '')))}"
                for e in v["learned"] or []
                if isinstance(e, dict)
            }
        return set()


@dataclass
class _Search:
    """Looking back through the versions for the runs of one line."""

    piece: Piece
    #: the version the current run's start was last seen in (None: between runs)
    start: _Row | None = None
    runs: list[_Row] = field(default_factory=list)
    done: bool = False


def _runs(agent_id: int, upto: int, pieces: list[Piece]) -> tuple[list[list[_Row]], int | None]:
    """For each piece of version ``upto``, the versions that began its runs (newest
    first), and the oldest version read when the history was cut at ``HISTORY_DEPTH``.
    One query."""
    searches = [_Search(piece=p) for p in pieces]
    rows = (
        AgentPersonaVersion.objects.filter(agent_id=agent_id, version__lte=upto)
        .order_by("-version")
        .values(*_VERSION_FIELDS)[:HISTORY_DEPTH]
    )
    oldest: int | None = None
    read = 0
    for values in rows:
        row = _Row(values)
        oldest = values["version"]
        read += 1
        for s in searches:
            if s.done:
                continue
            if row.has(s.piece):
                s.start = row
            elif s.start is not None:
                # the run began in the version after this one
                s.runs.append(s.start)
                s.start = None
                s.done = len(s.runs) >= MAX_RUNS
        if all(s.done for s in searches):
            break
    # the history was cut when the newest HISTORY_DEPTH versions did not reach version 1
    cut = oldest if read == HISTORY_DEPTH and oldest is not None and oldest > 1 else None
    out = []
    for s in searches:
        if s.start is not None and not s.done:
            if cut is not None and s.start.values["version"] == cut:
                # the run goes on below the history read: its start is not known
                out.append(s.runs)
                continue
            s.runs.append(s.start)
        out.append(s.runs)
    return out, cut


def _stories(rows: list[_Row], *, sealed: set[int], quotes: bool) -> list[VersionStory]:
    return [_story(r.values, sealed=sealed, quotes=quotes) for r in rows]


def _story(v: dict[str, Any], *, sealed: set[int], quotes: bool) -> VersionStory:
    shown: list[dict[str, Any]] = []
    for item in v["evidence"] or []:
        if not isinstance(item, dict):
            continue
        cid = item.get("conversation_id")
        hidden = isinstance(cid, int) and cid in sealed
        shown.append(
            {
                "quote": "" if hidden or not quotes else str(item.get("quote") or ""),
                "conversation": str(
                    item.get("conversation") or item.get("conversation_label") or ""
                ),
                "conversation_id": cid if isinstance(cid, int) else None,
                "message_id": item.get("message_id")
                if isinstance(item.get("message_id"), int)
                else None,
                "verified": bool(item.get("ok", True)),
                "sealed": hidden,
                "start": item.get("start") if isinstance(item.get("start"), int) else None,
                "end": item.get("end") if isinstance(item.get("end"), int) else None,
            }
        )
    return VersionStory(
        version=v["version"],
        source_type=v["source_type"],
        reason=v["reason"],
        by=v["approved_by"],
        at=v["created_at"],
        proposal_id=v["proposal_id"],
        restores_version=v["restores_version"],
        quotes=shown,
    )


# --- owner entries -----------------------------------------------------------------------


def _belief_stories(belief_ids: set[int]) -> tuple[dict[int, dict[str, Any]], set[int]]:
    """(belief id -> its story, the conversation ids its evidence quotes) in one query."""
    from memory.models_beliefs import Belief, Sensitivity

    if not belief_ids:
        return {}, set()
    out: dict[int, dict[str, Any]] = {}
    conversations: set[int] = set()
    rows = (
        Belief.objects.filter(pk__in=belief_ids)
        .select_related("evidence_message")
        .only(
            "id",
            "statement",
            "category",
            "status",
            "muted_at",
            "sensitivity",
            "evidence_quote",
            "evidence_message__id",
            "evidence_message__conversation_id",
            "source_host",
        )
    )
    for b in rows:
        muted = b.muted_at is not None
        message = b.evidence_message
        cid = message.conversation_id if message is not None else None
        if cid is not None:
            conversations.add(cid)
        out[b.pk] = {
            "id": b.pk,
            # a muted belief reaches no host: its words are not told here either
            "statement": "" if muted else b.statement,
            "category": b.category,
            "status": b.status,
            "muted": muted,
            "sensitivity": str(Sensitivity(b.sensitivity).label),
            "evidence": {
                "quote": "" if muted else (b.evidence_quote or ""),
                "message_id": message.pk if message is not None else None,
                "conversation_id": cid,
                "host": b.source_host or None,
                "sealed": False,
            },
        }
    return out, conversations


def _entry_story(entry: Any, *, document_version: int, beliefs: dict[int, dict[str, Any]]):
    from memory.models_beliefs import Sensitivity

    return EntryStory(
        key=entry.key,
        source=entry.source,
        author=entry.author,
        written_by=entry.written_by,
        document_version=document_version,
        tier=entry.tier,
        sensitivity=str(Sensitivity(entry.sensitivity).label),
        belief=beliefs.get(entry.source_belief_id) if entry.source_belief_id else None,
        belief_id=entry.source_belief_id,
    )


# --- the prefix --------------------------------------------------------------------------


def explain_prefix(
    version: AgentPersonaVersion,
    entries: list[Any] | None = None,
    *,
    owner_doc_version: int | None = None,
    quotes: bool = True,
    wait: bool = True,
    sealed_lookup: Callable[[set[int]], set[int]] | None = None,
) -> ExplainedPrefix:
    """Every line of the prefix of ``version`` with the owner ``entries`` that render
    (as ``persona.plans`` pins them), each with its story. ``quotes`` False leaves the
    words of learning's quotes out (a caller bound to one person never reads what other
    people said); ``wait`` as for ``render_persona``; ``sealed_lookup`` answers which
    conversations are sealed (default ``memory.sealing.sealed_ids``; a page passes one
    that remembers what it looked up already)."""
    from memory.sealing import sealed_ids
    from persona.owner import render_row

    entries = list(entries or [])
    lines: list[ExplainedLine] = []
    pieces: list[Piece] = []
    at: list[int] = []  # the index in ``lines`` of each piece's line
    for i, (key, _title, section_lines) in enumerate(rendered_sections(version, wait=wait)):
        if i:
            lines.append(ExplainedLine(n=0, text="", section="", kind="blank"))
        for text, piece in section_lines:
            if piece is None:
                lines.append(ExplainedLine(n=0, text=text, section=key, kind="frame"))
                continue
            at.append(len(lines))
            pieces.append(piece)
            lines.append(
                ExplainedLine(n=0, text=text, section=key, kind=piece.kind, label=piece.label)
            )
    runs, cut = _runs(version.agent_id, version.version, pieces)
    belief_ids = {e.source_belief_id for e in entries if e.source_belief_id}
    beliefs, belief_conversations = _belief_stories(belief_ids)
    conversation_ids = set(belief_conversations)
    for piece_runs in runs:
        for run in piece_runs:
            for item in run.values["evidence"] or []:
                cid = item.get("conversation_id") if isinstance(item, dict) else None
                if isinstance(cid, int):
                    conversation_ids.add(cid)
    sealed = (sealed_lookup or sealed_ids)(conversation_ids)
    for story in beliefs.values():
        if story["evidence"]["conversation_id"] in sealed:
            story["evidence"].update(quote="", sealed=True)
    for index, piece_runs in zip(at, runs, strict=True):
        lines[index].runs = _stories(piece_runs, sealed=sealed, quotes=quotes)
        if not piece_runs:
            lines[index].older_than = cut
    owner_row = render_row(entries, wait=wait)
    if owner_row:
        row_lines = owner_row.split("\n")
        lines.append(ExplainedLine(n=0, text="", section="", kind="blank"))
        lines.append(ExplainedLine(n=0, text=row_lines[0], section="owner", kind="frame"))
        for text, entry in zip(row_lines[1:], entries, strict=True):
            lines.append(
                ExplainedLine(
                    n=0,
                    text=text,
                    section="owner",
                    kind="owner_entry",
                    label=f"entry {entry.key}",
                    entry=_entry_story(
                        entry, document_version=owner_doc_version or 0, beliefs=beliefs
                    ),
                )
            )
    for n, line in enumerate(lines, start=1):
        line.n = n
    return ExplainedPrefix(
        persona_version=version.version, owner_doc_version=owner_doc_version, lines=lines
    )


@dataclass
class SessionExplained:
    """A session's prefix explained: its pinned plan's, or (no plan yet) the one a plan
    created now would pin."""

    explained: ExplainedPrefix
    plan: Any = None
    #: the explained lines are the pinned bytes (False only when the injection patterns
    #: changed since the plan was pinned: the next rotation pins the new rendering)
    matches_pinned: bool = True

    @property
    def text(self) -> str:
        return self.explained.text

    def as_dict(self) -> dict[str, Any]:
        """The answer of ``prompt_explain`` (/v1, MCP and ``manage.py persona explain``)."""
        from persona.plans import sha256_text

        text = self.text
        return {
            "prefix": text,
            "sha256": sha256_text(text),
            "persona_version": self.explained.persona_version,
            "owner_doc_version": self.explained.owner_doc_version,
            "pinned": self.plan is not None,
            "epoch": self.plan.epoch if self.plan is not None else None,
            "matches_pinned": self.matches_pinned,
            "lines": [line.as_dict() for line in self.explained.lines],
        }


def explain_session(
    *,
    agent: Any,
    principal: Any = None,
    session_key: str = "",
    quotes: bool = True,
    new_person: bool = False,
) -> SessionExplained:
    """The prefix of (``agent``, ``principal``, ``session_key``) explained line by line,
    read-only: the pinned plan's versions when the session has a plan, else the head
    versions a plan call would pin now. ``new_person``: the host named a person not
    stored yet (no plan of theirs can exist; never the plan for nobody). Raises
    ``PlanError`` for an agent with no persona."""
    from persona.plans import (
        ContextPlan,
        _ceiling,
        _head_version,
        _owner,
        plan_entries,
        principal_key_for,
    )

    principal_id = principal.pk if principal is not None else None
    plan = (
        None
        if new_person
        else ContextPlan.objects.filter(
            agent_id=agent.pk,
            principal_key=principal_key_for(principal_id),
            session_key=session_key or "",
        ).first()
    )
    from persona.learned_lines import without_muted

    if plan is not None:
        version = AgentPersonaVersion.objects.get(agent_id=agent.pk, version=plan.persona_version)
        # the lines this person muted are not in their prefix: not in its story either
        version = without_muted(version, [tuple(pair) for pair in plan.muted_lines or []])
        explained = explain_prefix(
            version,
            plan_entries(plan),
            owner_doc_version=plan.owner_doc_version,
            quotes=quotes,
        )
        return SessionExplained(
            explained=explained, plan=plan, matches_pinned=explained.text == plan.prefix_text
        )
    owner = _owner(principal_id, _ceiling(None), agent.pk)
    version = without_muted(_head_version(agent.pk, agent.persona_version), owner.muted.lines)
    explained = explain_prefix(
        version, owner.entries, owner_doc_version=owner.version, quotes=quotes
    )
    return SessionExplained(explained=explained)
