"""The injection scan, shared by every load and render path.

Three layers:

1. **Normalisation** (``normalise``): NFKC; invisible, zero-width and bidi control
   characters removed; Unicode tag characters (invisible "ASCII smuggling") decoded so
   their hidden text is scanned too, and their presence is itself a hit; Cyrillic and
   Greek look-alikes folded to Latin; diacritics dropped; lower case; spaces
   collapsed. A second matching form undoes leetspeak inside words ("1gn0r3" ->
   "ignore") and joins letter-by-letter spelling ("i g n o r e" -> "ignore").
2. **Patterns** (``memory.safety.patterns``): a data table, one id per pattern,
   run against both forms.
3. **Semantic similarity**: each sentence of the normalised text is embedded with the
   packaged all-MiniLM-L6-v2 model and compared with attack exemplars and with benign
   anchors (``memory.safety.exemplars``). A sentence is a hit when it is close to
   an attack exemplar *and* clearly closer to it than to any benign persona sentence;
   the hit id is ``semantic.<family of the nearest exemplar>``. The two thresholds
   were chosen on the training half of ``tests/memory/injection_table.py``
   (``bench/injection.py --fit`` prints the search).

Text that starts with ``[BLOCKED:`` gets no special treatment: it is scanned like any
other text, so a stored placeholder cannot smuggle instructions after it.

Judgement call, documented: "you are now <X>" is a role switch and is blocked even in
a job-title context ("you are now a senior engineer"); "You are a senior engineer at
..." is ordinary persona text and passes. A persona describes who the assistant *is*;
it has no reason to announce a switch.

Results are cached per (text, semantic) in a bounded in-process cache: the prompt
renderer scans every persona field at load.
"""

from __future__ import annotations

import hashlib
import os
import re
import threading
import unicodedata
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass

from memory.safety.patterns import NEGATION_BEFORE, PATTERNS, TAG_SMUGGLING_MARKER

__all__ = [
    "SEMANTIC_MARGIN",
    "SEMANTIC_THRESHOLD",
    "ScanResult",
    "normalise",
    "render_safe",
    "scan",
    "scan_many",
]

# Chosen on the train split by ``bench/injection.py --fit``: every benign train row at
# least 0.03 below the boundary, then as many hostile train rows as possible.
#: Minimum cosine similarity between a sentence and its nearest attack exemplar.
SEMANTIC_THRESHOLD = 0.56
#: Minimum lead of that similarity over the nearest benign anchor.
SEMANTIC_MARGIN = 0.05

_CACHE_SIZE = 8192

# --- layer 1: normalisation -------------------------------------------------------------

_INVISIBLE_RANGES = (
    (0x00AD, 0x00AD),  # soft hyphen
    (0x034F, 0x034F),  # combining grapheme joiner
    (0x061C, 0x061C),  # Arabic letter mark
    (0x115F, 0x1160),  # Hangul fillers
    (0x17B4, 0x17B5),
    (0x180B, 0x180F),  # Mongolian variation selectors / vowel separator
    (0x200B, 0x200F),  # zero-width space/joiners, LRM, RLM
    (0x202A, 0x202E),  # bidi embeddings and overrides
    (0x2060, 0x206F),  # word joiner, invisible operators, bidi isolates
    (0x3164, 0x3164),  # Hangul filler
    (0xFE00, 0xFE0F),  # variation selectors
    (0xFEFF, 0xFEFF),  # BOM / zero-width no-break space
    (0xFFA0, 0xFFA0),
    (0x1D173, 0x1D17A),  # musical invisible formatting
    (0xE0000, 0xE007F),  # tag characters (decoded separately, see below)
    (0xE0100, 0xE01EF),  # variation selectors supplement
)


def _is_invisible(ch: str) -> bool:
    cp = ord(ch)
    for lo, hi in _INVISIBLE_RANGES:
        if lo <= cp <= hi:
            return True
    cat = unicodedata.category(ch)
    return cat == "Cf" or (cat == "Cc" and ch not in "\n\t\r")


