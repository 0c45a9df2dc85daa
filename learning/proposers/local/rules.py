"""Standing rules: the wording of an instruction that recurs in corrections, verb first
(the corrections themselves: ``corrections``)."""

from __future__ import annotations

import re
from collections import Counter
from typing import TYPE_CHECKING, Any

from learning import language
from learning.candidates import (
    MAX_RECORDED,
    TOO_FEW_CONVERSATIONS,
    TOO_FEW_PEOPLE,
    candidate,
)
from learning.proposers.local.corrections import Correction, _variant, recurring_instructions
from learning.proposers.local.requests import (
    AUXILIARIES,
    _acronym,
    _noun_phrase,
)
from learning.proposers.local.tokens import _SENTENCE_END, _is_noun_word, _is_verb_here, tokens
from learning.proposers.local.wording import names_with_capitals
from learning.proposers.local.words import (
    DETERMINERS,
    DRAFT_PRONOUNS,
    FREQUENCY_NOUNS,
    MAX_CANDIDATES,
    NEGATIONS,
    PARTICLES,
    PREPOSITIONS,
    PRONOUN_WORDS,
    QUESTION_STARTS,
    TEXT_PARTS,
)
from safety.text import (
    content_words,
)

if TYPE_CHECKING:
    from learning.models import LearningSettings
    from learning.proposers.local.tokens import Tok


# --- the wording of a rule ----------------------------------------------------------------


# pronouns that point at the draft at hand or at one person: "Add type hints to those",
# "Use his first name" (a rule says "them", "their" for whoever it concerns)
POINTING_PRONOUNS = frozenset(
    ["it", "this", "that", "these", "those", "he", "she", "him", "her", "his", "me", "my", "i"]
)


# where a verbless instruction puts something: "VAT on its own line" -> "Show VAT on …"
PLACE_PREPOSITIONS = frozenset(["on", "in", "at", "next", "under", "above", "below", "beside"])


RULE_PREPOSITIONS = frozenset(["with", "by", "in", "on", "at", "to", "for", "of", "from"])


def _words_as_written(c: Correction, toks: list[Tok]) -> list[str]:
    """The words of a rule as the person wrote them: an acronym or a capitalised word
    past the first keeps its capitals, a hyphen or slash inside a word stays ("24-hour",
    "before/after"), everything else is lower case."""
    from learning.policy import CAPITALISED_OK

    text = c.message.text
    out: list[str] = []
    for k, t in enumerate(toks):
        keep_case = _acronym(t.text) or (t.text[:1].isupper() and (k or t.low in CAPITALISED_OK))
        word = t.text if keep_case else t.low
        if k and text[toks[k - 1].end : t.start] in ("-", "/"):
            out[-1] += text[toks[k - 1].end : t.start] + word
        else:
            out.append(word)
    return out


def _bare_singular(toks: list[Tok]) -> bool:
    """A preposition followed by a noun phrase of two words or more with no determiner
    and a singular noun at its end ("with first name", "by first name"): telegraphic."""
    from learning.policy import CAPITALISED_OK

    last = toks[-1] if toks else None
    if (
        last is not None
        and len(toks) > 2
        and toks[-2].low in ("with", "without")
        and last.text.isalpha()
        and last.text.islower()
        and not last.low.endswith("ing")
        and language.lemma(last.low, "NOUN") == last.low
        and not language.is_mass(last.low)
    ):
        return True  # "private fields with underscore": one countable thing, no article
    for k, t in enumerate(toks[:-2]):
        if t.low not in RULE_PREPOSITIONS:
            continue
        words, _ = _noun_phrase(toks, k + 1)
        if len(words) < 2 or words[0] is not toks[k + 1] or toks[k + 1].low in DETERMINERS:
            continue
        last = words[-1]
        if not last.low.isalpha() or _acronym(last.text) or last.low in CAPITALISED_OK:
            continue
        if last.low.endswith("ing") or language.lemma(last.low, "NOUN") != last.low:
            continue
        return True
    return False


def _thing_end(toks: list[Tok]) -> int:
    """Where the thing a verbless instruction opens with ends: its noun phrase and the
    noun phrases "of" joins to it ("the day of the week")."""
    _, j = _noun_phrase(toks, 0)
    while 0 < j < len(toks) - 1 and toks[j].low == "of":
        _, after = _noun_phrase(toks, j + 1)
        if after <= j + 1:
            break
        j = after
    return j


def _shown_at(toks: list[Tok], j: int) -> bool:
    """Whether the words from ``j`` say where the thing goes ("on its own line") or the
    thing it goes with ("with the date", "with every date"; not "with underscore", which
    says how it is)."""
    if j >= len(toks):
        return False
    if toks[j].low in PLACE_PREPOSITIONS:
        return True
    return (
        toks[j].low == "with"
        and j + 1 < len(toks)
        and toks[j + 1].low in ("the", "each", "every", "its", "their")
    )


def _only_a_thing(toks: list[Tok], verb_first: bool) -> bool:
    """Whether a verbless instruction names one thing and nothing else ("day of the
    week"): another wording of the same rule that says where it goes or what it goes with
    says more. A plural or mass noun alone is a rule of its own ("type hints", "double
    quotes", "British spelling")."""
    return not verb_first and _thing_end(toks) >= len(toks) and _one_countable_thing(toks)


def _dangling(toks: list[Tok]) -> bool:
    """Whether an instruction ends in a preposition or particle with nothing after it
    ("Put the day of the week in"): a rule must say in what."""
    last = toks[-1].low
    return len(toks) > 2 and (
        last in PREPOSITIONS or last in PARTICLES or last in PLACE_PREPOSITIONS
    )


def _one_countable_thing(toks: list[Tok]) -> bool:
    """Whether a verbless instruction opens with a singular countable noun, one that
    needs "the" ("first name", "day of the week"; not "VAT", "spelling", "type hints")."""
    from learning.policy import CAPITALISED_OK

    np_words, _ = _noun_phrase(toks, 0)
    if not np_words or np_words[0] is not toks[0]:
        return False
    last = np_words[-1]
    return (
        last.low.isalpha()
        and not _acronym(last.text)
        and last.low not in CAPITALISED_OK
        and not last.low.endswith("ing")
        and language.lemma(last.low, "NOUN") == last.low
    )


def _verbless_rule(toks: list[Tok], words: list[str], texts: list[str]) -> str:
    """A verbless instruction made a sentence: "Show" when it says where something goes
    or what it goes with ("VAT on its own line", "the day of the week with the date"),
    "Include" for a part of a text alone ("the deposit line"), with the text it is part
    of when the corrections say it (``_every_text``); "Use" otherwise ("British
    spelling"); "the" before a singular noun that needs one ("Use the first name", not
    before "VAT", "spelling")."""
    j = _thing_end(toks)
    article = "the " if _one_countable_thing(toks) else ""
    if j >= len(toks) and article and toks[j - 1].low in TEXT_PARTS:
        # "the deposit line, as always" beside "Every quote: 50% deposit …": 'Include the
        # deposit line in every quote.', never "Use the deposit line." (says not on what)
        whole = _every_text(texts)
        return " ".join(["include", f"{article}{' '.join(words)}", *([whole] if whole else [])])
    verb = "show" if _shown_at(toks, j) else "use"
    return f"{verb} {article}{' '.join(words)}"


# "on every quote", "Every quote:": the text a correction says a rule holds for
_EVERY_TEXT = re.compile(r"\b(?:(on|in) )?(?:every|each) ([a-z]+)\b", re.IGNORECASE)


def _every_text(texts: list[str]) -> str | None:
    """The text every one of which a rule's corrections say it holds for, most often
    named ("It needs to be on every quote", "Every quote: …" -> "in every quote"; "on" as
    the person writes it when they do): a singular noun after "every" or "each"."""
    found = [
        ((m.group(1) or "in").lower(), m.group(2).lower())
        for t in texts
        for m in _EVERY_TEXT.finditer(t)
        if language.can_be(m.group(2).lower(), "NOUN")
        and language.lemma(m.group(2).lower(), "NOUN") == m.group(2).lower()
        and m.group(2).lower() not in FREQUENCY_NOUNS
    ]
    if not found:
        return None
    noun = Counter(n for _, n in found).most_common(1)[0][0]
    prep = Counter(p for p, n in found if n == noun).most_common(1)[0][0]
    return f"{prep} every {noun}"


