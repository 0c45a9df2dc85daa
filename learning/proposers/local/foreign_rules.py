"""Standing rules in French, Spanish, Italian, Portuguese, German, Danish and Norwegian: a
correction that recurs, kept as the person wrote it when it is an instruction of the
language's frame (``language.RULE_FRAMES``)."""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import TYPE_CHECKING

from learning import language
from safety.text import strip_accents

if TYPE_CHECKING:
    from learning.proposers.local.corrections import Correction

_WORD = re.compile(r"\S+")
_LETTERS = re.compile(r"[^\W\d_]+")
#: the shortest word given its accents back: a short one may be another word plain ("a"
#: and "à", "ou" and "où")
_ACCENTED_MIN = 4
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


def accented_as_written(text: str, written: Iterable[str], code: str) -> str:
    """``text`` with each word typed without its accents (on a phone: "numeros") spelled
    as the same person or persona writes it elsewhere ("numéros"): one spelling with
    accents, of the same letters, at least ``_ACCENTED_MIN`` long and no function word of
    ``code``; a word written with two accented spellings, or never with one, as it is."""
    spellings: dict[str, set[str]] = {}
    for source in written:
        for w in _LETTERS.findall(source):
            low = w.lower()
            plain = strip_accents(low)
            if plain != low:
                spellings.setdefault(plain, set()).add(low)
    function_words = language.FUNCTION_WORDS.get(code, frozenset())

    def accented(m: re.Match[str]) -> str:
        word = m.group(0)
        low = word.lower()
        forms = spellings.get(low, set())
        if len(forms) != 1 or len(low) < _ACCENTED_MIN or low in function_words:
            return word
        form = next(iter(forms))
        return form[:1].upper() + form[1:] if word[:1].isupper() else form

    return _LETTERS.sub(accented, text)