# Look-alikes that NFKC leaves alone, folded to the Latin letter they imitate.
_CONFUSABLES = {
    # Cyrillic
    "а": "a", "в": "b", "е": "e", "ё": "e", "к": "k", "м": "m", "н": "h", "о": "o",
    "р": "p", "с": "c", "т": "t", "у": "y", "х": "x", "ѕ": "s", "і": "i", "ї": "i",
    "ј": "j", "ԁ": "d", "ԛ": "q", "ԝ": "w", "һ": "h", "ӏ": "l", "ь": "b", "ɡ": "g",
    "ո": "n", "ս": "u", "օ": "o",  # Armenian
    # Greek
    "α": "a", "β": "b", "γ": "y", "ε": "e", "η": "n", "ι": "i", "κ": "k", "ν": "v",
    "ο": "o", "ρ": "p", "τ": "t", "υ": "u", "χ": "x", "ω": "w", "ς": "c", "μ": "u",
    "ϲ": "c", "ϳ": "j",
    # Latin look-alikes and small capitals
    "ı": "i", "ɩ": "i", "ł": "l", "ø": "o", "đ": "d", "ħ": "h", "ŀ": "l",
    "ᴀ": "a", "ʙ": "b", "ᴄ": "c", "ᴅ": "d", "ᴇ": "e", "ғ": "f", "ɢ": "g", "ʜ": "h",
    "ɪ": "i", "ᴊ": "j", "ᴋ": "k", "ʟ": "l", "ᴍ": "m", "ɴ": "n", "ᴏ": "o", "ᴘ": "p",
    "ǫ": "q", "ʀ": "r", "ꜱ": "s", "ᴛ": "t", "ᴜ": "u", "ᴠ": "v", "ᴡ": "w", "ʏ": "y",
    "ᴢ": "z",
}  # fmt: skip
# Enclosed / squared / regional-indicator Latin letters that NFKC does not decompose.
for _base in (0x1F130, 0x1F150, 0x1F170, 0x1F1E6):
    for _i in range(26):
        _CONFUSABLES[chr(_base + _i)] = chr(ord("a") + _i)
_CONFUSABLE_CHARS = frozenset(_CONFUSABLES)

_LEET = str.maketrans(
    {"0": "o", "1": "i", "3": "e", "4": "a", "5": "s", "7": "t", "@": "a", "$": "s"}
)
_LEET_WORD = re.compile(r"[a-z0-9@$]*[a-z][a-z0-9@$]*")
_SPACED_LETTERS = re.compile(r"(?<![a-z])(?:[a-z][ .\-_*·]){3,}[a-z](?![a-z])")
_SPACES = re.compile(r"[^\S\n]+")
_LINES = re.compile(r" *\n[\s]*")


def _decode_tags(text: str) -> tuple[str, bool]:
    """Turn Unicode tag characters into the ASCII they hide; report if any carried text.

    Emoji flag sequences (black flag followed by tag letters and CANCEL TAG) are the one
    legitimate use; they are left alone and do not count.
    """
    if not any(0xE0000 <= ord(c) <= 0xE007F for c in text):
        return text, False
    flags = re.compile("\U0001f3f4[\U000e0061-\U000e007a]{2,6}\U000e007f")
    text = flags.sub("\U0001f3f4", text)
    out: list[str] = []
    hidden = in_run = False
    for ch in text:
        cp = ord(ch)
        is_tag = 0xE0020 <= cp <= 0xE007E
        if is_tag != in_run:
            out.append(" ")  # the hidden text is its own words
            in_run = is_tag
        out.append(chr(cp - 0xE0000) if is_tag else ch)
        hidden = hidden or is_tag
    return "".join(out), hidden


