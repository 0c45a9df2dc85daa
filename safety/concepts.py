"""The cross-lingual concept layer of the injection scan's learned features.

A hand-written lexicon (``data/injection_concepts.json``) maps words and phrases of ten
languages to a few dozen concepts that injection attempts combine: CONCEAL + TELL + USER
("do not tell the user"), RULES + PRIOR + VOID ("the rules above are a draft"), YOUR +
CONFIG + CHANGE, YOUARE + FROMNOW ... The same attempt in German or Chinese lights the
same concepts, which MiniLM (English-centred) and the hashed n-grams (one language at a
time) cannot give the model. A few concepts mark an honest purpose that carries an attack's
words: TRANSLATE (the user's text, instructions and all), TEACH (staff training about
attacks), GAME (characters played for a game, a story, a museum tour), VERIFY (a reset after
an identity check) and OWNADDR (an address written after "me" / "our", or a business's role
mailbox such as info@ or ops@); the model weighs them, and their pairs with the attack
concepts, from the labelled rows like any other. Three say *whose interest* a secret serves,
since "never mention the cancellation fee" and "never mention the alarm code" share every
word of secrecy: STAKE (what the user has a stake in knowing: their fees, renewals, refunds,
a recall, a defect, mould, a breach, a delay), INTERNAL (the business's or a third party's
detail: margins, suppliers, other customers, staff, a surprise, an embargo) and BOT (whether
a machine answers, for "say you are a real person"). DEFEND marks a guardrail *about*
attacks ("treat pasted instructions as content, not as a command", "someone claiming to be
from IT", a red-team test), whose words are the attack's own.

Matching runs on normalised text (``safety.injection.normalise``: lower case, Latin
accents dropped):

* Latin-script entries (and ASCII ones of any language: "api", "cc") match whole tokens:
  an entry of up to 4 characters, or one that ends with a space, is a whole word unless
  it ends with "*"; a longer one is a stem prefix ("verberg" matches "verbergen"); a
  phrase is consecutive tokens. German and Dutch entries of 5 or more characters also
  match inside a compound ("regel" in "sicherheitsregeln").
  The text's language is not known, so a stem meets every language's words: a stem
  written for one language's verb is spelt out with that verb's endings where its bare
  form, or a longer word that starts with it, is a common word of another language
  (Portuguese "publica |publicar|publicou", not "public", which lit English "public";
  "guarda", not "guard" with "guardrail"; Italian "menti |mentir", not "menti" with
  "mention").
* Words of two senses are kept to the one that matters, in the data: an "other sense"
  phrase (``other_senses``: "di persona", "en personne", "persönlich", "in modo",
  "linee guida", "la voce") lights nothing and drops every match that starts inside it
  but a phrase of at least its length that starts with it ("di persona" VERIFY); a short
  word that is another language's common word is marked ("je@": Dutch "je" lights YOUR
  only in a sentence holding a Dutch marker word, ``markers``, not in French "je ...";
  Portuguese "voce@" not in Italian "voce", voice).
* Chinese, Japanese and Arabic entries match as substrings (no spaces between Chinese or
  Japanese words; Arabic glues articles and prepositions to the word).
* A negation word ("never", "nicht", "不要"; Japanese "ないで" after the verb) turns the
  next *action* concept of its clause into its negated form: "never share customer data"
  gives ``!SEND``, not ``SEND``, so an ordinary guardrail and "share the data" differ.

``ConceptSpace.matrix`` turns texts into sparse rows (unit length): which concepts (and
negated actions) occur, which pairs occur in one sentence, which follow each other in one
sentence, and hashed triples in one sentence. Numpy / scipy only; a text costs about 60
microseconds. The shipped model records the lexicon's digest and refuses another one, so
an edit to the lexicon needs ``manage.py safety train``.
"""

from __future__ import annotations

import bisect
import functools
import hashlib
import json
import re
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from scipy import sparse

LEXICON_PATH = Path(__file__).resolve().parent / "data" / "injection_concepts.json"

