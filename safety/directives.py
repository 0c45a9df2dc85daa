"""Messages that tell the assistant who to be (PRODUCT.md section 5).

Such a message is never read as evidence: not by a learning review, not by memory
consolidation.
"""

from __future__ import annotations

import re

from safety.text import normalize

# "Who to be" messages. Matched on the normalised text (case, quotes, dashes, invisible
# characters folded), anywhere in the message: such a message may be text pasted from
# somewhere else, and a persona changes on purpose only through update_persona or the form.
_DIRECTIVE_PATTERNS = [
    r"\byour (?:main |primary |new |only |real |true )?(?:goal|goals|role|job|purpose|mission|task|persona|personality|identity|background|instructions?) (?:is|are|will be|should be|now)\b",
    r"\b(?:add|put|write|save|include|append|insert) (?:this|that|these|it|the following)? ?(?:to|in|into|on) (?:your|the) (?:persona|personality|profile|system prompt|instructions|memory|goals|background|guardrails|standing rules)\b",
    r"\b(?:update|change|edit|modify|rewrite|replace|set|extend) (?:your|the) (?:persona|personality|system prompt|instructions|goals|background|guardrails|standing rules|role|identity)\b",
    r"\b(?:you are|youre) now\b",
    r"\bfrom now on (?:youre|youll|you (?:are|will|must|should|shall|act))\b",
    r"\b(?:act|behave|pretend|roleplay|role play) as (?:if you were |though you were )?(?:a|an|my|the)\b",
    r"\byou (?:will|shall|must|should) (?:now |henceforth |always )?be (?:a|an|my|the)\b",
    r"\bremember that you are\b",
    r"\b(?:your|the) (?:persona|personality|system prompt) (?:should|must|will|needs to)\b",
    r"\bthink of yourself as\b",
    r"\bfrom now on (?:your|the assistant)\b",
    r"\bnew (?:persona|personality|instructions|system prompt)\b",
]
_DIRECTIVE_RE = re.compile("|".join(f"(?:{p})" for p in _DIRECTIVE_PATTERNS))


def is_directive(text: str) -> bool:
    """True when a message tells the agent who to be; such a message is never read."""
    # apostrophes inside words are dropped by normalize ("you're" -> "youre")
    norm = normalize(text).text
    return bool(_DIRECTIVE_RE.search(norm))