# verbs that take a part out of a text: with "the", "this" or a possessive after them
# they point at a part of the draft at hand ("drop the weekly figure", "cut the intro")
REMOVING_VERBS = frozenset(["drop", "cut", "lose", "remove", "delete", "strip", "omit", "take"])


def _removes_from_draft(toks: list[Tok]) -> bool:
    if language.lemma(toks[0].low, "VERB") not in REMOVING_VERBS:
        return False
    k = 1
    if k < len(toks) and toks[k].low in PARTICLES | {"off", "away"}:
        k += 1  # "take out the …"
    return k < len(toks) and (
        toks[k].low in ("the", "this", "that", "these", "those") or toks[k].low.endswith("'s")
    )


def _negated(c: Correction, toks: list[Tok]) -> bool:
    """Whether a negation stands right before the instruction ("no weekly figure"):
    a verbless one said as "Use …" would ask for the very thing refused."""
    before = [t.low for t in c.toks if t.end <= toks[0].start]
    return any(w in NEGATIONS for w in before[-2:])


#: how far back in its sentence a negation still governs a verbless instruction: the
#: items of a refused list ("never miles, feet or acres")
NEGATION_REACH = 4
_SENTENCE_START = re.compile(r"[.!?:;\n]")
_WORD = re.compile(r"[\w'’]+")


def _after_no(c: Correction, toks: list[Tok]) -> bool:
    """Whether the word right before the instruction is the determiner "no"."""
    before = [t.low for t in c.toks if t.end <= toks[0].start]
    return bool(before) and before[-1] == "no"


def _negation_before(c: Correction, toks: list[Tok]) -> bool:
    """Whether a negation stands among the ``NEGATION_REACH`` words before the
    instruction in its sentence of the message, across the commas of a list: "never
    miles, feet or acres" refuses feet and acres too, so no "Use feet or acres"."""
    text = c.message.text
    head = text[: toks[0].start]
    cut = max((m.end() for m in _SENTENCE_START.finditer(head)), default=0)
    words = [w.lower().replace("’", "'") for w in _WORD.findall(head[cut:])]
    return any(w in NEGATIONS for w in words[-NEGATION_REACH:])


# words of praise that make a clause alone a verdict on what was offered: "perfect",
# "ok fair", "great"; "ok" and "yes" alone only acknowledge, and a correction often follows
PRAISE = frozenset(
    ["perfect", "great", "fair", "lovely", "brilliant", "excellent", "ideal", "nice", "good"]
    + ["fine", "cool", "sorted", "spot-on", "fab", "superb"]
)
ACKNOWLEDGING = PRAISE | frozenset(["ok", "okay", "yes", "yep", "yeah", "sure", "thanks"])
# words that make what a sentence names hold beyond the draft at hand ("always", "every")
# or set it against what was there ("but", "though", "instead")
STANDING_OR_CONTRAST = frozenset(
    ["always", "every", "each", "never", "only", "future", "anywhere", "everywhere"]
    + ["but", "though", "instead", "rather", "not"]
)


def _accepts_a_choice(c: Correction, toks: list[Tok]) -> bool:
    """Whether a verbless noun phrase accepts one of the choices a reply offered rather
    than asking for a thing from now on: "X it is" (the idiom of choosing), or the phrase
    set beside a clause that only praises ("X, perfect", "ok fair, X again"), with no
    word in its sentence saying it holds every time or setting it against something
    else. Said three times, it is still three choices, not a standing rule."""
    lows = [t.low.replace("’", "'") for t in toks]
    if lows[-1:] == ["it's"] or lows[-2:] == ["it", "is"]:
        return True
    text = c.message.text
    start = max((m.end() for m in _SENTENCE_START.finditer(text, 0, c.start)), default=0)
    after = _SENTENCE_START.search(text, c.end)
    sentence = text[start : after.start() if after else len(text)]
    words = [w.lower().replace("’", "'") for w in _WORD.findall(sentence)]
    if any(w in STANDING_OR_CONTRAST for w in words):
        return False
    for clause in re.split(r"[,\u2014\u2013]| - ", sentence):
        said = [w.lower() for w in _WORD.findall(clause)]
        if said and all(w in ACKNOWLEDGING for w in said) and any(w in PRAISE for w in said):
            return True
    return False


# how a prohibition opens: "never deploy floating tags", "don't use latest", "do not …"
PROHIBITIONS = {"never": "never", "don't": "do not", "dont": "do not", "do": "do not"}


# verbs whose object is a wording: "say put to sleep" -> 'Say "put to sleep".'
SAYING_VERBS = frozenset(["say"])


_QUOTED = re.compile(r"['\"\u2018\u201c]([^'\"\u2018\u2019\u201c\u201d]+)['\"\u2019\u201d]")


def _prohibition(c: Correction, toks: list[Tok]) -> tuple[str | None, list[Tok]]:
    """The negation that opens an instruction, as a rule writes it ("never", "do not"),
    and the instruction after it; a "not" or "no" right before the clause kept as
    ``_variant`` left it (``_negated``) is a "do not" too. (None, toks) when the
    instruction is no prohibition."""
    if len(toks) > 1 and toks[0].low in PROHIBITIONS:
        if toks[0].low != "do":
            return PROHIBITIONS[toks[0].low], toks[1:]
        if toks[1].low == "not":
            return "do not", toks[2:]
    if _negated(c, toks):
        return "do not", toks
    return None, toks


def _wording(c: Correction, toks: list[Tok], words: list[str], negative: bool) -> list[str]:
    """A rule about wording quotes the wording: 'say "put to sleep"'. The phrase is what
    the person put in quotes after the verb, else (a positive rule only: "never say
    euthanasia to owners" may go on past the phrase) all that follows the verb."""
    if language.lemma(toks[0].low, "VERB") not in SAYING_VERBS or len(toks) < 2:
        return words
    text = c.message.text
    quoted = _QUOTED.match(text, toks[1].start - 1) if toks[1].start else None
    if quoted and quoted.start(1) == toks[1].start:
        inside = [k for k, t in enumerate(toks) if t.end <= quoted.end(1)]
        rest = toks[inside[-1] + 1 :]
        tail = _words_as_written(c, rest) if rest else []
        return [words[0], f'"{quoted.group(1).strip()}"', *tail]
    if negative:
        return words  # "never say sorry for the delay": where the wording ends is unsure
    nots = [k for k in range(2, len(toks) - 1) if toks[k].low == "not"]
    if len(nots) == 1:
        # the wording and the one it replaces: 'say "garments", not "items"'
        said = " ".join(_words_as_written(c, toks[1 : nots[0]]))
        refused = " ".join(_words_as_written(c, toks[nots[0] + 1 :]))
        return [words[0], f'"{said}",', "not", f'"{refused}"']
    if _has_own_verb(toks[1:]):
        # a clause with a verb of its own is what to say, no term to quote: "Say that dogs
        # have to stay on a lead on the yard."
        return [words[0], "that", *words[1:]]
    k = _said_where(toks)
    if k:
        # 'say week commencing for the start': the wording is the words before the
        # phrase that says what it is said for, 'Say "week commencing" for the start.'
        said = " ".join(_words_as_written(c, toks[1:k]))
        return [words[0], f'"{said}"', *_words_as_written(c, toks[k:])]
    return [words[0], '"' + " ".join(words[1:]) + '"']


# determiners that open a noun phrase of the instruction's own, never of a wording to say
# to someone ("for the start", "on every invoice"; a wording says "your order")
FRAMING_DETERMINERS = frozenset(["the", "every", "each", "all", "any"])


def _said_where(toks: list[Tok]) -> int:
    """Where the phrase that says what a wording is said for or where it goes starts in
    an unquoted "say …" instruction: a preposition (not "of", which joins a noun to the
    wording) followed by a noun phrase with "the", "every", "each", "all" or "any" that runs
    to the end ("say week commencing for the start" -> 3). 0 when there is none, or when
    the wording before it speaks to someone ("say thank you for the order": a pronoun
    keeps the wording whole)."""
    for k in range(2, len(toks) - 2):
        if toks[k].low not in PREPOSITIONS or toks[k].low == "of":
            continue
        if toks[k + 1].low not in FRAMING_DETERMINERS:
            continue
        if any(t.low in PRONOUN_WORDS or t.low in DETERMINERS for t in toks[1:k]):
            return 0
        _, end = _noun_phrase(toks, k + 1)
        return k if end == len(toks) else 0
    return 0


# verbs that put one wording in place of another: "change log burner to wood-burning stove"
REPLACING_VERBS = frozenset(["change", "replace", "swap", "switch"])
REPLACING_PREPOSITIONS = frozenset(["to", "with", "for"])


