"""Whom a statement is about, and whether a question is about the person themself.

A person's memory holds statements about them ("Keeps three hens on the allotment", the
subject left out) and statements about someone in their life ("His daughter Lotte is a
vet", "Poppy swims in the school gala on Thursday", "Her boss is Beatriz Orozco"). For a
question about the person ("Does Bernard have a greyhound?") the second kind is a
near-twin that answers for someone else: the daughter the vet is near a greyhound, the
person's hens are not. Both readings are grammar and the person's own memory (which
words it writes as names), no list of relations or of people.
"""

from __future__ import annotations

import re

from memory.time_facet import MONTHS, WEEKDAYS
from safety.text import STOP_WORDS

_WORD = re.compile(r"[^\W\d_]+(?:['\u2019][^\W\d_]+)*")
#: the possessive determiners that open a statement about someone of the person's
#: ("Her father Declan ...", "His boss is ..."); grammar, a closed class
POSSESSIVES = frozenset({"her", "his", "their", "my", "our", "your"})
#: how far after the possessive a name may stand and still name the one it introduces
#: ("Her next-door neighbour, Mrs Dunmore": three words)
NOUN_PHRASE_WORDS = 4
_COPULA = frozenset({"is", "are", "was", "were"})
#: words that say what the person is called, not who someone else is ("Her name is ...")
_NAMING = frozenset({"name", "names", "nickname", "surname"})
#: a statement that goes on to tell what the two do together is about the person too
#: ("His older brother Kees lives in Utrecht and they play correspondence chess")
_TOGETHER = re.compile(r"\b(?:and (?:they|we)|together|each other|one another)\b", re.IGNORECASE)
#: a question for a person ("Who is her boss?") asks for someone else by design
_WHO_LED = re.compile(r"^\W*(?:who|whom|whose)\b", re.IGNORECASE)
#: a possessive in the question puts its noun, not the person, in question ("What does
#: the person's husband do?", "Where does his mother live?")
_POSSESSIVE_IN = re.compile(
    r"\b(?:person|[A-Z][^\W\d_]*)['\u2019]s\b|\b(?i:her|his|their)\s+[^\W\d_]"
)


def proper_words(statements: list[str]) -> frozenset[str]:
    """The words a person's memory writes as names: capitalised where a sentence does not
    begin (in lower case; "Poppy" in "... with Poppy", "Severn" in "for the Severn Squall
    roller derby team")."""
    found: set[str] = set()
    for text in statements:
        for w in _WORD.findall(text)[1:]:
            if w[0].isupper() and len(w) > 1:
                found.add(_bare(w))
    return frozenset(found - STOP_WORDS - set(WEEKDAYS) - set(MONTHS))


def _bare(word: str) -> str:
    return re.sub(r"['\u2019]s$", "", word.lower())


def other_subject(text: str, proper: frozenset[str], own: frozenset[str]) -> frozenset[str]:
    """The words naming whom ``text`` is about when that is someone other than the person
    (the relation and the name: {"daughter", "lotte"}); empty for a statement about the
    person. Someone else is the subject when the statement opens with a possessive and a
    noun phrase that a name follows or is equated with ("His daughter Lotte ...", "Her
    boss is Beatriz Orozco"; not "Her name is ..." nor "Her favourite food is curry"), or
    with a word the memory writes as a name that is not one of the person's ``own``
    ("Poppy swims ..."), and does not go on to what the two do together ("... and they
    play chess")."""
    ws = _WORD.findall(text)
    if not ws or _TOGETHER.search(text):
        return frozenset()
    if ws[0].lower() in POSSESSIVES:
        named = _someone_named(ws, own)
        return frozenset() if named is None else frozenset([*named[0], _bare(named[1])])
    bare = _bare(ws[0])
    if ws[0][0].isupper() and bare in proper and bare not in own and bare not in STOP_WORDS:
        return frozenset({bare})
    return frozenset()


def about_the_person(question: str) -> bool:
    """Whether a question (the person's names already replaced by a stand-in) asks about
    the person themself: not a question for a person ("Who is ...?") and no possessive
    putting someone of theirs in question ("the person's husband", "his mother")."""
    lead = _WORD.search(question)
    rest = question[lead.end() :] if lead else question  # "What's on ...": not a possessive
    return _WHO_LED.match(question) is None and _POSSESSIVE_IN.search(rest) is None


def _someone_named(ws: list[str], own: frozenset[str]) -> tuple[list[str], str] | None:
    """For the words of a statement that opens with a possessive, the noun phrase after it
    and the name it is given, followed by it or equated with it ("His daughter Lotte ...":
    (["daughter"], "Lotte"); "Her boss is Beatriz Orozco": (["boss"], "Beatriz")); None
    when no name of someone else follows ("Her name is ...", "Her favourite food is ...")."""
    phrase: list[str] = []
    for k, w in enumerate(ws[1 : 1 + NOUN_PHRASE_WORDS + 1], start=1):
        low = w.lower()
        if low in _COPULA:
            after = ws[k + 1] if k + 1 < len(ws) else ""
            named = after[:1].isupper() and _bare(after) not in own
            if named and phrase and not _NAMING & set(phrase):
                return phrase, after
            return None
        if w[0].isupper():
            if not phrase or _NAMING & set(phrase) or _bare(w) in own:
                return None
            return phrase, w
        phrase.append(low)
    return None


