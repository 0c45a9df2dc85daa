"""The injection scan, shared by every load and render path (through
``safety.checks``: ``check_write`` at write, ``render_safe`` at render).

Three layers:

1. **Normalisation** (``normalise``): NFKC; invisible, zero-width and bidi control
   characters removed; Unicode tag characters (invisible "ASCII smuggling") decoded so
   their hidden text is scanned too, and their presence is itself a hit; Cyrillic and
   Greek look-alikes folded to Latin; diacritics dropped; lower case; spaces
   collapsed. A second matching form undoes leetspeak inside words ("1gn0r3" ->
   "ignore") and joins letter-by-letter spelling ("i g n o r e" -> "ignore").
2. **Patterns** (``safety.patterns``): a data table, one id per pattern,
   run against both forms.
3. **The learned layer** (``safety.learned``): each *view* of the text (the
   normalised text, each of its sentences, and decoded views: base64 payloads, ROT13,
   reversed text, invisible characters read as spaces; pasted code, SQL, logs and stack
   traces are data and left out, their comments kept: ``safety.pasted``) is looked up in the stored
   sentence vectors (``memory.embeddings``; a text is encoded once, ever), and a
   logistic regression over the vector, a few dozen multilingual cues and hashed
   character/word n-grams (any language, any script) gives the probability that the
   view is hostile. The highest view decides; the threshold was chosen on the
   validation split for <= 2 % false alarms on ordinary persona text. The hit id is
   ``semantic.<family>`` (the family a second, naming-only model picks).
   ``manage.py safety train`` rebuilds the model from the labelled files.

**Never waiting for a model load.** ``scan_many(..., wait=False)`` (the render path of
a web page) answers at once: a text whose views have no stored vector while the
embedding model is not loaded in this process gets a *pending* result (``pending`` set,
``blocked`` set too, id ``scan.pending``, so no caller can show it as safe), and the
texts are queued for a background thread that loads the model (started at most once
per process, also by ``warm_up_in_background()``), stores their vectors and caches their
results. Pending results are never cached.

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

import atexit
import base64
import logging
import os
import re
import threading
import unicodedata
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from safety import memo
from safety.pasted import language_of
from safety.patterns import (
    APPLIED,
    EMBEDDED_IN,
    MENTION_MARKERS,
    NEGATION_BEFORE,
    OWN_INSTRUCTIONS,
    PATTERNS,
    PLAYED_CHARACTER,
    QUOTED_SPANS,
    REFUSAL_AFTER,
    REQUEST_WORDS,
    TAG_SMUGGLING_MARKER,
    InjectionPattern,
)
from safety.text import drop_invisible, invisible_as_spaces

if TYPE_CHECKING:
    from safety.learned import InjectionModel

__all__ = [
    "PENDING_ID",
    "SCANNING_PLACEHOLDER",
    "ScanResult",
    "learned_scores",
    "normalise",
    "placeholder",
    "quoted_instructions",
    "scan",
    "scan_many",
    "views",
    "warm_up_at_start",
    "warm_up_in_background",
]

#: The id of a result the learned layer could not give yet (see "Never waiting").
PENDING_ID = "scan.pending"
#: What ``placeholder`` renders for a pending result.
SCANNING_PLACEHOLDER = "[SCANNING: not shown until the safety scan finishes]"

_CACHE_SIZE = 8192

logger = logging.getLogger(__name__)

# --- layer 1: normalisation -------------------------------------------------------------

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
_SPACED_LETTERS = re.compile(r"(?<![^\W\d_])(?:[^\W\d_][ .\-_*·]){2,}[^\W\d_](?![^\W\d_])")
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
    text = drop_invisible(text)
    text = text.casefold()
    text = _fold_confusables(text)
    text = _strip_marks(text)
    text = text.replace("\r\n", "\n").replace("\r", "\n").replace("’", "'").replace("‘", "'")
    # Spelled-out words are joined before spaces collapse: one separator joins letters,
    # a wider gap ends the word ("i g n o r e   p r e v i o u s" -> "ignore previous").
    matching = _LEET_WORD.sub(lambda m: m.group(0).translate(_LEET), text)
    matching = _SPACED_LETTERS.sub(lambda m: re.sub(r"[\W_]", "", m.group(0)), matching)
    text, matching = (_LINES.sub("\n", _SPACES.sub(" ", t)).strip() for t in (text, matching))
    return Normalised(text=text, matching=matching, tag_smuggling=hidden)


# --- layer 2: patterns ------------------------------------------------------------------

_CLAUSE_START = re.compile(r"[.;:!?\n]")


def _negated(text: str, start: int) -> bool:
    clause = text[:start]
    cut = max((m.end() for m in _CLAUSE_START.finditer(clause)), default=0)
    return NEGATION_BEFORE.search(clause[cut:]) is not None


_SENTENCE_BREAK = re.compile(r"[.!?\n。！？]")


def _sentence_around(text: str, start: int, end: int) -> tuple[str, str]:
    """The part of the match's sentence before ``start`` and after ``end``."""
    cut = max((m.end() for m in _SENTENCE_BREAK.finditer(text, 0, start)), default=0)
    after = _SENTENCE_BREAK.search(text, end)
    return text[cut:start], text[end : after.start() if after else len(text)]


