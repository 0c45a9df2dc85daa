"""Requests: clauses that ask for a piece of work, with their head, modifiers and verb."""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from learning import language
from learning.proposers.local.tokens import (
    _SENTENCE_END,
    REQUEST_TAILS,
    Tok,
    _is_noun_word,
    _is_verb_here,
    _wordlike,
    clauses,
    tokens,
)
from learning.proposers.local.words import (
    ACKNOWLEDGEMENTS,
    ANSWER_VERBS,
    CREATE_VERBS,
    CUES,
    DETERMINERS,
    DRAFT_PRONOUNS,
    EDIT_VERBS,
    GREETINGS,
    HEAD_SYNONYMS,
    LEAD_FILLERS,
    MESSAGE_HEADS,
    META_HEADS,
    MID_CUE_MODALS,
    NEGATIONS,
    NEW_REQUEST_OPENERS,
    NOUN_CUES,
    OBJECT_AFTER_PREPOSITION,
    OF_HEADS,
    OPENER_CLAUSE_WORDS,
    PART_HEADS,
    PARTICLES,
    PEOPLE_WORDS,
    PHRASAL,
    PREPOSITIONS,
    PRONOUN_WORDS,
    QUESTION_STARTS,
    QUOTE_MIN_WORDS,
    STAND_IN_OBJECTS,
    TIME_MODIFIERS,
    TURNING_VERBS,
    VAGUE_MODIFIERS,
    WEAK_VERBS,
    WHEN_WORDS,
    WHOLE_PREPOSITIONS,
    WORK_NAMING_VERBS,
)
from safety.text import (
    STOP_WORDS,
    readable_text,
)

if TYPE_CHECKING:
    pass


# --- requests -------------------------------------------------------------------------------


@dataclass
class Request:
    message: Any
    start: int  # the clause's span in the original text
    end: int
    verb: str | None  # lemma of a specific verb, None when weak or absent
    head: str  # lemma of what is made
    mods: list[str] = field(default_factory=list)  # lemmas before the head
    # (preposition, head lemma, lemmas of the phrase's noun phrase)
    phrases: list[tuple[str, str, tuple[str, ...]]] = field(default_factory=list)
    surface: dict[str, str] = field(default_factory=dict)  # lemma -> word as written
    reported: bool = False  # an error pasted and reported (``error_report``)
    # a part of a piece of work (``PART_HEADS``): the words that may name the whole, its
    # modifier first, then the heads of its "for"/"of"/"in" phrases ("newsletter item",
    # "a bit for the newsletter"); ``themes.parts_as_wholes`` settles which one does
    wholes: tuple[str, ...] = ()
    # the span of the clause that names what a bare reply answers ("Someone's left us a
    # three-star review:" before "Can you write a reply?"), quoted beside the request
    topic_span: tuple[int, int] | None = None
    # the head is one particular thing a name says which ("the Basford job", "Mrs
    # Beardmore job"): the site or matter the work is for, not a kind of work
    named: bool = False
    # the second thing asked for with the same verb, joined by "and": "an invoice and a
    # receipt for Mrs Hale" (``_coordinated``); ``requests_of`` reads it as a request
    also: tuple[Request, ...] = ()
    # the word read as the verb when it may be the first noun of a compound: a word that
    # can be a noun, then a bare singular noun and a preposition ("test case for the
    # lookup", "test fixture for the loader"); ``compounds_as_nouns`` settles which
    compound: str = ""


def _noun_phrase(toks: list[Tok], i: int) -> tuple[list[Tok], int]:
    """The noun phrase starting at ``i`` (determiners and a count skipped: "the 3 overdue
    invoices"): its words and the index after it."""
    opened = i
    while i < len(toks) and (toks[i].low in DETERMINERS or toks[i].low.endswith("'s")):
        i += 1
    if (
        opened < i < len(toks)
        and toks[opened].low in ("a", "an", "the")
        and toks[i].low.isalpha()
        and not _is_noun_word(toks[i])
        and language.can_be(toks[i].low, "VERB")
        and language.lemma(toks[i].low, "VERB") == toks[i].low
        and (i + 1 == len(toks) or toks[i + 1].low in PREPOSITIONS | REQUEST_TAILS)
    ):
        # a verb after an article and alone is a noun as people say it: "draft the
        # invite for families", "the ask"
        return [toks[i]], i + 1
    if i + 1 < len(toks) and toks[i].low.isdigit() and _is_noun_word(toks[i + 1]):
        i += 1
    words: list[Tok] = []
    while i < len(toks) and len(words) < 4:
        tok = toks[i]
        if _needs_doing(toks, i):
            break  # "allotment renewal letters need to go out": the verb of the clause
        if (
            tok.low == "thank"
            and i + 2 < len(toks)
            and toks[i + 1].low == "you"
            and _is_noun_word(toks[i + 2])
        ):
            # "a thank you note": one modifier, as "a thank-you note" writes it
            you = toks[i + 1]
            words.append(Tok(f"{tok.text}-{you.text}", "thank-you", tok.start, you.end))
            i += 2
            continue
        if tok.qualified:
            # a qualified name before a noun says which one: "Test::More tests", "a
            # System.Text.Json converter"
            k = i
            while k < len(toks) and toks[k].qualified:
                k += 1
            if k < len(toks) and _is_noun_word(toks[k]):
                i = k
                continue
        if _code_label(tok) and i + 1 < len(toks) and _is_noun_word(toks[i + 1]):
            # a label with digits says which one, not what: "a Y9 lesson"
            i += 1
            continue
        if (
            i + 2 < len(toks)
            and toks[i + 1].low.isdigit()
            and (_is_noun_word(tok) or (tok.text[:1].isupper() and _wordlike(tok.low)))
            and _is_noun_word(toks[i + 2])
        ):
            # a word and a number say which one, as a label does: "grade 1 exam prep
            # note", "year 9 reports"; so does a name and its version ("Pester 5 tests")
            i += 2
            continue
        if not words and _paired_adjectives(toks, i):
            # "a polite but firm chaser email": how it should sound, not what it is
            i += 3
            continue
        if _coordinated_modifier(toks, i):
            # "wash and care label text", "Instagram and Facebook post": two modifiers
            # joined by "and" before one head; the second stays, the head follows
            i += 2
            continue
        if words and _participle_clause(toks, i):
            break  # "a note saying it's done": the note is what is made
        if (
            "-" in tok.low
            and ("'" in tok.low or "\u2019" in tok.low)
            and tok.low.replace("-", "").replace("'", "").replace("\u2019", "").isalpha()
            and i + 1 < len(toks)
            and _is_noun_word(toks[i + 1])
        ):
            i += 1  # "this week's what's-on newsletter": a label before the noun
            continue
        if not _is_noun_word(tok):
            if words and _verb_named_as_noun(toks, opened, i):
                words.append(tok)  # "the comp wall reset": the phrase ends on it
                return words, i + 1
            # a verb used as a modifier: "a commit message", "a login help reply"
            if not (
                _wordlike(tok.low)
                and tok.low not in STOP_WORDS
                and language.can_be(tok.low, "VERB")
                and i + 1 < len(toks)
                and _is_noun_word(toks[i + 1])
            ):
                break
        elif (
            words
            and language.can_be(tok.low, "VERB")
            and not (language.can_be(tok.low, "NOUN") or language.can_be(tok.low, "ADJ"))
        ):
            break
        words.append(tok)
        i += 1
    # an adjective is no head: "the weekend specials" ends on a noun
    while words and not (
        language.can_be(words[-1].low, "NOUN") or not language.is_english_word(words[-1].low)
    ):
        words.pop()
        i -= 1
    return words, i


def _participle_clause(toks: list[Tok], i: int) -> bool:
    """Whether an "-ing" form at ``i`` opens a clause about the noun before it: "a note
    saying it's done", "a reply saying no alcohol", "an email asking why" (a function
    word or a name follows it, not a noun or a preposition: "booking confirmation", "the booking
    for Friday" keep their noun)."""
    tok, nxt = toks[i], toks[i + 1] if i + 1 < len(toks) else None
    if not tok.low.endswith("ing") or nxt is None:
        return False
    if not language.can_be(tok.low, "VERB") or language.lemma(tok.low, "VERB") == tok.low:
        return False
    word = nxt.low.replace("\u2019", "'").split("'")[0]  # "it's": "it"
    if nxt.text[:1].isupper() and not _acronym(nxt.text) and word not in STOP_WORDS:
        # a name after a form that is no noun is its object: "a reply proposing
        # Thursday", "an email thanking Sarah" (not "the opening Saturday")
        return not language.can_be(tok.low, "NOUN")
    return word in STOP_WORDS and nxt.low not in PREPOSITIONS and not _is_noun_word(nxt)


def _verb_named_as_noun(toks: list[Tok], opened: int, i: int) -> bool:
    """Whether the word at ``i``, which the lexicon gives only as a verb, ends the noun
    phrase that opened at ``opened``: as the name of an event inside a prepositional
    phrase ("about the comp wall reset", "for the kids' wall reset on Friday"; a
    preposition before ``opened``, where a clause's own verb follows its subject
    nowhere), or after a singular noun, which a verb in its base form never has as its
    subject ("a job advert for a cook", "Job advert please"; not "parents complain
    about …"). In its base form, and the phrase ends there (the clause ends, "please"
    or another preposition, not the "to" of an infinitive, follows)."""
    tok = toks[i]
    before = toks[i - 1] if i > opened else None
    after_singular = (
        before is not None
        and language.can_be(before.low, "NOUN")
        and language.lemma(before.low, "NOUN") == before.low
        and not before.low.endswith("s")
        and before.low not in STOP_WORDS | PEOPLE_WORDS  # "someone", "people"
        and language.can_be(tok.low, "VERB")
        and not language.can_be(tok.low, "ADV")  # "a quote together", "anyway"
    )
    if not after_singular and (opened == 0 or toks[opened - 1].low not in PREPOSITIONS):
        return False
    if tok.low in REQUEST_TAILS or tok.low in STOP_WORDS or not _wordlike(tok.low):
        return False  # "a checklist please"
    if language.lemma(tok.low, "VERB") != tok.low:
        return False
    return (
        i + 1 == len(toks)
        or (toks[i + 1].low in PREPOSITIONS and toks[i + 1].low != "to")
        or (after_singular and toks[i + 1].low in ("please", "pls"))
    )


