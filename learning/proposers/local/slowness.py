"""Slowness said of a thing, read as a request to make it faster.

A person who tells a coding assistant that something is slow ("arrears report is slow as
hell", "takes 40 min, way too slow. can we speed it up?", "is the shared dict faster than
the cache?") asks for it to be made faster, though no clause asks with a verb of work.
"""

from __future__ import annotations

from typing import Any

from learning import language
from learning.proposers.local.requests import (
    _ERROR_IN_PASTE,
    _NAMED_ERROR,
    _PERSONS,
    PASTED,
    Request,
    _acronym,
    _lemma,
    _written,
    message_span,
)
from learning.proposers.local.tokens import _SENTENCE_END, Tok, _is_noun_word, clauses, tokens
from learning.proposers.local.words import (
    DEFAULT_SLOW_THING,
    DETERMINERS,
    FASTER_WORDS,
    LEAD_FILLERS,
    LONG_TIMES,
    PEOPLE_WORDS,
    PRONOUN_WORDS,
    SLOW_WORDS,
    SPEED_VERB,
    TIME_MODIFIERS,
    WANTING_VERBS,
    WHEN_WORDS,
)
from safety.text import STOP_WORDS

# the verb a thing "takes" long with: "takes ages", "took forever", "taking too long"
_TAKE = "take"

# how many words may stand between "take" and how long ("takes way too long")
_TAKE_REACH = 3


def _slow_mark(toks: list[Tok], question: bool) -> tuple[int, str] | None:
    """Where the clause ``toks`` (a question when ``question``) says something is slow now,
    and how: ``"slow"`` (a word of ``SLOW_WORDS`` said of a thing after its link, "too"
    or in a question: "the report is slow", "it's crawling", "way too slow", "why so
    slow?"; not before a noun or an "-ing" form it describes, "slow cooking", nor "slow
    down", nor a past "was slow", nor "keep it slow"), ``"faster"`` (the comparative
    asked for: in a question or after a verb of wanting it, "can we make this faster?",
    "want the upload faster"; not "the queue drains faster", a result told), ``"speed"``
    ("speed it up") or ``"take"`` ("takes ages"). None when the clause says none, or
    says it of a person ("sorry if I'm slow today", "so I'll be slow on reviews")."""
    for k, t in enumerate(toks):
        nxt = toks[k + 1] if k + 1 < len(toks) else None
        word = t.low
        how = ""
        if word in SLOW_WORDS or (
            word.endswith("ing") and language.lemma(word, "VERB") in SLOW_WORDS
        ):
            if nxt is not None and (
                nxt.low == "down" or nxt.low.endswith("ing") or _is_noun_word(nxt)
            ):
                continue
            if not _linked_now(toks, k, question):
                continue
            how = "slow"
        elif word in FASTER_WORDS:
            if not (question or any(_wants(x) for x in toks[:k])):
                continue
            how = "faster"
        elif language.lemma(word, "VERB") == "speed" and any(
            x.low == "up" for x in toks[k + 1 : k + 3]
        ):
            how = "speed"
        elif language.lemma(word, "VERB") == _TAKE and any(
            x.low in LONG_TIMES for x in toks[k + 1 : k + 1 + _TAKE_REACH]
        ):
            how = "take"
        if not how:
            continue
        if _said_of_person(toks, k, how):
            return None  # the person (or people) is slow, not the work
        return k, how
    return None


# the present links a thing is said slow with ("is", "it's", "gets"), and the words of
# degree between ("so", "way too", "really", "being")
_LINKS = frozenset(["is", "are", "am", "get", "gets", "getting", "keeps"])
_DEGREE = frozenset(
    [
        "so",
        "too",
        "way",
        "really",
        "very",
        "just",
        "still",
        "now",
        "quite",
        "pretty",
        "super",
        "bit",
        "little",
        "a",
        "being",
    ]
)
_LINK_AND_DEGREE = _LINKS | _DEGREE | frozenset(["was", "were", "be", "been"])


def _linked_now(toks: list[Tok], k: int, question: bool) -> bool:
    """Whether the slowness word at ``k`` is said of a thing now: after a present link
    ("is slow", "it's crawling"), after "too" ("way too slow"), or in a question ("why
    so slow?"); not after a past one ("was slow") or an object ("keep it slow")."""
    j = k - 1
    degree = set()
    while j >= 0 and toks[j].low in _DEGREE:
        degree.add(toks[j].low)
        j -= 1
    if j >= 0 and (toks[j].low in _LINKS or toks[j].low.endswith(("'s", "\u2019s"))):
        return True
    if j >= 0 and toks[j].low in ("was", "were", "be", "been"):
        return False
    return "too" in degree or question


def _said_of_person(toks: list[Tok], k: int, how: str) -> bool:
    """Whether the slowness at ``k`` is said of a person: the word before it, past its
    link and degree, is a personal pronoun ("sorry if I'm slow today", "so I'll be slow
    on reviews") or a name with its link ("Femi's too slow"), or the subject of the
    clause is people ("the team is slow"; not for what is wanted faster: "Pricing team
    want the upload faster")."""
    j = k - 1
    while j >= 0 and toks[j].low in _LINK_AND_DEGREE:
        j -= 1
    if j >= 0:
        before = toks[j]
        root = before.low.replace("\u2019", "'").split("'")[0]
        if before.low in _PERSONS or root in _PRONOUNS:
            return True
        if (
            before.low.endswith(("'s", "\u2019s"))
            and before.text[:1].isupper()
            and root not in STOP_WORDS
        ):
            return True  # a name and its link: "Femi's too slow"
    if how == "faster":
        return j >= 0 and toks[j].low in PEOPLE_WORDS
    subject = _subject(toks, k)
    return subject is not None and language.lemma(subject.low, "NOUN") in PEOPLE_WORDS


