"""Standing rules in French, Spanish, Italian, Portuguese, German, Danish and Norwegian: a
correction that recurs, kept as the person wrote it when it is an instruction of the
language's frame (``language.RULE_FRAMES``)."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from learning import language

if TYPE_CHECKING:
    from learning.proposers.local.corrections import Correction

_WORD = re.compile(r"\S+")
# the clause after a comma, to the end of its sentence or a colon
_NEXT_CLAUSE = re.compile(r"\s*,\s*([^,.;:!?\n]+)")


def written_out(word: str, code: str) -> str:
    """``word`` with a texting form of the language ``code`` written out, its punctuation
    and capital kept ("q" -> "que", "Pq," -> "Porque,"; ``learning.policy.TEXTING_FORMS``)."""
    from learning.policy import TEXTING_FORMS

    m = re.fullmatch(r"(\W*)(\w+)(\W*)", word)
    full = TEXTING_FORMS.get(code, {}).get(m.group(2).lower()) if m else None
    if not m or full is None or (len(m.group(2)) > 1 and m.group(2).isupper()):
        return word  # "TB", "PQ": an acronym, not a hurried word
    if m.group(2)[:1].isupper():
        full = full[:1].upper() + full[1:]
    return f"{m.group(1)}{full}{m.group(3)}"


def foreign_rule(hits: dict[int, tuple[Correction, int]], code: str) -> str | None:
    """The shortest correction of ``hits`` that is an instruction in ``code`` ("pon
    siempre los precios con el IVA incluido" -> "Pon siempre los precios con el IVA
    incluido."), courtesy words off its end; None when none is one (a bare "IVA
    incluido" is a reminder, and the proposer does not make up a verb for it)."""
    frame = language.RULE_FRAMES.get(code)
    if frame is None:
        return None
    variants: list[tuple[int, str]] = []
    for c, _ in hits.values():
        words = _WORD.findall(c.message.text[c.start : c.end])
        while words and words[-1].lower().strip(",.!") in frame.courtesy:
            words.pop()
        if words:
            words[-1] = words[-1].rstrip(",;:")
        if not language.instruction_in(words, code):
            continue
        text = " ".join(written_out(w, code) for w in words)
        after = _NEXT_CLAUSE.match(c.message.text, c.end)
        if after and words[0].lower() in frame.before_verb:
            # a prohibition and, after its comma, what to do instead: "nunca pongas una
            # hora exacta, pon una franja"
            more = _WORD.findall(after.group(1))
            if language.instruction_in(more, code) and more[0].lower() not in frame.before_verb:
                text = f"{text}, {' '.join(more)}"
        variants.append((len(words), text))
    if not variants:
        return None
    text = min(variants)[1]
    return text[:1].upper() + text[1:] + "."