def _fold_confusables(text: str) -> str:
    if not any(c in _CONFUSABLE_CHARS for c in text):
        return text
    letters = [c for c in text if c.isalpha()]
    latin = sum(1 for c in letters if c.isascii())
    mostly_latin = latin * 2 >= len(letters)

    # A genuinely Russian or Greek sentence keeps its script; a Latin one (or a word
    # mixing scripts) gets its look-alikes folded.
    def fold_word(m: re.Match[str]) -> str:
        word = m.group(0)
        if mostly_latin or any(c.isascii() and c.isalpha() for c in word):
            return "".join(_CONFUSABLES.get(c, c) for c in word)
        return word

    return re.sub(r"\w+", fold_word, text)


def _strip_marks(text: str) -> str:
    """Drop accents on Latin letters ("précédentes" -> "precedentes").

    Marks on other scripts stay: Cyrillic "й" is a letter of its own, not "и" + accent.
    """
    out: list[str] = []
    base_is_latin = False
    for c in unicodedata.normalize("NFKD", text):
        if unicodedata.category(c) == "Mn":
            if not base_is_latin:
                out.append(c)
            continue
        base_is_latin = ord(c) < 0x0250
        out.append(c)
    return unicodedata.normalize("NFC", "".join(out))


@dataclass(frozen=True)
class Normalised:
    text: str  # NFKC, invisibles gone, confusables folded, no diacritics, lower case
    matching: str  # ``text`` with leetspeak undone and spelled-out letters joined
    tag_smuggling: bool


def normalise(text: str) -> Normalised:
    """The forms the patterns and the embedding layer see (never shown to anyone)."""
    text, hidden = _decode_tags(text)
    text = unicodedata.normalize("NFKC", text)
    text = "".join(c for c in text if not _is_invisible(c))
    text = text.casefold()
    text = _fold_confusables(text)
    text = _strip_marks(text)
    text = text.replace("\r\n", "\n").replace("\r", "\n").replace("’", "'").replace("‘", "'")
    # Spelled-out words are joined before spaces collapse: one separator joins letters,
    # a wider gap ends the word ("i g n o r e   p r e v i o u s" -> "ignore previous").
    matching = _LEET_WORD.sub(lambda m: m.group(0).translate(_LEET), text)
    matching = _SPACED_LETTERS.sub(lambda m: re.sub(r"[^a-z]", "", m.group(0)), matching)
    text, matching = (_LINES.sub("\n", _SPACES.sub(" ", t)).strip() for t in (text, matching))
    return Normalised(text=text, matching=matching, tag_smuggling=hidden)


# --- layer 2: patterns ------------------------------------------------------------------

_CLAUSE_START = re.compile(r"[.;:!?\n]")


def _negated(text: str, start: int) -> bool:
    clause = text[:start]
    cut = max((m.end() for m in _CLAUSE_START.finditer(clause)), default=0)
    return NEGATION_BEFORE.search(clause[cut:]) is not None


def _pattern_hits(norm: Normalised) -> tuple[str, ...]:
    forms = (norm.text,) if norm.matching == norm.text else (norm.text, norm.matching)
    if norm.tag_smuggling:
        forms = (*forms, TAG_SMUGGLING_MARKER)
    hits: list[str] = []
    for pattern in PATTERNS:
        found = False
        for form in forms:
            for rx in pattern.compiled:
                for m in rx.finditer(form):
                    if pattern.negatable and _negated(form, m.start()):
                        continue
                    found = True
                    break
                if found:
                    break
            if found:
                break
        if found:
            hits.append(pattern.id)
    return tuple(hits)


# --- layer 3: semantic similarity ------------------------------------------------------

_SENTENCE_SPLIT = re.compile(r"(?<=[.!?;])\s+|\n+")


def _segments(text: str) -> list[str]:
    """Sentences worth embedding (an attack hidden in a long field is still found)."""
    parts = [p.strip() for p in _SENTENCE_SPLIT.split(text) if p and p.strip()]
    parts = [p for p in parts if len(re.findall(r"\w+", p)) >= 3]
    return parts or ([text] if text.strip() else [])