def _coordinated_modifier(toks: list[Tok], i: int) -> bool:
    """Whether ``toks[i]`` is the first of two modifiers joined by "and" before one noun:
    "wash and care label text", "Instagram and Facebook post then" (a noun-like word,
    "and", then a word that can be a noun and at least one noun after it, the head). Two
    verbs joined ("reply and tell them", "write and send the letter") are no modifiers:
    the word after "and" is followed by a determiner, a pronoun or nothing."""
    if i + 3 >= len(toks) or toks[i + 1].low != "and":
        return False
    first, second, after = toks[i], toks[i + 2], toks[i + 3]
    if not (_wordlike(first.low) and _wordlike(second.low) and _wordlike(after.low)):
        return False
    if first.low in STOP_WORDS or second.low in STOP_WORDS or after.low in STOP_WORDS:
        return False
    if after.low in REQUEST_TAILS | PREPOSITIONS:
        return False  # "tea and biscuits please": two things, not one
    # a noun before another is singular ("care label text"); a plural one with more
    # words after it is an object of its own ("… and give owners clinical advice")
    last = i + 4 >= len(toks) or not _is_noun_word(toks[i + 4])
    return (
        _is_noun_word(first)
        and _is_noun_word(second)
        and _is_noun_word(after)
        and language.can_be(after.low, "NOUN")
        and (last or language.lemma(after.low, "NOUN") == after.low)
    )


def _paired_adjectives(toks: list[Tok], i: int) -> bool:
    """Whether two adjectives joined by "but" or "and" stand at ``i`` before a noun: "a
    polite but firm chaser email", "a short and friendly reminder" (joined by "but",
    which never joins two things, or not both nouns: "wash and care label text" is two
    modifiers, ``_coordinated_modifier``)."""
    if i + 3 >= len(toks) or toks[i + 1].low not in ("but", "and"):
        return False
    first, second = toks[i].low, toks[i + 2].low
    return (
        language.can_be(first, "ADJ")
        and language.can_be(second, "ADJ")
        and (
            toks[i + 1].low == "but"
            or not (language.can_be(first, "NOUN") and language.can_be(second, "NOUN"))
        )
        and _is_noun_word(toks[i + 3])
        and first not in STOP_WORDS
        and second not in STOP_WORDS
    )


def _needs_doing(toks: list[Tok], i: int) -> bool:
    """Whether "need(s) to …" stands at ``i``: what comes before it is work to be done
    ("the renewal letters need to go out", "the rota needs to be redone")."""
    return toks[i].low in ("need", "needs") and i + 1 < len(toks) and toks[i + 1].low == "to"


def _code_label(tok: Tok) -> bool:
    """A short label of letters and digits: "Y9", "y10", "2nd", "A4" (a bare number is
    no label: "1-star review", "3 bed flat" stay as they were read)."""
    w = tok.low
    return (
        any(c.isdigit() for c in w) and any(c.isalpha() for c in w) and w.isalnum() and len(w) <= 6
    )


def _lemma(tok: Tok) -> str:
    if len(tok.text) > 2 and tok.text.isupper() and tok.text.isalpha():
        return tok.low  # an acronym ending in a capital S is no plural: "DBS", "GPS"
    word = language.lemma(tok.low, "NOUN")
    return HEAD_SYNONYMS.get(word, word)


def _proper(tok: Tok, first: Tok | None) -> bool:
    """A capitalised word that does not open its clause: a name (a brand, a person), but
    for a platform (``learning.policy.PLATFORMS``);
    an acronym ("SQL", "PRs") is no name. A piece of a qualified name is a name too
    ("Booking.com", "Coquet::Billing"), but for a last piece that is an English noun
    ("clojure.test", "Samples.Notes")."""
    if tok.qualified:
        return tok.qualified == "inner" or not (
            language.is_english_word(tok.low) and language.can_be(tok.low, "NOUN")
        )
    from learning.policy import PLATFORMS

    return (
        tok.text[:1].isupper()
        and not _acronym(tok.text)
        and tok is not first
        # a platform is where the work goes, as "email" is: "an Instagram post", "a post
        # for Facebook" name no one
        and tok.low not in PLATFORMS
    )


def _acronym(word: str) -> bool:
    """Two to five capitals, a plural "s" allowed: "SQL", "VAT", "PR", "PRs", "CTEs"."""
    core = word[:-1] if len(word) > 2 and word.endswith("s") else word
    return core.isalpha() and core.isupper() and 2 <= len(core) <= 5


def _written(tok: Tok) -> str:
    """How a sentence writes the word of ``tok``: its synonym's word when it has one
    ("docs" -> "documentation"), else ``_surface``."""
    word = language.lemma(tok.low, "NOUN")
    return HEAD_SYNONYMS.get(word, _surface(tok))


def _surface(tok: Tok) -> str:
    """A word of a theme as the sentence writes it: an acronym keeps the capitals its
    writer gave it ("SQL", "PR" of "PRs"), a product's name its makers' form ("xUnit",
    ``learning.policy.product_name``), any other word is lower case."""
    from learning.policy import product_name

    if product_name(tok.text):
        return tok.text
    if _acronym(tok.text):
        return tok.text[:-1] if tok.text.endswith("s") and len(tok.text) > 2 else tok.text
    return tok.low


@dataclass
class _Opening:
    """Where the work a clause asks for is named, after its fillers and cues."""

    at: int  # the index of the token after them
    cue: bool  # "can you", "help me": a verb of work follows
    asks_you: bool  # the cue asks the reader ("can you", "could u"): a bare verb follows
    noun_cue: bool  # "I need", "help me with", "Hugo wants": what is made follows
    opened_new: bool  # "Also …", "another …": a new request after a reply
    relayed_start: int | None  # where the quote starts after a name written small


def _opening(toks: list[Tok], readable: str, b: int) -> _Opening | None:
    """The opening of the clause ``toks`` (ending at ``readable[b]``), or None when it
    is empty or a question ("Why does this blow up?")."""
    i = 0
    while i < len(toks) and toks[i].low in LEAD_FILLERS:
        i += 1
    if i >= len(toks):
        return None
    if (
        toks[i].low in QUESTION_STARTS
        and not any(tuple(t.low for t in toks[i : i + len(c)]) == c for c in CUES)
        # "do me a quiz", "do us a rota": an imperative with its beneficiary
        and not (toks[i].low == "do" and i + 1 < len(toks) and toks[i + 1].low in ("me", "us"))
        # "do the induction checklist": an imperative with its object, not a question
        and not (
            toks[i].low == "do"
            and i + 1 < len(toks)
            and toks[i + 1].low in ("the", "a", "an")
            and not readable[b : b + 2].lstrip().startswith("?")
        )
    ):
        return None  # "Why does this blow up?", "How do I …": a question, not a request
    opened_new = i > 0 and toks[i - 1].low in NEW_REQUEST_OPENERS or toks[i].low in ("another",)
    cue = asks_you = False
    for _ in range(3):  # "can you" "help me" "put together …"
        for pattern in CUES:
            if tuple(t.low for t in toks[i : i + len(pattern)]) == pattern:
                i += len(pattern)
                cue = True
                asks_you = pattern[-1] in ("you", "u")
                while i < len(toks) and toks[i].low in ("please", "also", "just", "quickly"):
                    i += 1
                break
        else:
            break
    noun_cue = False
    if cue and i < len(toks) and toks[i].low == "with" and toks[i - 1].low in ("me", "help"):
        i += 1  # "help me with the patch notes", "I need help with": what is made follows
        noun_cue = True
    elif (
        cue
        and i + 1 < len(toks)
        and (toks[i].low, toks[i + 1].low) in OBJECT_AFTER_PREPOSITION
        and not (i + 2 < len(toks) and toks[i + 2].low in PRONOUN_WORDS)
    ):
        i += 2  # "can you help with thank you cards", "can you start on the newsletter"
        noun_cue = True
    if not cue:
        for pattern in NOUN_CUES:
            if tuple(t.low for t in toks[i : i + len(pattern)]) == pattern:
                i += len(pattern)
                noun_cue = True
                break
    relayed_start = None
    if not (cue or noun_cue):
        relayed = _relayed(toks, i)
        if relayed is not None:
            if not toks[i].text[:1].isupper() and not language.is_english_word(toks[i].low):
                # a name written in lower case is no part of the quote ("jonno wants …")
                relayed_start = toks[relayed].start
            i, noun_cue = relayed, True
    return _Opening(i, cue, asks_you, noun_cue, opened_new, relayed_start)


def _asking_verb(toks: list[Tok], i: int) -> tuple[str | None, str, Tok | None, int] | None:
    """The verb at ``toks[i]`` that asks for the work: ``(verb, the verb as asked, its
    token, the index after it and its particle or beneficiary)``; the verb is None when
    it is too weak to name the work or names a new piece of work below ("start a
    glossary", "turn this into a component"). None when it edits the draft at hand."""
    verb_tok: Tok | None = toks[i]
    verb: str | None
    verb = made_by = language.lemma(toks[i].low, "VERB")
    i += 1
    if i < len(toks) and toks[i].low in PARTICLES:
        # a particle that makes another verb stays with it: "work out the orders" is
        # no "work the orders" ("Works out the orders.")
        verb = PHRASAL.get((verb, toks[i].low), f"{verb} {toks[i].low}")
        i += 1
    elif (
        i + 1 < len(toks)
        and toks[i].low in STAND_IN_OBJECTS
        and (verb, toks[i + 1].low) in PHRASAL
        and verb not in EDIT_VERBS
    ):
        # the particle after a word standing for the thing: "write these up for the
        # catalogue" is "write up these", its phrases read after it
        verb = PHRASAL[(verb, toks[i + 1].low)]
        return verb, made_by, verb_tok, i + 2
    core = verb.split(" ", 1)[0]  # what the verb is without its particle
    # "start me a vignette": whom it is for may stand before the article
    at = i + 1 if i < len(toks) and toks[i].low in ("me", "us") else i
    if core in CREATE_VERBS and at < len(toks) and toks[at].low in ("a", "an"):
        verb = None  # "start a terminology glossary": a new piece of work, named below
    elif (
        core in TURNING_VERBS
        and i + 1 < len(toks)
        and toks[i].low in DRAFT_PRONOUNS
        and toks[i + 1].low in ("into", "to")
    ):
        # "turn this into a component", "convert it to a checklist": what it becomes
        # is what is made
        verb, verb_tok, made_by = None, None, ""
        i += 2
    elif core in EDIT_VERBS:
        phrasal = _particle_after_object(toks, i, core)
        if not phrasal:
            return None
        verb = phrasal  # "put a quote together": "put together a quote"
    if core in WEAK_VERBS or (core.startswith("re") and core[2:] in WEAK_VERBS):
        verb = None  # "redo the course blurb" is "do" again: too weak to name the work
    if i < len(toks) and toks[i].low in ("me", "us", "him", "her", "them"):
        i += 1  # "write me a note", "give her a quote"
    else:
        i = _after_recipient(toks, i)
    return verb, made_by, verb_tok, i