def _replaced_wording(c: Correction) -> tuple[str, str] | None:
    """The wording a correction puts in place of another, as written ("change log burner
    to wood-burning stove" -> ("wood-burning stove", "log burner")); None when it is no
    such correction: a part of the draft ("change the intro to …") or a value ("change 10
    to 11") is an edit of the draft at hand, no word to say."""
    toks = _variant(c)
    if len(toks) < 4 or language.lemma(toks[0].low, "VERB") not in REPLACING_VERBS:
        return None
    k = next((k for k in range(2, len(toks) - 1) if toks[k].low in REPLACING_PREPOSITIONS), 0)
    old, new = toks[1:k], toks[k + 1 :]
    if not old or not new or len(old) > 4 or len(new) > 4:
        return None
    for t in (*old, *new):
        if not t.text.replace("-", "").isalpha() or t.low in DETERMINERS | POINTING_PRONOUNS:
            return None
    if any(t.low in DRAFT_PRONOUNS for t in (*old, *new)):
        return None
    return " ".join(_words_as_written(c, new)), " ".join(_words_as_written(c, old))


# verbs whose object may be a wording to write: "put gluten free", "show including VAT"
WRITING_VERBS = frozenset(["put", "write", "show", "say", "use"])


# adjectives that stand after a noun to make a label: "gluten free", "VAT inclusive"
POSTPOSITIVE_ADJECTIVES = frozenset(
    ["free", "friendly", "inclusive", "exclusive", "included", "excluded", "safe", "proof"]
)


def _clause_word(low: str) -> bool:
    """A word a wording to write has not after its first word but a remark has: an
    auxiliary, a verb that is nothing else ("would", "says"), a determiner or pronoun."""
    if low in AUXILIARIES or low in DETERMINERS or low in PRONOUN_WORDS:
        return True
    return (
        low.isalpha()
        and language.can_be(low, "VERB")
        and not language.can_be(low, "NOUN")
        and not language.can_be(low, "ADJ")
    )


# verbs that make a clause finite wherever they stand ("to" is no such verb)
FINITE_AUXILIARIES = (AUXILIARIES - {"to"}) | frozenset(
    ["must", "might", "shall", "has", "had", "have", "is", "are", "was", "were", "am"]
)


# particles of a verb of motion: "go round", "come back", "fall off"
ADVERB_PARTICLES = frozenset(["round", "around", "back", "off", "away", "down", "along"])


def _has_own_verb(toks: list[Tok]) -> bool:
    """Whether a verbless-looking instruction is a clause with a verb of its own, a
    remark and no wording asked for: a finite auxiliary after
    its first word ("trading standards would have me"), or a plain verb agreeing with the
    plural noun before it and going on ("trading standards go round that market")."""
    for k in range(1, len(toks)):
        low = toks[k].low
        if low in FINITE_AUXILIARIES:
            return True  # "would", "has"; "conventional commits" has no verb
        prev = toks[k - 1].low
        if (
            k + 1 < len(toks)
            and prev.isalpha()
            and language.can_be(prev, "NOUN")
            and language.lemma(prev, "NOUN") != prev
            and language.can_be(low, "VERB")
            and language.lemma(low, "VERB") == low
            and low not in ("like", "as")
            and toks[k + 1].low in PREPOSITIONS | PARTICLES | DETERMINERS | ADVERB_PARTICLES
        ):
            return True
    return False


def _phrase_to_write(toks: list[Tok]) -> bool:
    """Whether the object of a verb of writing is a wording, no thing: it opens with a
    participle or a preposition ("including VAT", "with love") or is a noun and an
    adjective that makes a label of it ("gluten free"). No determiner, pronoun or
    number opens it."""
    if not toks:
        return False
    first = toks[0].low
    if first in DETERMINERS or first in PRONOUN_WORDS or not first.isalpha():
        return False
    if first in PREPOSITIONS and first not in PLACE_PREPOSITIONS:
        return len(toks) > 1
    if (
        first.endswith("ing")
        and language.can_be(first, "VERB")
        and not language.can_be(first, "NOUN")
        and not language.can_be(first, "ADJ")
    ):
        # "including VAT"; "named exports" is a thing; a clause with a verb or a pointing
        # word of its own is a remark, no wording ("trading standards would have me",
        # "trading standards go round that market")
        return len(toks) > 1 and not any(_clause_word(t.low) for t in toks[1:])
    return len(toks) > 1 and toks[-1].low in POSTPOSITIVE_ADJECTIVES and _is_noun_word(toks[-2])


def _place_index(toks: list[Tok], start: int) -> int:
    """Where the place a wording goes to starts ("next to the total"), else the end."""
    return next(
        (k for k in range(start, len(toks)) if toks[k].low in PLACE_PREPOSITIONS), len(toks)
    )


def _quoted_phrase(c: Correction, toks: list[Tok], verb_first: bool) -> str | None:
    """A rule whose object is a wording, the wording in quotes: "including VAT next to
    the total" -> 'show "including VAT" next to the total', "dont put gluten free" ->
    'write "gluten free"' (to put a wording nowhere is to write it). None when the
    object is a thing."""
    start = 1 if verb_first else 0
    if verb_first and language.lemma(toks[0].low, "VERB") not in WRITING_VERBS:
        return None
    end = _place_index(toks, start)
    if not _phrase_to_write(toks[start:end]):
        return None
    phrase = " ".join(_words_as_written(c, toks[start:end]))
    phrase = phrase if _acronym(phrase.split()[0]) else phrase[:1].lower() + phrase[1:]
    rest = _words_as_written(c, toks[end:]) if end < len(toks) else []
    if rest and rest[0][:1].isupper() and not _acronym(rest[0]):
        rest[0] = rest[0].lower()
    verb = toks[0].low if verb_first else "show"
    if (language.lemma(verb, "VERB") == "put" or not verb_first) and not rest:
        verb = "write"
    return " ".join([verb, f'"{phrase}"', *rest])


_ARTICLE_BEFORE = r"\b(an?)\s+{}\b"


def _with_article(words: list[str], texts: list[str]) -> list[str]:
    """A bare singular noun closing a rule after "with" ("with underscore") gets the
    article the person writes before it elsewhere ("with an underscore prefix"); with
    no such evidence it stays as it is ("wrap the error with context")."""
    if len(words) < 2 or words[-2].lower() not in ("with", "without"):
        return words
    noun = words[-1]
    if not noun.isalpha() or not noun.islower() or language.lemma(noun, "NOUN") != noun:
        return words
    pattern = re.compile(_ARTICLE_BEFORE.format(re.escape(noun)), re.IGNORECASE)
    for text in texts:
        m = pattern.search(text)
        if m:
            return [*words[:-1], m.group(1).lower(), noun]
    return words


# what a correction refuses in quotes: "not 'your dog'", "Not 'euthanasia' please"; an
# apostrophe inside a word ("not 'we'll text you'") closes nothing, so no cut word is quoted
_NOT_QUOTED = re.compile(
    r"\bnot\s+['\"\u2018\u201c]((?:[^'\"\u2018\u2019\u201c\u201d.!?\n]|(?<=\w)['\u2019](?=\w)){1,40})"
    r"['\"\u2019\u201d](?!\w)",
    re.IGNORECASE,
)


_CONTRAST_TAIL = re.compile(r', not "[^"]*"\.$')


def _sentence_of(c: Correction) -> str:
    """Where a correction's refused wording may stand: its own sentence ("Please write
    dates in full, like 12 March.", never the next one, "And say 'closed', not
    'finalised'."), and a neighbouring sentence that is nothing but a refusal ("Not
    'euthanasia' please. We always say put to sleep.")."""
    text = c.message.text
    ends = [m.end() for m in _SENTENCE_END.finditer(text)]
    start = max((e for e in ends if e <= c.start), default=0)
    end = min((e for e in ends if e >= c.end), default=len(text))
    own = text[start:end]
    prev_start = max((e for e in ends if e < start), default=0)
    next_end = min((e for e in ends if e > end), default=len(text))
    around = [text[prev_start:start], text[end:next_end]]
    refusals = [s for s in around if s.strip().lower().startswith("not ")]
    return " ".join([own, *refusals])


_NOT_WORD_AT_END = re.compile(r"([^\W\d_]+),\s*not\s+([^\W\d_]+(?:-[^\W\d_]+)?)\s*[.!]?\s*$")