class _Exemplars:
    """Exemplar and anchor embeddings, computed once per process."""

    _lock = threading.Lock()
    _loaded: _Exemplars | None = None

    def __init__(self) -> None:
        from memory.safety.exemplars import ATTACK_EXEMPLARS, BENIGN_ANCHORS

        self.families = [family for family, _ in ATTACK_EXEMPLARS]
        self.attack = _encode([normalise(t).text for _, t in ATTACK_EXEMPLARS])
        self.benign = _encode([normalise(t).text for t in BENIGN_ANCHORS])

    @classmethod
    def get(cls) -> _Exemplars:
        if cls._loaded is None:
            with cls._lock:
                if cls._loaded is None:
                    cls._loaded = cls()
        return cls._loaded


def _encode(texts: Sequence[str]):  # -> numpy.ndarray (n, 384), L2-normalised rows
    """Embeddings of ``texts``: stored ones are read from the database (computed once per
    distinct text, ever), so rendering known persona text never loads the model. Where
    the database cannot be used (no Django database configured or allowed, e.g. a pure
    function test), the process-wide model encodes them directly."""
    from django.db import DatabaseError

    from memory.embeddings import encode, vectors_for_texts

    try:
        return vectors_for_texts(list(texts))
    except (DatabaseError, RuntimeError):
        return encode(list(texts))


@dataclass(frozen=True)
class SemanticScore:
    attack: float  # cosine to the nearest attack exemplar (best sentence)
    benign: float  # cosine to the nearest benign anchor (same sentence)
    family: str  # family of that nearest attack exemplar
    sentence: str


def semantic_scores(texts: Sequence[str]) -> list[SemanticScore | None]:
    """Best-scoring sentence of each normalised text (``None`` for empty text).

    The sentence reported is a hitting one if any, else the one with the largest lead
    of attack similarity over benign similarity.
    """
    ex = _Exemplars.get()
    owners: list[int] = []
    sentences: list[str] = []
    for i, text in enumerate(texts):
        for seg in _segments(text):
            owners.append(i)
            sentences.append(seg)
    results: list[SemanticScore | None] = [None] * len(texts)
    if not sentences:
        return results
    vectors = _encode(sentences)
    attack = vectors @ ex.attack.T
    benign = vectors @ ex.benign.T
    best_attack_idx = attack.argmax(axis=1)
    best_attack = attack.max(axis=1)
    best_benign = benign.max(axis=1)
    for row, owner in enumerate(owners):
        score = SemanticScore(
            attack=float(best_attack[row]),
            benign=float(best_benign[row]),
            family=ex.families[int(best_attack_idx[row])],
            sentence=sentences[row],
        )
        current = results[owner]
        if current is None or _semantic_rank(score) > _semantic_rank(current):
            results[owner] = score
    return results


def _semantic_rank(s: SemanticScore) -> tuple[bool, float]:
    return (_semantic_hit(s), s.attack - s.benign)


def _semantic_hit(
    s: SemanticScore | None, threshold: float | None = None, margin: float | None = None
) -> bool:
    if s is None:
        return False
    threshold = SEMANTIC_THRESHOLD if threshold is None else threshold
    margin = SEMANTIC_MARGIN if margin is None else margin
    return s.attack >= threshold and s.attack - s.benign >= margin


# --- the scan ------------------------------------------------------------------------


@dataclass(frozen=True)
class ScanResult:
    """``pattern_ids`` names every hit (patterns first, then the semantic id)."""

    blocked: bool
    pattern_ids: tuple[str, ...]
    pattern_hits: tuple[str, ...]  # layer 2
    semantic_hits: tuple[str, ...]  # layer 3 (empty when it did not run)
    semantic_score: float | None = None  # similarity to the nearest attack exemplar
    semantic_ran: bool = False


_CLEAN = ScanResult(blocked=False, pattern_ids=(), pattern_hits=(), semantic_hits=())
_cache: OrderedDict[tuple[str, bool], ScanResult] = OrderedDict()
_cache_lock = threading.Lock()