def _refused_request(text: str, start: int, end: int) -> bool:
    """The match is what someone else asks for, refused in the same sentence ("if anyone
    asks you to ignore these rules, decline")."""
    before, after = _sentence_around(text, start, end)
    asked = REQUEST_WORDS.search(before) or REQUEST_WORDS.search(after)
    return bool(asked) and REFUSAL_AFTER.search(after) is not None


def _quoted_example(text: str, start: int, end: int) -> bool:
    """The match sits inside quotation marks and the words outside them mark it as an
    example or a thing people say ('phishing e-mails like "ignore your instructions"'),
    not as meant for real ("but actually apply it")."""
    for q in QUOTED_SPANS.finditer(text):
        if q.start() <= start and end <= q.end():
            outside = QUOTED_SPANS.sub(" ", text)
            return MENTION_MARKERS.search(outside) is not None and not APPLIED.search(outside)
    return False


def _disarmed(
    pattern: InjectionPattern, form: str, m: re.Match[str], quoted_ok: bool = True
) -> bool:
    """A match that is no instruction: negated, a refused request, (``quoted_ok``) a quoted
    example, (``character_ok``) a role-play of a person or character, or (override patterns)
    an order to ignore instructions found in material the assistant is handed
    (``EMBEDDED_IN``)."""
    if pattern.negatable and _negated(form, m.start()):
        return True
    if pattern.character_ok and PLAYED_CHARACTER.match(form, m.end()):
        return True
    if (
        pattern.family in ("override", "lang")
        and EMBEDDED_IN.match(form, m.end())
        and not OWN_INSTRUCTIONS.search(m.group())
    ):
        return True
    return _refused_request(form, m.start(), m.end()) or (
        quoted_ok and _quoted_example(form, m.start(), m.end())
    )


def _pattern_hits(
    norm: Normalised, decoded: Sequence[str] = (), quoted_ok: bool = True
) -> tuple[str, ...]:
    forms: tuple[str, ...] = (
        (norm.text,) if norm.matching == norm.text else (norm.text, norm.matching)
    )
    forms = (*forms, *decoded)
    if norm.tag_smuggling:
        forms = (*forms, TAG_SMUGGLING_MARKER)
    hits: list[str] = []
    for pattern in PATTERNS:
        found = False
        for form in forms:
            for rx in pattern.compiled:
                for m in rx.finditer(form):
                    if form is not TAG_SMUGGLING_MARKER and _disarmed(pattern, form, m, quoted_ok):
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


# --- decoded views ---------------------------------------------------------------------