def _contrast(message_text: str, rule: str) -> str | None:
    """The one wording the correction's message refuses in quotes ("not 'your dog'"), or
    as one unquoted word closing its sentence ("I say client, not patient"), when the
    rule does not say it already: a positive rule names what it replaces."""
    found = {" ".join(m.group(1).split()) for m in _NOT_QUOTED.finditer(message_text)}
    found = {f for f in found if f and len(f.split()) <= 4}
    if not found:
        # one unquoted word closing the sentence, refused in favour of a word of the rule:
        # "I say client, not patient" for 'Say "clients"'; not for another instruction
        # sharing the sentence ("Type hints please, and plain pytest functions, not
        # classes" says nothing against type hints)
        # ("... team please, not blank": "please" is no word to set "blank" against)
        found = {
            m.group(2)
            for m in _NOT_WORD_AT_END.finditer(message_text)
            if (said := content_words(m.group(1))) and said <= content_words(rule)
        }
    if len(found) != 1:
        return None
    phrase = found.pop()
    said = {t.low for t in tokens(rule)}
    return None if {t.low for t in tokens(phrase)} <= said else phrase


# what a praised or reported draft is said with before its verb: "you did …", "good, fits …"
STATEMENT_OPENERS = frozenset(["you", "it", "good", "great", "fine", "nice", "perfect", "ok"])


def _finite_verb(word: str) -> bool:
    """A verb form that is no imperative: "did", "fits", "was" (not "put", "use")."""
    return language.can_be(word, "VERB") and language.lemma(word, "VERB") != word


def _has_finite_verb(toks: list[Tok]) -> bool:
    """Whether a finite verb stands among the words ("the invoice ends with …"): a word
    right after a preposition or determiner is a noun there, whatever else it can be ("the
    full size on quotes")."""
    return any(
        _finite_verb(t.low)
        and not (k and (toks[k - 1].low in PREPOSITIONS or toks[k - 1].low in DETERMINERS))
        for k, t in enumerate(toks)
    )


def _reports_what_was_done(c: Correction, toks: list[Tok], verb_first: bool) -> bool:
    """Whether the instruction is a report on the draft, not an order: its first word is
    a finite verb ("did", "fits") that is no noun, or one said after a subject or praise
    the fillers took off ("you did the job number in the subject", "good, fits in one
    text too")."""
    first = toks[0].low
    if not _finite_verb(first):
        return False
    if verb_first and not language.can_be(first, "NOUN"):
        return True
    text = c.message.text
    sentence_start = max(text.rfind(mark, 0, toks[0].start) for mark in ".!?\n") + 1
    before = [t.low for t in tokens(text, sentence_start, toks[0].start)]
    return bool(set(before[-3:]) & STATEMENT_OPENERS)


# verbs that say how a text opens or closes: "commit messages start with the recipe name"
# is "Start commit messages with the recipe name"
FRAMING_VERBS = frozenset(["start", "begin", "end", "open", "close", "finish"])


def _framing_order(toks: list[Tok]) -> list[Tok] | None:
    """A plural noun and how it starts or ends, said as a fact ("commit messages start
    with the recipe name and a colon"), turned into the order it gives, verb first
    ("start commit messages with the recipe name and a colon"); None for anything else."""
    words, j = _noun_phrase(toks, 0)
    if not words or words[0] is not toks[0]:
        return None
    # the verb may be read as the noun phrase's last word ("commit messages start")
    k = next((k for k in range(1, min(j + 1, len(toks) - 2)) if toks[k].low in FRAMING_VERBS), 0)
    if not k or toks[k + 1].low != "with":
        return None
    noun = toks[k - 1].low
    if not noun.isalpha() or language.lemma(noun, "NOUN") == noun:
        return None  # a singular subject: "the invoice ends with …" is about one draft
    return [toks[k], *toks[:k], *toks[k + 1 :]]


def _names_only_its_topic(c: Correction, toks: list[Tok]) -> bool:
    """Whether a verbless instruction is only the noun phrase a rule is about, said as a
    label before what to do ("Commit message: prefix with the recipe"): "Use the commit
    message" would hold no instruction."""
    _, j = _noun_phrase(toks, 0)
    return j == len(toks) and c.message.text[toks[-1].end :].lstrip(" ").startswith(":")


def _opens_with_a_noun_phrase(toks: list[Tok]) -> bool:
    """Whether a verbless instruction starts with the thing it is about ("British
    spelling", "VAT on its own line"), not with a verdict ("too long for a text")."""
    words, _ = _noun_phrase(toks, 0)
    return bool(words) and words[0] is toks[0]


def _ends_in_a_description(toks: list[Tok]) -> bool:
    """Whether a verbless instruction is a thing and how it is, with no preposition
    ("table driven", "prices included"): its last word an adjective or participle that
    is no noun; "Use the table driven" would make no sense."""
    last = toks[-1]
    if not last.low.isalpha() or _acronym(last.text) or language.can_be(last.low, "NOUN"):
        return False
    if not language.can_be(last.low, "ADJ"):
        return False
    return not any(t.low in RULE_PREPOSITIONS or t.low in PLACE_PREPOSITIONS for t in toks)


def _noun_or_verb(toks: list[Tok]) -> bool:
    """Whether the verb reading of a verb-first instruction rests on the word alone: it
    can be a noun too and no determiner, pronoun or particle follows ("quote ref in the
    subject line"); a wording with a plain verb ("put the quote ref in …") reads better."""
    nxt = toks[1].low if len(toks) > 1 else ""
    if nxt in DETERMINERS or nxt in PRONOUN_WORDS or nxt in PARTICLES or nxt.endswith("'s"):
        return False
    return language.can_be(toks[0].low, "NOUN")


# who a reported instruction is for: "add that they should arrive 15 minutes early"
REPORTED_SUBJECTS = frozenset(["they", "we", "you", "everyone", "guests", "people"])


def _says_that(toks: list[Tok]) -> bool:
    """Whether "that" after the verb opens what to say, no draft pointed at: a subject and
    a modal follow ("add that they should arrive 15 minutes before their slot")."""
    return (
        len(toks) > 4
        and toks[1].low == "that"
        and toks[2].low in REPORTED_SUBJECTS
        and toks[3].low in FINITE_AUXILIARIES | {"need", "must"}
    )


def _written(toks: list[Tok], texts: list[str]) -> int:
    """In how many corrections the place a verbless instruction names is written as it
    is ("at the top" in two, "at the start" in one): the wording most of them use."""
    j = _place_index(toks, 0)
    if j >= len(toks):
        return 0
    place = " ".join(t.low for t in toks[j:])
    return sum(place in " ".join(w.lower() for w in _WORD.findall(text)) for text in texts)


# verbs that name what a thing is called: "we never say budget", "that's all you need to say"
NAMING_VERBS = frozenset(["say", "call"])


def _about_naming(hits: dict[int, tuple[Correction, int]]) -> bool:
    """Whether the messages of the corrections speak of what to call a thing: a verb of
    naming in its plain form (an order, or after "we", "you", a modal) in the messages of
    two of them or more, and of more than half ("We never say budget … It's the simple
    funeral", "It's our simple funeral, that's all you need to say"). A report of what
    someone or a text said is no talk of naming ("Kyle says this keeps happening", "if
    it just says 225/45 R17", "as they have been saying")."""
    said = sum(
        1 for c, _ in hits.values() if any(t.low in NAMING_VERBS for t in tokens(c.message.text))
    )
    return said >= 2 and said * 2 > len(hits)


def _name_to_say(toks: list[Tok], words: list[str]) -> str:
    """A thing named with nothing to do about it, when the corrections speak of what to
    call it: the name to say, in quotes ('say "simple funeral"')."""
    k = 0
    while k < len(toks) - 1 and (toks[k].low in DETERMINERS or toks[k].low.endswith("'s")):
        k += 1
    return 'say "' + " ".join(words[k:]) + '"'


def _object_of_a_preposition(c: Correction, toks: list[Tok]) -> bool:
    """Whether a verbless instruction is the object of a preposition standing right before
    it ("… on the list, to the current standard"): a modifier of something the clause
    left behind, which names no matter of its own ("Use the current standard")."""
    before = re.findall(r"[A-Za-z]+|[^\sA-Za-z]", c.message.text[: toks[0].start])
    while before and before[-1].lower() in DETERMINERS:
        before.pop()  # "to the current standard", the rule's "the" taken off
    return bool(before) and before[-1].lower() in PREPOSITIONS