RECIPIENT_WORDS = 4  # the longest name or "the" and people taken as a recipient


def _after_recipient(toks: list[Tok], i: int) -> int:
    """The index after a recipient named between the verb and what is made, as "me"
    is in "write me a note": a name ("Write Élodie a reply", "Send Mrs Shaw a quote",
    "send the Hendersons a confirmation") or people ("send the customers a reminder"),
    then "a"/"an" opening the second object. ``i`` itself when there is none."""
    j = i + 1 if i < len(toks) and toks[i].low == "the" else i
    k = j
    while (
        k < len(toks)
        and k - j < RECIPIENT_WORDS
        and (
            (toks[k].text[:1].isupper() and toks[k].low.replace(".", "").isalpha())
            or toks[k].low in PEOPLE_WORDS
        )
    ):
        k += 1
    if k > j and k + 1 < len(toks) and toks[k].low in ("a", "an"):
        return k
    return i


# how many words an object may have between a verb and its particle ("put a quote together")
OBJECT_BEFORE_PARTICLE = 3


def _particle_after_object(toks: list[Tok], i: int, verb: str) -> str:
    """The verb of making a verb and a particle written after its object name ("put a
    quote together", "put the rota together": ``PHRASAL``), or "": an article opens the
    object and a few words without a preposition or pronoun stand before the particle
    ("put it together", "put the VAT on its own line" are edits of the draft)."""
    if i >= len(toks) or toks[i].low not in ("a", "an", "the"):
        return ""
    for k in range(i + 1, min(len(toks), i + 2 + OBJECT_BEFORE_PARTICLE)):
        low = toks[k].low
        if (verb, low) in PHRASAL and k > i + 1:
            return PHRASAL[(verb, low)]
        if low in PREPOSITIONS or low in PRONOUN_WORDS or low in PARTICLES:
            return ""
    return ""


def _phrases_after_verb(toks: list[Tok], i: int) -> list[tuple[str, str, tuple[str, ...]]]:
    """The phrases (at most two) after a verb with no object, past a pronoun or
    determiner: "for engineering" of "Summarise this for engineering"."""
    while i < len(toks) and (toks[i].low in PRONOUN_WORDS or toks[i].low in DETERMINERS):
        i += 1
    if i < len(toks) and toks[i].low == "one":
        i += 1
    words_only: list[tuple[str, str, tuple[str, ...]]] = []
    while i < len(toks) and toks[i].low in PREPOSITIONS and len(words_only) < 2:
        pwords, i2 = _noun_phrase(toks, i + 1)
        pwords = [t for t in pwords if not _proper(t, toks[0])]
        if not pwords:
            break
        words_only.append((toks[i].low, _lemma(pwords[-1]), tuple(_lemma(t) for t in pwords)))
        i = i2
    return words_only


@dataclass
class _Made:
    """What a request makes, as read so far: its head (lemma and token), modifiers,
    phrases, the words as written, and the verb that asks for it."""

    head: str
    head_tok: Tok | None
    mods: list[str]
    surface: dict[str, str]
    verb: str | None
    phrases: list[tuple[str, str, tuple[str, ...]]] = field(default_factory=list)
    # asked for with a verb of turning a thing into another ("turn the notes into a
    # report"): what follows "into" is what is made
    turning: bool = False


def _read_phrases(toks: list[Tok], j: int, first_tok: Tok, made: _Made) -> int | None:
    """Read the phrases after what is made (at most two) into ``made``: "to the refund
    request", "of flour", "to chase". The index after them, or None when a phrase says
    how to write, not what ("write dates in full")."""
    while j < len(toks) and toks[j].low in PREPOSITIONS and len(made.phrases) < 2:
        prep = toks[j].low
        if (
            prep == "to"
            and not made.verb
            and j + 1 < len(toks)
            and language.can_be(toks[j + 1].low, "VERB")
            and language.lemma(toks[j + 1].low, "VERB") == toks[j + 1].low
            and (j + 2 >= len(toks) or toks[j + 2].low in REQUEST_TAILS)
        ):
            # "Another overdue invoice to chase": what is to be done with it
            to_do = language.lemma(toks[j + 1].low, "VERB")
            if to_do not in EDIT_VERBS and to_do not in WEAK_VERBS:
                made.verb = to_do
            j += 2
            continue
        if (
            prep == "in"
            and j + 1 < len(toks)
            and language.can_be(toks[j + 1].low, "ADJ")
            and (j + 2 >= len(toks) or toks[j + 2].low in REQUEST_TAILS | PREPOSITIONS)
        ):
            return None  # "write dates in full", "put it in bold": how to write, not what
        pwords, j2 = _noun_phrase(toks, j + 1)
        pwords = [t for t in pwords if not _proper(t, first_tok)]
        if not pwords:
            break
        if (made.head in OF_HEADS and prep == "of" and not made.phrases) or (
            made.turning and prep == "into"
        ):
            was = made.mods if made.turning else []
            if made.turning:
                # "turn Tom's survey notes into a proper survey report": the report is
                # made, the notes are what it is made from; turning is no verb of the work
                made.verb, made.turning = None, False
            made.head_tok = pwords[-1]
            # a bare thing made is of the kind of what it is made from: "turn the survey
            # notes into a report" makes a survey report
            made.head, made.mods = _lemma(pwords[-1]), [_lemma(t) for t in pwords[:-1]] or was
            made.surface[made.head] = _written(pwords[-1])
        else:
            # "to the refund request": the request is meta, the refund is what it is about
            lemmas = tuple(_lemma(t) for t in pwords)
            made.phrases.append((prep, lemmas[-1], lemmas))
        for t in pwords:
            made.surface.setdefault(_lemma(t), _written(t))
        j = j2
    return j


def _request_in(message: Any, readable: str, a: int, b: int, *, fresh: bool) -> Request | None:
    """The request in the clause ``readable[a:b]``, if it is one. ``fresh``: the clause
    opens a message not written after a reply, or follows "Last thing," / "Also:"."""
    toks = tokens(readable, a, b)
    if toks and all(t.low in ACKNOWLEDGEMENTS for t in toks):
        return None  # "lovely, cheers", "spot on": a thanks, no request for "cheers"
    opening = _opening(toks, readable, b)
    if opening is None:
        return None
    i, cue, noun_cue = opening.at, opening.cue, opening.noun_cue
    opened_new = opening.opened_new
    if opening.relayed_start is not None:
        a = opening.relayed_start
    if i >= len(toks):
        return None
    verb: str | None = None
    had_verb = False
    made_by = ""  # the verb as asked, weak or not ("do the questions")
    verb_tok: Tok | None = None
    # after "can you" a word is a verb if it can be: "can u do reminder texts" ("do" with
    # no article is no noun here)
    asked_verb = opening.asks_you and toks[i].low in WEAK_VERBS
    if not (cue or noun_cue) and _part_of_a_period(toks, i):
        i += 2  # "end of term reports please": the period says which reports
    elif not noun_cue and (
        asked_verb or (_is_verb_here(toks, i) and not _coordinated_modifier(toks, i))
    ):
        had_verb = True
        asked = _asking_verb(toks, i)
        if asked is None:
            return None
        verb, made_by, verb_tok, i = asked
    elif not (cue or noun_cue or opened_new or fresh):
        # a verbless clause after a reply is a correction ("Type hints please"); one
        # further into a message is a detail or a list ("rye flour, wheat flour")
        return None
    words, j = _noun_phrase(toks, i)
    if _subject_doing(toks, verb_tok, words, j):
        return None
    if not words and verb and not language.can_be(verb, "NOUN"):
        # "Summarise this for engineering", "Summarise for the dev team": the verb and
        # its phrases, no object
        span = message_span(readable, a, b)
        return Request(
            message=message,
            start=span[0],
            end=span[1],
            verb=verb,
            head="",
            phrases=_phrases_after_verb(toks, i),
        )
    verb_names_it = bool(verb) and language.can_be(verb or "", "NOUN")
    if (
        not words
        and verb_names_it
        and (i >= len(toks) or toks[i].low in REQUEST_TAILS or toks[i].low == "and")
    ):
        # "Reply please", "Help me reply", "reply and tell them …": the verb names what
        # is made
        return Request(
            message=message,
            start=message_span(readable, a, b)[0],
            end=message_span(readable, a, b)[1],
            verb=None,
            head=HEAD_SYNONYMS.get(verb or "", verb or ""),
            surface={verb or "": verb or ""},
        )
    if not words and not (verb_names_it and i < len(toks) and toks[i].low in PREPOSITIONS):
        return None
    if (
        j + 1 < len(toks)
        and toks[j].low in ("this", "next", "last")
        and toks[j + 1].low in WHEN_WORDS
    ):
        j += 2  # "Crew schedule this week please"
    # a verbless request is the noun phrase alone, or followed by its phrases and
    # "please", "needed", "time", "again": "Rota for next week please"
    if (
        not had_verb
        and not (cue or noun_cue)
        and j < len(toks)
        and toks[j].low not in PREPOSITIONS | REQUEST_TAILS
        and not _needs_doing(toks, j)
        # "Instagram and Facebook post then" (``_settles_for``): "then" closes it
        and not (
            toks[j].low == "then"
            and j == len(toks) - 1
            and _lemma(words[-1]) not in TIME_MODIFIERS  # "ok. CV tonight then": a plan
        )
    ):
        return None
    # a capitalised word inside the phrase is a name (a brand, a person): not part of the theme
    first_tok = toks[0]
    head_tok: Tok | None
    if words:
        kept = [t for t in words if not _proper(t, first_tok)]
        if not kept or kept[-1] is not words[-1]:
            return None
        head_tok = kept[-1]
        head = _lemma(head_tok)
        mods = [_lemma(t) for t in kept[:-1]]
        surface = {_lemma(t): _written(t) for t in kept}
    else:
        # "Reply to a Google review", "Quote for the fence job": the verb names what is
        # made, its phrases what it is about
        head_tok, head, mods = None, HEAD_SYNONYMS.get(verb or "", verb or ""), []
        surface = {head: head}
        verb = None
    made = _Made(head, head_tok, mods, surface, verb, turning=made_by in TURNING_VERBS)
    after = _read_phrases(toks, j, first_tok, made)
    if after is None:
        return None
    if not had_verb and not (cue or noun_cue) and _subject_of_statement(readable, toks, after, b):
        return None
    j, head, head_tok, mods = after, made.head, made.head_tok, made.mods
    surface, verb, phrases = made.surface, made.verb, made.phrases
    if (
        head in MADE_META_HEADS
        and verb_tok is not None
        and words
        and toks.index(words[0]) == toks.index(verb_tok) + 1
        and (verb or "") not in HEAD_SYNONYMS
        and language.can_be(verb_tok.low, "NOUN")
    ):
        # "book club questions pls": a noun that can be a verb, then the rest of the
        # compound, is no imperative ("answer customer questions" is one)
        mods, verb, made_by = [_lemma(verb_tok), *mods], None, ""
        surface[mods[0]] = _written(verb_tok)
    wholes = _wholes(head, mods, phrases)
    if (
        head in META_HEADS
        and not wholes
        and not _made_meta(head, mods, made_by, toks, j)
        and not _numbered(toks, head_tok)
    ) or (len(head) < 3 and not (head_tok and _acronym(head_tok.text))):
        return None
    if not _wordlike(head):
        return None
    span = message_span(readable, a, b)
    if (
        0 < j < len(toks) - 1
        and toks[j].low == "and"
        and toks[j + 1].low not in PRONOUN_WORDS
        and _is_verb_here(toks, j + 1)
    ):
        # "make the reminder messages and stick them in a table …": a second instruction
        # (how to lay it out, where to put it) is not part of what is asked for
        span = (span[0], toks[j - 1].end)
    at = toks.index(head_tok) if head_tok is not None else 0
    req = Request(
        message=message,
        start=span[0],
        end=span[1],
        verb=verb,
        head=head,
        mods=mods,
        phrases=phrases,
        surface=surface,
        wholes=wholes,
        named=_named(toks, at, first_tok),
        compound=_compound_first(toks, verb_tok, words, j) if not cue else "",
    )
    from learning.policy import WORK_VERBS

    # asked for with a verb of work or "can you", "I need" (not "Hugo needs …", "want a
    # known value and …", "pasting the dump and …": what is said, not asked)
    asked_for = (
        cue
        or made_by in WORK_VERBS
        or (noun_cue and opening.at > 0 and toks[opening.at - 1].low == "need")
    )
    second = _coordinated(req, toks, j, first_tok) if words and asked_for else None
    return replace(req, also=(second,)) if second is not None else req