#: a possessive of the person's in a question (their names already replaced by a stand-in:
#: "the person's hawk", "her farrier's van", "his Jawa motorbike")
_OWN_POSSESSIVE = re.compile(r"\b(?:person['\u2019]s|(?i:her|his|their))\s+")
#: where a question's noun phrase ends at the latest: a mark of punctuation
_PHRASE_STOP = re.compile(r"[.,;:!?()\u2014\u2013]|\s-\s")
#: the verbs that say what something is called: they end the noun phrase they follow
#: ("What's the person's hawk called?")
_NAMING_VERBS = frozenset({"called", "named", "call", "calls"})


def possessed_things(question: str) -> list[list[str]]:
    """The noun phrases a question puts in question as the person's (the person's names
    already replaced by a stand-in): the words after each possessive of theirs, in lower
    case ("the person's hawk" -> ["hawk"], "in her farrier's van to help me" ->
    ["farrier's", "van"]), up to ``NOUN_PHRASE_WORDS``, ending before a function word, a
    naming verb or a mark of punctuation; none for a possessive nothing of that kind
    follows ("take her out", "give her a lift")."""
    found = []
    for m in _OWN_POSSESSIVE.finditer(question):
        rest = _PHRASE_STOP.split(question[m.end() :], maxsplit=1)[0]
        phrase: list[str] = []
        for w in _WORD.findall(rest)[:NOUN_PHRASE_WORDS]:
            low = w.lower().replace("\u2019", "'")
            if low in STOP_WORDS or low in _NAMING_VERBS:
                break
            phrase.append(low)
        if phrase:
            found.append(phrase)
    return found


#: "What do his friends call him?", "Does everyone call her Mena?": the person is the one
#: called (not "What did she name her goats?": "her" before a thing is a possessive)
_CALLED_THEMSELF = re.compile(
    r"\b(?:call|calls|called|name|names|named)\s+(?:him|them|the\s+person\b(?!['\u2019])|(her))\b"
    r"(?:\s+(\w+))?",
    re.IGNORECASE,
)
#: the words of a question that ask what something is called
NAME_ASKED = frozenset({"name", "names", "named", "nickname", "surname", "call", "calls", "called"})


def _called_themself(question: str) -> bool:
    """Whether the question asks what the person is called, as the object of a naming verb
    ("call him", "call her Mena", "call her at work"; not "name her two goats")."""
    for m in _CALLED_THEMSELF.finditer(question):
        after = m[2] or ""
        if not m[1] or not after or after[0].isupper() or after.lower() in STOP_WORDS:
            return True
    return False


def asks_the_name_of_a_thing_of_theirs(question: str) -> bool:
    """Whether a question (the person's names already replaced by a stand-in) asks what
    something of the person's is called, not the person: it asks for a name ("called",
    "the name of", "did she name") and puts in question a thing of theirs by a possessive
    ("What's the person's hawk called?", "What's the name of his cat?", "What did the
    person name her two goats?"), not their own name ("What's the person's nickname?",
    "What's his full name?") nor the person as the one called ("What do his friends call
    him?")."""
    if not NAME_ASKED & {w.lower() for w in _WORD.findall(question)}:
        return False
    if _called_themself(question):
        return False
    return any(not _NAMING & set(phrase) for phrase in possessed_things(question))


#: the words for the one a person lives with as a couple: a question may ask for "his
#: partner" where the person's memory says "His wife Halina" (a closed class, as the
#: possessives are); empty turns the reading off
PARTNER_WORDS = frozenset(
    {
        "partner",
        "wife",
        "husband",
        "spouse",
        "girlfriend",
        "boyfriend",
        "fiance",
        "fiancee",
        "fiancé",
        "fiancée",
    }
)


def _same_relation(asked: str, stated: str) -> bool:
    """Whether a relation word of a question names the relation a statement gives as two
    words for a partner ("partner" for "wife"; the same word is matched as any other)."""
    return asked != stated and asked in PARTNER_WORDS and stated in PARTNER_WORDS


#: someone of the person's asked for by their relation ("the person's mother", "his boss")
_ROLE_ASKED = re.compile(r"\b(?:person|(?i:her|his|their))['\u2019]?s?\s+([^\W\d_]+)")


def role_names(question: str, statements: list[str], own: frozenset[str]) -> list[tuple[int, str]]:
    """For each relation a question asks for by a possessive ("Is the person's mother still
    teaching?"; the person's names already replaced by a stand-in), the one name the
    person's statements give that relation ("His mother Ngozi, eighty-four, ...": see
    ``other_subject``), with where the relation word ends in ``question``: the question
    may name her as the statement does; a partner asked for by another word for one finds
    the statement's ("his partner": "His wife Halina ..."). A relation no statement names,
    or names two ways, gets none; nor does one the question names already."""
    asked = {_bare(w) for w in _WORD.findall(question)}
    found = []
    for m in _ROLE_ASKED.finditer(question):
        role = m[1].lower()
        if role in STOP_WORDS:
            continue
        # the relation is the noun the name is given to, the last of its phrase ("His
        # younger brother Kees"): the question's first word or two after the possessive
        # ("his brother", "her head teacher"; not "her favourite tipple" for "Her
        # favourite beer is ...")
        after = _WORD.match(question[m.end() :].lstrip())
        nouns = {role, after[0].lower()} if after else {role}
        given: set[str] = set()
        for text in statements:
            ws = _WORD.findall(text)
            if ws and ws[0].lower() in POSSESSIVES:
                named = _someone_named(ws, own)
                if named is None:
                    continue
                stated = named[0][-1]
                if (role in named[0] and stated in nouns) or _same_relation(role, stated):
                    given.add(named[1])
        if len(given) == 1 and _bare(next(iter(given))) not in asked:
            found.append((m.end(), given.pop()))
    return found