# subject pronouns: a wording said of "they" names its matter in another clause
SUBJECT_PRONOUNS = frozenset(["they", "he", "she", "it"])


def _says_of_someone_unnamed(toks: list[Tok]) -> bool:
    """Whether a verb of saying reports a clause whose subject is a pronoun ("say they
    must be kept on a lead on the yard"): the wording names nobody; who "they" are was
    said before it ("Dogs on a lead though."), and another correction names them."""
    return (
        len(toks) > 2
        and language.lemma(toks[0].low, "VERB") in SAYING_VERBS
        and toks[1].low in SUBJECT_PRONOUNS
        and toks[2].low in FINITE_AUXILIARIES | {"need", "must", "should", "can", "will"}
    )


def _a_description(word: Tok) -> bool:
    """A word that describes and names nothing: known as an adjective or a participle,
    never as a noun ("grown", "handmade"; not "exports", "spelling", an unknown word)."""
    low = word.low
    return (
        low.isalpha()
        and not _acronym(word.text)
        and not language.can_be(low, "NOUN")
        and (
            language.can_be(low, "ADJ")
            or (language.can_be(low, "VERB") and language.lemma(low, "VERB") != low)
        )
    )


def _thing_is_a_description(toks: list[Tok]) -> bool:
    """Whether the thing a verbless instruction opens with ends on a word that describes
    ("home grown in the top field"): its noun was cut off, "Use the home grown …" names
    nothing to use."""
    thing = toks[: _place_index(toks, 0)]
    return bool(thing) and _a_description(thing[-1])


# what opens a wording set against another: "it's home grown not organic"
_SET_AGAINST_OPENERS = frozenset(
    ["it's", "its", "it", "is", "are", "they're", "that's", "thats", "we", "i", "say", "always"]
)
# of those, the ones that say the words are what a thing is called: "we say puppy class
# not puppy school", "it's free range not organic"
_NAMING_OPENERS = frozenset(
    ["say", "call", "it's", "its", "is", "are", "they're", "that's", "thats"]
)


def _set_against(c: Correction, toks: list[Tok]) -> tuple[str, str] | None:
    """A wording set against the one it replaces ("it's home grown not organic" ->
    ("home grown", "organic"), "we say puppy class not puppy school"): what to call a
    thing, no thing to use. Only a describing wording, or one the person says is what
    they say or call it; None when the wording before "not" names a thing ("plain
    pytest functions, not classes"), or either side is no short wording (letters only,
    no article, pronoun, function word or name)."""
    k = 0
    while k < len(toks) and toks[k].low in _SET_AGAINST_OPENERS | _NAMING_OPENERS:
        k += 1
    named = any(t.low in _NAMING_OPENERS for t in toks[:k])
    nots = [n for n in range(k + 1, len(toks) - 1) if toks[n].low == "not"]
    if len(nots) != 1:
        return None
    said, refused = toks[k : nots[0]], toks[nots[0] + 1 :]
    if len(said) > 4 or len(refused) > 3:
        return None
    for t in (*said, *refused):
        if (
            not t.text.replace("-", "").isalpha()
            or t.low in DETERMINERS | PRONOUN_WORDS | POINTING_PRONOUNS | DRAFT_PRONOUNS
            or language.function_word(t.low)
            or (t.text[:1].isupper() and not _acronym(t.text))
        ):
            return None
    if not (named or _a_description(said[-1])):
        return None
    return " ".join(_words_as_written(c, said)), " ".join(_words_as_written(c, refused))


# a statement of what the people are, to the end of its clause: "we're pest control
# technicians", "we are not exterminators"
_WE_ARE = re.compile(r"\bwe(?:'re|\u2019re|\s+are)\s+([^.,;:!?()\n]+)", re.IGNORECASE)


def _what_we_are(text: str) -> dict[str, bool]:
    """What the people of a message say they are, as they write it, and whether they say
    they are not it ("we're pest control technicians" -> {"pest control technicians":
    False}; "we're not exterminators" -> {"exterminators": True}): what to call them, or
    what not to, never a thing to use ("Use pest control technicians."). Only a short
    plural noun phrase with no article, pronoun, function word or name ("we're closed on
    Mondays", "we're a small team", "we're busy" say nothing of the kind)."""
    found: dict[str, bool] = {}
    for m in _WE_ARE.finditer(text):
        rest = tokens(text, m.start(1), m.end(1))
        refused = bool(rest) and rest[0].low == "not"
        if refused:
            rest = rest[1:]
        if not 1 <= len(rest) <= 4 or any(
            not t.text.replace("-", "").isalpha()
            or t.low in DETERMINERS | PRONOUN_WORDS | POINTING_PRONOUNS | DRAFT_PRONOUNS
            or language.function_word(t.low)
            or (t.text[:1].isupper() and not _acronym(t.text))
            for t in rest
        ):
            continue
        last = rest[-1].low
        if language.lemma(last, "NOUN") == last or not language.can_be(last, "NOUN"):
            continue  # no plural noun: no name of the people
        found[" ".join(t.low for t in rest)] = refused
    return found


# what stands before the wording a person wants in its clause: "it has to say made without
# gluten not gluten free", "it's home grown not organic"
_SAID_BEFORE = re.compile(r"\b(?:say|says|said|call|it'?s|it\s+is)\s+", re.IGNORECASE)


def _said_instead(hits: dict[int, tuple[Correction, int]], refused: str) -> str | None:
    """The one wording the corrections' messages set against a refused one ("made
    without gluten, not gluten free", "it has to say made without gluten not gluten
    free" -> "made without gluten"): what a rule against the refused wording says to
    write instead. None when they set none, or several, against it."""
    pattern = re.compile(
        r"([^.!?;:,\n]+?),?\s+not\s+['\"\u2018\u201c]?" + re.escape(refused) + r"\b",
        re.IGNORECASE,
    )
    found: set[str] = set()
    for c, _ in hits.values():
        for m in pattern.finditer(c.message.text):
            clause = m.group(1)
            cut = [x.end() for x in _SAID_BEFORE.finditer(clause)]
            words = _WORD.findall(clause[cut[-1] :] if cut else clause)
            if (
                not 1 <= len(words) <= 4
                or words[0].lower() in CONJUNCTIONS
                or not content_words(" ".join(words))
                or any(w.lower() in DETERMINERS | PRONOUN_WORDS | NOT_WORDS for w in words)
            ):
                continue  # "and not bride and groom": no wording before the "not"
            found.add(" ".join(w.lower() if not _acronym(w) else w for w in words))
        said = _said_next(c.message.text, refused)
        if said:
            found.add(said)
    return found.pop() if len(found) == 1 else None


#: how a refusal of a wording is written: "we never say topping", "don't ever call it a tub"
_REFUSING = r"\b(?:never|not|don'?t|do\s+not)\b[^.!?\n]*?\b(?:say|write|call(?:\s+it)?|put)\s+"


_REFUSED_PHRASE = re.compile(
    _REFUSING + r"['\"\u2018\u201c]?([\w' -]+?)['\"\u2019\u201d]?\s*[.!?,;\n]", re.I
)


_SAY_PHRASE = re.compile(
    r"\bsay\s+['\"\u2018\u201c]?([\w' -]+?)['\"\u2019\u201d]?\s*(?:[.!?,;\n]|$)", re.I
)
_NEGATION_BEFORE = re.compile(r"\b(?:never|not|no|don'?t)\b[^.!?,;\n]*$", re.I)


def _a_wording(lows: list[str], other: str) -> bool:
    """Whether words are a wording of one to four nouns and describing words sharing no
    word with ``other`` ("zero tailpipe emissions" beside "carbon neutral")."""
    return (
        1 <= len(lows) <= 4
        and bool(content_words(" ".join(lows)))
        and not {w.lower() for w in _WORD.findall(other)} & set(lows)
        and not any(w in DETERMINERS | PRONOUN_WORDS | NOT_WORDS | CONJUNCTIONS for w in lows)
        and all(language.can_be(w, "NOUN") or language.can_be(w, "ADJ") for w in lows)
    )


def _named_in_two(hits: dict[int, tuple[Correction, int]], wording: str) -> bool:
    """Whether two or more of the corrections' messages name the wording: the same
    corrections behind a rule asking for one wording and one refusing another."""
    pattern = re.compile(r"\b" + re.escape(wording) + r"\b", re.IGNORECASE)
    return sum(1 for c, _ in hits.values() if pattern.search(c.message.text)) >= 2