def _subject_doing(toks: list[Tok], verb_tok: Tok | None, words: list[Tok], j: int) -> bool:
    """Whether the word read as the verb is a noun and the "-ing" form after it what it
    is doing: "test failing after I changed …", "build failing on CI" (a word that can
    be a noun, in its base form, then only the "-ing" form of a verb before a
    preposition or the clause's end; not "fix failing tests", where a noun follows)."""
    if verb_tok is None or len(words) != 1 or verb_tok not in toks:
        return False
    doing = words[0]
    return (
        toks.index(doing) == toks.index(verb_tok) + 1
        and doing.low.endswith("ing")
        and language.can_be(doing.low, "VERB")
        and language.lemma(doing.low, "VERB") != doing.low
        and language.can_be(verb_tok.low, "NOUN")
        and language.lemma(verb_tok.low, "VERB") == verb_tok.low
        and (j >= len(toks) or toks[j].low in PREPOSITIONS or toks[j].low in WHEN_CLAUSE_WORDS)
    )


# words that open a clause saying when: "test failing after I changed …"
WHEN_CLAUSE_WORDS = frozenset(["after", "since", "when", "again", "now"])


def _compound_first(toks: list[Tok], verb_tok: Tok | None, words: list[Tok], j: int) -> str:
    """The noun the word read as the verb may be, when it may open a compound instead:
    it can be a noun in its base form, and one bare singular noun the lexicon knows
    follows it right away, then a preposition, "please" or the clause's end ("test case
    for the lookup", "test fixture for the loader"; not "test the login flow", a
    determiner, nor "update readme for …", a word the lexicon does not know). "" when not."""
    if verb_tok is None or len(words) != 1 or verb_tok not in toks:
        return ""
    noun = words[0]
    if toks.index(noun) != toks.index(verb_tok) + 1:
        return ""
    if j < len(toks) and toks[j].low not in PREPOSITIONS | REQUEST_TAILS:
        return ""
    first = verb_tok.low
    return (
        language.lemma(first, "NOUN")
        if (
            language.can_be(first, "NOUN")
            and language.lemma(first, "VERB") == first
            and noun.text.islower()
            and language.can_be(noun.low, "NOUN")
            and language.lemma(noun.low, "NOUN") == noun.low
            and not noun.low.endswith("s")
        )
        else ""
    )


def compounds_as_nouns(requests: list[Request]) -> list[Request]:
    """A request whose verb may be the first noun of a compound (``Request.compound``:
    "test case for the engineer-contact lookup") asks for that noun when another
    conversation asks for it as what is made (its word is the head there: "write tests
    for …"), as ``themes.parts_as_wholes`` reads a part as its whole: a test case is a
    test. Otherwise ("update readme for …" where nobody asks for updates) the verb stays."""
    heads_in: dict[str, set[Any]] = {}
    for r in requests:
        if r.head and not r.reported:
            heads_in.setdefault(r.head, set()).add(r.message.conversation_id)
    read = []
    for r in requests:
        if r.compound and heads_in.get(r.compound, set()) - {r.message.conversation_id}:
            r = replace(
                r,
                verb=None,
                head=r.compound,
                mods=[],
                surface={**r.surface, r.compound: r.compound},
                compound="",
            )
        read.append(r)
    return read


def _part_of_a_period(toks: list[Tok], i: int) -> bool:
    """Whether ``toks[i]`` opens a label of the form "<noun> of <noun> <noun>": "end of
    term reports", "start of season letter", "close of play scores". A verb is followed by
    its object, so a word that can be a noun, then "of" and a bare compound (no article,
    at least two nouns: what the label qualifies comes last) is the first word of a noun
    phrase, not an imperative ("think of a name", "dispose of the files" keep their
    article, and stay verbs). The request is the compound after "of"."""
    return (
        i + 3 < len(toks)
        and toks[i + 1].low == "of"
        and _wordlike(toks[i].low)
        and language.can_be(toks[i].low, "NOUN")
        and _is_noun_word(toks[i + 2])
        and _is_noun_word(toks[i + 3])
        and toks[i + 2].low not in DETERMINERS
    )


def _coordinated(req: Request, toks: list[Tok], j: int, first_tok: Tok) -> Request | None:
    """The second thing a request asks for with the same verb, joined to the first by
    "and" ("do an invoice and a receipt for Mrs Hale", "draft the agenda and the minutes"):
    a noun phrase opened by a determiner after "and", that ends the clause or runs into
    its own phrases or "please"; None when "and" joins anything else ("and stick them in
    a table", "and Mr Hale")."""
    if not (j + 2 < len(toks) and toks[j].low == "and" and toks[j + 1].low in DETERMINERS):
        return None
    words, k = _noun_phrase(toks, j + 1)
    kept = [t for t in words if not _proper(t, first_tok)]
    if not kept or kept[-1] is not words[-1]:
        return None
    if k < len(toks) and toks[k].low not in PREPOSITIONS | REQUEST_TAILS:
        return None
    head = _lemma(kept[-1])
    if head == req.head or head in META_HEADS or len(head) < 3 or not _wordlike(head):
        return None
    made = _Made(head, kept[-1], [_lemma(t) for t in kept[:-1]], {}, req.verb)
    made.surface = {_lemma(t): _written(t) for t in kept}
    if _read_phrases(toks, k, first_tok, made) is None:
        return None
    return replace(
        req,
        head=head,
        mods=made.mods,
        phrases=made.phrases,
        surface=made.surface,
        wholes=_wholes(head, made.mods, made.phrases),
        named=False,  # opened by its own determiner: a kind, whatever the first one was
    )


#: determiners that say "one of a kind", not "that one": "a Flyway migration"
_ANY_ONE = frozenset(["a", "an", "another", "any", "some", "each", "every"])


def _named(toks: list[Tok], at: int, first_tok: Tok) -> bool:
    """Whether the head at ``at`` is one particular thing a name says which: a name right
    before it ("the Basford job", "Mrs Beardmore job again"), the head singular and the
    phrase not opened by a word that picks any one ("a Flyway migration", "another
    Airflow DAG": a kind of thing a tool names), nor the name a month or language."""
    from learning.policy import CAPITALISED_OK

    if at == 0 or not _proper(toks[at - 1], first_tok) or toks[at - 1].low in CAPITALISED_OK:
        return False
    if language.lemma(toks[at].low, "NOUN") != toks[at].low:
        return False  # "JUnit tests": many of a kind
    k = at - 1
    while k > 0 and (_proper(toks[k - 1], first_tok) or _acronym(toks[k - 1].text)):
        k -= 1
    return not (k > 0 and toks[k - 1].low in _ANY_ONE)