_SENTENCE_SPLIT = re.compile(r"(?<=[.!?;。！？])\s*|\n+")
_BASE64_TOKEN = re.compile(r"[A-Za-z0-9+/_-]{16,}={0,2}")
_COMMON_WORDS = frozenset(
    [
        "the",
        "and",
        "you",
        "your",
        "to",
        "of",
        "is",
        "are",
        "a",
        "in",
        "for",
        "this",
        "that",
        "with",
        "from",
        "all",
        "me",
        "my",
        "it",
        "be",
        "on",
        "what",
        "do",
        "send",
        "ignore",
        "rules",
        "instructions",
        "not",
        "any",
        "every",
        "now",
        "tell",
        # Function words of es, fr, de, pt, it, nl: a reversed or ROT13 line in those
        # languages is recognised too. Left out: single letters and words whose reverse is a
        # common word (el/le, en/ne, et/te, os/so), which reversed ordinary text is full of.
        "los",
        "las",
        "que",
        "de",
        "para",
        "por",
        "con",
        "del",
        "una",
        "les",
        "des",
        "pas",
        "vous",
        "pour",
        "est",
        "der",
        "die",
        "das",
        "und",
        "nicht",
        "ist",
        "zu",
        "ein",
        "eine",
        "mit",
        "ich",
        "nao",
        "voce",
        "com",
        "um",
        "il",
        "che",
        "di",
        "per",
        "non",
        "het",
        "een",
        "van",
        "niet",
        "ik",
        "met",
        "voor",
        "dat",
    ]
)
_SENTENCE_END = frozenset(".!?。！？؟")
_ROT13 = str.maketrans("abcdefghijklmnopqrstuvwxyz", "nopqrstuvwxyzabcdefghijklm")


def _segments(text: str) -> list[str]:
    """Sentences worth embedding (an attack hidden in a long field is still found)."""
    parts = [p.strip() for p in _SENTENCE_SPLIT.split(text) if p and p.strip()]
    parts = [p for p in parts if len(re.findall(r"\w+", p)) >= 3 or not p.isascii()]
    return parts


def _common_count(text: str) -> int:
    return sum(1 for w in re.findall(r"[a-z']+", text) if w in _COMMON_WORDS)


def _base64_payloads(text: str) -> list[str]:
    out = []
    for m in _BASE64_TOKEN.finditer(text):
        token = m.group(0)
        if not (any(c.isupper() for c in token) and any(c.islower() for c in token)):
            continue
        raw = token.replace("-", "+").replace("_", "/")
        raw += "=" * (-len(raw) % 4)
        try:
            decoded = base64.b64decode(raw, validate=True).decode("utf-8")
        except (ValueError, UnicodeDecodeError):
            continue
        printable = sum(1 for c in decoded if c.isprintable() or c in "\n\t")
        # Chinese and Japanese have no spaces between words: enough of their characters
        # count as words.
        wordy = decoded.count(" ") >= 2 or len(_CJK.findall(decoded)) >= 4
        if wordy and printable >= 0.95 * len(decoded):
            out.append(decoded)
    return out


def _decoded_views(text: str, norm: Normalised) -> list[str]:
    """Normalised forms of what ``text`` hides: base64 payloads, ROT13, reversed text, and
    invisible characters that stand in for spaces. Cheap checks decide; most text has none."""
    views: list[str] = []
    for payload in _base64_payloads(text):
        views.append(normalise(payload).text)
    base = _common_count(norm.text)
    for candidate in (norm.text.translate(_ROT13), norm.text[::-1]):
        if _common_count(candidate) >= max(3, base + 2):
            views.append(candidate)
    # A line that opens with the full stop it should end with was written backwards (any
    # script: the common-word check above only knows words in Latin letters).
    if len(norm.text) >= 8 and norm.text[0] in _SENTENCE_END and norm.text[-1] not in _SENTENCE_END:
        views.append(norm.text[::-1])
    if drop_invisible(text) != text:
        spaced = normalise(invisible_as_spaces(text)).text
        if spaced != norm.text:
            views.append(spaced)
    return list(dict.fromkeys(v for v in views if v and v != norm.text))