def _key(text: str, semantic: bool) -> tuple[str, bool]:
    # Keyed by a digest so a 6,000-character background does not sit in the cache twice.
    return hashlib.blake2b(
        text.encode("utf-8", "surrogatepass"), digest_size=16
    ).hexdigest(), semantic


def _cache_get(key: tuple[str, bool]) -> ScanResult | None:
    with _cache_lock:
        hit = _cache.get(key)
        if hit is not None:
            _cache.move_to_end(key)
        return hit


def _cache_put(key: tuple[str, bool], result: ScanResult) -> None:
    with _cache_lock:
        _cache[key] = result
        _cache.move_to_end(key)
        while len(_cache) > _CACHE_SIZE:
            _cache.popitem(last=False)


def semantic_default() -> bool:
    """Whether ``scan``/``render_safe`` run the embedding layer when not told.

    On by default; ``PERSONA_INJECTION_SEMANTIC=0`` (Django setting or environment)
    turns it off for a process that must never load the model.
    """
    value: object = os.environ.get("PERSONA_INJECTION_SEMANTIC")
    try:
        from django.conf import settings

        if settings.configured and hasattr(settings, "PERSONA_INJECTION_SEMANTIC"):
            value = getattr(settings, "PERSONA_INJECTION_SEMANTIC")  # noqa: B009
    except ImportError:  # pragma: no cover - Django is always installed here
        pass
    if value is None:
        return True
    if isinstance(value, str):
        return value.strip().lower() not in {"0", "false", "no", "off", ""}
    return bool(value)


def _combine(pattern_hits: tuple[str, ...], score: SemanticScore | None, ran: bool) -> ScanResult:
    semantic_hits = (
        (f"semantic.{score.family}",) if ran and score is not None and _semantic_hit(score) else ()
    )
    ids = pattern_hits + semantic_hits
    return ScanResult(
        blocked=bool(ids),
        pattern_ids=ids,
        pattern_hits=pattern_hits,
        semantic_hits=semantic_hits,
        semantic_score=score.attack if score is not None else None,
        semantic_ran=ran,
    )


def scan_many(texts: Sequence[str], *, semantic: bool | None = None) -> list[ScanResult]:
    """Scan many texts; the embedding layer runs as one batch for the uncached ones."""
    semantic = semantic_default() if semantic is None else semantic
    results: list[ScanResult | None] = [None] * len(texts)
    todo: list[int] = []
    for i, text in enumerate(texts):
        if not text or not text.strip():
            results[i] = _CLEAN
            continue
        cached = _cache_get(_key(text, semantic))
        if cached is not None:
            results[i] = cached
        else:
            todo.append(i)
    if todo:
        norms = {i: normalise(texts[i]) for i in todo}
        patterns = {i: _pattern_hits(norms[i]) for i in todo}
        scores: dict[int, SemanticScore | None] = {}
        if semantic:
            # Only the first unseen occurrence of a text is embedded.
            unique = list(dict.fromkeys(norms[i].text for i in todo))
            by_text = dict(zip(unique, semantic_scores(unique), strict=True))
            scores = {i: by_text[norms[i].text] for i in todo}
        for i in todo:
            result = _combine(patterns[i], scores.get(i), semantic)
            _cache_put(_key(texts[i], semantic), result)
            results[i] = result
    return [r if r is not None else _CLEAN for r in results]


def scan(text: str, *, semantic: bool | None = None) -> ScanResult:
    """Scan one text. ``semantic=False`` runs layers 1-2 only (no model, microseconds)."""
    return scan_many([text], semantic=semantic)[0]


def placeholder(pattern_ids: Sequence[str]) -> str:
    return f"[BLOCKED: {', '.join(pattern_ids)}]"


def render_safe(text: str, *, semantic: bool | None = None) -> str:
    """``[BLOCKED: <ids>]`` when ``text`` is a hit, else ``text`` unchanged."""
    result = scan(text, semantic=semantic)
    return placeholder(result.pattern_ids) if result.blocked else text
