"""Text normalisation shared by quote verification and the refusal policy, and the one
wrapper of the English lexicon (``lemmas``, ``can_be``, ``is_english_word``,
``inflections``: lemminflect, below every app that reads words).

``normalize_for_match`` turns a text into its words, lower-cased and separated by one
space, and remembers where every kept character came from, so a quote found in the
normalised text keeps its character span in the original message.

What is folded away (PRODUCT.md section 5, "word for word"):

- Unicode compatibility forms (NFKC, applied per character cluster so a base letter
  and its combining accents stay together), then case (``casefold``), the same in
  every locale: the Turkish dotted capital "İ" (which ``casefold`` turns into "i" plus
  a combining dot) and the dotless "ı" both fold to a plain "i", so "İSTANBUL",
  "istanbul" and "ıstanbul" are one word, whichever keyboard typed them;
- invisible characters (Unicode category ``Cf``: zero-width spaces and joiners, soft
  hyphens, byte-order marks, bidi marks);
- typographic quotes, apostrophes and dashes (folded to ``'``, ``"`` and ``-``);
- punctuation and white space between words: every run of characters that are not
  letters, digits or combining marks becomes one separator. An apostrophe *inside* a
  word is dropped instead ("don't" and "don’t" are the word ``dont``), so a quote can
  never start in the middle of "don't". A hyphen separates words: "follow-up" and
  "follow up" are the same two words.

Words and their order are kept as they are: nothing here matches loosely.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass

import lemminflect

# --- invisible characters (one list for the whole project) ---------------------------------

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


@functools.lru_cache(maxsize=4096)
def is_invisible(ch: str) -> bool:
    """Whether ``ch`` is invisible: a format character (Unicode ``Cf``: zero-width
    spaces and joiners, bidi marks, soft hyphens), a control but line breaks and tabs,
    or a filler or variation selector that shows nothing."""
    cp = ord(ch)
    for lo, hi in _INVISIBLE_RANGES:
        if lo <= cp <= hi:
            return True
    cat = unicodedata.category(ch)
    return cat == "Cf" or (cat == "Cc" and ch not in "\n\t\r")


#: The ASCII characters ``is_invisible`` names (controls but line breaks and tabs).
_ASCII_INVISIBLE = {i: None for i in [*range(32), 127] if chr(i) not in "\n\t\r"}


def drop_invisible(text: str) -> str:
    """``text`` without the characters ``is_invisible`` names (ASCII text in one pass)."""
    if text.isascii():
        return text.translate(_ASCII_INVISIBLE)
    return "".join(c for c in text if not is_invisible(c))


def invisible_as_spaces(text: str) -> str:
    """``text`` with each character ``is_invisible`` names read as a space (words
    joined by zero-width spaces are words again); ``text`` itself when it has none."""
    if text.isascii() and text.translate(_ASCII_INVISIBLE) == text:
        return text
    return "".join(" " if is_invisible(c) else c for c in text)


_QUOTES = {
    **dict.fromkeys("\u2018\u2019\u201a\u201b\u2032\u02bc\u0060\u00b4\uff07", "'"),
    **dict.fromkeys("\u201c\u201d\u201e\u201f\u2033\u00ab\u00bb\u2039\u203a", '"'),
    **dict.fromkeys("\u2010\u2011\u2012\u2013\u2014\u2015\u2212\ufe58\ufe63\uff0d", "-"),
}


@dataclass(frozen=True)
class NormText:
    """A normalised text with, for each of its characters, the original span it came from."""

    text: str
    starts: tuple[int, ...]  # original offset of the cluster each character came from
    ends: tuple[int, ...]  # original end offset (exclusive) of that cluster

    def original_span(self, start: int, end: int) -> tuple[int, int]:
        """Map the normalised slice ``[start:end]`` (non-empty) to an original slice."""
        return self.starts[start], self.ends[end - 1]


def _is_word_char(ch: str) -> bool:
    return unicodedata.category(ch)[0] in "LNM"


def _clusters(text: str) -> list[tuple[int, int]]:
    """Spans of a base character followed by its combining marks."""
    spans: list[tuple[int, int]] = []
    i, n = 0, len(text)
    while i < n:
        j = i + 1
        while j < n and unicodedata.combining(text[j]):
            j += 1
        spans.append((i, j))
        i = j
    return spans


_ASCII_WORD = re.compile(r"[a-z0-9]+(?:'[a-z0-9]+)*")


def _normalize_ascii(text: str) -> NormText:
    """Fast path with the same result as the general one for ASCII text.

    In ASCII, NFKC is the identity, there are no invisible (Cf) characters nor combining
    marks, ``casefold`` is ``lower`` and the backtick is the only quote to fold.
    """
    lowered = text.lower().replace("`", "'")
    out: list[str] = []
    starts: list[int] = []
    ends: list[int] = []
    for match in _ASCII_WORD.finditer(lowered):
        if out:
            # the separator maps to the first character after the previous word
            sep = ends[-1]
            out.append(" ")
            starts.append(sep)
            ends.append(sep + 1)
        for i in range(match.start(), match.end()):
            ch = lowered[i]
            if ch == "'":
                continue
            out.append(ch)
            starts.append(i)
            ends.append(i + 1)
    return NormText(text="".join(out), starts=tuple(starts), ends=tuple(ends))


_DOT_ABOVE = "\u0307"


def _fold_case(cluster: str) -> str:
    """``casefold`` without the locale trap of the Turkish i (see the module docstring)."""
    folded = cluster.casefold().replace("\u0131", "i")
    if folded.startswith("i" + _DOT_ABOVE):  # "İ" -> "i̇": the dot is the capital's, not an accent
        folded = "i" + folded[2:]
    return folded


def folded_spaces(text: str) -> str:
    """``text`` case-folded (``str.casefold``) with every run of white space one space
    and none at its ends: a key that follows the words as written, punctuation kept."""
    return " ".join(text.casefold().split())


def fold_case(text: str) -> str:
    """``text`` case-folded the way ``normalize`` folds it (per character cluster)."""
    return "".join(_fold_case(text[a:b]) for a, b in _clusters(text))


@functools.lru_cache(maxsize=8192)
def normalize(text: str) -> NormText:
    """The words of ``text``, folded, one space apart, with the map back to ``text``.

    Cached: a review normalises each message several times (directive check, sentence
    and rule verification), and the result is immutable.
    """
    if text.isascii():
        return _normalize_ascii(text)
    return _normalize_general(text)


def _normalize_general(text: str) -> NormText:
    # pass 1: fold each cluster to characters, dropping invisible ones
    units: list[tuple[str, int, int]] = []
    for start, end in _clusters(text):
        folded = _fold_case(unicodedata.normalize("NFKC", text[start:end]))
        for ch in folded:
            ch = _QUOTES.get(ch, ch)
            if unicodedata.category(ch) == "Cf":
                continue
            units.append((ch, start, end))
    # pass 2: keep word characters, one space between words
    out: list[str] = []
    starts: list[int] = []
    ends: list[int] = []
    pending_space: tuple[int, int] | None = None
    for k, (ch, start, end) in enumerate(units):
        if _is_word_char(ch):
            if pending_space is not None and out:
                out.append(" ")
                starts.append(pending_space[0])
                ends.append(pending_space[1])
            pending_space = None
            out.append(ch)
            starts.append(start)
            ends.append(end)
            continue
        if (
            ch == "'"
            and out
            and pending_space is None
            and k + 1 < len(units)
            and _is_word_char(units[k + 1][0])
        ):
            continue  # an apostrophe inside a word: "don't" is one word
        if pending_space is None:
            pending_space = (start, end)
    return NormText(text="".join(out), starts=tuple(starts), ends=tuple(ends))


def normalize_for_match(text: str) -> tuple[str, list[int]]:
    """``(normalised text, index_map)``: ``index_map[i]`` is the original offset of char i."""
    norm = normalize(text)
    return norm.text, list(norm.starts)


def words(text: str) -> list[str]:
    """The words of ``text`` as verification counts them (see the module docstring)."""
    norm = normalize(text).text
    return norm.split(" ") if norm else []


def word_set(text: str) -> frozenset[str]:
    """A word list written as white-space separated words."""
    return frozenset(text.split())


# Small and deliberate: function words, pronouns, auxiliaries, negations and the filler
# of requests ("please can you help me"), so "shares a word" means a word of substance.
STOP_WORDS = word_set(
    """
    a about above after again against all almost also always am an and any are as at be
    because been before being below between both but by can cannot cant could couldnt
    did didnt do does doesnt doing dont done down during each either else etc even ever
    every few for from further get gets getting got had hadnt has hasnt have havent
    having he her here hers herself him himself his how however i id if im in into is
    isnt it its itself ive just let lets like made make makes making me might more most
    much must my myself need needs neither never no nor not now of off often ok okay on
    once one only or other our ours ourselves out over own per please quite rather
    really same shall she should so some such than thank thanks that thats the their
    theirs them themselves then there these they this those though through thus to too
    under until up upon us very via want wants was wasnt way we were werent what when
    where whether which while who whom whose why will with within without wont would
    wouldnt yes yet you youd youll your youre yours yourself yourselves ive help helps
    helping thing things something anything everything stuff bit lot lots
    """
)

# Suffixes stripped by ``stem``, longest first. Up to three rounds, each leaving at least
# three letters, so "pricing", "prices", "priced" and "price" all become "pric",
# "orders"/"ordering"/"order" become "ord" and "deliveries"/"delivery" become "deliv".
_SUFFIXES = ("ations", "ation", "ings", "ing", "ies", "ers", "er", "ed", "es", "ly", "s", "e", "y")
_DOUBLE = re.compile(r"([b-df-hj-np-tv-z])\1$")


def strip_accents(text: str) -> str:
    """``text`` without its accents: decomposed (NFD), combining marks dropped ("é" ->
    "e", "ü" -> "u"); case and everything else kept."""
    return "".join(ch for ch in unicodedata.normalize("NFD", text) if not unicodedata.combining(ch))


def stem(word: str) -> str:
    """A small suffix-stripping stem, good enough to tell that two words share a root;
    accents folded, so a plural that moves the accent ("publicación", "publicaciones")
    shares its root."""
    if not word.isascii():
        word = strip_accents(word)
    for _ in range(3):
        for suffix in _SUFFIXES:
            if word.endswith(suffix) and len(word) - len(suffix) >= 3:
                word = word[: -len(suffix)]
                if suffix == "ies":
                    word += "y"  # replies -> reply, stemmed on as "reply" is
                if suffix in ("ing", "ings", "ed", "er", "ers", "es") and _DOUBLE.search(word):
                    word = word[:-1]  # planning -> plann -> plan
                break
        else:
            break
    return word


def content_words(text: str) -> set[str]:
    """Stems of the words of ``text`` that carry meaning (stop words and digits dropped)."""
    return {stem(w) for w in words(text) if w not in STOP_WORDS and not w.isdigit() and len(w) > 1}


def _root(word_stem: str) -> str:
    """A stem of five letters or more without its last vowel: where Italian, Spanish or
    Portuguese tell singular from plural or gender by a vowel the stem keeps ("conferma"
    and "conferm" of "conferme", "recensione" and "recensioni" both "recension")."""
    return word_stem[:-1] if len(word_stem) >= 5 and word_stem[-1] in "aeiou" else word_stem


def _plural_in_n(a: str, b: str) -> bool:
    """Whether one stem is the other with an "-en" or "-n" ending, the shorter of five
    letters or more: the German plural of a noun in "-ung", "-e", "-t" and many others
    ("Rechnung" / "Rechnungen", "Anfrage" / "Anfragen", "Nachricht" / "Nachrichten")."""
    short, long_ = (a, b) if len(a) < len(b) else (b, a)
    return len(short) >= 5 and long_ in (short + "n", short + "en")


def _plural_by_last_letters(a: str, b: str) -> bool:
    """Whether two stems are one Portuguese noun in its two numbers where the plural
    changes the singular's last letters (stems of five letters or more, accents folded):
    "-ão" and "-ões", "-ães" ("publicacao" / "publicaco" of "publicações"), "-m" and "-ns"
    ("mensagem" / "mensagen" of "mensagens"), "-l" and "-is" ("jornal" / "jornai" of
    "jornais", "papel" / "papei" of "papéis")."""
    short, long_ = (a, b) if len(a) < len(b) else (b, a)
    if len(short) < 5:
        return False
    if long_.endswith("ao") and short in (long_[:-2] + "o", long_[:-2] + "a"):
        return True
    if len(short) != len(long_):
        return False
    pairs = {(short[-1], long_[-1]), (long_[-1], short[-1])}
    return short[:-1] == long_[:-1] and bool(pairs & {("m", "n"), ("l", "i")})


def share_a_word(quote: str, sentence_words: set[str]) -> bool:
    """Whether ``quote`` shares a content word with a sentence whose ``content_words`` are
    ``sentence_words``: one stem alike, alike but for a last vowel (``_root``), alike
    but for a plural ending in "-n" or "-en" (``_plural_in_n``) or for the last letters a
    Portuguese plural changes (``_plural_by_last_letters``), or a sentence word that is a
    compound of the quote's ("kursbekreftelser", "bekreftelse": ``_compound_of``). The one test of "a quote
    shares a word with what it proves", for the review's verifier and the proposers
    alike."""
    quoted = content_words(quote)
    if quoted & sentence_words:
        return True
    if {_root(w) for w in quoted} & {_root(w) for w in sentence_words}:
        return True
    if any(
        _plural_in_n(q, s) or _plural_by_last_letters(q, s) for q in quoted for s in sentence_words
    ):
        return True
    if any(_compound_of(s, q) for q in quoted for s in sentence_words):
        return True
    # a singular the English stem cuts ("bevestiging" -> "bevestig") beside its plural the
    # stem keeps whole ("bevestigingen"): the word as written
    written = {w for w in words(quote) if w not in STOP_WORDS and not w.isdigit()}
    return any(_plural_by_ending(q, s) for q in quoted | written for s in sentence_words)


# the shortest part of a compound written as one word: before the noun it ends in, and
# that noun (German, Dutch and Scandinavian "kursbekreftelse": "kurs" + "bekreftelse")
COMPOUND_PART = 3
# the shortest stem a compound may end in for a quote to share it (not "post", "note")
COMPOUND_STEM = 6


def _compound_of(compound: str, stem: str) -> bool:
    """Whether ``compound`` (a stem) is a compound ending in ``stem``: "kursbekreftel" of
    "kursbekreftelser" ends in "bekreftel" of "bekreftelse", so a quote asking for a
    "bekreftelse" shares a word with "Lager kursbekreftelser."."""
    stem = _root(stem)
    return (
        len(stem) >= COMPOUND_STEM
        and len(compound) - len(stem) >= COMPOUND_PART
        and compound.endswith(stem)
    )


# plural endings added to a singular, or to it without its last vowel: Dutch "-en", "-s"
# ("bevestiging" / "bevestigingen", "factuur" / "facturen"), Swedish "-or", "-ar", "-er"
# ("faktura" / "fakturor", "bokning" / "bokningar")
_PLURAL_ENDINGS = ("en", "n", "or", "ar", "er", "r")
_DOUBLED_VOWEL = re.compile(r"([aeiou])\1")


def _plural_by_ending(a: str, b: str) -> bool:
    """Whether one word is the other, of five letters or more, with a plural ending
    (``_PLURAL_ENDINGS``), a doubled vowel written single (Dutch "factuur" / "facturen")
    or a last vowel dropped before it (Swedish "faktura" / "fakturor")."""
    a, b = _DOUBLED_VOWEL.sub(r"\1", a), _DOUBLED_VOWEL.sub(r"\1", b)
    short, long_ = (a, b) if len(a) < len(b) else (b, a)
    if len(short) < 5:
        return False
    bases = {short, _root(short)}
    return any(long_ == base + ending for base in bases for ending in _PLURAL_ENDINGS)


# --- what a proposer reads: people's own words, not what they pasted -------------------

_FENCED = re.compile(r"```.*?(?:```|$)|~~~.*?(?:~~~|$)", re.S)
_INLINE_CODE = re.compile(r"`[^`\n]*`")
_QUOTED_LINE = re.compile(r"^\s*>.*$", re.M)
_TRACE_LINE = re.compile(
    r"^\s*(?:Traceback|File \"|at [\w.$]+\(|\w+(?:\.\w+)*(?:Error|Exception):).*$", re.M
)
_URL = re.compile(r"\bhttps?://\S+|\bwww\.\S+")
# identifiers and file names pasted into a sentence: "fct_orders", "pd.read_parquet(",
# "load_orders.py", "models/staging/stg_payments.sql" (each run of word characters,
# dots, slashes and hyphens is read once and blanked when it is one of those)
_CODE_RUN = re.compile(r"[\w/.-]+\(?")
_SNAKE = re.compile(r"[^\W_]_+[^\W_]|__\w")
_DOTTED_CALL = re.compile(r"[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+\($")
_FILE_NAME = re.compile(
    r"\.(?:py|sql|js|ts|json|ya?ml|csv|txt|md|html|css|sh|toml|cfg|ini|rb|go|rs|java)\.?$"
)


def _blank_code_run(match: re.Match[str]) -> str:
    run = match.group(0)
    if _SNAKE.search(run) or _DOTTED_CALL.match(run) or _FILE_NAME.search(run.rstrip("(")):
        return " " * len(run)
    return run


# a pasted document in quotation marks: a quoted span of at least eight words
_QUOTED_DOCUMENT = re.compile(
    r"[\"\u201c](?=(?:[^\"\u201c\u201d]*?\s){7})[^\"\u201c\u201d]*[\"\u201d]"
)


def _blank(match: re.Match[str]) -> str:
    # keep offsets: a quote is cut from the original text
    return re.sub(r"[^\n]", " ", match.group(0))


# a string literal inside code: "name: 'Gemma Fairweather'" (one line, either quote)
_STRING_LITERAL = re.compile(r"'[^'\n]*'|\"[^\"\n]*\"")


def code_outside_strings(text: str) -> list[tuple[int, int]]:
    """The spans of ``text`` that are code (fenced or inline) but no string literal in it:
    what a capital there starts is a type, a class or a constant ("Widget build(…)",
    "StatelessWidget"), never a person's name; a name in code stands in a string."""
    spans: list[tuple[int, int]] = []
    for pattern in (_FENCED, _INLINE_CODE):
        for m in pattern.finditer(text):
            a = m.start()
            for lit in _STRING_LITERAL.finditer(m.group(0)):
                spans.append((a, m.start() + lit.start()))
                a = m.start() + lit.end()
            spans.append((a, m.end()))
    return spans


