"""The lines of a persona that came from learning, and a persona version as one person
is given it (``without_muted``): the words ``persona.mutes`` matches a muted line by."""

from __future__ import annotations

import copy
import hashlib
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from persona.models import AgentPersonaVersion, SourceType
from safety.text import folded_spaces
from tenancy.models import Agent

SECTION_LABELS = {"goals": "goal", "background": "background", "standing_rules": "standing rule"}


def statement_key(statement: str) -> str:
    """The content key of a statement: its case-folded words, a closing "." or "!"
    dropped (a nomination's decline follows the words, not the belief id)."""
    return folded_spaces(statement).rstrip(".!")


def text_key(text: str) -> str:
    """The key a line or entry is matched by: its ``statement_key`` (the way a
    nomination's statement is matched), hashed to a fixed length."""
    return hashlib.sha256(statement_key(str(text)).encode("utf-8")).hexdigest()


@dataclass(frozen=True)
class LearnedLine:
    """A line of a persona version that came from learning."""

    section: str  # goals | background | standing_rules
    text: str
    key: str
    #: the learning proposal it was applied from, and the version it came in (when known)
    proposal_id: int | None
    version: int | None
    note: str = ""

    @property
    def section_label(self) -> str:
        return SECTION_LABELS[self.section]


def learned_lines(version: AgentPersonaVersion | None) -> list[LearnedLine]:
    """The lines of ``version`` that came from learning: its learned goals and background
    sentences, and the standing rules a learning approval added (and no edit since took
    out and typed again). One query over the agent's versions up to ``version``."""
    if version is None:
        return []
    return learned_lines_of([version])[version.agent_id]


def learned_lines_of(versions: Iterable[AgentPersonaVersion]) -> dict[int, list[LearnedLine]]:
    """``learned_lines`` of several agents' versions (one per agent), by agent id: one
    query for all of them."""
    heads = {v.agent_id: v for v in versions}
    if not heads:
        return {}
    history: dict[int, list[tuple[Any, ...]]] = {agent_id: [] for agent_id in heads}
    for row in (
        AgentPersonaVersion.objects.filter(agent_id__in=list(heads))
        .order_by("agent_id", "version")
        .values_list(
            "agent_id", "version", "source_type", "proposal_id", "standing_rules", "learned"
        )
    ):
        if row[1] <= heads[row[0]].version:
            history[row[0]].append(row[1:])
    return {agent_id: _lines_of(heads[agent_id], history[agent_id]) for agent_id in heads}


def learned_lines_of_agents(agents: Iterable[Agent]) -> dict[int, list[LearnedLine]]:
    """``learned_lines`` of the persona head of each of ``agents``, by agent id: one
    query (the versions' rows hold everything the heads say of their learned lines)."""
    heads = {a.pk: a.persona_version for a in agents if a.persona_version}
    if not heads:
        return {}
    history: dict[int, list[tuple[Any, ...]]] = {agent_id: [] for agent_id in heads}
    for row in (
        AgentPersonaVersion.objects.filter(agent_id__in=list(heads))
        .order_by("agent_id", "version")
        .values_list(
            "agent_id", "version", "source_type", "proposal_id", "standing_rules", "learned"
        )
    ):
        if row[1] <= heads[row[0]]:
            history[row[0]].append(row[1:])
    out = {}
    for agent_id, rows in history.items():
        if rows and rows[-1][0] == heads[agent_id]:
            head = AgentPersonaVersion(
                agent_id=agent_id,
                version=rows[-1][0],
                standing_rules=rows[-1][3],
                learned=rows[-1][4],
            )
            out[agent_id] = _lines_of(head, rows)
    return out


def _lines_of(version: AgentPersonaVersion, history: list[tuple[Any, ...]]) -> list[LearnedLine]:
    # where each rule and sentence standing now last came in
    rule_origin: dict[str, tuple[int, str, int | None]] = {}
    sentence_origin: dict[tuple[str, str], tuple[int, int | None]] = {}
    previous_rules: set[str] = set()
    previous_learned: set[tuple[str, str]] = set()
    for number, source, proposal_id, rules, learned in history:
        now_rules = set(rules or [])
        for rule in now_rules - previous_rules:
            rule_origin[rule] = (number, source, proposal_id)
        now_learned = {(e.get("field", ""), e.get("sentence", "")) for e in learned or []}
        for pair in now_learned - previous_learned:
            sentence_origin[pair] = (number, proposal_id)
        previous_rules, previous_learned = now_rules, now_learned
    lines: list[LearnedLine] = []
    for entry in version.learned or []:
        section, sentence = entry.get("field", ""), entry.get("sentence", "")
        if section not in ("goals", "background") or not sentence:
            continue
        came = sentence_origin.get((section, sentence))
        lines.append(
            LearnedLine(
                section=section,
                text=sentence,
                key=text_key(sentence),
                proposal_id=came[1] if came else None,
                version=came[0] if came else None,
                note=entry.get("note", ""),
            )
        )
    for rule in version.standing_rules or []:
        origin = rule_origin.get(rule)
        if origin is None or origin[1] != SourceType.STANDING_RULE:
            continue
        lines.append(
            LearnedLine(
                section="standing_rules",
                text=rule,
                key=text_key(rule),
                proposal_id=origin[2],
                version=origin[0],
                note="a learned standing rule",
            )
        )
    return lines


def _remove_sentence(text: str, sentence: str) -> str:
    """``text`` without ``sentence`` (a learned sentence is appended to a line of its
    field); a line left empty goes, every other line keeps its place."""
    out = []
    for line in (text or "").replace("\r\n", "\n").split("\n"):
        if sentence in line:
            line = " ".join(line.replace(sentence, " ").split())
            if not line:
                continue
        out.append(line)
    return "\n".join(out)


def without_muted(
    version: AgentPersonaVersion, lines: Iterable[tuple[str, str]]
) -> AgentPersonaVersion:
    """``version`` as one person is given it: the lines muted for them (``(section,
    text_key)`` pairs) left out: a learned sentence from its field with its "Learned:"
    note, a standing rule from the rules. An unsaved copy (never write it); ``version``
    itself when nothing is muted."""
    muted = set(lines)
    if not muted:
        return version
    view = copy.copy(version)
    view.standing_rules = [
        r for r in version.standing_rules or [] if ("standing_rules", text_key(r)) not in muted
    ]
    kept = []
    texts = {"goals": version.goals, "background": version.background}
    for entry in version.learned or []:
        section, sentence = entry.get("field", ""), entry.get("sentence", "")
        if section in texts and (section, text_key(sentence)) in muted:
            texts[section] = _remove_sentence(texts[section], sentence)
        else:
            kept.append(entry)
    view.goals, view.background, view.learned = texts["goals"], texts["background"], kept
    return view