def _said_beside(hits: dict[int, tuple[Correction, int]], refused: str) -> str | None:
    """The one wording the messages refusing a wording ask for in a "say" clause of their
    own ("Please don't say handmade. ... Say hand finished, or ..."): what a rule against
    the refused wording says to write instead. None when they ask for none, or several."""
    found: set[str] = set()
    for c, _ in hits.values():
        text = c.message.text
        for m in _SAY_PHRASE.finditer(text):
            if _NEGATION_BEFORE.search(text[: m.start()]):
                continue  # "don't say handmade": the refusal, not what to say
            lows = [w.lower() for w in _HYPHENED.findall(m.group(1))]
            if _a_wording(lows, refused):
                found.add(" ".join(lows))
    if len(found) != 1:
        return None
    said = found.pop()
    return said if _named_in_two(hits, said) else None


def _refused_beside(hits: dict[int, tuple[Correction, int]], said: str) -> str | None:
    """The one wording the messages of a "say" instruction refuse beside it ("Please don't
    say carbon neutral. ... Say zero tailpipe emissions" and "not carbon neutral, ... say
    zero tailpipe emissions" -> "carbon neutral"): what the wording asked for replaces, so
    one rule says both, never 'Say "zero tailpipe emissions".' and later "Do not say carbon
    neutral." as two. Refused in so many words in one message and named in another: the
    same corrections behind both. None when they refuse none, or several."""
    found: set[str] = set()
    for c, _ in hits.values():
        for m in _REFUSED_PHRASE.finditer(c.message.text):
            lows = [w.lower() for w in _HYPHENED.findall(m.group(1))]
            if _a_wording(lows, said):
                found.add(" ".join(lows))
    if len(found) != 1:
        return None
    refused = found.pop()
    return refused if _named_in_two(hits, refused) else None


_HYPHENED = re.compile(r"[\w'’]+(?:-[\w'’]+)*")


def _said_next(text: str, refused: str) -> str | None:
    """The wording a message names alone in the sentence right after the one refusing a
    wording ("we never say topping, it kills trees. it's a crown reduction." -> "crown
    reduction"; "don't ever say topping. crown reduction."): what to say instead. None
    when that sentence says more than a thing's name (a verb, a pronoun, a fifth word)."""
    m = re.search(
        _REFUSING
        + r"['\"\u2018\u201c]?"
        + re.escape(refused)
        + r"\b[^.!?\n]*[.!?\n]+\s*([^.!?\n]+)",
        text,
        re.IGNORECASE,
    )
    if not m:
        return None
    clause = m.group(1)
    cut = [x.end() for x in _SAID_BEFORE.finditer(clause)]
    # a word joined by hyphens stays one word, as written: "a wood-burning stove"
    words = _HYPHENED.findall(clause[cut[-1] :] if cut else clause)
    while words and words[0].lower() in ("a", "an", "the"):
        words = words[1:]
    lows = [part for w in words for part in w.lower().split("-")]
    if (
        not 1 <= len(words) <= 4
        or refused.lower() in lows
        or not content_words(" ".join(lows))
        or any(w in DETERMINERS | PRONOUN_WORDS | NOT_WORDS | CONJUNCTIONS for w in lows)
        or not all(language.can_be(w, "NOUN") or language.can_be(w, "ADJ") for w in lows)
        or not language.can_be(lows[-1], "NOUN")
    ):
        return None
    return " ".join(w.lower() if not _acronym(w) else w for w in words)


# words that join clauses: "and not bride and groom" sets no wording against it
CONJUNCTIONS = frozenset(["and", "or", "but", "so", "then", "also", "just", "yet"])
NOT_WORDS = frozenset(["no", "not", "never"])


_SAY_NOT = re.compile(r'^Say "([^"]+)", not "([^"]+)"\.$')


def as_prohibition(rule: str) -> str | None:
    """A rule that sets one wording against another, as the refusal alone ('Say
    "wood-burning stove", not "log burner".' -> 'Never say "log burner".'): what is
    left when the wording asked for may not be said; None for any other rule."""
    m = _SAY_NOT.match(rule)
    return f'Never say "{m.group(2)}".' if m else None


def _refused_wording(text: str) -> str | None:
    """The wording a prohibition about wording refuses ('Do not write "gluten free".',
    "Never say log burner." -> "gluten free", "log burner"), else None."""
    m = re.match(
        r"(?:never|do not)\s+(?:say|write|put|call it)\s+(?:\"([^\"]+)\"|([\w' -]+?))\.?$",
        text,
        re.IGNORECASE,
    )
    return (m.group(1) or m.group(2)).strip() if m else None


# words that close an instruction by pointing back at the draft at hand: "put the day of the
# week in as well", "type hints again"; a standing rule holds without them
# "though" closing a clause sets it against the draft at hand ("strings in double quotes
# though"): it points back, as "too" does
AFTERTHOUGHTS = frozenset(["too", "again", "also", "though"])


def _without_afterthought(toks: list[Tok]) -> list[Tok]:
    """An instruction without the words that close it by pointing back at the draft at
    hand ("as well", "too", "again")."""
    while len(toks) > 2:
        if toks[-1].low in AFTERTHOUGHTS:
            toks = toks[:-1]
        elif len(toks) > 3 and toks[-2].low == "as" and toks[-1].low == "well":
            toks = toks[:-2]
        else:
            break
    return toks


_SET_AGAINST = re.compile(r',\s+not\s+"[^"]*"')


def _asks_what_is_refused(text: str, refused: set[str]) -> bool:
    """Whether a rule that asks for something (no negation) asks mostly for what a
    correction of the same instruction refuses: half or more of its content words, not
    counting its verb nor the wording it sets itself against (', not "patient"')."""
    asked = content_words(_SET_AGAINST.sub("", text)) - content_words(text.split(" ", 1)[0])
    return bool(asked) and len(asked & refused) * 2 >= len(asked)


def _set_wording(
    text: str, order: int
) -> tuple[int, bool, bool, bool, bool, bool, bool, int, int, str, bool]:
    """A variant of ``rule_for`` that words what to say ('say "home grown", not
    "organic"', 'call us "…"'): ahead of every other wording of the rule, ``order``
    settling between such variants."""
    return (0, False, False, False, False, False, False, order, 0, text, False)


# what a clause may open with before its verb, that ``_variant`` took off as filler: a
# subject ("we always give prices inc VAT") or a modal ("should say …")
SUBJECT_BEFORE_VERB = frozenset(["we", "i", "always", "should"])


def _verb_after_its_subject(c: Correction, toks: list[Tok]) -> bool:
    """Whether the instruction's first word is a verb because the clause said who does it
    just before it: "We always give prices inc VAT" reads "give" as the verb (the rule is
    "Give prices inc VAT."), though "give" alone could be a noun."""
    before = [t for t in c.toks if t.end <= toks[0].start]
    return (
        bool(before)
        and before[-1].low in SUBJECT_BEFORE_VERB
        and language.can_be(toks[0].low, "VERB")
    )


def _kind_for(c: Correction, toks: list[Tok]) -> str | None:
    """The instruction of a clause that says what kind a group of things always is: a
    plural subject, "are", and a bare singular noun ("money fields are packed decimal"):
    the noun names a kind, used with no article, and the subject is what it is for:
    "use packed decimal for money fields". None for any other clause."""
    for k in range(1, len(toks) - 1):
        if toks[k].low != "are":
            continue
        subject, end = _noun_phrase(toks, 0)
        kind, after = _noun_phrase(toks, k + 1)
        last = subject[-1] if subject else None
        if (
            last is None
            or end != k
            or subject[0].low in DETERMINERS | POINTING_PRONOUNS
            or not last.low.isalpha()
            or language.lemma(last.low, "NOUN") == last.low  # not a plural
            or not kind
            or after != len(toks)
            or kind[0].low in DETERMINERS
            or language.lemma(kind[-1].low, "NOUN") != kind[-1].low  # a plural
            or not language.can_be(kind[-1].low, "NOUN")
            or _acronym(kind[-1].text)  # "prices are ex VAT": how they are written
            # one word that can be an adjective says how they are: "dates are wrong"
            or (len(kind) == 1 and language.can_be(kind[0].low, "ADJ"))
        ):
            return None
        said = _words_as_written(c, [*kind, *subject])
        return " ".join(["use", *said[: len(kind)], "for", *said[len(kind) :]])
    return None