def _states(word: Tok, then: Tok | None) -> bool:
    """Whether ``word`` is a verb in its "-s" form with an object after it ("wants it",
    "needs lots 3 and 4"): what one person or thing does, said of it. Not a verb followed
    by "to", an "-ing" form ("needs to go out", "needs doing": the thing needs doing) or
    no object ("the sync fails now": a problem reported)."""
    verb = language.lemma(word.low, "VERB")
    return (
        word.low != verb
        and language.can_be(word.low, "VERB")
        and language.third_person(verb) == word.low
        and then is not None
        and (
            then.low in ("it", "them", "him", "her", "me", "us")
            or then.low in DETERMINERS
            or then.low.isdigit()
            or (_is_noun_word(then) and not language.can_be(then.low, "ADV"))
        )
        and not then.low.endswith("ing")
    )


def _subject_of_statement(readable: str, toks: list[Tok], j: int, b: int) -> bool:
    """Whether the noun phrase a verbless clause ends with (``toks[:j]``) is the subject
    of a verb of its own, so the clause states something rather than asks for it:
    "Buyer in Aberdeen wants lots 318 and 319 posted" (the verb right after its phrases),
    "buyer of lot 301, the oak dresser, wants it delivered" (after an appositive set off
    by two commas). A verb after a single comma opens a clause of its own ("Quote for
    the Smith job, customer wants it by Friday" still asks for the quote). Numbers and
    names the reading left after the phrase ("lot 301", "in Aberdeen") are part of it."""
    while j < len(toks) and (
        toks[j].low.isdigit()
        or _proper(toks[j], toks[0])
        or (
            toks[j].low in PREPOSITIONS
            and j + 1 < len(toks)
            and (_proper(toks[j + 1], toks[0]) or toks[j + 1].low.isdigit())
        )
    ):
        j += 1
    if j < len(toks):
        return _states(toks[j], toks[j + 1] if j + 1 < len(toks) else None)
    end = _SENTENCE_END.search(readable, b)
    rest = readable[b : end.start() if end else len(readable)]
    if not rest.startswith(",") or rest.count(",") < 2:
        return False
    aside, after = rest[1:].split(",", 1)
    words = tokens(aside)
    if not words or any(
        not (t.low in DETERMINERS or t.low.isdigit() or _is_noun_word(t)) for t in words
    ):
        return False  # not a noun phrase: another clause
    later = tokens(after)
    return bool(later) and _states(later[0], later[1] if len(later) > 1 else None)


def _wholes(
    head: str, mods: list[str], phrases: list[tuple[str, str, tuple[str, ...]]]
) -> tuple[str, ...]:
    """The words that may name the whole a part of a piece of work belongs to: its last
    modifier ("newsletter item"), then the heads of its "for"/"of"/"in" phrases ("results
    section for the report"). Empty for a head that is no part."""
    if head not in PART_HEADS:
        return ()
    found = []
    if mods and mods[-1] not in VAGUE_MODIFIERS and mods[-1] not in TIME_MODIFIERS:
        found.append(mods[-1])
    found += [ph[1] for ph in phrases if ph[0] in WHOLE_PREPOSITIONS and ph[1] not in PEOPLE_WORDS]
    return tuple(w for w in dict.fromkeys(found) if w not in PART_HEADS and w not in META_HEADS)


def _numbered(toks: list[Tok], tok: Tok | None) -> bool:
    """Whether ``tok`` is a noun with a number after it, which names one thing of its
    kind ("write up lot 520", "Lot 112:"): a word that is otherwise vague ("a lot") names
    a thing there."""
    if tok is None or tok not in toks:
        return False
    k = toks.index(tok)
    return k + 1 < len(toks) and toks[k + 1].low.isdigit() and len(toks[k + 1].low) > 1


# meta heads that are the work itself when asked to be made: "book club questions",
# "do the questions", "questions pls", "blog post ideas" (not "a quick question about …")
MADE_META_HEADS = frozenset(["question", "idea"])


MAKING_VERBS = frozenset(["do", "write", "draft", "prepare", "make", "set", "come"])


def _made_meta(head: str, mods: list[str], made_by: str, toks: list[Tok], j: int) -> bool:
    """Whether the meta head ``head`` names what is made: a noun before it says what
    for ("reading group questions"), a verb of making asks for it ("do the questions")
    or "please" follows it at once ("questions pls")."""
    if head not in MADE_META_HEADS:
        return False
    named = any(
        language.can_be(m, "NOUN")
        and m not in VAGUE_MODIFIERS | META_HEADS | TIME_MODIFIERS
        and m not in PEOPLE_WORDS
        for m in mods
    )
    asked = j < len(toks) and toks[j].low in ("please", "pls")
    return named or made_by in MAKING_VERBS or asked


def counts_as_request(request: Request, opening: set[str]) -> bool:
    """Whether ``request`` asks for a piece of work. In a message written after a reply
    it does when it asks for work people also ask for in opening messages ("Also a
    quote for …", ``opening``: heads and verbs of those) or names the work with a verb
    of work and its object ("Also write pytest tests for the fix function");
    otherwise it edits the draft at hand ("please write dates in full")."""
    from learning.policy import WORK_VERBS

    if not request.message.after_assistant:
        return True
    if (request.head or request.verb) in opening:
        return True
    return bool(request.head) and (request.verb or "") in WORK_VERBS


def requests_asking_work(requests: list[Request]) -> list[Request]:
    """The requests that ask for a piece of work (``counts_as_request``; ``opening``: the
    heads and verbs of the requests of opening messages). One written after a reply that
    counts only because others ask for its head, with a verb that is no verb of work
    ("Should have the crem fee shown separate, like the full estimates"), asks for that
    work without naming it by its verb: it is read without the verb, so the work is named
    as the requests that ask for it name it ("Prepares the estimates.", never "Likes the
    estimates.") A problem is asked about after a reply only by pasting one: the errors an
    instruction names ("collect the errors per branch and give back Error with the list")
    are a change to the code at hand, not a problem to debug."""
    from learning.policy import WORK_VERBS

    opening = {r.head or r.verb or "" for r in requests if not r.message.after_assistant}
    out = []
    for r in requests:
        if not counts_as_request(r, opening):
            continue
        if r.message.after_assistant and r.head in PROBLEM_NOUNS and not r.reported:
            continue
        if r.message.after_assistant and r.verb and r.verb not in WORK_VERBS | opening:
            r = replace(r, verb=None)
        out.append(r)
    return out


# someone else asks, the person passes it on: "Hugo wants an explanation of …",
# "Priyanka in finance asked for a summary of …", "The client needs a quote for …"
RELAYED_CUES = (("wants",), ("needs",), ("asked", "for"), ("asks", "for"), ("would", "like"))


def _relayed(toks: list[Tok], i: int) -> int | None:
    """Where the object starts in a request passed on from someone else: a subject of
    one or two words ("Hugo", "The client"), at most one short phrase ("in finance",
    "from sales"), then ``RELAYED_CUES`` and a noun phrase (not "wants to …": what a
    guest wants done is no piece of work for the assistant)."""
    j = i
    if j < len(toks) and toks[j].low in DETERMINERS:
        j += 1
    if (
        j + 1 < len(toks)
        and toks[j + 1].low in PEOPLE_WORDS
        and language.can_be(toks[j].low, "ADJ")
        and toks[j].text[:1].islower()
    ):
        j += 1  # "A direct client wants …", "a new patient needs …"
    if j >= len(toks) or not (
        toks[j].text[:1].isupper()
        or toks[j].low in PEOPLE_WORDS
        # a name written in lower case ("jonno wants a bar chart …"): no English word
        or (toks[j].low.isalpha() and not language.is_english_word(toks[j].low))
    ):
        return None
    j += 1
    if j + 1 < len(toks) and toks[j].low in PREPOSITIONS and toks[j].low != "to":
        j += 2  # "in finance", "from sales"
    for pattern in RELAYED_CUES:
        if tuple(t.low for t in toks[j : j + len(pattern)]) == pattern:
            after = j + len(pattern)
            if after < len(toks) and toks[after].low in DETERMINERS:
                return after
            return None
    return None


def message_span(readable: str, a: int, b: int) -> tuple[int, int]:
    """The clause's span without the white space around it."""
    while a < b and readable[a].isspace():
        a += 1
    while b > a and (readable[b - 1].isspace() or readable[b - 1] in "'\u2019"):
        b -= 1
    return a, b


# a pasted block (fenced code, a log) or a trace line, and an error named inside it: an
# error or exception type, a log level, a trace, a fatal signal, a panic
PASTED = re.compile(
    r"```.*?(?:```|\Z)|~~~.*?(?:~~~|\Z)|^[ \t]*(?:Traceback|File \"|at [\w.$]+\()[^\n]*",
    re.S | re.M,
)


_ERROR_IN_PASTE = re.compile(
    r"(?i:\w*(?:error|exception)s?|traceback|fatal|panic|segmentation fault)\b"
)


DEBUG_VERB = "debug"


AUXILIARIES = frozenset(["do", "does", "did", "can", "could", "will", "would", "should", "to"])


# what people call the problem they paste ("Getting this error", "Another stack trace",
# "new bug from a player log"); "error" when their words name none
PROBLEM_NOUNS = frozenset(["error", "exception", "crash", "bug", "trace"])


DEFAULT_PROBLEM = "error"


# the verbs people say their work goes wrong with ("Build's failing", "the script
# breaks"): what fails is named beside them
FAILING_VERBS = frozenset(["fail", "break"])


def _says_it_fails(readable: str, a: int, b: int) -> bool:
    """Whether the clause ``readable[a:b]`` says something fails with a verb of failing
    ("xcode archive fails", "CI keeps failing on the lint job", "the build broke"), not
    a noun ("a break", "the Christmas breaks": a determiner before it)."""
    toks = tokens(readable, a, b)
    return any(
        language.can_be(t.low, "VERB")
        and language.lemma(t.low, "VERB") in FAILING_VERBS
        and not (k and (toks[k - 1].low in DETERMINERS or toks[k - 1].low.endswith("'s")))
        and language.lemma(t.low, "NOUN") not in FAILING_VERBS - {"fail"}
        or t.low in ("broke", "broken")
        and k > 0
        for k, t in enumerate(toks)
    )


