"""The agent's system-prompt prefix, rendered from one persona version.

Order (PRODUCT.md section 1): guardrails as a numbered list; standing rules under a
heading saying a guardrail outranks them; name and role; goals; background; a line
saying the persona grants no new authority.

Every piece of persona text passes ``safety.checks.render_safe`` at render (batched:
the secret scan, the word patterns and the learned layer): a hit renders
``[BLOCKED: <ids>]`` in its place and the original stays stored. Goals and background are scanned line by line,
so one poisoned learned sentence blocks that line, not the whole field.

The output is deterministic bytes for a given version and pattern table: no
timestamps, "\\n" line endings, no trailing white space, one blank line between
sections, no trailing newline. A learned goals/background sentence is followed by a
note giving its reason (how many conversations, who approved it) with no user words in
it; evidence quotes are never rendered and stay in the version history only.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from persona.models import AgentPersonaVersion
from persona.tokens import count_tokens

GUARDRAILS_HEADING = "Guardrails (always follow these; nothing below overrides them):"
RULES_HEADING = "Standing rules (a guardrail outranks any of these):"
GOALS_HEADING = "Goals:"
BACKGROUND_HEADING = "Background:"
NO_AUTHORITY_LINE = (
    "This persona describes who you are and how you work; it grants no new authority, "
    "permissions or access beyond what the host and the guardrails above allow."
)


def _lines(text: str) -> list[str]:
    """Non-empty lines of a stored text with stable white space."""
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    return [line.strip() for line in text.split("\n") if line.strip()]


def _one_line(text: str) -> str:
    return " ".join(text.split())


@dataclass(frozen=True)
class Piece:
    """One scanned unit of persona text and where it renders."""

    section: str
    label: str
    text: str
    #: guardrail, standing_rule, name, role, goals_line, background_line or learned_note
    kind: str = ""
    #: Words personaweb writes around the text (a learned sentence's provenance); they are
    #: not persona text, so they are not scanned, and they stay around a placeholder.
    before: str = ""
    after: str = ""


@dataclass
class SectionReport:
    key: str
    title: str
    text: str
    tokens: int


@dataclass
class BlockedEntry:
    section: str
    label: str
    text: str
    pattern_ids: list[str]


@dataclass
class RenderReport:
    """What the dashboard's prompt preview shows: the prefix, tokens per section
    (counted with ``count_tokens``, the one counter) and the blocked entries."""

    text: str
    total_tokens: int
    sections: list[SectionReport] = field(default_factory=list)
    blocked: list[BlockedEntry] = field(default_factory=list)
    #: Some text is still being scanned (shown as the scanning placeholder meanwhile).
    pending: bool = False


def _pieces(version: AgentPersonaVersion) -> list[Piece]:
    pieces: list[Piece] = []
    for i, item in enumerate(version.guardrails or [], start=1):
        pieces.append(Piece("guardrails", f"guardrail {i}", _one_line(item), "guardrail"))
    for i, item in enumerate(version.standing_rules or [], start=1):
        pieces.append(
            Piece("standing_rules", f"standing rule {i}", _one_line(item), "standing_rule")
        )
    pieces.append(Piece("identity", "name", _one_line(version.name), "name"))
    if version.role.strip():
        pieces.append(Piece("identity", "role", _one_line(version.role), "role"))
    for i, line in enumerate(_lines(version.goals), start=1):
        pieces.append(Piece("goals", f"goals line {i}", line, "goals_line"))
    pieces.extend(_learned_pieces(version, "goals"))
    for i, line in enumerate(_lines(version.background), start=1):
        pieces.append(Piece("background", f"background line {i}", line, "background_line"))
    pieces.extend(_learned_pieces(version, "background"))
    return pieces


def _learned_pieces(version: AgentPersonaVersion, section: str) -> list[Piece]:
    """One line per learned sentence of ``section``: the sentence and a reason with no
    user words in it (the quotes it rests on stay in the version history)."""
    return [
        Piece(
            section,
            f"learned note {i}",
            _one_line(entry["sentence"]),
            "learned_note",
            before='(Learned: "',
            after=_one_line(f'" ({entry["note"]}).)'),
        )
        for i, entry in enumerate(
            (e for e in (version.learned or []) if e.get("field") == section), start=1
        )
    ]


#: a rendered line of the prefix and the piece of persona text it shows (None: words
#: personaweb writes around the persona: a heading, the name's frame, the authority line)
RenderedLine = tuple[str, Piece | None]


def rendered_sections(
    version: AgentPersonaVersion, *, wait: bool = True
) -> list[tuple[str, str, list[RenderedLine]]]:
    """(key, title, lines) for every non-empty section, in prompt order; each line with
    the piece it renders (``persona.provenance`` tells each line's story from it)."""
    pieces = _pieces(version)
    safe: dict[str, list[tuple[Piece, str]]] = {}
    from safety.checks import render_safe_many

    rendered = render_safe_many([p.text for p in pieces], wait=wait)
    for piece, text in zip(pieces, rendered, strict=True):
        safe.setdefault(piece.section, []).append((piece, piece.before + text + piece.after))
    out: list[tuple[str, str, list[RenderedLine]]] = []
    if safe.get("guardrails"):
        lines: list[RenderedLine] = [(GUARDRAILS_HEADING, None)]
        lines += [(f"{i}. {text}", p) for i, (p, text) in enumerate(safe["guardrails"], start=1)]
        out.append(("guardrails", "Guardrails", lines))
    if safe.get("standing_rules"):
        lines = [(RULES_HEADING, None)]
        lines += [(f"- {text}", p) for p, text in safe["standing_rules"]]
        out.append(("standing_rules", "Standing rules", lines))
    identity = {p.label: (p, text) for p, text in safe["identity"]}
    name_piece, name = identity["name"]
    lines = [(f"Your name is {name}.", name_piece)]
    if "role" in identity:
        role_piece, role = identity["role"]
        lines.append((f"Your role: {role}", role_piece))
    out.append(("identity", "Name and role", lines))
    if safe.get("goals"):
        lines = [(GOALS_HEADING, None)] + [(text, p) for p, text in safe["goals"]]
        out.append(("goals", "Goals", lines))
    if safe.get("background"):
        lines = [(BACKGROUND_HEADING, None)] + [(text, p) for p, text in safe["background"]]
        out.append(("background", "Background", lines))
    out.append(("authority", "No new authority", [(NO_AUTHORITY_LINE, None)]))
    return out


def _sections(version: AgentPersonaVersion, *, wait: bool = True) -> list[tuple[str, str, str]]:
    """(key, title, rendered text) for every non-empty section, in prompt order."""
    return [
        (key, title, "\n".join(text for text, _ in lines))
        for key, title, lines in rendered_sections(version, wait=wait)
    ]


def render_persona(version: AgentPersonaVersion, *, wait: bool = True) -> str:
    """The prefix text for ``version``: deterministic bytes, ``\\n`` line endings.
    ``wait=False`` (a page's preview) shows text the scan has not judged yet as the
    scanning placeholder; the prefix a plan pins always waits."""
    return "\n\n".join(text for _, _, text in _sections(version, wait=wait))


def render_report(version: AgentPersonaVersion, *, wait: bool = True) -> RenderReport:
    """The rendered prefix with per-section token counts and the blocked entries.

    ``wait=False`` (the dashboard) never waits for the embedding model: texts it cannot
    judge yet render as the scanning placeholder and ``pending`` is set, so the page
    polls until the scan is done.
    """
    from safety.checks import verdicts

    sections = _sections(version, wait=wait)
    text = "\n\n".join(s for _, _, s in sections)
    blocked = []
    pending = False
    pieces = _pieces(version)
    for piece, verdict in zip(pieces, verdicts([p.text for p in pieces], wait=wait), strict=True):
        if verdict.pending:
            pending = True
            continue
        if verdict.blocked:
            blocked.append(
                BlockedEntry(
                    section=piece.section,
                    label=piece.label,
                    text=piece.text,
                    pattern_ids=list(verdict.ids),
                )
            )
    return RenderReport(
        text=text,
        total_tokens=count_tokens(text),
        sections=[
            SectionReport(key=k, title=t, text=s, tokens=count_tokens(s)) for k, t, s in sections
        ],
        blocked=blocked,
        pending=pending,
    )
