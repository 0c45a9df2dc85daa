"""Standing rules: instructions that recur in corrections, worded verb first."""

from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from learning import language
from learning.proposers.local.hygiene import _SENTENCE_END, CODE_KEYWORDS, _code_token, quote_for
from learning.proposers.local.requests import (
    AUXILIARIES,
    _acronym,
    _noun_phrase,
    _request_in,
    message_span,
)
from learning.proposers.local.tokens import _is_noun_word, _is_verb_here, _wordlike, clauses, tokens
from learning.proposers.local.words import (
    DETERMINERS,
    DRAFT_PRONOUNS,
    PARTICLES,
    PREPOSITIONS,
    PRONOUN_WORDS,
    QUESTION_STARTS,
    RULE_FILLER,
    RULE_TAIL_FILLER,
)
from safety.text import (
    STOP_WORDS,
    content_words,
    readable_text,
    stem,
    words,
)

if TYPE_CHECKING:
    from learning.proposers.local.tokens import Tok


# --- standing rules -------------------------------------------------------------------------------


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


def _content(word: str) -> bool:
    return word not in STOP_WORDS and word not in RULE_FILLER and len(word) > 1 and _wordlike(word)


def _said_content(phrase: tuple[str, ...]) -> int:
    """Content words of an instruction; a time reference ("last lesson", "next week")
    says when, not what to do, and counts for nothing."""
    n = 0
    for k, w in enumerate(phrase):
        if w in ("last", "next", "previous") or (k and phrase[k - 1] in ("last", "next")):
            continue
        n += _content(w)
    return n


def recurring_instructions(
    corrections: list[Correction], *, min_conversations: int, min_users: int | None
) -> list[tuple[tuple[str, ...], dict[int, tuple[Correction, int]]]]:
    """Lemma sequences (2..6 words, two content words, content at both ends) found in
    ``min_conversations`` conversations, longest-supported first."""
    found: dict[tuple[str, ...], dict[int, tuple[Correction, int]]] = defaultdict(dict)
    for c in corrections:
        ws = c.lemmas
        for i in range(len(ws)):
            if not _content(ws[i]):
                continue
            for n in range(2, 7):
                if i + n > len(ws):
                    break
                phrase = tuple(ws[i : i + n])
                if not _content(phrase[-1]) or _said_content(phrase) < 2:
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


def _verbless_rule(toks: list[Tok], words: list[str]) -> str:
    """A verbless instruction made a sentence: "Show" when it says where something goes
    ("VAT on its own line"), "Use" otherwise ("British spelling"); "the" before a
    singular noun that needs one ("Use the first name", not before "VAT", "spelling")."""
    from learning.policy import CAPITALISED_OK

    np_words, j = _noun_phrase(toks, 0)
    verb = "show" if j < len(toks) and toks[j].low in PLACE_PREPOSITIONS else "use"
    article = ""
    if np_words and np_words[0] is toks[0]:
        last = np_words[-1]
        if (
            last.low.isalpha()
            and not _acronym(last.text)
            and last.low not in CAPITALISED_OK
            and not last.low.endswith("ing")
            and language.lemma(last.low, "NOUN") == last.low
        ):
            article = "the "
    return f"{verb} {article}{' '.join(words)}"


# verbs that take a part out of a text: with "the", "this" or a possessive after them
# they point at a part of the draft at hand ("drop the weekly figure", "cut the intro")
REMOVING_VERBS = frozenset(["drop", "cut", "lose", "remove", "delete", "strip", "omit", "take"])


NEGATIONS = frozenset(["no", "not", "never", "don't", "dont", "without"])


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
    return [words[0], '"' + " ".join(words[1:]) + '"']


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
        found = {
            m.group(2)
            for m in _NOT_WORD_AT_END.finditer(message_text)
            if content_words(m.group(1)) <= content_words(rule)
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


def rule_for(hits: dict[int, tuple[Correction, int]]) -> str | None:
    """The clearest wording of the instruction: no pronoun pointing at the draft at hand
    or at one person, no telegraphic phrase ("Greet with first name"), verb first,
    shortest;
    a verbless one gets a verb in front ("British spelling" -> "Use British spelling",
    "VAT on its own line" -> "Show VAT on its own line")."""
    variants = []
    texts = [c.message.text for c, _ in hits.values()]
    for c, _ in hits.values():
        toks = _variant(c)
        negation, toks = _prohibition(c, toks)
        if len(toks) < 2:
            continue
        words = _words_as_written(c, toks)
        verb_first = _is_verb_here(toks, 0)
        if negation and not verb_first:
            continue  # "no weekly figure", "never floating tags": never "Use the weekly figure"
        if not verb_first and (
            len(toks) > 7 or any(t.low in ("but", "and", "if", "because", "so") for t in toks)
        ):
            continue  # no instruction: "same as last week but …"
        if _reports_what_was_done(c, toks, verb_first):
            continue  # "you did the job number in the subject", "good, fits in one text"
        if not verb_first and _has_own_verb(toks):
            continue  # "trading standards would have me": a remark, no wording asked for
        if not verb_first and not _opens_with_a_noun_phrase(toks):
            continue  # "too long for a text": a verdict on the draft, no thing to use
        if not verb_first and _ends_in_a_description(toks):
            continue  # "table driven", "prices included": says how a thing is, no thing to use
        if verb_first and len(toks) > 1 and toks[1].low in DRAFT_PRONOUNS:
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
        text = quoted or (" ".join(words) if verb_first else _verbless_rule(toks, words))
        if negation:
            text = f"{negation} {text}"  # "Never deploy floating tags.", "Do not use …"
        contrast = None if negation else _contrast(_sentence_of(c), text)
        if contrast:
            text = f'{text}, not "{contrast}"'  # 'Use the name, not "your dog".'
        variants.append(
            (
                pointing,
                _bare_singular(toks),
                not verb_first,
                verb_first and _noun_or_verb(toks),
                not contrast,
                len(toks),
                text,
                bool(negation),
            )
        )
    if not variants:
        return None
    variants.sort()
    *_, no_contrast, _, text, negated = variants[0]
    if no_contrast and not negated:
        # another correction of the same instruction names what the chosen wording
        # replaces: "I say clients." and "I say client, not patient" -> 'Say "clients",
        # not "patient".'
        others = {_contrast(_sentence_of(c), text) for c, _ in hits.values()} - {None}
        if len(others) == 1:
            text = f'{text}, not "{others.pop()}"'
    return text[:1].upper() + text[1:] + "."


def rule_evidence(
    hits: dict[int, tuple[Correction, int]], text: str, banned: set[str], *, keep: frozenset[str]
) -> tuple[list[dict[str, Any]], list[tuple[str, int, int]]]:
    """The quotes that may back the rule ``text`` (each correction's own sentence, cut
    before words a quote must not hold, sharing a content word with the rule), and
    where each stands in its message (``(message text, start, end)``)."""
    evidence, quoted = [], []
    for c, _ in hits.values():
        toks = _variant(c)
        if not toks:
            continue
        quote = quote_for(
            c.message, toks[0].start, toks[-1].end, banned, keep=keep, own_sentence=True
        )
        if quote and content_words(quote) & content_words(text):
            evidence.append({"quote": quote, "conversation": c.message.conversation_label})
            begin = c.message.text.find(quote, c.start - 1 if c.start else 0)
            quoted.append((c.message.text, begin, begin + len(quote)))
    return evidence, quoted