# a question the person asks over what they paste, about what goes wrong in it ("why is
# this giving me NaNs after the merge?", "borrow checker hates me. why", "What's wrong
# here?", "how do i fix the migration"): the paste is a problem to debug, though it names
# no error and no clause says what fails
_TROUBLE_QUESTION = re.compile(
    r"(?i)(?:^|[.!?\n]\s*|,\s*)(?:why\b|what(?:'s| is) (?:wrong|going on|happening)\b"
    r"|what does (?:this|it) mean\b|how (?:do|can|should) (?:i|we) fix\b|how to fix\b)"
    r"|\bwhy\s*[?!]*\s*$|\bno idea why\b|\bany idea(?:s)?\s*[?]"
)


# a pasted line not fenced: most of its characters blanked as code or a log
# (``readable_text``), or a line of an interactive shell (">>> …")
_BLANKED_SHARE = 0.4


# what a line of code or a log holds and a line of prose does not: brackets, "=", ";",
# "_", "@", a dotted name ("django.db.utils"), "::"
_CODE_MARK = re.compile(r"[(){}\[\]=;_@]|\w\.\w|::")


# an error type as a log writes it: "WorkerLostError:", "psycopg2.OperationalError:"
_NAMED_ERROR = re.compile(r"\b[A-Z]\w*(?:Error|Exception):")


# verbs whose negation says nothing goes wrong: "I don't know", "we don't need"
_NEGATED_NO_FAULT = frozenset(
    [
        "know",
        "want",
        "need",
        "think",
        "mind",
        "care",
        "like",
        "have",
        "be",
        "worry",
        "see",
        "notice",
    ]
)


# what people say of a thing that goes wrong besides failing: it complains ("report_cdc
# is moaning", "synthesis is complaining"), stalls ("the shipper just hangs", "it's
# crawling again", "the portal times out"), is in a bad state ("query is slow", "dialyzer
# is unhappy", "two tests are flaky", "the footer grid is a mess"), runs short of what it
# needs ("output dataset ran out of space") or does its work too often ("reactive is
# firing twice"); lemmas, read only as the predicate of a thing (``_states_a_problem``)
PROBLEM_PREDICATES = frozenset(
    [
        "complain",
        "moan",
        "whine",
        "grumble",
        "hang",
        "freeze",
        "stall",
        "crawl",
        "crash",
        "leak",
        "slow",
        "flaky",
        "broken",
        "unhappy",
        "stuck",
        "wrong",
        "mess",
        "twice",
        "blow up",
        "fall apart",
        "time out",
        "run out",
    ]
)


# the words that name a code a program or a system answers with, when a number follows
# ("SQLCODE -811", "file status 35", "exit code 137", "status 500"): a word ending in one
ERROR_CODE_ENDINGS = ("code", "status")


def _names_an_error_code(readable: str, toks: list[Tok]) -> bool:
    """Whether the clause ``toks`` names a code and its number, as a system reports a
    fault ("getting SQLCODE -811 on the select", "file status 35 on the open"); a number
    joined to others ("sort code 20-00-00") is an account's, not a fault's."""
    for k, t in enumerate(toks[:-1]):
        nxt = toks[k + 1]
        gap = readable[t.end : nxt.start]
        after = readable[nxt.end : nxt.end + 1]
        if (
            t.low.endswith(ERROR_CODE_ENDINGS)
            and nxt.low.isdigit()
            and gap.strip() in ("", "-")
            and gap[:1].isspace()
            and after not in ("-", ".", "/", ":")
        ):
            return True
    return False


# the words between a subject and what is said of it now: "is", "it's", "gets" (a past
# "1e-8 was flaky on the Mac runner" tells why something was changed, no trouble at hand)
_LINKING = frozenset(["is", "are", "gets", "seems", "keeps"])


# words that may stand between the link and the predicate: "is so slow", "just hangs",
# "is a mess", "is firing twice" (the verb before "twice")
_BETWEEN = frozenset(["so", "really", "very", "just", "still", "now", "a", "totally", "super"])


# the person, not the work ("I'm stuck", "we are slow to reply"), or a question, no
# thing named ("what's wrong here?": ``_TROUBLE_QUESTION`` reads it)
_PERSONS = frozenset(
    ["i", "i'm", "im", "we", "we're", "you", "you're", "he", "she", "they", "what", "what's"]
)


def _states_a_problem(toks: list[Tok]) -> int | None:
    """The index in ``toks`` (a clause of the person's own words) of a problem predicate
    (``PROBLEM_PREDICATES``) said of a thing: after a link to its subject ("query is
    slow", "it's crawling again", "report_cdc is moaning"), as the subject's own verb
    ("the shipper just hangs") or after the verb it repeats ("is firing twice"); None
    when the clause says none, or says it of a person ("I'm stuck")."""
    for k, t in enumerate(toks):
        word = t.low
        lemma = word if word in PROBLEM_PREDICATES else language.lemma(word, "VERB")
        if k + 1 < len(toks) and f"{lemma} {toks[k + 1].low}" in PROBLEM_PREDICATES:
            lemma = f"{lemma} {toks[k + 1].low}"  # a verb with its particle: "blew up"
        if lemma not in PROBLEM_PREDICATES or k == 0:
            continue
        j = k - 1
        if lemma == "twice":
            # the verb it repeats: "is firing twice", "runs twice"
            if not language.can_be(toks[j].low, "VERB") or toks[j].low in _LINKING:
                continue
            j -= 1
        while j > 0 and toks[j].low in _BETWEEN:
            j -= 1
        link = toks[j].low
        linked = link in _LINKING or (link.endswith("'s") and link not in _PERSONS)
        if linked:
            if link.endswith("'s") and link != "it's":
                return k  # "tsc's unhappy": the subject and its link in one word
            j -= 1
            # no subject left: the reader blanked it as code ("report_cdc is moaning")
            if j >= 0 and toks[j].low in _PERSONS:
                continue
            return k
        # the subject's own verb, written for it: "the shipper just hangs", "composer
        # update blew up"
        if (
            word != lemma.split()[0]
            and not word.endswith("ing")
            and toks[j].low not in _PERSONS
            and _is_noun_word(toks[j])
            # a noun, or a word no lexicon knows, the name of a thing ("dataset")
            and (language.can_be(toks[j].low, "NOUN") or not language.is_english_word(toks[j].low))
        ):
            return k
    return None


def _says_it_misbehaves(readable: str, a: int, b: int) -> bool:
    """Whether the clause ``readable[a:b]`` says something fails (``_says_it_fails``),
    does not do what it should ("celery beat isn't firing the nightly task", "the
    GeoJSON won't load"), keeps doing what it should not ("celery task keeps retrying
    forever"), is in some other trouble (``_states_a_problem``) or answers with a code
    (``_names_an_error_code``)."""
    if _says_it_fails(readable, a, b):
        return True
    toks = tokens(readable, a, b)
    if _states_a_problem(toks) is not None or _names_an_error_code(readable, toks):
        return True
    for k, t in enumerate(toks[:-1]):
        nxt = toks[k + 1]
        negated = t.low in ("not", "cannot") or t.low.endswith("n't")
        if negated and k and toks[k - 1].low in ("i", "we", "you"):
            continue  # "I don't know why": the person, not the work
        if (
            negated
            and nxt.low.isalpha()
            and language.can_be(nxt.low, "VERB")
            and language.lemma(nxt.low, "VERB") not in _NEGATED_NO_FAULT
        ):
            return True
        if (
            t.low in ("keeps", "keep", "kept")
            and nxt.low.endswith("ing")
            and language.can_be(nxt.low, "VERB")
        ):
            return True
    return False


def _what_misbehaves(toks: list[Tok], where: list[Tok]) -> Tok | None:
    """The noun of ``where`` (the nouns of a reported clause) that names what goes wrong:
    the last of the first run of nouns before the verb that says so ("celery task keeps
    retrying", "sidekiq job for the reminder emails keeps retrying" -> job), else the
    last of the first run of nouns ("why so many queries", "how do i fix the migration");
    None when there is none."""
    if not where:
        return None
    for k, t in enumerate(toks):
        says = (
            t.low in ("not", "cannot", "keeps", "keep", "kept")
            or t.low.endswith("n't")
            or (
                language.can_be(t.low, "VERB")
                and language.lemma(t.low, "VERB") in FAILING_VERBS
                and t not in where
            )
        )
        if says and k:
            # the subject: the first run of nouns before the verb ("sidekiq job for the
            # reminder emails keeps retrying" -> job)
            at = {id(x): n for n, x in enumerate(toks)}
            before = [w for w in where if w.end <= t.start]
            run = before[:1]
            for w in before[1:]:
                if at[id(w)] != at[id(run[-1])] + 1:
                    break
                run.append(w)
            if run:
                return run[-1]
    # no such verb: the first run of nouns ("why so many queries", "14k jobs in default"
    # -> jobs, not where they are)
    at = {id(x): n for n, x in enumerate(toks)}
    run = where[:1]
    for w in where[1:]:
        if at[id(w)] != at[id(run[-1])] + 1:
            break
        run.append(w)
    return run[-1]


def _pasted_lines(text: str, readable: str) -> list[tuple[int, int]]:
    """Spans of the lines of ``text`` pasted without a fence: a line most of whose
    characters ``readable_text`` blanked (a traceback line, code, a log) or a line of an
    interactive shell (">>> Customer.objects.get(pk=88)") or one naming an error type as a
    log does ("WorkerLostError: Worker exited prematurely")."""
    if len(readable) != len(text):
        return []
    out = []
    at = 0
    for line in text.split("\n"):
        a, b = at, at + len(line)
        at = b + 1
        shown = [c for c in line if not c.isspace()]
        if len(shown) < 8:
            continue
        kept = [c for c in readable[a:b] if not c.isspace()]
        if (
            line.lstrip().startswith(">>>")
            or _NAMED_ERROR.search(line)
            or (
                not line.lstrip().startswith(">")  # a quoted e-mail line is no code
                and _CODE_MARK.search(line)
                and len(kept) <= (1 - _BLANKED_SHARE) * len(shown)
            )
        ):
            out.append((a, b))
    return out


def _asks_what_goes_wrong(readable: str, spans: list[tuple[int, int]]) -> tuple[int, int] | None:
    """The clause of the person's own words that asks what goes wrong (``_TROUBLE_QUESTION``),
    or None."""
    for a, b in spans:
        if _TROUBLE_QUESTION.search(readable[a:b]):
            return a, b
    return None