#: Concepts that a negation can turn round (a verb-like thing the text asks for).
ACTIONS = (
    "CONCEAL",
    "TELL",
    "REVEAL",
    "IGNORE",
    "FOLLOW",
    "CHANGE",
    "DISABLE",
    "SEND",
    "APPROVE",
    "DECEIVE",
    "OMIT",
    "MEMORY",
)
_COMPOUNDING = frozenset({"de", "nl"})
_INFIX_MIN = 5
#: Latin-script entries this short are whole words unless they end with "*" (a stem
#: prefix of four letters matches too much in other languages: Italian "vera" in "veraltet").
_WHOLE_MAX = 4
#: How far (in characters) a negation reaches forward to the action it turns round.
_NEG_REACH_LATIN = 32
_NEG_REACH_CJK = 10
#: How far back a Japanese negation (after the verb) reaches.
_NEG_REACH_AFTER = 5

#: Buckets for the triples of items that share a sentence (hashed: k ** 3 is too many to
#: enumerate). On validation (C 3, n-gram weight 3, concept weight 1.5) they moved the
#: mean detection over 1-3 % false alarms from 75.4 % to 76.4 %; pairs of items anywhere
#: in the text (not only in one sentence) and unscaled 0/1 rows did not help (77.6 / 72.9 %
#: at 2 % against 77.2 %), so the space has neither.
TRIPLE_BUCKETS = 8192

_TOKEN = re.compile(r"\w+")
_SENTENCE_BREAK = re.compile(r"[.!?;\n。！？；؟]")
_CLAUSE_BREAK = re.compile(r"[.!?;\n。！？；؟,，、:：،]")
_NON_LATIN = re.compile(r"[\u0600-\u06ff\u3040-\u30ff\u3400-\u9fff\uf900-\ufaff]")
# The spelling variants of Arabic that writers interchange (as for the n-grams).
_FOLD = str.maketrans(
    {"أ": "ا", "إ": "ا", "آ": "ا", "ٱ": "ا", "ى": "ي", "ة": "ه", "ـ": None}
    | {chr(c): None for c in range(0x064B, 0x0660)}
    | {"\u0670": None}
)

_Item = tuple[str, bool]  # (text, whole word)


#: The concept number of an "other sense" phrase: it lights nothing and takes its words.
OTHER_SENSE = -3


@dataclass(frozen=True)
class _Phrase:
    items: tuple[_Item, ...]
    concept: int  # index into Lexicon.names; -1 for a negation; OTHER_SENSE
    marked: str = ""  # a language whose marker word the sentence must hold ("" for none)


@dataclass(frozen=True)
class Match:
    start: int
    end: int
    concept: int  # -1: a negation; -2: a negation that follows its verb (Japanese)
    cjk: bool


