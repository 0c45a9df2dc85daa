"""Corrections: the instructions people give after a reply, the ones that recur, and the
quotes that may back a rule made of them."""

from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from learning import language
from learning.proposers.local.hygiene import CODE_KEYWORDS, _code_token, quote_for
from learning.proposers.local.requests import (
    _request_in,
    message_span,
)
from learning.proposers.local.tokens import _wordlike, clauses, tokens
from learning.proposers.local.words import (
    RULE_FILLER,
    RULE_TAIL_FILLER,
)
from safety.text import (
    STOP_WORDS,
    content_words,
    readable_text,
    share_a_word,
    stem,
    words,
)

if TYPE_CHECKING:
    from learning.proposers.local.tokens import Tok


# --- corrections --------------------------------------------------------------------------


@dataclass
class Correction:
    message: Any
    start: int
    end: int
    lemmas: list[str]  # lemma per word of the clause
    toks: list[Tok]


def corrections_of(message: Any, asked: frozenset[str] = frozenset()) -> list[Correction]:
    """The clauses of a correction message; a clause asking for a piece of work (a verb
    of work and its object, or a kind of work people also ask for in their opening
    messages: ``asked``) is a new request ("Also write pytest tests for …"), not a
    correction. A message about someone's health is none, nor a clause that holds a
    keyword of code ("one test func with a cases slice"); of a clause with an identifier
    in it ("in svc.Refund wrap the error …") only the longest run of words around it."""
    from learning.policy import health_word

    if health_word(message.text):
        return []
    readable = readable_text(message.text)
    out = []
    for a, b in clauses(readable):
        request = _request_in(message, readable, a, b, fresh=False)
        if request is not None and request.head and (request.verb or request.head in asked):
            continue  # a verb of work and what it makes: a new request
        a, b = message_span(readable, a, b)
        toks = tokens(message.text, a, b)
        if len(toks) < 2 or "  " in readable[a:b]:
            continue
        if any(t.low in CODE_KEYWORDS for t in toks):
            continue  # "one test func with a cases slice": a clause about code
        if any(_code_token(message.text, t) for t in toks):
            # an identifier inside ("and in svc.Refund wrap the error with context"):
            # the longest run of the person's own words around it
            runs: list[list[Tok]] = [[]]
            for t in toks:
                if _code_token(message.text, t):
                    runs.append([])
                else:
                    runs[-1].append(t)
            toks = max(runs, key=len)
            if len(toks) < 2:
                continue
            a, b = toks[0].start, toks[-1].end
        lemmas = [
            language.lemma(t.low, "NOUN") if language.can_be(t.low, "NOUN") else t.low for t in toks
        ]
        out.append(Correction(message=message, start=a, end=b, lemmas=lemmas, toks=toks))
    return out


def _content(word: str, function_words: frozenset[str] = frozenset()) -> bool:
    return (
        word not in STOP_WORDS
        and word not in RULE_FILLER
        and word not in function_words
        and len(word) > 1
        and _wordlike(word)
    )


def _said_content(phrase: tuple[str, ...], function_words: frozenset[str] = frozenset()) -> int:
    """Content words of an instruction; a time reference ("last lesson", "next week")
    says when, not what to do, and counts for nothing."""
    n = 0
    for k, w in enumerate(phrase):
        if w in ("last", "next", "previous") or (k and phrase[k - 1] in ("last", "next")):
            continue
        n += _content(w, function_words)
    return n


def recurring_instructions(
    corrections: list[Correction],
    *,
    min_conversations: int,
    min_users: int | None,
    function_words: frozenset[str] = frozenset(),
) -> list[tuple[tuple[str, ...], dict[int, tuple[Correction, int]]]]:
    """Lemma sequences (2..6 words, two content words, content at both ends) found in
    ``min_conversations`` conversations, longest-supported first; ``function_words``:
    those of the persona's language when it is not English ("con", "el", "siempre")."""
    found: dict[tuple[str, ...], dict[int, tuple[Correction, int]]] = defaultdict(dict)
    for c in corrections:
        ws = c.lemmas
        for i in range(len(ws)):
            if not _content(ws[i], function_words):
                continue
            for n in range(2, 7):
                if i + n > len(ws):
                    break
                phrase = tuple(ws[i : i + n])
                if (
                    not _content(phrase[-1], function_words)
                    or _said_content(phrase, function_words) < 2
                ):
                    continue
                found[phrase].setdefault(c.message.conversation_id, (c, i))
    out = []
    for phrase, hits in found.items():
        if len(hits) < min_conversations:
            continue
        if (
            min_users is not None
            and len({c.message.principal_id for c, _ in hits.values()}) < min_users
        ):
            continue
        out.append((phrase, hits))
    # the instruction the most conversations give first; each said as fully as most of
    # them say it ("ticket number" -> "ticket number in the subject")
    out.sort(key=lambda x: (len(x[1]), sum(_content(w) for w in x[0]), len(x[0])), reverse=True)
    fuller = []
    for phrase, hits in out:
        longer = [
            (p, h)
            for p, h in out
            if len(p) > len(phrase) and _inside(p, phrase) and len(h) * 5 >= len(hits) * 3
        ]
        if longer:
            phrase, hits = max(longer, key=lambda x: (sum(_content(w) for w in x[0]), len(x[1])))
        fuller.append((phrase, hits))
    out = list(dict((p, (p, h)) for p, h in fuller).values())
    # one instruction, one candidate: a phrase over mostly the same conversations that
    # shares a word with a better one says the same thing ("ticket number", "subject line")
    kept: list[tuple[tuple[str, ...], dict[int, tuple[Correction, int]]]] = []
    for phrase, hits in out:
        mine = set(hits)
        if any(
            len(mine & set(h)) * 2 >= len(mine) and set(p) & set(phrase) - STOP_WORDS
            for p, h in kept
        ):
            continue
        kept.append((phrase, hits))
    return kept


