"""When a text contradicts a guardrail: decided here, by the layer that owns guardrails,
for every writer of persona fields (host, page, CLI, import, revert, learning) and for
learning's proposals.

``guardrail_contradiction`` is the one rule every write meets. It reads a guardrail as
an act it forbids ("Never *promise* a payment amount"), or an act that waits for a
condition ("Quote the kiln temperature before *giving a firing time*", "Never quote a
final price before the design is agreed"), and refuses a text, sentence by sentence,
that
- does the forbidden act (the same verb or a close synonym, not negated) on most of
  what the guardrail guards ("Always promise the payment is guaranteed."),
- does a conditional act and skips the condition ("… without quoting the kiln
  temperature", "… before the design is agreed"), or
- carves an exception out of the guardrail ("… unless they are a regular").
It is narrow on purpose: honest text that only shares words with a guardrail ("Tracks
payment amounts owed by each client.", "Never promises a payment amount.") passes.

Standing rules that learning proposes are held to a stricter test as well: an
instruction drawn by a machine from conversations should not even come close to a
guardrail (``rule_overlap_conflict``, ``rule_tells_what_a_guardrail_guards``); a person
reviews each one.

Each function returns ``None`` or a reason clause that follows the name of what was
checked ("The goals " + reason, "The rule " + reason).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from safety.text import content_words, normalize, stem, word_set, words


def words_re(phrases: str) -> re.Pattern[str]:
    """Comma-separated phrases (regex allowed), matched as whole words on normalised text."""
    alternatives = [" ".join(p.split()) for p in phrases.split(",") if p.strip()]
    return re.compile(r"(?<![a-z0-9])(?:" + "|".join(alternatives) + r")(?![a-z0-9])")


NEGATION = words_re(
    """
    never, not, no, dont, doesnt, cannot, cant, wont, nobody, nothing, neither, nor,
    avoid, refuse, refuses, without
    """
)
EXCEPTION_WORDS = words_re(
    """
    unless, except, excepting, except when, except if, even if, even when, even though,
    but if, other than, apart from, save for, with the exception, only if, as long as
    """
)
# telling, sending or promising something to someone
DISCLOSE_WORDS = words_re(
    r"""
    tell(?:s|ing)?, told, say(?:s|ing)?, said, let (?:them|him|her|the customer|customers|people|everyone)
    know, inform(?:s|ing)?, send(?:s|ing)?, sent, shares?, sharing, give(?:s|n)?, giving, gave,
    quot(?:e|es|ing), confirm(?:s|ing)?, reveal(?:s|ing)?, disclos(?:e|es|ing), mention(?:s|ing)?,
    promis(?:e|es|ing), guarantee(?:s|ing)?, assur(?:e|es|ing), offer(?:s|ing)?, state(?:s)?,
    put (?:it|them|the \w+)? ?in writing, forward(?:s|ing)?, email(?:s|ing)?, post(?:s|ing)?,
    publish(?:es|ing)?, pass on, hand over, give out
    """
)

GUARDRAIL_OVERLAP = 0.6  # "shares most of a guardrail's words" (the stricter rule test)


def positive(pattern: re.Pattern[str], norm: str) -> re.Match[str] | None:
    """The first match of ``pattern`` in ``norm`` not preceded by a negation."""
    for m in pattern.finditer(norm):
        if not NEGATION.search(norm[: m.start()]):
            return m
    return None


def negated(norm: str) -> bool:
    return len(NEGATION.findall(norm)) % 2 == 1


def _first(pattern: re.Pattern[str], norm: str) -> str | None:
    m = pattern.search(norm)
    return m.group(0) if m else None


# --- reading a guardrail

_GUARD_NEGATION = word_set("never not dont no cannot cant nobody")
# where the thing a guardrail protects ends: its condition or the place it goes
_GUARD_STOP = word_set(
    """before until unless without once after except on in at by from with for into beyond
    about while if during than"""
)
_GUARD_CONDITION = word_set("before until unless once after only without except")
# words between a negation and its verb ("do not ever promise")
_VERB_FILLER = word_set("ever to be at all")

# "tell customers …": who is told is no part of what a guardrail protects
_RECIPIENT_STEMS = frozenset(
    stem(w)
    for w in [
        "customer",
        "customers",
        "client",
        "clients",
        "user",
        "users",
        "guest",
        "guests",
        "people",
        "person",
        "anyone",
        "someone",
        "everyone",
        "caller",
        "callers",
        "member",
        "members",
        "team",
        "public",
    ]
)
# determiners that name no thing: "another customer's order history" guards the history
_NOT_GUARDED = _RECIPIENT_STEMS | {stem("another")}
_DISCLOSE_STEMS = frozenset(
    stem(w)
    for w in [
        "tell",
        "told",
        "say",
        "said",
        "let",
        "know",
        "inform",
        "send",
        "sent",
        "share",
        "give",
        "given",
        "gave",
        "quote",
        "confirm",
        "reveal",
        "disclose",
        "mention",
        "promise",
        "guarantee",
        "assure",
        "offer",
        "state",
        "forward",
        "email",
        "post",
        "publish",
        "pass",
        "hand",
        "out",
        "writing",
    ]
)

# close synonyms: a text that "guarantees" does what a guardrail forbids to "promise"
_VERB_FAMILIES = tuple(
    frozenset(stem(w) for w in family.split())
    for family in (
        "promise promised guarantee guaranteed assure pledge vouch",
        "disclose reveal revealed share shared leak divulge expose tell told say said inform "
        "mention",
        "send sent forward email post publish upload export",
        "give gave given quote offer provide",
    )
)
# a verb after one of these is a noun ("every promise", "the quote")
_DETERMINERS = word_set("a an the every each any this that their its our your his her my")
# a condition skipped: "… without quoting the temperature", "… before the design is agreed"
_SKIP_WORDS = word_set("without before regardless ignoring")
_TEXT_NEGATION = word_set(
    "never not no dont doesnt cannot cant wont without refuse refuses refusing avoid avoids"
)
_SEGMENT = re.compile(r"[.!?;:\n]+")


def _family(verb_stem: str) -> frozenset[str]:
    for family in _VERB_FAMILIES:
        if verb_stem in family:
            return family
    return frozenset({verb_stem})


@dataclass(frozen=True)
class _Guard:
    """What a guardrail forbids: an act (a verb and its synonyms) on a thing."""

    verbs: frozenset[str]
    guarded: frozenset[str]
    #: words that narrow the act ("with the lid open"); a text must share one
    qualifier: frozenset[str]
    #: the condition's words when the act waits for one, else None
    condition: frozenset[str] | None


def _read_guardrail(guardrail: str) -> _Guard | None:
    ws = words(guardrail)
    neg = next((i for i, w in enumerate(ws) if w in _GUARD_NEGATION), None)
    if neg is not None:
        v = neg + 1
        while v < len(ws) and ws[v] in _VERB_FILLER:
            v += 1
        if v >= len(ws):
            return None
        verb, rest = ws[v], ws[v + 1 :]
        stop = next((i for i, w in enumerate(rest) if w in _GUARD_STOP), len(rest))
        tail = rest[stop:]
        cond = next((i for i, w in enumerate(tail) if w in _GUARD_CONDITION), None)
        condition = None if cond is None else frozenset(content_words(" ".join(tail[cond + 1 :])))
        qualifier = frozenset() if cond is not None else frozenset(content_words(" ".join(tail)))
        thing = rest[:stop]
    else:
        # "Quote the kiln temperature before giving a firing time": the act after the
        # condition word waits for what comes before it
        cond = next((i for i, w in enumerate(ws) if w in _GUARD_CONDITION), None)
        if not cond or cond + 1 >= len(ws):
            return None
        verb, thing = ws[cond + 1], ws[cond + 2 :]
        condition = frozenset(content_words(" ".join(ws[:cond])))
        qualifier = frozenset()
    verbs = _family(stem(verb))
    guarded = frozenset(content_words(" ".join(thing)) - _NOT_GUARDED - verbs)
    if not guarded:
        return None
    return _Guard(verbs=verbs, guarded=guarded, qualifier=qualifier, condition=condition)


def _against(segment: str, guard: _Guard) -> tuple[str, str] | None:
    """How one sentence or clause goes against ``guard``: ("does", verb), ("skips",
    word) or ("carves", exception word); None when it does not."""
    ws = words(segment)
    stems = [stem(w) for w in ws]
    for i, s in enumerate(stems):
        if s not in guard.verbs or (i and ws[i - 1] in _DETERMINERS):
            continue
        after = content_words(" ".join(ws[i + 1 :]))
        shared = after & guard.guarded
        if 2 * len(shared) < len(guard.guarded) or not shared:
            continue
        if guard.qualifier and not after & guard.qualifier:
            continue
        carve = _first(EXCEPTION_WORDS, " ".join(ws))
        if any(w in _TEXT_NEGATION for w in ws[:i]):
            # it forbids the act too; only an exception carved out of it goes against
            if carve:
                return ("carves", carve)
            continue
        if guard.condition is None:
            return ("does", ws[i])
        if carve:
            return ("carves", carve)
        for j, w in enumerate(ws):
            if w in _SKIP_WORDS and content_words(" ".join(ws[j + 1 :])) & guard.condition:
                return ("skips", w)
    return None


def guardrail_contradiction(text: str, guardrails: list[str]) -> str | None:
    """Why ``text`` contradicts one of ``guardrails``, or None (see the module docstring).

    The reason is a clause naming the guardrail by number and text, to follow the name
    of what was checked: ``"The goals " + reason``."""
    if not text or not guardrails:
        return None
    segments = [s for s in _SEGMENT.split(text) if s.strip()]
    for k, guardrail in enumerate(guardrails, start=1):
        guard = _read_guardrail(guardrail)
        if guard is None:
            continue
        for segment in segments:
            found = _against(segment, guard)
            if found is None:
                continue
            how, word = found
            clause = " ".join(segment.split())
            if how == "carves":
                return f'carves an exception ("{word}") out of guardrail {k} ("{guardrail}"): "{clause}"'
            if how == "skips":
                return (
                    f'goes against guardrail {k} ("{guardrail}"): "{clause}" does what the '
                    f'guardrail allows only under its condition ("{word}")'
                )
            return (
                f'goes against guardrail {k} ("{guardrail}"): "{clause}" does what the '
                f'guardrail forbids ("{word}")'
            )
    return None


# --- the stricter test for standing rules learning proposes


def _overlap(a: set[str], b: set[str]) -> float:
    """Share of ``b``'s content words that ``a`` holds."""
    return len(a & b) / len(b) if b else 0.0


