"""Which messages are never evidence for anything (PRODUCT.md section 5, issue 13).

A message that tells the assistant who to be, holds a secret or is an injection-scan
hit is dropped whole: not even its harmless part may back a learned sentence, a
standing rule or a belief. Persona learning (``learning.selection``) and memory
consolidation (``memory.consolidation``) both ask here, so the two never disagree.

**No false alarms** (issue 27): a message is dropped as holding a secret only when a
secret detector names it for a *span* of the message, never for its length or for
invisible characters:

- invisible characters (zero-width spaces and joiners, bidi marks, soft hyphens) are
  normalised before the scan: read as spaces first (words joined by zero-width spaces
  are words, not one random-looking token); and, so that a credential split by them
  is still found, read as nothing, where only a detector of a credential's own shape
  (a provider's key, a private key, an Authorization header, ...) counts, not the
  generic keyword, entropy or learned hits that any long run of joined words trips;
- the learned layer of the secret scan judges a whole text, and a long ordinary
  message gathers enough of its features to cross its threshold: when it is the only
  thing that fires, the message is dropped only if it also fires on the span around a
  token that could be a credential (its lines, a dozen words either side), never on
  the text as a whole alone.

``why_unsafe`` also says why (the kinds of credential, the scan's pattern ids), so the
review log can say what was left out and why, without a word of the message.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from dataclasses import dataclass
from typing import Literal

from safety.directives import is_directive
from safety.injection import quoted_instructions, scan
from safety.secrets import GENERIC_RULE_KINDS, LEARNED_KIND, candidate_spans, find_secrets
from safety.text import drop_invisible, invisible_as_spaces

UnsafeKind = Literal["directive", "secret", "injection"]

#: Kinds a generic rule or the learned layer gives: any long run of words joined by
#: invisible characters may trip them, so in the reading with invisibles dropped they
#: do not count (``secret_kinds``).
GENERIC_KINDS = GENERIC_RULE_KINDS | {LEARNED_KIND}

#: A span the learned layer judges on its own: the lines around a token that could be a
#: credential (as its veto reads a hit, ``safety.secrets._VETO_CONTEXT``), at most this
#: many words either side of it.
CONTEXT_LINES = 2
CONTEXT_WORDS = 12
_WORD = re.compile(r"\S+")
_NEWLINE = re.compile(r"\n")


@dataclass(frozen=True)
class Unsafe:
    """Why a message is never evidence: its ``kind`` and what the check found
    (credential kinds or pattern ids), never the message's words."""

    kind: UnsafeKind
    found: tuple[str, ...] = ()


def candidate_windows(text: str) -> list[str]:
    """The spans of ``text`` around each token that could be a credential
    (``safety.secrets.candidate_spans``): its line with ``CONTEXT_LINES`` lines either
    side, cut to ``CONTEXT_WORDS`` words either side of the token."""
    out: list[str] = []
    line_starts = [0] + [m.end() for m in _NEWLINE.finditer(text)]
    for a, b in candidate_spans(text):
        first = bisect_right(line_starts, a) - 1 - CONTEXT_LINES
        after_last = bisect_right(line_starts, b - 1) + CONTEXT_LINES
        start = line_starts[max(first, 0)]
        end = line_starts[after_last] - 1 if after_last < len(line_starts) else len(text)
        before = [m.start() for m in _WORD.finditer(text, start, a)]
        if len(before) > CONTEXT_WORDS:
            start = before[-CONTEXT_WORDS]
        after = [m.end() for m in _WORD.finditer(text, b, end)]
        if len(after) > CONTEXT_WORDS:
            end = after[CONTEXT_WORDS - 1]
        out.append(text[start:end])
    return list(dict.fromkeys(out))


def _confirmed(text: str) -> list[str]:
    """``find_secrets`` of ``text``; the learned layer's flag of the whole text is kept
    only when it (or a rule) fires on a span around a token that could be a
    credential (``candidate_windows``), never on the text as a whole alone."""
    kinds = find_secrets(text)
    if kinds != [LEARNED_KIND]:
        return kinds  # each rule names a value, a line or a header: a span
    windows = candidate_windows(text)
    if any(w == text for w in windows) or any(find_secrets(w) for w in windows):
        return kinds
    return []


def secret_kinds(text: str) -> list[str]:
    """The kinds of credential a detector finds in a span of ``text`` (empty when
    none), invisible characters normalised (see the module docstring)."""
    if not text or not text.strip():
        return []
    spaced = invisible_as_spaces(text)
    kinds = _confirmed(spaced)
    if kinds or spaced == text:
        return kinds
    return [k for k in _confirmed(drop_invisible(text)) if k not in GENERIC_KINDS]


def why_unsafe(text: str) -> Unsafe | None:
    """Why ``text`` may never be evidence, or None when it may.

    The injection scan runs its word patterns only (no model is loaded): a read must
    stay fast and offline; the model layer guards the render path.
    """
    if is_directive(text):
        return Unsafe("directive")
    if kinds := secret_kinds(text):
        return Unsafe("secret", tuple(kinds))
    result = scan(text, semantic=False)
    if result.blocked:
        return Unsafe("injection", tuple(result.pattern_ids))
    # a quoted instruction is a mention to the person, an instruction to a model proposer
    if quoted := quoted_instructions(text):
        return Unsafe("injection", quoted)
    return None


def unsafe_kind(text: str) -> UnsafeKind | None:
    """Why ``text`` may never be evidence (its kind only), or None when it may."""
    found = why_unsafe(text)
    return found.kind if found else None


__all__ = [
    "GENERIC_KINDS",
    "Unsafe",
    "UnsafeKind",
    "secret_kinds",
    "unsafe_kind",
    "why_unsafe",
]