def _values_refusal(
    rule: str, quoted: list[tuple[str, int, int]], corrections: list[Correction], needed: int
) -> str | None:
    """Why a number in ``rule`` is no standing value, or None: each value the rule gives
    ("max 6 bullets") must be given, the same, by the corrections of ``needed``
    conversations it quotes, and no other correction may give another value for the
    same thing ("keep it to 5 bullet points", "8 bullet points is fine")."""
    from learning.policy import clause_around, counted_values

    wanted = counted_values(rule)
    if not wanted:
        return None
    for unit, vals in wanted.items():
        agreeing = sum(
            1
            for text, a, b in quoted
            if counted_values(clause_around(text, a, b)).get(unit) == vals
        )
        if agreeing < needed:
            return (
                f"only {agreeing} of the corrections give {'/'.join(sorted(vals))} {unit}…; "
                "a standing value needs corrections that agree"
            )
        for c in corrections:
            other = counted_values(c.message.text[c.start : c.end]).get(unit)
            if other is not None and other != vals:
                return (
                    f"The corrections disagree ({'/'.join(sorted(vals))} against "
                    f"{'/'.join(sorted(other))} {unit}…); a standing rule needs corrections "
                    "that agree."
                )
    return None


_SENTENCE_EDGE = re.compile(r"[.!?;\n]+\s*")


_AMOUNT = re.compile(r"(?<![\w.])(?:[£$€]\s?\d+(?:[.,]\d+)?|\d+(?:[.,]\d+)?\s?(?:%|percent\b))")


def _subject_values_refusal(rule: str, corrections: list[Correction]) -> str | None:
    """Why the corrections about the thing ``rule`` names give it different values, or
    None: every sentence of a correction message that names all the nouns of the rule
    ("rush fee" of "Add a rush fee.") is read for amounts ("rush fee is £20 now btw",
    "add a rush fee, £15 for 48 hour"); two different ones disagree, whatever the rule
    itself says."""
    subject = {stem(w) for w in words(rule)[1:] if w not in STOP_WORDS and w.isalpha()}
    if not subject:
        return None
    found: dict[str, str] = {}
    seen: set[tuple[int, str]] = set()
    for c in corrections:
        text = c.message.text
        for sentence in _SENTENCE_EDGE.split(text):
            if (id(c.message), sentence) in seen or not subject <= {
                stem(w) for w in words(sentence)
            }:
                continue
            seen.add((id(c.message), sentence))
            for m in _AMOUNT.finditer(sentence):
                value = re.sub(r"\s|percent", "", m.group(0).lower()).replace("%", " %")
                found.setdefault(value, sentence.strip())
    if len(found) < 2:
        return None
    return (
        f"The corrections disagree on it ({' against '.join(sorted(found))}); a standing "
        "rule needs corrections that agree."
    )


def _inside(longer: tuple[str, ...], shorter: tuple[str, ...]) -> bool:
    n = len(shorter)
    return any(longer[i : i + n] == shorter for i in range(len(longer) - n + 1))


def _variant(c: Correction) -> list[Tok]:
    """The instruction of a correction clause: fillers off both ends."""
    toks = list(c.toks)
    while toks and toks[0].low in RULE_FILLER:
        toks = toks[1:]
    while toks:
        if toks[-1].low in RULE_TAIL_FILLER or toks[-1].low in DEICTIC_TAIL:
            toks = toks[:-1]
        elif len(toks) > 2 and toks[-1].low == "time" and toks[-2].low in ("this", "that"):
            toks = toks[:-2]  # "use the short version this time"
        else:
            break
    return toks