# A label naming the kind of entry (the persona memory files write "Guardrail: ...",
# "Standing rule: ..."): the entry is judged without it, as it renders in the prompt.
_ENTRY_LABEL = re.compile(r"^(?:guardrail|standing rule|rule)s?\s*\d*\s*[:.)-]\s*")


def views(text: str, norm: Normalised | None = None) -> list[str]:
    """Every string of ``text`` the learned layer scores (all normalised; first = the whole
    text without its pasted data, unless it is all data)."""
    norm = norm or normalise(text)
    if not norm.text:
        return []
    # Pasted code, logs and traces are data, not language: the learned layer reads the
    # text without them, their comments kept (``safety.pasted``); the patterns and the
    # decoded views still read all of it.
    language = language_of(text)
    read = norm if language is None else normalise(language)
    out: list[str] = []
    if read.text:
        whole = _ENTRY_LABEL.sub("", read.text, count=1) or read.text
        out.append(whole)
        segments = _segments(whole)
        if len(segments) > 1:
            out.extend(segments)
        if read.matching != read.text:
            out.append(read.matching)
    out.extend(_decoded_views(text, norm))
    return list(dict.fromkeys(out))


# --- layer 3: the learned layer --------------------------------------------------------


_WORD = re.compile(r"\w+")
_CJK = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af]")


def _scorable(view: str) -> bool:
    """Whether a view says enough for the learned layer to judge it.

    One or two words ("Main", "Approve", an agent's name) carry no instruction, and the
    classifier, trained on sentences, is unreliable on them; the patterns still see them.
    Chinese and Japanese count characters instead of space-separated words.
    """
    if len(_WORD.findall(view)) >= 3:
        return True
    return len(_CJK.findall(view)) >= 6


class _NotReady(Exception):
    """Vectors are missing and the caller will not wait for the model to load; ``missing``
    names the texts (views) without a stored vector."""

    def __init__(self, missing: Sequence[str]) -> None:
        super().__init__(f"{len(missing)} texts wait for the embedding model")
        self.missing = frozenset(missing)


def _model_loaded() -> bool:
    from safety import encoder

    return encoder.model_loaded()


def _stored_vectors(texts: Sequence[str]) -> dict[str, np.ndarray] | None:
    """Stored vectors of ``texts`` by text (``None`` when there is no store or the
    database cannot be used)."""
    from django.db import DatabaseError

    from safety.encoder import vector_store

    store = vector_store()
    if store is None:
        return None
    try:
        with _savepoint():
            return store.stored(texts)
    except (DatabaseError, RuntimeError):
        return None


def _savepoint() -> Any:
    """A savepoint around a vector-store read or write whose failure is caught here.

    A scan runs inside callers' transactions (``persona.plans._plan_write``). Without
    it, a failed store (SQLite "database is locked" while a timed-out call still holds
    the lock) inside ``bulk_create``'s ``atomic(savepoint=False)`` would mark the
    caller's whole transaction for rollback, and its next query would raise
    ``TransactionManagementError``; with it, only the store is rolled back."""
    from django.db import transaction

    return transaction.atomic()


def _vectors(texts: Sequence[str], *, wait: bool) -> np.ndarray:
    """Vectors of ``texts`` in order. Stored vectors are read; missing ones are encoded
    (and stored) when ``wait`` or when the model is loaded already; otherwise the texts
    are queued for the background warm-up and ``_NotReady`` is raised."""
    from django.db import DatabaseError

    from safety.encoder import DIM, encode, vector_store

    texts = list(dict.fromkeys(texts))
    if not texts:
        return np.zeros((0, DIM), dtype=np.float32)
    stored = _stored_vectors(texts)
    missing = [t for t in texts if stored is None or t not in stored]
    if missing and not wait and not _model_loaded():
        _schedule(missing)
        raise _NotReady(missing)
    found = dict(stored or {})
    if missing:
        store = vector_store()
        try:
            with _savepoint():
                fresh = store.vectors(missing) if stored is not None and store else encode(missing)
        except (DatabaseError, RuntimeError):
            fresh = encode(missing)
        found.update(zip(missing, fresh, strict=True))
    return np.stack([found[t] for t in texts]).astype(np.float32, copy=False)