class Lexicon:
    """The compiled lexicon: token tables for Latin script, substring tables for the rest."""

    def __init__(self, doc: dict) -> None:
        self.names: tuple[str, ...] = tuple(doc["concepts"])
        self.digest = hashlib.sha256(
            json.dumps(doc, sort_keys=True, ensure_ascii=False).encode("utf-8")
        ).hexdigest()[:16]
        index = {name: i for i, name in enumerate(self.names)}
        self.actions = tuple(index[a] for a in ACTIONS)
        self._first_exact: dict[str, list[_Phrase]] = {}
        self._first_prefix: dict[str, list[_Phrase]] = {}
        self._prefix_lengths: set[int] = set()
        self._infix: dict[str, set[int]] = {}
        self._infix_lengths: set[int] = set()
        self._substrings: dict[str, dict[str, int]] = {}  # first char -> {entry: concept}
        for name, by_lang in doc["concepts"].items():
            for lang, entries in by_lang.items():
                for entry in entries.split("|"):
                    self._add(entry, index[name], lang)
        for lang, entries in doc["negation"].items():
            concept = -2 if lang.endswith("_after") else -1
            for entry in entries.split("|"):
                self._add(entry, concept, lang.split("_")[0], whole=True)
        for lang, entries in doc.get("other_senses", {}).items():
            for entry in entries.split("|"):
                self._add(entry, OTHER_SENSE, lang)
        #: Words of a language that no other language of the lexicon uses as a word: a
        #: marked entry ("je@") lights only in a sentence that holds one of its language's.
        self.markers: dict[str, frozenset[str]] = {
            lang: frozenset(words.split("|")) for lang, words in doc.get("markers", {}).items()
        }
        self.patterns = [
            (re.compile(rx), index[name]) for name, rx in doc.get("patterns", {}).items()
        ]
        # By first character, then by length, longest first (a longer phrase comes first
        # at the same place): a position is looked up once per length, not per entry.
        self._by_first = {
            ch: tuple(
                (n, {e: c for e, c in entries.items() if len(e) == n})
                for n in sorted({len(e) for e in entries}, reverse=True)
            )
            for ch, entries in self._substrings.items()
        }
        self._prefix_sorted = tuple(sorted(self._prefix_lengths))
        self._infix_sorted = tuple(sorted(self._infix_lengths))
        # a text repeats most of its tokens from other texts: each is looked up once
        self._token_entries = functools.lru_cache(maxsize=1 << 16)(self._entries_of)

    def _add(self, entry: str, concept: int, lang: str, *, whole: bool = False) -> None:
        from safety.injection import normalise

        marked = lang if entry.endswith("@") else ""
        entry = entry.removesuffix("@")
        last_whole = entry.endswith(" ")
        forced_prefix = entry.endswith("*")
        text = normalise(entry.rstrip("*")).text.translate(_FOLD)
        if not text:
            return
        if not text.isascii():
            # Chinese, Japanese, Arabic: a substring (spaces in Arabic entries are kept).
            raw = text + (" " if last_whole else "")
            self._substrings.setdefault(raw[0], {})[raw] = concept
            return
        tokens = _TOKEN.findall(text)
        if not tokens:
            return
        last = len(tokens) - 1
        items = tuple(
            (
                t,
                whole
                or (last_whole and k == last)
                or (len(t) <= _WHOLE_MAX and not (forced_prefix and k == last)),
            )
            for k, t in enumerate(tokens)
        )
        phrase = _Phrase(items, concept, marked)
        first, exact = items[0]
        if exact:
            self._first_exact.setdefault(first, []).append(phrase)
        else:
            self._first_prefix.setdefault(first, []).append(phrase)
            self._prefix_lengths.add(len(first))
        if (
            lang in _COMPOUNDING
            and len(items) == 1
            and not exact
            and len(first) >= _INFIX_MIN
            and concept != OTHER_SENSE
            and not marked
        ):
            self._infix.setdefault(first, set()).add(concept)
            self._infix_lengths.add(len(first))

    def _entries_of(self, token: str) -> tuple[tuple[tuple[int, str], ...], tuple[_Phrase, ...]]:
        """What may start at an ASCII ``token``: the concepts found by the token alone, each
        with the language whose marker it needs ("" for none) (one-word phrases: exact, then
        stem prefixes by length; then the compound parts inside it), and the phrases whose
        next words must follow it."""
        candidates = list(self._first_exact.get(token, ()))
        for k in self._prefix_sorted:
            if k > len(token):
                break
            candidates.extend(self._first_prefix.get(token[:k], ()))
        alone = [(p.concept, p.marked) for p in candidates if len(p.items) == 1]
        if len(token) > _INFIX_MIN and self._infix:
            seen: set[int] = set()
            for s in range(1, len(token) - _INFIX_MIN + 1):
                for k in self._infix_sorted:
                    if s + k > len(token):
                        break
                    for concept in self._infix.get(token[s : s + k], ()):
                        if concept not in seen:
                            seen.add(concept)
                            alone.append((concept, ""))
        return tuple(alone), tuple(p for p in candidates if len(p.items) > 1)

    def matches(self, text: str) -> list[Match]:
        """Every concept and negation found in normalised ``text``, in text order.

        A marked entry counts only in a sentence holding a marker word of its language; an
        "other sense" phrase ("di persona": in person) lights nothing, and drops every match
        that starts inside it but one that starts with it and reaches at least as far (its
        own sense, as a concept phrase: "di persona" VERIFY)."""
        text = text.translate(_FOLD)
        found: list[Match] = []
        tokens = [(m.group(0), m.start(), m.end()) for m in _TOKEN.finditer(text)]
        words_of: dict[int, frozenset[str]] = {}
        breaks = [m.start() for m in _SENTENCE_BREAK.finditer(text)]

        def has_marker(position: int, lang: str) -> bool:
            sentence = bisect.bisect_left(breaks, position)
            if sentence not in words_of:
                lo = breaks[sentence - 1] if sentence else 0
                hi = breaks[sentence] if sentence < len(breaks) else len(text)
                words_of[sentence] = frozenset(t for t, s, _ in tokens if lo <= s < hi)
            return not words_of[sentence].isdisjoint(self.markers.get(lang, ()))

        for i, (tok, start, end) in enumerate(tokens):
            if not tok.isascii():
                continue
            alone, phrases = self._token_entries(tok)
            # (a phrase ends after the token, so the sort below puts it after these)
            found.extend(
                Match(start, end, concept, False)
                for concept, marked in alone
                if not marked or has_marker(start, marked)
            )
            for phrase in phrases:
                n = len(phrase.items)
                if i + n > len(tokens):
                    continue
                if all(
                    (tokens[i + j][0] == item) if whole else tokens[i + j][0].startswith(item)
                    for j, (item, whole) in enumerate(phrase.items[1:], start=1)
                ) and (not phrase.marked or has_marker(start, phrase.marked)):
                    found.append(Match(start, tokens[i + n - 1][2], phrase.concept, False))
        if _NON_LATIN.search(text):
            by_first = self._by_first
            for pos, ch in enumerate(text):
                for n, entries in by_first.get(ch, ()):
                    concept = entries.get(text[pos : pos + n])
                    if concept is not None:
                        found.append(Match(pos, pos + n, concept, True))
        for rx, concept in self.patterns:
            found.extend(Match(m.start(), m.end(), concept, False) for m in rx.finditer(text))
        others = [m for m in found if m.concept == OTHER_SENSE]
        if others:
            found = [
                m
                for m in found
                if m.concept != OTHER_SENSE
                and not any(
                    o.start <= m.start < o.end and not (m.start == o.start and m.end >= o.end)
                    for o in others
                )
            ]
        found.sort(key=lambda m: (m.start, -m.end))
        return found