# words that point at the draft or the moment at hand: a standing rule holds everywhere,
# so "Use WWW/EBI here too" is "Use WWW/EBI"
DEICTIC_TAIL = frozenset(["here", "there"])


def rule_evidence(
    hits: dict[int, tuple[Correction, int]],
    text: str,
    banned: set[str],
    *,
    keep: frozenset[str],
    frame: language.Frame | None = None,
) -> tuple[list[dict[str, Any]], list[tuple[str, int, int]]]:
    """The quotes that may back the rule ``text`` (each correction's own sentence, cut
    before words a quote must not hold, sharing a content word with the rule), and
    where each stands in its message (``(message text, start, end)``); ``frame``: the
    persona's language when it is not English (a German noun's capital is no name's)."""
    evidence, quoted = [], []
    for c, _ in hits.values():
        toks = _variant(c)
        if not toks:
            continue
        quote = quote_for(
            c.message,
            toks[0].start,
            toks[-1].end,
            banned,
            keep=keep,
            own_sentence=True,
            frame=frame,
        )
        if quote and share_a_word(quote, content_words(text)):
            evidence.append({"quote": quote, "conversation": c.message.conversation_label})
            begin = c.message.text.find(quote, c.start - 1 if c.start else 0)
            quoted.append((c.message.text, begin, begin + len(quote)))
    return evidence, quoted


# --- a word said instead of another ----------------------------------------------------------

# "players, not customers", "write players not teams": a word set against another, both
# plain lower-case words (no number, no name: "max is 6 not 8", "Tuesday not Monday")
_INSTEAD = re.compile(r"\b([^\W\d_]{3,}),?\s+(?:not|rather than|instead of)\s+([^\W\d_]{3,})\b")


def preferred_words(
    corrections: list[Correction], *, min_conversations: int, min_users: int | None
) -> list[tuple[str, list[str], dict[int, tuple[Correction, int]]]]:
    """Words people set against another in their corrections ("call them players, not
    customers", "they're players, not participants") in ``min_conversations``
    conversations (by ``min_users`` people): the word as most write it, the words it
    replaces (first said first) and one correction per conversation, spanning the
    contrast. Both words are nouns, neither a function word; a word set against itself
    in another form counts for nothing."""
    found: dict[str, dict[int, tuple[Correction, int]]] = defaultdict(dict)
    said: dict[str, list[str]] = defaultdict(list)
    refused: dict[str, list[str]] = defaultdict(list)
    seen: set[tuple[int, int]] = set()
    for c in corrections:
        text = c.message.text
        for m in _INSTEAD.finditer(text):
            if (id(c.message), m.start()) in seen:
                continue
            seen.add((id(c.message), m.start()))
            good, bad = m.group(1), m.group(2)
            if not (good.islower() and bad.islower()):
                continue
            if any(
                w in STOP_WORDS or not language.can_be(w, "NOUN") or language.can_be(w, "AUX")
                for w in (good, bad)
            ):
                continue
            key = language.lemma(good, "NOUN")
            if key == language.lemma(bad, "NOUN"):
                continue
            toks = tokens(text, m.start(), m.end())
            lemmas = [language.lemma(t.low, "NOUN") for t in toks]
            hit = Correction(
                message=c.message, start=m.start(), end=m.end(), lemmas=lemmas, toks=toks
            )
            found[key].setdefault(c.message.conversation_id, (hit, 0))
            said[key].append(good)
            refused[key].append(bad)
    out = []
    for key, hits in found.items():
        if len(hits) < min_conversations:
            continue
        if (
            min_users is not None
            and len({c.message.principal_id for c, _ in hits.values()}) < min_users
        ):
            continue
        # the form most of them write; at a tie the one said first ("garments not items",
        # then "garment not item": "garments"), never the first of a set, whose order
        # changes with the hash seed
        word = max(said[key], key=said[key].count)
        out.append((word, _one_form_each(refused[key])[:3], hits))
    out.sort(key=lambda x: len(x[2]), reverse=True)
    return out


def _one_form_each(words: list[str]) -> list[str]:
    """One form per word (its lemma as a noun), in the order the words were first said:
    the form said most often, at a tie the one said first ("item", "items" -> "item")."""
    forms: dict[str, list[str]] = defaultdict(list)
    for w in words:
        forms[language.lemma(w, "NOUN")].append(w)
    return [max(said, key=said.count) for said in forms.values()]


def preferred_rule(word: str, instead: list[str]) -> str:
    """The rule of a word said instead of others: 'Say "players", not "customers" or
    "participants".'"""
    refused = [f'"{w}"' for w in instead]
    tail = refused[0] if len(refused) == 1 else ", ".join(refused[:-1]) + " or " + refused[-1]
    return f'Say "{word}", not {tail}.'
