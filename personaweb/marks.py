"""Presentation of text for people: word diffs of persona fields and quotes marked
inside their messages. Pure functions; templates escape every piece."""

from __future__ import annotations

import difflib
import re
from collections.abc import Collection, Iterable
from typing import Any

_TOKEN = re.compile(r"\s+|[^\s]+")


def field_text(value: Any) -> str:
    """A persona field as text for a diff: lists become numbered lines."""
    if isinstance(value, list):
        return "\n".join(f"{i}. {item}" for i, item in enumerate(value, start=1))
    return str(value or "")


def word_diff(old: str, new: str) -> list[tuple[str, str]]:
    """(op, text) runs of a word diff: op is "eq", "ins" or "del".

    Words and the white space between them are the units, so a sentence appended to a
    paragraph shows as one inserted run and nothing else moves.
    """
    a = _TOKEN.findall(old)
    b = _TOKEN.findall(new)
    out: list[tuple[str, str]] = []
    matcher = difflib.SequenceMatcher(a=a, b=b, autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            out.append(("eq", "".join(a[i1:i2])))
            continue
        if tag in ("delete", "replace"):
            out.append(("del", "".join(a[i1:i2])))
        if tag in ("insert", "replace"):
            out.append(("ins", "".join(b[j1:j2])))
    return [run for run in out if run[1]]


# --- quote marks ----------------------------------------------------------------------


def marked_segments(text: str, spans: Iterable[tuple[int, int]]) -> list[tuple[str, bool]]:
    """``text`` cut into (piece, is_marked) runs for the character spans given.

    Overlapping and touching spans merge; spans outside the text are clipped; the
    template escapes each piece, so nothing here is trusted HTML.
    """
    n = len(text)
    clean = sorted(
        (max(0, s), min(n, e)) for s, e in spans if isinstance(s, int) and isinstance(e, int)
    )
    merged: list[list[int]] = []
    for s, e in clean:
        if s >= e:
            continue
        if merged and s <= merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], e)
        else:
            merged.append([s, e])
    out: list[tuple[str, bool]] = []
    pos = 0
    for s, e in merged:
        if s > pos:
            out.append((text[pos:s], False))
        out.append((text[s:e], True))
        pos = e
    if pos < n or not out:
        out.append((text[pos:], False))
    return out


def group_quotes(evidence: Any) -> list[dict[str, Any]]:
    """Evidence quotes grouped by conversation and person, in first-seen order.

    Each group: conversation_id, conversation_label, person, quotes (the evidence dicts).
    """
    groups: dict[tuple[Any, Any], dict[str, Any]] = {}
    for item in evidence if isinstance(evidence, list) else []:
        if not isinstance(item, dict):
            continue
        # learning stores "conversation" and "user"; older records the long names
        person = item.get("principal_external_id") or item.get("user") or ""
        key = (item.get("conversation_id"), person)
        group = groups.get(key)
        if group is None:
            group = groups[key] = {
                "conversation_id": item.get("conversation_id"),
                "conversation_label": item.get("conversation_label")
                or item.get("conversation")
                or item.get("conversation_id"),
                "person": person,
                "quotes": [],
            }
        group["quotes"].append(item)
    return list(groups.values())


def quote_mark_param(item: dict[str, Any]) -> str:
    """``message_id:start:end`` for a conversation link that marks this quote."""
    try:
        return f"{int(item['message_id'])}:{int(item['start'])}:{int(item['end'])}"
    except (KeyError, TypeError, ValueError):
        return ""


def parse_mark_params(values: Iterable[str]) -> dict[int, list[tuple[int, int]]]:
    out: dict[int, list[tuple[int, int]]] = {}
    for value in values:
        parts = value.split(":")
        if len(parts) != 3:
            continue
        try:
            mid, start, end = (int(p) for p in parts)
        except ValueError:
            continue
        out.setdefault(mid, []).append((start, end))
    return out


def evidence_conversation_ids(*evidences: Any) -> set[int]:
    """The conversation ids quoted in some evidence lists (to ask once which are sealed)."""
    out: set[int] = set()
    for evidence in evidences:
        for item in evidence if isinstance(evidence, list) else []:
            cid = item.get("conversation_id") if isinstance(item, dict) else None
            if isinstance(cid, int):
                out.add(cid)
    return out