def _said_missing(c: Correction, toks: list[Tok]) -> str | None:
    """The instruction of a clause that says something is missing ("the order number is
    missing", "order number's missing", "use strict and use warnings are missing
    again"): "include the order number", "include use strict and use warnings". None
    for any other clause, and for one whose missing thing is a pronoun ("it's missing")."""
    for k in range(1, len(toks)):
        if toks[k].low != "missing":
            continue
        before = toks[k - 1].low
        if before in ("is", "are", "was", "were"):
            subject = toks[: k - 1]
        elif before.endswith(("'s", "\u2019s")) and len(before) > 2:
            subject = toks[:k]
        else:
            return None
        words = _words_as_written(c, subject)
        if not words:
            return None
        words[-1] = re.sub(r"['\u2019]s$", "", words[-1], flags=re.IGNORECASE)
        if any(w.lower() in POINTING_PRONOUNS | DRAFT_PRONOUNS for w in words):
            return None
        return " ".join(["include", *words])
    return None


# verbs that say what a draft lacks when their subject, the draft, is left out: "needs
# the hazard log reference", "it needs a closing line"
LACKING_VERBS = frozenset(["needs", "wants", "lacks"])


def _said_needed(c: Correction, toks: list[Tok]) -> str | None:
    """The instruction of a clause that says what the draft needs, its subject left out
    or a pronoun for the draft ("needs the hazard log reference", "it needs a closing
    line"): "include the hazard log reference". None for any other clause: a verb after
    "needs" ("needs to go", "needs doing"), a pronoun or a bare noun after it, or a noun
    phrase that does not run to the end of the clause ("needs the date checked")."""
    k = 1 if toks and toks[0].low in DRAFT_PRONOUNS | POINTING_PRONOUNS else 0
    if k + 2 > len(toks) or toks[k].low not in LACKING_VERBS:
        return None
    if toks[k + 1].low not in DETERMINERS or toks[k + 1].low in POINTING_PRONOUNS:
        return None
    words, end = _noun_phrase(toks, k + 1)
    if not words or end != len(toks):
        return None
    return " ".join(["include", *_words_as_written(c, toks[k + 1 :])])


def rule_for(hits: dict[int, tuple[Correction, int]]) -> str | None:
    """The clearest wording of the instruction: no pronoun pointing at the draft at hand
    or at one person, no telegraphic phrase ("Greet with first name"), verb first,
    shortest;
    a verbless one gets a verb in front ("British spelling" -> "Use British spelling",
    "VAT on its own line" -> "Show VAT on its own line")."""
    variants = []
    texts = [c.message.text for c, _ in hits.values()]
    naming = _about_naming(hits)
    refusals: set[str] = set()  # what the corrections refuse ("never hard-code table names")
    we_are = {  # what the people say they are, or are not ("we're not exterminators")
        k: v for c, _ in hits.values() for k, v in _what_we_are(c.message.text).items()
    }
    we_are_not = {name for name, refused in we_are.items() if refused}
    for c, _ in hits.values():
        toks = _variant(c)
        negation, toks = _prohibition(c, toks)
        toks = _without_afterthought(toks)
        if len(toks) < 2:
            continue
        missing = None if negation else (_said_missing(c, toks) or _said_needed(c, toks))
        if missing:
            # "use strict and use warnings are missing again", "order number's missing": a
            # complaint about the draft, whose instruction is to include what is missing
            # a bare noun phrase ("order number's missing") says less than one with its
            # determiner ("the order number is missing")
            bare = missing.split()[1].lower() not in DETERMINERS and _is_noun_word(toks[0])
            variants.append(
                (0, bare, False, False, False, False, True, len(toks), 0, missing, False)
            )
            continue
        kind = None if negation else _kind_for(c, toks)
        if kind:
            # "money fields are packed decimal": 'Use packed decimal for money fields.'
            variants.append((0, False, False, False, False, False, True, len(toks), 0, kind, False))
            continue
        # after the determiner "no" a noun phrase follows, never an imperative: "no end
        # dates to customers", "no use clauses" ("end", "use" can be verbs elsewhere)
        verb_first = not _after_no(c, toks) and (
            _is_verb_here(toks, 0) or _verb_after_its_subject(c, toks)
        )
        # a wording against another: the rule is what to say, whatever else the same
        # correction says in other clauses ("home grown in the top field")
        against = None if negation else _set_against(c, toks)
        if against:
            # "it's home grown not organic": 'Say "home grown", not "organic".'
            said, refused = against
            variants.append(_set_wording(f'say "{said}", not "{refused}"', len(toks)))
            continue
        phrase = " ".join(t.low for t in (toks[1:] if toks[0].low == "we're" else toks))
        if not negation and not verb_first and we_are.get(phrase) is False:
            # "we're pest control technicians": 'Call us "pest control technicians"', never
            # "Use pest control technicians."; the fullest such wording first
            variants.append(_set_wording(f'call us "{phrase}"', -len(phrase.split())))
            continue
        ordered = None if verb_first else _framing_order(toks)
        if ordered:
            toks, verb_first = ordered, True
        if (
            not verb_first
            and len(toks) > 2
            and toks[0].low == "the"
            and toks[1].text[:1].islower()  # "The Lantern team": a name, kept as written
            and not _has_finite_verb(toks)
        ):
            toks = toks[1:]  # "the job reference at the top": the rule puts "the" back
        words = _words_as_written(c, toks)
        if ordered and words[1].istitle() and ordered[1].start == c.start:
            words[1] = words[1].lower()  # "Commit messages start …": the capital opened it
        if negation:
            refusals |= content_words(" ".join(t.text for t in toks))
        if not verb_first and not negation and _accepts_a_choice(c, toks):
            continue  # "managed identity, perfect": one of the choices offered, taken
        if not verb_first and (negation or _negation_before(c, toks)):
            # "no weekly figure", "never floating tags", "never miles, feet or acres": never
            # "Use the weekly figure", "Use feet or acres"
            continue
        if not verb_first and (
            len(toks) > 7 or any(t.low in ("but", "and", "if", "because", "so") for t in toks)
        ):
            continue  # no instruction: "same as last week but …"
        if _reports_what_was_done(c, toks, verb_first):
            continue  # "you did the job number in the subject", "good, fits in one text"
        if not verb_first and _has_own_verb(toks):
            continue  # "trading standards would have me": a remark, no wording asked for
        if not verb_first and _names_only_its_topic(c, toks):
            continue  # "Commit message: prefix with …": a label, the instruction after it
        if not verb_first and not _opens_with_a_noun_phrase(toks):
            continue  # "too long for a text": a verdict on the draft, no thing to use
        if not verb_first and _object_of_a_preposition(c, toks):
            continue  # "to the current standard": a modifier whose matter the clause lost
        if verb_first and _says_of_someone_unnamed(toks):
            continue  # "say they must be kept on a lead": who "they" are is in another clause
        # "approved verbs only", "cash only": a last "only" restricts the thing before it
        # and describes nothing, so the thing is what the checks below read
        thing = toks[:-1] if len(toks) > 2 and toks[-1].low == "only" else toks
        if not verb_first and _thing_is_a_description(thing):
            continue  # "home grown in the top field": "Use the home grown" names nothing
        if not verb_first and _ends_in_a_description(thing):
            continue  # "table driven", "prices included": says how a thing is, no thing to use
        if verb_first and len(toks) > 1 and toks[1].low in DRAFT_PRONOUNS and not _says_that(toks):
            continue  # "Write it in German", "Make it shorter": an edit of the draft at hand
        if verb_first and _removes_from_draft(toks):
            continue  # "Drop the weekly figure", "Lose the X": takes a part out of this draft
        if toks[-1].low in DRAFT_PRONOUNS or any(
            a.low in ("like", "as") and b.low in DRAFT_PRONOUNS
            for a, b in zip(toks, toks[1:], strict=False)
        ):
            continue  # "every lesson starts like that": points at what was said, says nothing
        if not verb_first and toks[0].low in QUESTION_STARTS:
            continue  # "how every lesson starts at our school": a statement, no instruction
        pointing = sum(1 for t in toks if t.low in POINTING_PRONOUNS)
        words = _with_article(words, texts)
        if verb_first:
            words = _wording(c, toks, words, negative=bool(negation))
        quoted = (
            None if any(w.startswith('"') for w in words) else _quoted_phrase(c, toks, verb_first)
        )
        only_a_thing = _only_a_thing(toks, verb_first)
        if not quoted and only_a_thing and naming and not negation:
            # "It's the simple funeral" after "we never say budget": what to call it, never
            # "Use the simple funeral"
            quoted = _name_to_say(toks, words)
        text = quoted or (" ".join(words) if verb_first else _verbless_rule(toks, words, texts))
        if negation:
            text = f"{negation} {text}"  # "Never deploy floating tags.", "Do not use …"
        contrast = None if negation else _contrast(_sentence_of(c), text)
        if contrast:
            text = f'{text}, not "{contrast}"'  # 'Use the name, not "your dog".'
        variants.append(
            (
                pointing,
                _bare_singular(toks),
                _dangling(toks),  # "Put the day of the week in": in what?
                not verb_first,
                only_a_thing,  # "Day of the week" says less than "… with the date"
                verb_first and _noun_or_verb(toks),
                not contrast,
                len(toks),
                -_written(toks, texts),
                text,
                bool(negation),
            )
        )
    if not variants:
        return None
    variants.sort()
    *_, no_contrast, _, _, text, negated = variants[0]
    if not negated and _asks_what_is_refused(text, refusals):
        # "Hard-coded table name again" beside "never hard-code table names": the rule
        # would ask for what another correction of it refuses, "Use the hard-coded table
        # name." No rule rather than the opposite of the person's
        return None
    if text.startswith("call us ") and len(we_are_not) == 1:
        # "we're not exterminators" beside "we're pest control technicians"
        return f'Call us {text[8:]}, not "{we_are_not.pop()}".'
    replaced = {r for c, _ in hits.values() if (r := _replaced_wording(c))}
    verb = next(w for w in text.split() if w not in ("never", "do", "not"))
    refused_word = _refused_wording(text) if negated else None
    if len(replaced) == 1 and (
        verb not in SAYING_VERBS
        or (refused_word and refused_word.lower() == next(iter(replaced))[1].lower())
    ):
        # a word put in place of another is a rule about wording, never "Use the
        # wood-burning stove": 'Say "wood-burning stove", not "log burner".'
        said, refused = replaced.pop()
        return f'Say "{said}", not "{_in_number_of(said, refused)}".'
    instead = (
        (_said_instead(hits, refused_word) or _said_beside(hits, refused_word))
        if refused_word
        else None
    )
    if instead and refused_word and instead.lower() != refused_word.lower():
        # "dont put gluten free" beside "made without gluten, not gluten free": the rule
        # says what to write instead, 'Say "made without gluten", not "gluten free".'
        return f'Say "{instead}", not "{refused_word}".'
    if no_contrast and not negated:
        # another correction of the same instruction names what the chosen wording
        # replaces: "I say clients." and "I say client, not patient" -> 'Say "clients",
        # not "patients".'
        others = {o for c, _ in hits.values() if (o := _contrast(_sentence_of(c), text))}
        said_as = re.fullmatch(r'say "([^"]+)"', text)
        if len(others) == 1:
            other = others.pop()
            text = f'{text}, not "{_in_number_of(said_as.group(1), other) if said_as else other}"'
        elif (
            not others
            and (asked := re.match(r'say "([^"]+)"', text))
            and (beside := _refused_beside(hits, asked.group(1)))
        ):
            # "Please don't say carbon neutral. … Say zero tailpipe emissions": the
            # refusal beside it is what the wording replaces, one rule for both
            text = f'{text}, not "{beside}"'
    text = names_with_capitals(text)
    return text[:1].upper() + text[1:] + "."