def readable_text(text: str) -> str:
    """``text`` with code (fenced and inline), stack traces, quoted e-mail lines, URLs,
    identifiers and file names ("fct_orders", "load_orders.py") and pasted documents in
    quotation marks (eight words or more) blanked out. Same length, so every offset
    still points into the original."""
    for pattern in (_FENCED, _INLINE_CODE, _QUOTED_LINE, _TRACE_LINE, _URL):
        text = pattern.sub(_blank, text)
    text = _CODE_RUN.sub(_blank_code_run, text)
    return _QUOTED_DOCUMENT.sub(_blank, text)


# --- the English lexicon (the one wrapper of lemminflect for the whole project) ----------

# lemminflect is a lexicon of English word forms with their lemmas, shipped inside the
# package (no download, no model, no network). It says what a word *can* be, not what it
# is in a given sentence; the callers decide with the words around it. Nothing else
# imports it (``lint-imports``, contract "lexicon").

_UPOS = frozenset({"VERB", "NOUN", "ADJ", "ADV", "AUX", "PROPN"})


@functools.lru_cache(maxsize=16384)
def lemmas(word: str) -> Mapping[str, tuple[str, ...]]:
    """The lemmas of ``word``, lower-cased, by each part of speech it can be
    ("replies" -> ``{"VERB": ("reply",), "NOUN": ("reply",)}``; an unknown word: none)."""
    return dict(lemminflect.getAllLemmas(word.lower()))


def is_english_word(word: str) -> bool:
    """Whether the lexicon knows ``word`` (in any part of speech)."""
    return bool(lemmas(word))


def can_be(word: str, pos: str) -> bool:
    """Whether ``word`` can be a ``pos`` ("VERB", "NOUN", "ADJ", "ADV", "AUX")."""
    assert pos in _UPOS
    return pos in lemmas(word)


@functools.lru_cache(maxsize=8192)
def inflections(word: str, tag: str) -> tuple[str, ...]:
    """The lexicon's forms of ``word`` (as written, not lower-cased) for a Penn tag, the
    usual one first ("VBZ": "draft" -> "drafts"; "NNS": "reply" -> "replies"); for a word
    it lacks, its rules' guess ("qwzx" -> "qwzxes")."""
    return tuple(lemminflect.getInflection(word, tag=tag))