def quote_groups_for(
    evidence: Any, *, sealed: Collection[int] = (), texts: dict[int, str] | None = None
) -> list[dict[str, Any]]:
    """Evidence as the pages show it: grouped, each quote with its conversation link
    mark, and quotes from a sealed conversation reduced to a note (never their text).

    ``texts`` (message id -> text, read once for a whole page) puts each quote inside
    its sentence: ``context`` (see ``quote_in_context``)."""
    groups = group_quotes(evidence)
    for group in groups:
        hidden = group["conversation_id"] in sealed
        group["sealed"] = hidden
        shown = []
        for quote in group["quotes"]:
            if hidden:
                shown.append({"sealed": True, "quote": "", "mark": ""})
            else:
                context = None
                mid = quote.get("message_id")
                if texts is not None and isinstance(mid, int) and mid in texts:
                    context = quote_in_context(texts[mid], quote.get("start"), quote.get("end"))
                shown.append({**quote, "mark": quote_mark_param(quote), "context": context})
        group["quotes"] = shown
    return groups


# --- a quote inside its sentence -------------------------------------------------------

#: Characters a reader cannot see, shown by name so a quote hides nothing.
_HIDDEN = {
    "\u00a0": "[no-break space]",
    "\u00ad": "[soft hyphen]",
    "\u034f": "[grapheme joiner]",
    "\u061c": "[arabic letter mark]",
    "\u180e": "[mongolian vowel separator]",
    "\u2028": "[line separator]",
    "\u2029": "[paragraph separator]",
    "\u2060": "[word joiner]",
    "\ufeff": "[zero-width no-break space]",
    "\t": "[tab]",
}
_HIDDEN_RANGES = ((0x200B, 0x200F), (0x202A, 0x202E), (0x2061, 0x206F), (0xFE00, 0xFE0F))
_CONTEXT_WORDS = re.compile(r"\S+")
#: every character ``_hidden_name`` names (and line breaks, shown as a space): a text
#: with none of them is one plain run, found without a walk over its characters
_SPECIAL = re.compile(
    "["
    + "".join(re.escape(ch) for ch in _HIDDEN)
    + "".join(f"\\u{lo:04x}-\\u{hi:04x}" for lo, hi in _HIDDEN_RANGES)
    + "\\x00-\\x1f]"
)


def _hidden_name(ch: str) -> str | None:
    if ch in _HIDDEN:
        return _HIDDEN[ch]
    code = ord(ch)
    if any(lo <= code <= hi for lo, hi in _HIDDEN_RANGES) or (code < 0x20 and ch not in "\n\r"):
        return f"[U+{code:04X}]"
    return None


def visible(text: str) -> list[tuple[str, bool]]:
    """``text`` as (piece, is_hidden_character) runs: each invisible character (zero
    width, direction marks, no-break spaces, control characters) becomes its name in
    brackets, flagged so a page can style it; line breaks become a space."""
    if _SPECIAL.search(text) is None:
        return [(text, False)] if text else []
    out: list[tuple[str, bool]] = []
    plain: list[str] = []
    for ch in text:
        name = _hidden_name(ch)
        if name is None:
            plain.append(" " if ch in "\n\r" else ch)
            continue
        if plain:
            out.append(("".join(plain), False))
            plain = []
        out.append((name, True))
    if plain:
        out.append(("".join(plain), False))
    return out


def quote_in_context(text: str, start: int, end: int, *, words: int = 6) -> dict[str, Any] | None:
    """The quote ``text[start:end]`` with up to ``words`` words either side.

    Returns before / quote / after as ``visible`` runs and whether the message goes on
    either side (``more_before`` / ``more_after``), or None when the span does not fit
    the text (the message changed or the evidence is old)."""
    if not (isinstance(start, int) and isinstance(end, int)) or not 0 <= start < end <= len(text):
        return None
    left = list(_CONTEXT_WORDS.finditer(text, 0, start))
    cut_left = left[-words].start() if len(left) >= words else 0
    right = list(_CONTEXT_WORDS.finditer(text, end))
    cut_right = right[words - 1].end() if len(right) >= words else len(text)
    # a word cut by the quote's end is part of the "after" context
    return {
        "before": visible(text[cut_left:start]),
        "quote": visible(text[start:end]),
        "after": visible(text[end:cut_right]),
        "more_before": cut_left > 0,
        "more_after": cut_right < len(text),
    }


def evidence_message_ids(*evidences: Any) -> set[int]:
    """The message ids quoted in some evidence lists (to read their text at once)."""
    out: set[int] = set()
    for evidence in evidences:
        for item in evidence if isinstance(evidence, list) else []:
            mid = item.get("message_id") if isinstance(item, dict) else None
            if isinstance(mid, int):
                out.add(mid)
    return out
