"""Which messages are never evidence for anything (PRODUCT.md section 5, issue 13).

A message that tells the assistant who to be, holds a secret or is an injection-scan
hit is dropped whole: not even its harmless part may back a learned sentence, a
standing rule or a belief. Persona learning (``learning.selection``) and memory
consolidation (``memory.consolidation``) both ask here, so the two never disagree.
"""

from __future__ import annotations

from typing import Literal

from safety.directives import is_directive
from safety.injection import scan
from safety.secrets import find_secrets

UnsafeKind = Literal["directive", "secret", "injection"]


def unsafe_kind(text: str) -> UnsafeKind | None:
    """Why ``text`` may never be evidence, or None when it may.

    The injection scan runs its word patterns only (no model is loaded): a read must
    stay fast and offline; the model layer guards the render path.
    """
    if is_directive(text):
        return "directive"
    if find_secrets(text):
        return "secret"
    if scan(text, semantic=False).blocked:
        return "injection"
    return None
