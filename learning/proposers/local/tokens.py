"""Words with their places in a text, and clauses: what every other part reads."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from learning import language
from learning.proposers.local.words import (
    DETERMINERS,
    EDIT_VERBS,
    PARTICLES,
    PREPOSITIONS,
    PRONOUN_WORDS,
    TURNING_VERBS,
)
from safety.text import (
    STOP_WORDS,
    fold_case,
)

if TYPE_CHECKING:
    pass


# --- word lists (small and deliberate) ---------------------------------------------------

# a word: letters, with an apostrophe ("don't") or a hyphen ("pre-op", "24-hour") inside
_WORD = re.compile(r"[^\W_]+(?:['\u2019-][^\W_]+)*")


# an emoji: in a chat it ends a sentence as a full stop does ("hip's great 😊 Order of
# service for …")
EMOJI = r"[\u2600-\u27bf\U0001f000-\U0001faff]"

# a clause ends at sentence punctuation, a colon, a semicolon, a comma, a dash, a
# bracket or an emoji ("Worth a try 😅 Then draft a quote"); a full stop or comma
# between digits is part of a number ("0.9.3", "£73.50", "1,500")
_CLAUSE_EDGE = re.compile(
    r"(?<!\d)[.,]|[.,](?!\d)|[!?;:\n()\[\]\u2014\u2013\"\u201c\u201d]"
    rf"|\s-\s|\s{{2,}}|{EMOJI}+"
)

# a qualified name: words joined by "::" or by a full stop with no space after it
# ("Test::More", "Coquet::Billing::Suspend", "System.Text.Json"): a full stop that ends a
# sentence has a space after it (``code_shaped``), so neither ends a clause inside one
# (never a piece of an e-mail address: "s.ahmed@example.com")
_QUALIFIED = re.compile(r"(?<![@.\w])[^\W_]+(?:(?:::|\.)[^\W\d_][^\W_]*)+(?![\w@])")

# where a sentence ends: its punctuation or a new line
_SENTENCE_END = re.compile(r"[.!?\n]")


# --- tokens ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Tok:
    text: str  # as written
    low: str  # case-folded, typographic apostrophe folded
    start: int
    end: int
    # a piece of a qualified name: "inner" ("Test" of "Test::More", "Booking" of
    # "Booking.com"), which says which one, as a name does, or its "last" piece
    qualified: str = ""


def tokens(text: str, start: int = 0, end: int | None = None) -> list[Tok]:
    stop = len(text) if end is None else end
    names = [(q.start(), q.end()) for q in _QUALIFIED.finditer(text, start, stop)]
    out = []
    for m in _WORD.finditer(text, start, stop):
        within = [b for a, b in names if a <= m.start() < b]
        qualified = ("last" if m.end() == within[0] else "inner") if within else ""
        low = fold_case(m.group()).replace("\u2019", "'")
        out.append(Tok(m.group(), low, m.start(), m.end(), qualified))
    return out


def clauses(readable: str, *, names: bool = False) -> list[tuple[int, int]]:
    """Spans of the clauses of ``readable`` (code and pasted text already blanked). With
    ``names`` (the request reader) a qualified name ends no clause ("write Test::More
    tests"); corrections and quotes keep their own edges."""
    spans, start = [], 0
    inside = [(q.start(), q.end()) for q in _QUALIFIED.finditer(readable)] if names else []
    for m in _CLAUSE_EDGE.finditer(readable):
        if any(a < m.start() < b for a, b in inside):
            continue  # "write Test::More tests": one noun phrase
        if m.start() > start:
            spans.append((start, m.start()))
        start = m.end()
    if start < len(readable):
        spans.append((start, len(readable)))
    return [(a, b) for a, b in spans if readable[a:b].strip()]


def code_shaped(text: str, tok: Tok) -> bool:
    """Whether ``tok`` is written as code, told by the characters touching it: a member or a
    dotted name (".Result", "svc.Refund", "pd.read_parquet", "Booking.com"), a call
    ("load_batch(", ".Wait()"), a tag or a type argument ("<Nullable>", "IOptions<BlobSettings>"),
    an identifier joined by "_" ("fct_sessions") or a key=value pair ("n=12,300"). A full
    stop that ends a sentence has a space after it, so a word right after one is a member.
    The one test of code by shape: quotes and corrections ask it (``hygiene._code_token``)."""
    before = text[tok.start - 1] if tok.start else ""
    before2 = text[tok.start - 2] if tok.start > 1 else ""
    after = text[tok.end] if tok.end < len(text) else ""
    after2 = text[tok.end + 1] if tok.end + 1 < len(text) else ""
    if "=" in (before, after):
        return True  # a key=value pair, a comparison: output, not the person's words
    if tok.text.isdigit() and not (before.isalpha() or after.isalpha()):
        return False  # a number, a version or a price: "0.9.3", "73.50"
    return (
        "_" in (before, after)
        or after == "("
        or (after == "." and after2.isalnum())
        # "svc.Refund", and a member written bare in prose: "no .Result please"
        or (before == "." and (before2.isalnum() or before2 in ")]" or not before2.strip()))
        or before == "<"
        or after in ("<", ">")
        or (before == "/" and before2 == "<")
    )


# stop words that are nouns all the same ("a login help reply")
NOUN_STOP_WORDS = frozenset(
    ["help", "way", "thing", "things", "stuff", "bit", "lot", "lots", "need", "one"]
)


# words that close a verbless request: "Flour order time", "Refund reply needed"
REQUEST_TAILS = frozenset(["time", "please", "pls", "plz", "needed", "again", "asap"])


def _wordlike(word: str) -> bool:
    """Letters only, or words of letters joined by hyphens ("pre-op", "follow-up"): a
    hyphenated word is one word, and its prefix ("pre", "non", "co") never one alone."""
    return word.replace("-", "").isalpha()


def _is_noun_word(tok: Tok) -> bool:
    w = tok.low
    if (w in STOP_WORDS and w not in NOUN_STOP_WORDS) or w in DETERMINERS or w in PREPOSITIONS:
        return False
    if not _wordlike(w) or w in REQUEST_TAILS:
        return False
    if language.can_be(w, "NOUN") or language.can_be(w, "ADJ"):
        return True
    return not language.is_english_word(w)  # an unknown word: a name of a thing


# finite forms of "be", "have" and "do" that agree with a subject: the word right before
# one is that subject ("Create isn't an approved verb", "Delete is not allowed"), never an
# imperative verb, which no finite verb follows
SUBJECT_AGREEING = frozenset(
    f"{w}{n}" for w in ("is", "are", "was", "were", "has", "does") for n in ("", "n't", "n\u2019t")
)


def _is_verb_here(toks: list[Tok], i: int) -> bool:
    """Whether ``toks[i]`` is the verb of an imperative clause starting at ``i``: it can
    be a verb, and a determiner or pronoun follows, or it is a verb of work ("Write
    pytest tests"), or it can be nothing else and no noun follows ("Commit message for"
    is a noun phrase). A word a finite "is"/"isn't"/"has" follows is its subject, named
    as a thing ("Create isn't an approved verb"), whatever verb it can be."""
    from learning.policy import WORK_VERBS

    w = toks[i].low
    if not language.can_be(w, "VERB"):
        return False
    nxt = toks[i + 1].low if i + 1 < len(toks) else ""
    if nxt in SUBJECT_AGREEING:
        return False
    if nxt in DETERMINERS or nxt in PRONOUN_WORDS or nxt in PARTICLES or nxt.endswith("'s"):
        return True
    if w in WORK_VERBS or w in EDIT_VERBS:
        return True
    if nxt == "into" and language.lemma(w, "VERB") in TURNING_VERBS:
        return True  # "turn into report": what it becomes follows
    if language.can_be(w, "NOUN") or language.can_be(w, "ADJ"):
        return False
    return not (i + 1 < len(toks) and _is_noun_word(toks[i + 1]))