def rule_overlap_conflict(rule: str, guardrails: list[str]) -> str | None:
    """A rule that shares most of a guardrail's words and says the opposite (one is
    negated, the other not) or carves an exception out of it."""
    norm = normalize(rule).text
    mine = content_words(rule)
    rule_negated = negated(norm)
    carve = _first(EXCEPTION_WORDS, norm)
    for k, guardrail in enumerate(guardrails, start=1):
        if _overlap(mine, content_words(guardrail)) < GUARDRAIL_OVERLAP:
            continue
        if carve:
            return f'carves an exception ("{carve}") out of guardrail {k}: "{guardrail}"'
        if rule_negated != negated(normalize(guardrail).text):
            return f'goes against guardrail {k}: "{guardrail}"'
    return None


def rule_tells_what_a_guardrail_guards(rule: str, guardrails: list[str]) -> str | None:
    """A rule that tells the assistant to tell, send, share, give, quote, confirm,
    promise or reveal something a guardrail forbids or makes conditional."""
    norm = normalize(rule).text
    told = positive(DISCLOSE_WORDS, norm)
    if not told:
        return None
    ignore = _DISCLOSE_STEMS | _RECIPIENT_STEMS
    mine = content_words(norm) - ignore
    for k, guardrail in enumerate(guardrails, start=1):
        guarded = _guarded(guardrail)
        if guarded is None:
            continue  # the guardrail neither forbids nor sets a condition
        if mine & (guarded - ignore):
            return (
                f"goes against guardrail {k}: it tells the assistant to "
                f'"{told.group(0)}" what the guardrail forbids or allows only under a '
                f'condition: "{guardrail}"'
            )
    return None


def _guarded(guardrail: str) -> set[str] | None:
    """The content words of what ``guardrail`` forbids or allows only under a condition:
    the object of its negated verb ("Never quote *a final price* for a cake before …",
    "Never tell *the user to run migrations or data fixes* on …"), or, in a guardrail
    with a condition and no negation, the act that waits ("Quote the temperature before
    *giving a firing time*"). None when it neither forbids nor sets a condition."""
    ws = words(guardrail)
    neg = next((i for i, w in enumerate(ws) if w in _GUARD_NEGATION), None)
    if neg is not None:
        start = neg + 2  # the word after the negated verb
        stop = next((i for i in range(start, len(ws)) if ws[i] in _GUARD_STOP), len(ws))
        return content_words(" ".join(ws[start:stop]))
    cond = next((i for i, w in enumerate(ws) if w in _GUARD_CONDITION), None)
    if cond is None:
        return None
    return content_words(" ".join(ws[cond + 1 :]))