def error_report(message: Any, readable: str) -> Request | None:
    """An opening message that pastes an error with the person's own words around it
    ("every time I load a save I get this: <trace> why is it null??"): a request to
    debug it, though it has no verb of work (or to do what the clause asks with a verb that
    names the work on the problem: "Can you explain this stack trace" is to explain it). Its clause is the nearest before the paste
    that names the problem ("Getting this error when saving a manifest"), else the
    nearest before it of four words or more, else the first after it; what is made is
    the problem as named there."""
    if message.after_assistant:
        return None
    pastes = list(PASTED.finditer(message.text))
    pasted = [m for m in pastes if _ERROR_IN_PASTE.search(m.group(0))]
    spans = [message_span(readable, a, b) for a, b in clauses(readable, names=True)]
    failing: tuple[int, int] | None = None
    if not pasted:
        # no error inside the paste, but the clause right before it says what fails:
        # "xcode archive fails:", "npm install fails on the private package:"
        for m in pastes:
            last = [span for span in spans if span[1] <= m.start()]
            if last and _says_it_fails(readable, *last[-1]):
                pasted, failing = [m], last[-1]
                break
    asked: tuple[int, int] | None = None
    unnamed = False  # no error pasted and no failing clause right before the paste
    if not pasted:
        unnamed = True
        # no error named and no failing clause right before it, but a clause before the
        # paste says what fails ("terraform init works but apply fails with AccessDenied
        # on the state bucket. here's the provider block:"), or the person asks what goes
        # wrong in it ("why is this giving me NaNs after the merge?")
        lines = _pasted_lines(message.text, readable)
        at_paste = pastes[0].start() if pastes else (lines[0][0] if lines else None)
        if at_paste is None:
            return None
        person = [
            span
            for span in spans
            if not any(a <= span[0] < b for a, b in [(m.start(), m.end()) for m in pastes] + lines)
        ]
        failing = next(
            (
                span
                for span in reversed(person)
                if span[1] <= at_paste and _says_it_misbehaves(readable, *span)
            ),
            None,
        )
        # a pasted line without a fence that names an error ("WorkerLostError: …")
        errored = any(_ERROR_IN_PASTE.search(message.text[a:b]) for a, b in lines)
        asked = None if failing else _asks_what_goes_wrong(readable, person)
        if failing is None and asked is None and not errored:
            return None
        at = at_paste
    else:
        at = pasted[0].start()

    def problem(a: int, b: int) -> str:
        lemmas = [language.lemma(t.low, "NOUN") for t in tokens(readable, a, b)]
        return next((w for w in lemmas if w in PROBLEM_NOUNS), "")

    before = [(a, b) for a, b in spans if b <= at]
    long_enough = [(a, b) for a, b in spans if len(tokens(readable, a, b)) >= QUOTE_MIN_WORDS]
    chosen = (
        failing
        or next((span for span in reversed(before) if problem(*span)), None)
        # a clause before the paste that says what is in trouble, short as it may be
        # ("tsc is moaning, no idea why:"): the person's words naming what goes wrong
        or next((span for span in reversed(before) if _says_it_misbehaves(readable, *span)), None)
        # the question itself when it says what goes wrong in four words or more
        or (asked if asked and asked in long_enough else None)
        or next((span for span in reversed(long_enough) if span[1] <= at), None)
        or next((span for span in long_enough if span[0] >= at), None)
        # else a short clause that says what fails: "xcode archive fails:"
        or next((span for span in reversed(before) if _says_it_fails(readable, *span)), None)
    )
    if chosen is None:
        return None
    head = problem(*chosen) or DEFAULT_PROBLEM
    # what fails, in the person's words: "CI is failing on the MSRV job", "release build
    # fails in CI only" -> "ci", "build", "job" (a theme names the errors after one)
    toks = tokens(readable, *chosen)
    where = [
        t
        for k, t in enumerate(toks)
        if _acronym(t.text)
        or (
            # a verb after "does this", "to", or before "up" is no noun ("why does this
            # blow up", "how to fix")
            not {x.low for x in toks[max(0, k - 2) : k]} & AUXILIARIES
            and not (k + 1 < len(toks) and toks[k + 1].low in PARTICLES)
            # "keeps failing", "keeps breaking": an inflected verb before an "-ing" form
            # ("build failing" keeps its noun)
            and not (
                k + 1 < len(toks)
                and toks[k + 1].low.endswith("ing")
                and language.can_be(toks[k + 1].low, "VERB")
                and language.lemma(t.low, "VERB") != t.low
            )
            and t.text.islower()
            and _is_noun_word(t)
            and language.can_be(t.low, "NOUN")
            and not language.can_be(t.low, "ADJ")
            and not t.low.endswith("ing")  # "is failing", "cross compiling"
            and language.lemma(t.low, "NOUN") not in PROBLEM_NOUNS | TIME_MODIFIERS
        )
    ]
    mods = list(dict.fromkeys(_lemma(t) for t in where))
    surface = {head: head, **{_lemma(t): _written(t) for t in where}}
    if unnamed and head == DEFAULT_PROBLEM and chosen == asked:
        # the person names no problem and pastes no error, but asks what goes wrong: what
        # goes wrong is what their question names ("why so many queries" -> queries), the
        # work is to debug it (a clause that says something fails keeps "error": "This
        # integration test fails …" is no request for tests)
        named = _what_misbehaves(toks, where)
        if named is not None:
            head = _lemma(named)
            mods = [m for m in mods if m != head]
            surface[head] = _written(named)
    # the verb the person asks with when the clause names the work on the problem
    # itself ("Can you explain this stack trace", "Explain this one please"): the
    # sentence says what they ask for, and their quotes share its verb
    own = _request_in(message, readable, chosen[0], chosen[1], fresh=True)
    verb = DEBUG_VERB
    if (
        own is not None
        and own.verb in WORK_NAMING_VERBS
        and (not own.head or own.head in PROBLEM_NOUNS)
    ):
        verb = own.verb
    return Request(
        message=message,
        start=chosen[0],
        end=chosen[1],
        verb=verb,
        head=head,
        mods=mods,
        surface=surface,
        reported=True,
    )


def requests_of(message: Any) -> list[Request]:
    from learning.policy import WORK_VERBS, health_word
    from learning.proposers.local.slowness import slowness_request

    # what a message says about someone's health is never evidence: its clauses that say
    # it are not read (a funeral director's "collect Mr Hale from the hospital, and can
    # you draft the notice" still asks for the notice; ``quote_for`` never quotes it)
    about_health = health_word(message.text) is not None
    readable = readable_text(message.text)
    found = []
    report = None if about_health else error_report(message, readable)
    slow = None if about_health else slowness_request(message, readable)
    if slow is not None:
        # slowness said with no error pasted: the thing is to be made faster, not debugged
        report = None
    if report is not None:
        found.append(report)
    opener = not message.after_assistant
    after_opener = False
    specified_until = -1  # the end of the sentence that says what a label asks for
    for k, (a, b) in enumerate(clauses(readable, names=True)):
        if about_health and health_word(readable[a:b]):
            continue
        if a < specified_until and _bare_imperative(tokens(readable, a, b)):
            # "Airflow DAG please: run dbt build every night at 3am": what follows a
            # label's colon says what the thing asked for does, no request of its own
            # ("Another escalation to write up: summarise it …" says what to do with it)
            continue
        # "2 things." / "Two jobs:" announce requests: the clause is none, the next one
        # opens like a first one
        words = {t.low for t in tokens(readable, a, b)}
        if _announces_requests(words) or (words and words <= GREETINGS | {"good", "there"}):
            # a greeting is no request either: "hiya," / "morning!" / "hi there."
            after_opener = after_opener or k == 0 or _announces_requests(words)
            continue
        fresh = (k == 0 and opener) or after_opener or _settles_for(message, readable, a, b)
        req = _request_in(message, readable, a, b, fresh=fresh)
        if req is None and opener and not fresh:
            # a later sentence of an opening message that is a noun phrase and what it
            # is for ("short answers today pls. allotment inspection letter for the 4
            # plots that are overgrown"), or a later clause that is a noun phrase and
            # "please" ("got a new starter monday, welcome email pls")
            req = _request_in(message, readable, a, b, fresh=True)
            if req is not None and not (
                _ends_like_a_request(readable, req)
                or (req.phrases and _opens_sentence_of(readable, a))
            ):
                req = None
        if req is None:
            # a request asked after some context, in the same clause: "Got an email from
            # a family asking about X can you write back", "mum asking why … can u draft"
            toks = tokens(readable, a, b)
            for i in range(1, len(toks) - 2):
                if toks[i].low in MID_CUE_MODALS and toks[i + 1].low in ("you", "u"):
                    req = _request_in(message, readable, toks[i].start, b, fresh=False)
                    break
                # "any chance you could write up …", "wondering if you could draft …"
                if toks[i].low in ("you", "u") and toks[i + 1].low in MID_CUE_MODALS:
                    req = _request_in(message, readable, toks[i + 2].start, b, fresh=False)
                    break
            # in an opening message, a second request joined by "and" to a check of the
            # first: "can you check it over and draft the welcome" (after a reply it may
            # be an edit of the draft at hand)
            for i in range(1, len(toks) - 2):
                if req is not None or message.after_assistant:
                    break
                if toks[i].low == "and" and toks[i + 1].low in WORK_VERBS - EDIT_VERBS:
                    req = _request_in(message, readable, toks[i + 1].start, b, fresh=False)
        if req is not None and _turns_label_into(found, req, readable, a, b):
            # "survey notes from this morning, turn into report": the label names what
            # the made thing is made from; the request is the report of those notes
            label = found.pop()
            req = replace(
                label,
                head=req.head,
                mods=req.mods or label.mods,
                surface={**label.surface, **req.surface},
            )
        if req is not None:
            found.append(req)
            found.extend(req.also)
            if req.verb is None and not req.reported and readable[b:].lstrip().startswith(":"):
                end = _SENTENCE_END.search(readable, b)
                specified_until = end.start() if end else len(readable)
        # "Last thing, the allergen label …", "One more thing: …"
        after_opener = bool(words) and words <= OPENER_CLAUSE_WORDS
    if report is not None and _paste_is_material(report, found[1:], readable):
        found.remove(report)
    if slow is not None:
        # a clause that says the thing is slow asks for no other work: "This report takes
        # ages" is no request for "ages", "bulk import … takes 4 min" none for an import
        found = [r for r in found if r.verb or r.end <= slow.start or r.start >= slow.end]
        found.insert(0, slow)
    if opener:
        found = [_object_named_next(r, readable) for r in found]
    if opener:
        found = [_reply_to_paste(r, readable, found) for r in found]
    return found