@dataclass(frozen=True)
class LearnedScore:
    probability: float  # of the highest-scoring view
    family: str  # named by the family model for that view
    view: str


def learned_scores(
    texts: Sequence[str],
    *,
    wait: bool = True,
    model: InjectionModel | None = None,
    vector_source: Callable[[list[str]], np.ndarray] | None = None,
) -> list[LearnedScore | None]:
    """The learned layer for raw ``texts`` (``None`` for empty text).

    ``model`` and ``vector_source`` default to the shipped model and the stored vectors
    (training passes its own). Raises ``_NotReady`` when ``wait`` is false and a vector
    would need the embedding model loaded.
    """
    from safety.learned import feature_matrix, get_model

    model = model or get_model()
    owners: list[int] = []
    strings: list[str] = []
    for i, text in enumerate(texts):
        for v in views(text):
            if _scorable(v):
                owners.append(i)
                strings.append(v)
    results: list[LearnedScore | None] = [None] * len(texts)
    if not strings:
        return results
    unique = list(dict.fromkeys(strings))
    vectors = vector_source(unique) if vector_source else _vectors(unique, wait=wait)
    row_of = {t: k for k, t in enumerate(unique)}
    features = feature_matrix(unique, vectors)
    probs = model.probabilities(features)
    best: dict[int, int] = {}
    for owner, string in zip(owners, strings, strict=True):
        k = row_of[string]
        if owner not in best or probs[k] > probs[best[owner]]:
            best[owner] = k
    if best:
        rows = sorted(set(best.values()))
        names = dict(zip(rows, model.family_of(features.rows(rows)), strict=True))
        for owner, k in best.items():
            results[owner] = LearnedScore(
                probability=float(probs[k]), family=names[k], view=unique[k]
            )
    return results


def learned_threshold() -> float:
    from safety.learned import get_model

    return get_model().threshold


# --- background warm-up -------------------------------------------------------------------

_warm_lock = threading.Lock()
_warm_thread: threading.Thread | None = None
_warm_queue: list[str] = []


def warm_up_in_background() -> threading.Thread:
    """Load the embedding model and the learned layer in a daemon thread (once per process).

    Returns the thread (already started, or finished). Texts queued by pending scans
    meanwhile get their vectors stored and their results cached when the model is in.
    """
    global _warm_thread
    with _warm_lock:
        if _warm_thread is None:
            _warm_thread = threading.Thread(
                target=_warm_up, name="injection-scan-warm-up", daemon=True
            )
            _warm_thread.start()
            atexit.register(_let_the_warm_up_finish, _warm_thread)
        return _warm_thread


#: how long a process that is exiting waits for a model load still under way
EXIT_WAIT_SECONDS = 15.0


def _let_the_warm_up_finish(thread: threading.Thread) -> None:
    """At exit, wait for a load still under way: a daemon thread inside ONNX Runtime's
    session build while the interpreter winds down aborts the whole process (SIGABRT,
    "terminate called without an active exception"), which a host sees as its MCP
    server crashing when it closes the server right after a first call."""
    thread.join(timeout=EXIT_WAIT_SECONDS)