def _in_number_of(said: str, refused: str) -> str:
    """The refused noun in the number of the noun said instead: 'Say "clients", not
    "patients".' (not "patient"): one word against another agrees as the person writes
    the one to say. Anything but two single nouns stays as written."""
    if " " in said or " " in refused or not (said.isalpha() and refused.isalpha()):
        return refused
    if not (language.can_be(said.lower(), "NOUN") and language.can_be(refused.lower(), "NOUN")):
        return refused
    said_lemma = language.lemma(said.lower(), "NOUN")
    refused_lemma = language.lemma(refused.lower(), "NOUN")
    said_plural = said_lemma != said.lower() and language.plural(said_lemma) == said.lower()
    refused_plural = (
        refused_lemma != refused.lower() and language.plural(refused_lemma) == refused.lower()
    )
    if said_plural and not refused_plural and refused_lemma == refused.lower():
        return language.plural(refused)
    if refused_plural and not said_plural and said_lemma == said.lower():
        return refused_lemma
    return refused


# --- rule candidates passed over (the review log) ----------------------------------------------


def _rule_seen(
    hits: dict[int, tuple[Correction, int]],
    text: str,
    reason: str,
    *,
    key: str = "",
    detail: str = "",
) -> dict[str, Any]:
    return candidate(
        kind="rule",
        text=text,
        reason=reason,
        conversations=len(hits),
        people=len({c.message.principal_id for c, _ in hits.values()}),
        key=key,
        detail=detail,
    )


def _rule_near_misses(
    corrections: list[Correction],
    *,
    settings: LearningSettings,
    persona: dict[str, Any],
    names: set[str],
    tried: set[str],
) -> list[dict[str, Any]]:
    """Corrections that recur, but in fewer conversations or from fewer people than the
    settings ask ("too few conversations", "too few people")."""
    from learning import policy

    min_users = settings.min_users if settings.across_users else None
    floor = min(2, settings.min_corrections)
    if settings.min_corrections <= floor and min_users is None:
        return []
    out: list[dict[str, Any]] = []
    seen = set(tried)
    for _phrase, hits in recurring_instructions(
        corrections, min_conversations=floor, min_users=None
    )[:MAX_CANDIDATES]:
        people = len({c.message.principal_id for c, _ in hits.values()})
        if len(hits) >= settings.min_corrections and (min_users is None or people >= min_users):
            continue
        text = rule_for(hits)
        if not text:
            continue
        key = policy.content_key(text)
        if key in seen or policy.rule_refusal(rule=text, persona=persona, known_names=names):
            continue
        seen.add(key)
        reason = TOO_FEW_CONVERSATIONS if len(hits) < settings.min_corrections else TOO_FEW_PEOPLE
        out.append(_rule_seen(hits, text, reason, key=key))
        if len(out) >= MAX_RECORDED:
            break
    return out


# --- one matter, one rule -------------------------------------------------------------------


def rule_matter(rule: str) -> set[str]:
    """What a rule is about: the nouns (as lemmas) of its object, the words after its verb
    (and after "never", "do not") up to the first preposition outside quotes ('Put "riding
    hat first" on the list.' -> riding, hat, first; "Add the hat line." -> hat, line; "Show VAT
    on its own line." -> VAT; "Add that they need to wear a riding hat to …" -> wear, riding,
    hat: what is said is the object). Where a thing goes or what it goes with is not what
    the rule is about."""
    from safety.text import STOP_WORDS

    toks = tokens(rule)
    k = 0
    while k < len(toks) and toks[k].low in ("never", "do", "not", "always"):
        k += 1
    quotes = [(m.start(), m.end()) for m in re.finditer(r'"[^"]*"', rule)]
    out: set[str] = set()
    rest = toks[k + 1 :]
    for n, t in enumerate(rest):
        quoted = any(a < t.start < b for a, b in quotes)
        infinitive = t.low == "to" and n + 1 < len(rest) and _is_verb_here(rest, n + 1)
        if (
            out
            and not quoted
            and not infinitive
            and (t.low in PREPOSITIONS or t.low in PLACE_PREPOSITIONS)
        ):
            break  # "… to the current standard": what it is about was named before
        if (
            t.low.isalpha()
            and t.low not in STOP_WORDS
            and t.low not in FINITE_AUXILIARIES | {"need"}
            and t.low not in DETERMINERS
            and t.low not in PRONOUN_WORDS
            and (
                language.can_be(t.low, "NOUN")
                or _acronym(t.text)
                or (t.low.endswith("ing") and len(t.low) > 4)  # a gerund names a thing
            )
        ):
            out.add(language.lemma(t.low, "NOUN"))
    return out


def same_matter(rule: str, other: str) -> bool:
    """Whether ``rule`` says what the rule ``other`` says already, in other words: all its
    content words are in ``other``, or most of the nouns of its object are nouns of the
    other's object ("Add the hat line." after 'Put "riding hat first" on the list.': the
    riding hat a second time). One matter, one rule: a rule held, proposed or turned down
    is never proposed again in other words."""
    if content_words(rule) <= content_words(other):
        return True
    mine = rule_matter(rule)
    return bool(mine) and len(mine & rule_matter(other)) * 2 >= len(mine)