def _turns_label_into(found: list[Request], req: Request, readable: str, a: int, b: int) -> bool:
    """Whether the clause ``readable[a:b]`` (read as ``req``) is a verb of turning with
    no object before "into" ("turn into report") right after a verbless label of the
    same message ("survey notes from this morning"): the label is what is turned."""
    toks = tokens(readable, a, b)
    return (
        len(toks) > 2
        and language.lemma(toks[0].low, "VERB") in TURNING_VERBS
        and toks[1].low == "into"
        and bool(found)
        and found[-1].verb is None
        and not found[-1].reported
        and bool(found[-1].head)
        and found[-1].end <= a
        and found[-1].head != req.head
    )


def _object_named_next(req: Request, readable: str) -> Request:
    """A request whose object stands for the things its message lists next ("Can you
    write these up for the October catalogue please, usual style. Lot 112: …") asks for
    things of the kind the first label after it names: a noun, then a number, then a
    colon ("Lot 112:"). Any other request stays as read."""
    from learning.policy import WORK_VERBS

    if req.head or req.reported or (req.verb or "") not in WORK_VERBS:
        return req
    toks = tokens(readable, req.start, req.end)
    if not any(t.low in STAND_IN_OBJECTS for t in toks):
        return req
    for a, b in clauses(readable):
        if a < req.end:
            continue
        label = tokens(readable, a, b)
        if (
            len(label) == 2
            and readable[b : b + 1] == ":"
            and label[1].low.isdigit()
            and _wordlike(label[0].low)
            and language.can_be(label[0].low, "NOUN")
        ):
            noun = _lemma(label[0])
            return replace(req, head=noun, surface={**req.surface, noun: _written(label[0])})
    return req


def _reply_to_paste(req: Request, readable: str, found: list[Request]) -> Request:
    """A reply asked for over a quoted message is a reply to what that message is, as
    the words that introduce it name it: "answer this Google review: '…'" and "Another
    review to answer: '…'" are replies to a review, as "Reply to this review" is; a bare
    reply ("Can you write a gracious reply?", "Reply for us?") answers the noun that
    ends the clause whose colon opens the quote ("Someone's left us a three-star review:
    '…'", "1-star review on the app store: '…'"), when no request of its own is read
    there."""
    if req.reported:
        return req
    if req.verb in ANSWER_VERBS and req.head and req.head not in MESSAGE_HEADS:
        if readable == req.message.text and not set(readable) & QUOTE_MARKS:
            return req  # nothing pasted: "answer customer questions" is work of its own
        return replace(
            req,
            verb=None,
            head="reply",
            mods=[],
            phrases=[("to", req.head, (*req.mods, req.head)), *req.phrases],
            surface={**req.surface, "reply": "reply"},
        )
    if req.head != "reply" or any(prep == "to" for prep, _, _ in req.phrases):
        return req
    text = req.message.text
    best: tuple[str, tuple[int, int]] | None = None
    for a, b in clauses(readable):
        span = message_span(readable, a, b)
        if span[0] <= req.start < span[1] or any(
            o.start < span[1] and span[0] < o.end for o in found
        ):
            continue  # the request's own clause, or a request of its own ("Complaint reply:")
        colon = readable[b:].lstrip(" ")
        if (
            not colon.startswith(":")
            or text[len(readable) - len(colon) + 1 :].lstrip()[:1] not in QUOTE_OPENERS
        ):
            continue  # only a clause whose colon opens a quoted message
        noun = _introduced_noun(tokens(readable, a, b))
        if noun and (best is None or abs(span[0] - req.start) < abs(best[1][0] - req.start)):
            best = (noun, span)
    if best is None:
        return req
    noun, span = best
    return replace(req, phrases=[*req.phrases, ("to", noun, (noun,))], topic_span=span)


COPULAS = frozenset(["is", "are", "was", "were"])

# the marks that set off a quoted message or introduce a pasted one
QUOTE_MARKS = frozenset(':"\u201c\u00ab')

# the marks a quoted message opens with
QUOTE_OPENERS = frozenset("\"'\u201c\u2018\u00ab")


def _introduced_noun(toks: list[Tok]) -> str | None:
    """The noun that names what a clause introduces: the last word before its first
    preposition ("1-star review on the app store" -> "review"), a common noun; none when
    a preposition comes first ("got this through the website form") or a copula follows."""
    stop = next((k for k, t in enumerate(toks) if k and t.low in PREPOSITIONS), len(toks))
    if not stop or stop > len(toks):
        return None
    last = toks[stop - 1]
    if any(t.low in COPULAS for t in toks[stop:]):
        return None  # "2 visits for mice is £120:" says what something is, names no message
    if _proper(last, toks[0]) or not last.text.isalpha() or not language.can_be(last.low, "NOUN"):
        return None
    noun = language.lemma(last.low, "NOUN")
    if noun in WHEN_WORDS | TIME_MODIFIERS | META_HEADS | STOP_WORDS | MESSAGE_HEADS:
        return None
    return noun


def _bare_imperative(toks: list[Tok]) -> bool:
    """Whether a clause opens on a verb with no cue before it and no pronoun pointing at
    what was named before it ("run dbt build every night", "then email me"; not "can u
    draft a reply", "summarise it for engineering")."""
    while toks and toks[0].low in ("and", "then"):
        toks = toks[1:]
    return (
        len(toks) > 1
        and toks[0].low.isalpha()
        and language.can_be(toks[0].low, "VERB")
        and toks[0].low not in AUXILIARIES
        and toks[0].low not in MID_CUE_MODALS
        and toks[1].low not in DRAFT_PRONOUNS
    )


def _settles_for(message: Any, readable: str, a: int, b: int) -> bool:
    """Whether the clause, written after a reply, asks for a new piece of work in place
    of what the reply turned down or left out: a noun phrase closed by "then" ("fair.
    xUnit tests for the reminder worker then", "Instagram and Facebook post then: …").
    It reads like a first request (after a reply a clause is otherwise an edit of the
    draft at hand); ``counts_as_request`` still asks that others ask for that work too."""
    if not message.after_assistant:
        return False
    toks = tokens(readable, a, b)
    return len(toks) >= 3 and toks[-1].low == "then" and toks[0].low not in EDIT_VERBS


def _paste_is_material(report: Request, others: list[Request], readable: str) -> bool:
    """Whether what the message pastes is the material of other work it asks for, not
    an error to debug: the person's words name no problem and ask with a verb of work
    for something made ("Write JUnit tests for this class please:" over a class that
    throws an exception)."""
    from learning.policy import WORK_VERBS

    named = {language.lemma(t.low, "NOUN") for t in tokens(readable)} & PROBLEM_NOUNS
    return not named and any(
        r.verb in WORK_VERBS and r.head and r.head not in PROBLEM_NOUNS for r in others
    )


# "2 things", "two jobs", "3 quick ones": a count of the requests that follow
ANNOUNCED = frozenset(["thing", "things", "job", "jobs", "one", "ones", "bit", "bits"])


COUNT_WORDS = frozenset(["two", "three", "four", "couple", "few", "of", "a", "quick", "more"])


def _announces_requests(words: set[str]) -> bool:
    counted = {w for w in words if w.isdigit() or w in COUNT_WORDS}
    return bool(counted) and bool(words & ANNOUNCED) and words <= counted | ANNOUNCED


def _opens_sentence_of(readable: str, a: int) -> bool:
    """Whether the clause at ``a`` begins a sentence (after a full stop, a question or
    exclamation mark or a line break), not a part of a list or of a sentence."""
    before = readable[:a].rstrip(" \t")
    return not before or before[-1] in ".!?\n"


def _ends_like_a_request(readable: str, req: Request) -> bool:
    """A verbless request that ends on "please", "needed" … ("Rota for next week please")."""
    last = tokens(readable, req.start, req.end)
    return bool(last) and last[-1].low in REQUEST_TAILS


def _message_nouns(message: Any) -> set[str]:
    """Lemmas of the nouns of a message's readable text (names left out: a capitalised
    word that does not open a sentence or a clause), but for a noun the message says is
    absent (``_negated_noun``: "no scaffold needed"): what the work is without is no
    topic of it."""
    readable = readable_text(message.text)
    toks = tokens(readable)
    out = set()
    for k, t in enumerate(toks):
        before = readable[: t.start].rstrip()
        opens = not before or before[-1] in ".!?:;\n"
        if t.text[:1].isupper() and not opens:
            continue
        if _negated_noun(readable, toks, k):
            continue
        if _is_noun_word(t) and (language.can_be(t.low, "NOUN") or _plural_gerund(t.low)):
            out.add(_lemma(t))
    return out


def _negated_noun(readable: str, toks: list[Tok], k: int) -> bool:
    """Whether the message says the thing ``toks[k]`` names is absent or not wanted: a
    negation right before it ("no scaffold needed", "without a battery", "not the
    battery"), or "not" and a participle right after it ("scaffold not needed")."""
    j = k - 1
    if (
        j >= 0
        and toks[j].low in ("a", "an", "the", "any")
        and readable[toks[j].end : toks[k].start] == " "
    ):
        j -= 1  # "without a battery", "not the battery"
    if j >= 0 and toks[j].low in NEGATIONS and readable[toks[j].end : toks[j + 1].start] == " ":
        return True
    # "scaffold not needed", "battery not included"; "inverter not working" is about it
    return (
        k + 2 < len(toks)
        and toks[k + 1].low == "not"
        and readable[toks[k].end : toks[k + 2].start] == " not "
        and toks[k + 2].low.endswith("ed")
        and language.can_be(toks[k + 2].low, "VERB")
    )


def _plural_gerund(word: str) -> bool:
    """A verb's "-ing" form made a plural noun ("viewings", "fittings"): a noun, though
    the lexicon knows the "-ing" form only as a verb."""
    return word.endswith("ings") and language.can_be(word[:-1], "VERB")