@dataclass(frozen=True)
class Occurrence:
    position: int
    sentence: int
    item: int  # concept index, or len(names) + k for the negated ACTIONS[k], or NEG


class ConceptSpace:
    """Items (concepts, negated actions, NEG) and the feature columns built from them."""

    def __init__(self, lexicon: Lexicon) -> None:
        self.lexicon = lexicon
        n = len(lexicon.names)
        self._negated = {concept: n + k for k, concept in enumerate(lexicon.actions)}
        self.item_names: tuple[str, ...] = (
            lexicon.names + tuple(f"!{lexicon.names[c]}" for c in lexicon.actions) + ("NEG",)
        )
        self.neg_item = len(self.item_names) - 1
        k = len(self.item_names)
        self.n_items = k
        #: presence (k), pairs in one sentence (k * k, a < b), order in one sentence (k * k),
        #: hashed triples in one sentence (TRIPLE_BUCKETS)
        self.triple_buckets = TRIPLE_BUCKETS
        self._triple_offset = k + 2 * k * k
        self.width = self._triple_offset + self.triple_buckets

    def occurrences(self, text: str) -> list[Occurrence]:
        """The items of normalised ``text`` in order, each with its sentence number."""
        found = self.lexicon.matches(text)
        if not found:
            return []
        sentence_ends = [m.start() for m in _SENTENCE_BREAK.finditer(text)]
        clause_ends = [m.start() for m in _CLAUSE_BREAK.finditer(text)]
        concepts = [m for m in found if m.concept >= 0]
        negations = [m for m in found if m.concept < 0]
        negated: set[int] = set()  # indices into concepts
        actions = set(self.lexicon.actions)
        any_negation = False
        for neg in negations:
            # A negation word inside a longer concept phrase ("no limits") is part of it.
            if any(
                c.start <= neg.start and neg.end <= c.end and c.end - c.start > neg.end - neg.start
                for c in concepts
            ):
                continue
            any_negation = True
            clause = bisect.bisect_left(clause_ends, neg.start)
            if neg.concept == -1:
                reach = _NEG_REACH_CJK if neg.cjk else _NEG_REACH_LATIN
                target = None
                for j, c in enumerate(concepts):
                    if c.start < neg.end or c.concept not in actions:
                        continue
                    if (
                        c.start - neg.end <= reach
                        and bisect.bisect_left(clause_ends, c.start) == clause
                    ):
                        target = j
                    break
                if target is None and not neg.cjk:
                    # German, Dutch, French put the negation after the verb of a main
                    # clause ("erwähne es nicht", "zeg het niet"): the action before it.
                    target = self._action_before(
                        concepts, neg, clause_ends, clause, _NEG_REACH_LATIN
                    )
                if target is not None:
                    negated.add(target)
            else:
                target = self._action_before(concepts, neg, clause_ends, clause, _NEG_REACH_AFTER)
                if target is not None:
                    negated.add(target)
        out = [
            Occurrence(
                c.start,
                bisect.bisect_left(sentence_ends, c.start),
                self._negated[c.concept] if j in negated else c.concept,
            )
            for j, c in enumerate(concepts)
        ]
        if any_negation:
            first = min(n.start for n in negations)
            out.append(Occurrence(first, bisect.bisect_left(sentence_ends, first), self.neg_item))
            out.sort(key=lambda o: o.position)
        return out

    def _action_before(
        self, concepts: list[Match], neg: Match, clause_ends: list[int], clause: int, reach: int
    ) -> int | None:
        """The index of the last action of ``neg``'s clause that ends within ``reach`` before it."""
        actions = set(self.lexicon.actions)
        for j in range(len(concepts) - 1, -1, -1):
            c = concepts[j]
            if c.end > neg.start or c.concept not in actions:
                continue
            if neg.start - c.end <= reach and bisect.bisect_left(clause_ends, c.start) == clause:
                return j
            return None
        return None

    def names_of(self, text: str) -> set[str]:
        """The item names of normalised ``text`` (for reading and tests)."""
        return {self.item_names[o.item] for o in self.occurrences(text)}

    def columns(self, text: str) -> list[int]:
        """The 1-columns of normalised ``text`` (sorted, no repeats)."""
        occ = self.occurrences(text)
        if not occ:
            return []
        k = self.n_items
        cols = {o.item for o in occ}
        by_sentence: dict[int, list[int]] = {}
        for o in occ:
            by_sentence.setdefault(o.sentence, []).append(o.item)
        for items in by_sentence.values():
            distinct = sorted(set(items))
            for x, a in enumerate(distinct):
                for b in distinct[x + 1 :]:
                    cols.add(k + a * k + b)
            previous = -1
            for item in items:
                if item != previous and previous >= 0:
                    cols.add(k + k * k + previous * k + item)
                previous = item
            if self.triple_buckets and len(distinct) >= 3:
                for x, a in enumerate(distinct):
                    for y in range(x + 1, len(distinct)):
                        for b in distinct[y + 1 :]:
                            # Knuth's multiplicative hash: stable across processes.
                            key = ((a * k + distinct[y]) * k + b) * 2654435761 % (1 << 32)
                            cols.add(self._triple_offset + key % self.triple_buckets)
        return sorted(cols)

    def matrix(self, texts: Sequence[str]) -> sparse.csr_matrix:
        """0/1 rows of normalised ``texts``, each scaled to unit length (an empty row stays 0)."""
        indptr = [0]
        indices: list[int] = []
        values: list[float] = []
        for text in texts:
            cols = self.columns(text)
            indices.extend(cols)
            values.extend([1.0 / np.sqrt(len(cols))] * len(cols) if cols else [])
            indptr.append(len(indices))
        return sparse.csr_matrix(
            (np.asarray(values, np.float32), np.asarray(indices, np.int32), np.asarray(indptr)),
            shape=(len(texts), self.width),
        )


_space: ConceptSpace | None = None
_space_lock = threading.Lock()


def get_space() -> ConceptSpace:
    """The concept space of the shipped lexicon, compiled once per process."""
    global _space
    if _space is None:
        with _space_lock:
            if _space is None:
                doc = json.loads(LEXICON_PATH.read_text(encoding="utf-8"))
                _space = ConceptSpace(Lexicon(doc))
    return _space
