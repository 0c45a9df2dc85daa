"""The answer of ``prompt_explain`` (``GET /v1/agents/{slug}/prefix?explain=1`` and the
MCP tool of the same name): every line of the prefix with where it came from
(``persona.provenance``)."""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from ninja import Field, Schema


class QuoteOut(Schema):
    quote: str = Field(
        description=(
            "the person's words; empty when the conversation is sealed, or for a caller "
            "bound to one person (other people's words)"
        )
    )
    conversation: str = Field(description="the conversation's label")
    conversation_id: int | None
    message_id: int | None
    verified: bool = Field(description="the quote was found in the message as quoted")
    sealed: bool
    start: int | None
    end: int | None


class VersionStoryOut(Schema):
    version: int = Field(description="the persona version")
    source_type: str = Field(
        description="host, manual, ui_form, update_persona, persona_learning, standing_rule or revert"
    )
    source: str
    summary: str = Field(description="one sentence: what made this version")
    reason: str
    by: str = Field(description="who wrote or approved it ('auto': applied automatically)")
    at: datetime | None
    proposal_id: int | None = Field(description="the learning proposal it applied or undid")
    restores_version: int | None = Field(description="a revert: the version it restored")
    quotes: list[QuoteOut] = Field(description="what a learned version rests on")


class BeliefEvidenceOut(Schema):
    quote: str = Field(description="empty when sealed or muted")
    message_id: int | None
    conversation_id: int | None
    host: str | None = Field(description="the host that wrote the belief")
    sealed: bool


class EntryBeliefOut(Schema):
    id: int
    statement: str = Field(description="empty for a muted belief")
    category: str
    status: str
    muted: bool
    sensitivity: str
    evidence: BeliefEvidenceOut


class EntryStoryOut(Schema):
    key: str
    source: Literal["user_edit", "affirmation"]
    author: str = Field(description="owner, owner_token or on_behalf")
    written_by: str
    document_version: int
    tier: str
    sensitivity: str
    summary: str
    belief_id: int | None = Field(description="the belief an affirmed entry came from")
    belief: EntryBeliefOut | None


class LineOut(Schema):
    n: int = Field(description="line number in the prefix, from 1")
    text: str
    section: str = Field(
        description="guardrails, standing_rules, identity, goals, background, authority, owner; "
        "empty for the blank line between two sections"
    )
    kind: Literal[
        "frame",
        "blank",
        "guardrail",
        "standing_rule",
        "name",
        "role",
        "goals_line",
        "background_line",
        "learned_note",
        "owner_entry",
    ] = Field(description="frame: words personaweb writes around the persona")
    label: str
    summary: str = Field(description="one sentence: where the line came from")
    since: VersionStoryOut | None = Field(
        description="the persona version that gave the line its present form"
    )
    earlier: list[VersionStoryOut] = Field(
        description="earlier runs of the same line (it stood before and came back), newest first"
    )
    older_than: int | None = Field(
        description="the line stands since before this version (older history not read)"
    )
    entry: EntryStoryOut | None = Field(description="an owner-document entry's story")


class PrefixExplainOut(Schema):
    prefix: str = Field(description="the lines joined with a line break")
    sha256: str
    persona_version: int
    owner_doc_version: int | None
    pinned: bool = Field(
        description="the session has a plan (its pinned versions are explained); false: what "
        "a plan call would pin now"
    )
    epoch: int | None
    matches_pinned: bool = Field(
        description="false only when the injection patterns changed since the plan was "
        "pinned (the next rotation pins this rendering)"
    )
    lines: list[LineOut]