def _wants(tok: Tok) -> bool:
    """A verb that asks for the comparative: "want(s)", or "make"/"get"/"need" in the
    base form ("can we make it faster", not "makes the day go quicker", a result told)."""
    lemma = language.lemma(tok.low, "VERB")
    return lemma in WANTING_VERBS and (tok.low == lemma or lemma == "want")


# the personal pronouns a contraction opens with ("I'll", "we've", "they'd")
_PRONOUNS = frozenset(["i", "we", "you", "he", "she", "they"])


def _thing_word(tok: Tok, before: Tok | None) -> bool:
    """Whether ``tok`` may name the thing said slow: a noun (or a word no lexicon knows,
    a name of a thing written small, or an acronym), not a name, a count's unit ("40
    min", "80k tickets"), a time ("this week") or a person."""
    if tok.qualified:
        return False  # a name in code ("ngx.shared.DICT"): what does the work, not the work
    if _acronym(tok.text):
        return True
    if not tok.text.islower() or not _is_noun_word(tok):
        return False
    if not (language.can_be(tok.low, "NOUN") or not language.is_english_word(tok.low)):
        return False
    if before is not None and any(c.isdigit() for c in before.low):
        return False
    noun = language.lemma(tok.low, "NOUN")
    return noun not in WHEN_WORDS | TIME_MODIFIERS | PEOPLE_WORDS | LONG_TIMES | SLOW_WORDS


def _subject(toks: list[Tok], end: int) -> Tok | None:
    """The last noun of the noun phrase that opens ``toks[:end]`` (its subject: "arrears
    report is slow", "this loop posts rent charges …"), past determiners; a verb in its
    "-s" form after a singular noun ends it ("loop posts")."""
    i = 0
    while i < end and (
        toks[i].low in DETERMINERS or toks[i].low in LEAD_FILLERS or toks[i].low.endswith("'s")
    ):
        i += 1
    run: list[Tok] = []
    while i < end:
        tok = toks[i]
        if language.can_be(tok.low, "VERB") and tok.low.endswith("s"):
            third = language.third_person(language.lemma(tok.low, "VERB")) == tok.low
            nxt = toks[i + 1] if i + 1 < len(toks) else None
            opens = not run and not (nxt is not None and _thing_word(nxt, tok))
            if third and (opens or (run and not run[-1].low.endswith("s"))):
                break  # "this takes ages", "loop posts rent charges": the verb
        if not _thing_word(tok, toks[i - 1] if i else None):
            break
        run.append(tok)
        i += 1
    if i < len(toks) and toks[i].low in _DEGREE:
        return None  # "way too slow": how much, no subject
    return run[-1] if run else None


def _slow_thing(toks: list[Tok], k: int, how: str) -> Tok | None:
    """What the clause ``toks`` says is slow, its mark at ``k``: the noun right before
    "faster" ("want the upload faster"), the object after "speed … up" ("speed up the
    import"), else the subject of the clause ("the credit check report is slow"); None for
    a pronoun ("can we make this faster?", "it's crawling again") or no noun."""
    if how == "faster":
        if k + 1 < len(toks) and toks[k + 1].low == "than":
            return None  # "is X faster than Y?": two ways of doing the work compared
        before = toks[k - 1] if k else None
        if before is not None and _thing_word(before, toks[k - 2] if k > 1 else None):
            return before
        return None
    if how == "speed":
        at = next(j for j in range(k + 1, len(toks)) if toks[j].low == "up") + 1
        if at < len(toks) and toks[at].low not in PRONOUN_WORDS:
            found = _subject(toks[at:], len(toks) - at)
            if found is not None:
                return found
    return _subject(toks, k)


def slowness_request(message: Any, readable: str) -> Request | None:
    """An opening message that says something is slow, with no error pasted: a request
    to speed up the thing said slow (``SPEED_VERB``; the thing ``DEFAULT_SLOW_THING`` when
    the person names none). Its clause is the first that says so; a clause before it in
    the same sentence names the thing when the slow clause does not ("this loop posts
    rent charges and takes 40 min, way too slow") and is quoted with it."""
    if message.after_assistant:
        return None
    if any(_ERROR_IN_PASTE.search(m.group(0)) for m in PASTED.finditer(message.text)):
        return None  # an error pasted: the error is the problem (``error_report``)
    if _NAMED_ERROR.search(message.text):
        return None
    spans = [message_span(readable, a, b) for a, b in clauses(readable, names=True)]
    for n, (a, b) in enumerate(spans):
        toks = tokens(readable, a, b)
        mark = _slow_mark(toks, readable[b : b + 1] == "?")
        if mark is None:
            continue
        k, how = mark
        thing = _slow_thing(toks, k, how)
        start = a
        if thing is None and n and not _SENTENCE_END.search(readable, spans[n - 1][1], a):
            # "this loop … takes 40 min, way too slow": the clause before names it
            earlier = tokens(readable, *spans[n - 1])
            thing = _subject(earlier, len(earlier))
            if thing is not None:
                start = spans[n - 1][0]
        head = _lemma(thing) if thing is not None else DEFAULT_SLOW_THING
        written = _written(thing) if thing is not None else DEFAULT_SLOW_THING
        return Request(
            message=message,
            start=start,
            end=b,
            verb=SPEED_VERB,
            head=head,
            surface={head: written},
        )
    return None