def warm_up_at_start(*, web: bool = False) -> None:
    """Start the background load as a serving process starts (web worker, MCP server,
    Celery worker), so no call waits for the model; off with ``PERSONAWEB_WARM_UP=0``.
    ``web``: a process that answers requests encodes on ``ENCODER_WEB_THREADS`` threads
    with the leaner ONNX session (``safety.encoder.set_lean``).

    Called from those processes' entry points (``personaweb/wsgi.py``, ``asgi.py``,
    ``celery.py``, ``manage.py mcp``), not from ``AppConfig.ready``: ready runs for every
    management command (migrate, makemigrations, shell) and in the test suite, none of
    which should spend a core and 300 MB loading a model they may never use."""
    from django.conf import settings

    from safety import encoder

    if web:
        encoder.set_threads(settings.ENCODER_WEB_THREADS)
        encoder.set_lean()
    if getattr(settings, "PERSONAWEB_WARM_UP", True):
        warm_up_in_background()


def _schedule(texts: Sequence[str]) -> None:
    with _warm_lock:
        _warm_queue.extend(t for t in texts if t not in _warm_queue)
    warm_up_in_background()


def _warm_up() -> None:
    from django.db import connection

    from safety import encoder
    from safety.learned import get_model

    try:
        get_model()
        encoder.get_model()
        while True:
            with _warm_lock:
                batch = _warm_queue[:256]
                del _warm_queue[:256]
            if not batch:
                break
            _vectors(batch, wait=True)  # stores them for every process
        encoder.release_freed_memory()  # what loading the learned layer freed, too
    except Exception:  # noqa: BLE001 - a failed warm-up must not kill the web process
        logger.exception("The injection-scan warm-up failed; scans will load the model on demand.")
    finally:
        connection.close()


# --- the scan ------------------------------------------------------------------------


@dataclass(frozen=True)
class ScanResult:
    """``pattern_ids`` names every hit (patterns first, then the semantic id).

    ``pending`` means the learned layer has not run yet (see "Never waiting" above); such
    a result is ``blocked`` with the id ``scan.pending`` and is never cached.
    """

    blocked: bool
    pattern_ids: tuple[str, ...]
    pattern_hits: tuple[str, ...]  # layer 2
    semantic_hits: tuple[str, ...]  # layer 3 (empty when it did not run)
    semantic_score: float | None = None  # the learned layer's probability (highest view)
    semantic_ran: bool = False
    pending: bool = False


_CLEAN = ScanResult(blocked=False, pattern_ids=(), pattern_hits=(), semantic_hits=())
_PENDING = ScanResult(
    blocked=True, pattern_ids=(PENDING_ID,), pattern_hits=(), semantic_hits=(), pending=True
)
_cache: OrderedDict[tuple[str, bool], ScanResult] = OrderedDict()
_cache_lock = threading.Lock()


def _key(text: str, semantic: bool) -> tuple[str, bool]:
    # Keyed by a digest so a 6,000-character background does not sit in the cache twice.
    return memo.digest(text), semantic


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
    """Whether ``scan`` runs the learned layer when not told.

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


def _combine(
    pattern_hits: tuple[str, ...], score: LearnedScore | None, ran: bool, threshold: float
) -> ScanResult:
    hit = ran and score is not None and score.probability >= threshold
    semantic_hits = (f"semantic.{score.family}",) if hit and score is not None else ()
    ids = pattern_hits + semantic_hits
    return ScanResult(
        blocked=bool(ids),
        pattern_ids=ids,
        pattern_hits=pattern_hits,
        semantic_hits=semantic_hits,
        semantic_score=score.probability if score is not None else None,
        semantic_ran=ran,
    )


def _scores_of_ready(
    texts: list[str], *, wait: bool
) -> tuple[dict[str, LearnedScore | None], set[str]]:
    """Learned scores of ``texts``, and the texts that must wait for the model: only
    those with a view that has no stored vector (one new text, such as a routine's
    question of the day, does not hold back the stored ones scanned beside it)."""
    try:
        return dict(zip(texts, learned_scores(texts, wait=wait), strict=True)), set()
    except _NotReady as not_ready:
        waiting = {t for t in texts if any(v in not_ready.missing for v in views(t))}
    ready = [t for t in texts if t not in waiting]
    try:
        return dict(zip(ready, learned_scores(ready, wait=wait), strict=True)), waiting
    except _NotReady:  # a vector vanished in between (never expected): nothing is judged
        return {}, set(texts)


def scan_many(
    texts: Sequence[str], *, semantic: bool | None = None, wait: bool = True
) -> list[ScanResult]:
    """Scan many texts; the learned layer runs as one batch for the uncached ones.

    ``wait=False`` never loads the embedding model on this thread: a text that would
    need it gets a pending result (blocked, ``scan.pending``) at once, unless the
    patterns already block it.
    """
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
        unique = list(dict.fromkeys(texts[i] for i in todo))
        norms = {t: normalise(t) for t in unique}
        patterns = {t: _pattern_hits(norms[t], _decoded_views(t, norms[t])) for t in unique}
        scores: dict[str, LearnedScore | None] = {}
        waiting: set[str] = set()
        threshold = 0.0
        if semantic:
            threshold = learned_threshold()
            # Texts the patterns block need no learned score to be blocked; the others do.
            need = [t for t in unique if not patterns[t]]
            scores, waiting = _scores_of_ready(need, wait=wait)
        for i in todo:
            text = texts[i]
            if text in waiting:
                results[i] = _PENDING
                continue
            result = _combine(patterns[text], scores.get(text), semantic, threshold)
            _cache_put(_key(text, semantic), result)
            results[i] = result
    return [r if r is not None else _CLEAN for r in results]


def settled_here(text: str, semantic: bool) -> bool:
    """Whether this process holds a settled result for ``text``."""
    return _cache_get(_key(text, semantic)) is not None


def keep_here(text: str, semantic: bool, result: ScanResult) -> None:
    """Hold a settled result another process recorded (``safety.checks``), as if this
    process had scanned the text."""
    if not result.pending:
        _cache_put(_key(text, semantic), result)


def to_record(result: ScanResult) -> dict[str, Any]:
    """A settled result as the verdict store keeps it (``safety.memo``)."""
    return {
        "patterns": list(result.pattern_hits),
        "semantic": list(result.semantic_hits),
        "score": result.semantic_score,
        "ran": result.semantic_ran,
    }


def from_record(record: Any) -> ScanResult | None:
    """Inverse of ``to_record``; ``None`` for a record this code cannot read (it is
    scanned again)."""
    try:
        pattern_hits = tuple(str(i) for i in record["patterns"])
        semantic_hits = tuple(str(i) for i in record["semantic"])
        score = record["score"]
        ran = bool(record["ran"])
    except (KeyError, TypeError):
        return None
    ids = pattern_hits + semantic_hits
    return ScanResult(
        blocked=bool(ids),
        pattern_ids=ids,
        pattern_hits=pattern_hits,
        semantic_hits=semantic_hits,
        semantic_score=float(score) if score is not None else None,
        semantic_ran=ran,
    )


def scan(text: str, *, semantic: bool | None = None, wait: bool = True) -> ScanResult:
    """Scan one text. ``semantic=False`` runs layers 1-2 only (no model, microseconds)."""
    return scan_many([text], semantic=semantic, wait=wait)[0]


def quoted_instructions(text: str) -> tuple[str, ...]:
    """The patterns ``text`` holds only as a quoted example ("a comment in the old include
    says 'ignore previous instructions and …', leave it out"): no instruction from whoever
    wrote the text, so ``scan`` lets it through, but still one to a model that reads the
    text, so evidence leaves such a text out (``safety.evidence.why_unsafe``). Word
    patterns only, no model."""
    if not text or not text.strip():
        return ()
    norm = normalise(text)
    return _pattern_hits(norm, _decoded_views(text, norm), quoted_ok=False)


def placeholder(pattern_ids: Sequence[str]) -> str:
    """What renders instead of a blocked text: ``[BLOCKED: <ids>]``, or the scanning
    placeholder for a pending result."""
    if tuple(pattern_ids) == (PENDING_ID,):
        return SCANNING_PLACEHOLDER
    return f"[BLOCKED: {', '.join(pattern_ids)}]"
