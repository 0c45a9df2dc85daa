"""The goals sentence of a theme: its verb and object, as a reviewer would keep it."""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from learning import language
from learning.proposers.local.hygiene import CHAT_WORDS
from learning.proposers.local.tokens import tokens
from learning.proposers.local.words import (
    DEFAULT_SLOW_THING,
    DEFAULT_VERB,
    DETERMINERS,
    NON_TOPICS,
    PEOPLE_WORDS,
    PRONOUN_WORDS,
    SLOW_WORD,
    SPEED_VERB,
    SPEED_WORDING,
    TIME_MODIFIERS,
    VAGUE_MODIFIERS,
    WRITTEN_HEADS,
    WRITTEN_VERB,
)
from safety.text import STOP_WORDS, content_words

if TYPE_CHECKING:
    from learning.proposers.local.requests import Request
    from learning.proposers.local.themes import Theme


def _nouns_of(reqs: list[Request]) -> set[str]:
    """The lemmas the requests use as the nouns of their phrases ("review" of "reply to
    a 3 star review"); not what they make ("plan a lesson" beside "lesson plan")."""
    out: set[str] = set()
    for r in reqs:
        for _, head, phrase in r.phrases:
            out.add(head)
            out.update(phrase)
    return out


def _mod(word: str) -> str:
    """A noun (or a phrase's last noun) put before another noun: singular, "reading
    lists" (``language.modifier_form``)."""
    *rest, last = word.split(" ")
    return " ".join([*rest, language.modifier_form(last)])


#: who or what a piece of work may be said to be for without saying nothing: not a vague
#: person ("for someone"), not a time ("for next week")
_VAGUE_FOR = frozenset(["person", "people", "everyone", "anyone", "someone", "guy", "thing"])


def as_platform(word: str) -> str:
    """A modifier as the sentence names it: a platform's short form as the platform
    ("insta" -> "instagram", ``learning.policy.PLATFORM_SHORT_FORMS``), any other as it is:
    "insta post" and "Instagram post" name one kind of work."""
    from learning.policy import PLATFORM_SHORT_FORMS

    return PLATFORM_SHORT_FORMS.get(word, word)


def platforms_named(reqs: list[Request]) -> list[str]:
    """The platforms a kind of work is for when each request names one before what it makes
    or after "for"/"on" ("Facebook post", "insta post", "post for Facebook") and they name
    more than one: the two named most (short forms as the platform, ``as_platform``;
    ties alphabetically). Empty when a request names none, or all name the same one."""
    from learning.policy import PLATFORMS

    named: Counter[str] = Counter()
    for r in reqs:
        mods = {as_platform(m) for m in r.mods} | {
            as_platform(noun) for prep, noun, _ in r.phrases if prep in ("for", "on")
        }
        mods &= PLATFORMS
        if not mods:
            return []
        named.update(mods)
    if len(named) < 2:
        return []
    return sorted(sorted(named), key=lambda p: -named[p])[:2]


def _purpose(reqs: list[Request], text: str) -> str:
    """What the work is for, as the requests write it: "for engineering", "for
    volunteers", "for weddings", when at least half of the requests (two or more) say it
    with the same noun after "for", written as a plural or a mass noun (a singular, "for
    the function", is one thing of one conversation); "" otherwise, or when the sentence
    says it already. A noun ever written with a capital may be a name, and is never
    used."""
    if " for " in f" {text.lower()} ":
        return ""
    counts: Counter[str] = Counter()
    written: dict[str, str] = {}
    for r in reqs:
        seen: set[str] = set()
        for prep, noun, _phrase in r.phrases:
            if prep != "for" or noun in seen:
                continue
            word = r.surface.get(noun, noun)
            if word != word.lower():
                written[noun] = ""  # a capital: perhaps a name
                continue
            seen.add(noun)
            counts[noun] += 1
            written.setdefault(noun, word)
    for noun, n in counts.most_common():
        if n < 2 or n * 2 < len(reqs):
            break
        word = written.get(noun, "")
        if (
            not word
            or not word.isalpha()
            or len(noun) < 3
            or noun in _VAGUE_FOR
            or noun in TIME_MODIFIERS
            or (noun in NON_TOPICS and noun not in PEOPLE_WORDS)
            or not language.can_be(noun, "NOUN")
            or noun in text.lower()
        ):
            continue
        plural = language.lemma(word, "NOUN") != word.lower()
        if plural or language.is_mass(word) or word.endswith("ing"):
            return f"for {_with_article_written(noun, word, reqs)}"
        # "for the function", "for the website": one thing of one conversation, no purpose
    return ""


def _with_article_written(noun: str, word: str, reqs: list[Request]) -> str:
    """The noun a purpose names, with "the" when most requests that write it after "for"
    write "the" between ("job sheet for the lads" -> "for the lads"; "for volunteers"
    stays bare): the people or things as the person names them."""
    the = bare = 0
    for r in reqs:
        toks = tokens(r.message.text, r.start, r.end)
        for k in range(1, len(toks)):
            if language.lemma(toks[k].low, "NOUN") != noun:
                continue
            if toks[k - 1].low == "for":
                bare += 1
            elif k > 1 and toks[k - 1].low == "the" and toks[k - 2].low == "for":
                the += 1
    return f"the {word}" if the > bare else word


def topic_unquoted(theme: Theme, quotes: list[str]) -> bool:
    """Whether the topic of a topic theme ("drinks" of "Prepares quotes about drinks.")
    is missing from most of its quotes, said in one at most, and named before or in
    the request by one request at most: a detail further on in the messages ("…, then
    drinks in the lobby"), not what the work is about."""
    if theme.kind != "topic" or theme.compound or not quotes:
        return False
    said = sum(
        1 for q in quotes if theme.qualifier in {language.lemma(t.low, "NOUN") for t in tokens(q)}
    )
    if said * 2 >= len(quotes) or said >= 2:
        return False
    return _asked_with(theme.qualifier, theme.requests.values()) < 2


def _asked_with(topic: str, reqs) -> int:
    """How many requests name ``topic`` before the request or in it ("another complaint
    on facebook: … can u draft a reply?"), not only after it, among the details of the
    work ("Quote for a party, 30 people, drinks after")."""
    return sum(
        1
        for r in reqs
        if topic in {language.lemma(t.low, "NOUN") for t in tokens(r.message.text, 0, r.end)}
    )


def without_topic(theme: Theme) -> str:
    """The sentence of a topic theme without its topic: the work and the modifier most
    of its requests write ("Prepares the quotes.")."""
    return sentence_for(replace(theme, kind="", name=""))


def sentence_for(theme: Theme) -> str:
    """Third person, plural, no article, and what the work is for when most requests say
    it (``_purpose``): "Drafts replies to refund requests.", "Prepares the escalations
    for engineering."."""
    if theme.name:
        return theme.name
    text = _work_sentence(theme)
    purpose = _purpose(list(theme.requests.values()), text)
    return f"{text[:-1]} {purpose}." if purpose else text


def _work_sentence(theme: Theme) -> str:
    """The verb and object of the theme: "Drafts replies to refund requests."."""
    reqs = list(theme.requests.values())
    # a verb the same requests also use as a noun is a noun read as a verb: "review reply
    # pls" beside "reply to a 3 star review" makes no "Reviews star replies."
    as_nouns = _nouns_of(reqs)
    reqs = [
        replace(r, verb=None) if r.verb and r.verb in as_nouns and r.verb != r.head else r
        for r in reqs
    ]
    surface: dict[str, str] = {}
    for r in reqs:
        for k, v in r.surface.items():
            # an acronym as written ("SQL") wins over the same word in lower case
            if k not in surface or (v != v.lower() and surface[k] == surface[k].lower()):
                surface[k] = v
    by_kind = {
        "noun": _made_noun_sentence,
        "modonly": _modifier_sentence,
        "key": _key_noun_sentence,
        "verbnoun": _verb_object_sentence,
        "verbonly": _verb_sentence,
    }
    text = by_kind.get(theme.kind, _head_sentence)(theme, reqs, surface)
    return _sentence(_acronyms_as_written(text, reqs))


def _acronyms_as_written(text: str, reqs: list[Request]) -> str:
    """``text`` with an acronym in the plural only where the requests' messages count it:
    write it in the plural ("these PRs") or singular after a word that counts ("a PR",
    "this PR", "every API"). An acronym never counted names a mass of one kind ("the
    JCL", "JCL to rerun the step"), so no plural "s" is added to it ("Writes the JCL.",
    not "Writes the JCLs.")."""
    texts = [r.message.text for r in reqs]

    def counted(acronym: str) -> bool:
        pattern = rf"\b(?:{acronym}s|(?:a|an|this|that|another|each|every|one|\d+) {acronym})\b"
        return any(re.search(pattern, t, re.IGNORECASE) for t in texts)

    return " ".join(
        w[:-1] if re.fullmatch(r"[A-Z]{2,5}s", w) and not counted(w[:-1]) else w
        for w in text.split(" ")
    )


#: words of ``learning.policy.CAPITALISED_OK`` that are also common words written small
#: ("polish the wording")
_SMALL_TOO = frozenset(["i", "may", "march", "polish"])


def with_capital(word: str, code: str = "en") -> str:
    """A platform, day or language written small in the requests, with its capital
    ("instagram" -> "Instagram"): a name of a kind, which people type in lower case; a
    platform's short form written out ("fb" -> "Facebook", ``PLATFORM_SHORT_FORMS``). In
    another language only a brand (a platform, a review site: "les posts Instagram"); its
    days and languages are written small ("lundi", "le latin")."""
    from learning.policy import CAPITALISED_OK, PLATFORM_SHORT_FORMS, PLATFORMS, REVIEW_SITES

    word = PLATFORM_SHORT_FORMS.get(word.lower(), word)
    names = CAPITALISED_OK - _SMALL_TOO if code == "en" else PLATFORMS | REVIEW_SITES
    return word.capitalize() if word.isalpha() and word in names else word


def names_with_capitals(text: str) -> str:
    """``text`` with each name of a kind written small given its capital (``with_capital``:
    "instagram posts" -> "Instagram posts", "plain english" -> "plain English"); a
    wording in double quotes stays as the person writes it ('Say "english breakfast"')."""
    pieces = text.split('"')
    return '"'.join(
        piece if i % 2 else " ".join(with_capital(w) for w in piece.split(" "))
        for i, piece in enumerate(pieces)
    )


def _sentence(text: str) -> str:
    """The sentence: a capital first, a full stop last, and a name of a kind written small
    with its capital (``names_with_capitals``)."""
    text = names_with_capitals(text)
    return text[:1].upper() + text[1:] + "."


def _made_noun_sentence(theme: Theme, reqs: list[Request], surface: dict[str, str]) -> str:
    made = [r for r in reqs if r.head == theme.qualifier]
    verb = Counter(r.verb for r in made if r.verb).most_common(1)[0][0]
    mods = Counter(
        m
        for r in made
        for m in sorted(set(r.mods))
        if m not in VAGUE_MODIFIERS and m not in PEOPLE_WORDS and not language.is_comparative(m)
    )
    best = [_mod(surface.get(m, m)) for m, n in mods.most_common(1) if n * 2 > len(made)]
    noun = language.plural(surface.get(theme.qualifier, theme.qualifier))
    if not best and not language.is_mass(noun):
        noun = f"the {noun}"  # "Reviews the diffs.", as for a head: not a bare noun
    return " ".join([language.third_person(verb), *best, noun])


#: the verb of work on something the person pastes as going wrong ("A RenderFlex
#: overflowed by 38 pixels" under "Overflow on the route card")
FIX_VERB = "fix"

#: the work of a reply: what most messages of a theme ask a reply for is replied to
REPLY_HEAD = "reply"


def _unnamed_verb(head: str, reqs: list[Request]) -> str:
    """The verb of work no request names ("Quote for a client", "Overflow in the badge
    grid"): "write" for a written text (``WRITTEN_HEADS``: the theme's head, or what
    most of its requests make: "appointment reminders" asked for as "reminder texts" and
    "confirmation email") or for work whose requests mostly paste code or output (a
    component, a device tree: what is made is written);
    "fix" when the pastes of most of those requests write the head as a verb that
    happened ("overflowed": the head names what goes wrong, no thing to prepare), or
    when most of those messages report what they paste as failing (``error_report``);
    "reply to" when most of the messages ask for a reply; ``DEFAULT_VERB`` otherwise."""
    from learning.proposers.local.requests import PASTED, requests_of

    if head in WRITTEN_HEADS:
        return WRITTEN_VERB
    messages = list({r.message.id: r.message for r in reqs}.values())
    answered = sum(1 for m in messages if any(r.head == REPLY_HEAD for r in requests_of(m)))
    if head != REPLY_HEAD and answered >= 2 and answered * 2 > len(messages):
        # "another google review to reply" beside "write a reply to this review": what the
        # messages ask replies for is replied to, "Replies to Google reviews." (never
        # "Prepares google reviews.")
        return f"{REPLY_HEAD} to"
    if sum(r.head in WRITTEN_HEADS for r in reqs) * 2 > len(reqs):
        return WRITTEN_VERB  # most requests make a text: "reminder texts", "confirmation email"
    pastes = {m.id: [p.group(0) for p in PASTED.finditer(m.text)] for m in messages}
    pasting = [m for m in messages if pastes[m.id]]
    if len(pasting) < 2 or len(pasting) * 2 < len(messages):
        return DEFAULT_VERB
    happened = sum(
        1
        for m in pasting
        if any(
            t.low != head
            and language.can_be(t.low, "VERB")
            and language.lemma(t.low, "VERB") == head
            and language.lemma(t.low, "NOUN") != head
            for paste in pastes[m.id]
            for t in tokens(paste)
        )
    )
    if happened >= 2 and happened * 2 > len(pasting):
        return FIX_VERB
    # "dbt build error in CI: ```Database Error …```": a paste the message reports as
    # failing is fixed, not written
    reported = sum(1 for m in pasting if any(r.reported for r in requests_of(m)))
    return FIX_VERB if reported >= 2 and reported * 2 > len(pasting) else WRITTEN_VERB


def _named_verb(reqs: list[Request]) -> str | None:
    """The verb the requests name for their work: the one most of them name. When
    several verbs are named once each (no request agrees with another), none of them, but
    for ``WRITTEN_VERB`` if one request names it. When only
    one request of several names a verb at all, and writes it right before the noun of
    the work with nothing between, where it can be a noun too, it is the first word of a
    compound that request writes, not the work's verb ("work sheet for friday" beside
    "job sheet for monday", "can you do me a job sheet": no one *works* job sheets);
    None then, and the verb is the one no request names (``_unnamed_verb``). A verb with
    its object after it ("write a widget test") names the work however few write it."""
    verbs = Counter(r.verb for r in reqs if r.verb)
    if not verbs:
        return None
    if len(verbs) > 1 and verbs.most_common(1)[0][1] == 1:
        # every request that names a verb names another, once each: the one their
        # messages write most ("summarise" of "Summarise this for engineering, it's an
        # escalation" beside "Write up the escalation"); where that ties too ("rewrite it
        # and the tests", "skip the flaky test", "write alcotest tests") none is the work's
        # verb, least of all the first one met ("Skips the tests."), but for the verb that
        # makes a text when one of them names it ("Writes the tests.")
        return _verb_most_written(verbs, reqs) or (WRITTEN_VERB if WRITTEN_VERB in verbs else None)
    if verbs.total() == 1 and len(reqs) > 1:
        only = next(r for r in reqs if r.verb)
        if _compound_first_word(only):
            return None
    return verbs.most_common(1)[0][0]


def _verb_most_written(verbs: Counter[str], reqs: list[Request]) -> str | None:
    """Of ``verbs``, the one the messages of ``reqs`` write most often as a verb, whatever
    it works on; None on a tie."""
    messages = {r.message.id: r.message for r in reqs}.values()
    written = Counter(
        v
        for m in messages
        for v in {language.lemma(t.low, "VERB") for t in tokens(m.text)} & set(verbs)
    )
    top = written.most_common(2)
    if top and (len(top) == 1 or top[0][1] > top[1][1]):
        return top[0][0]
    return None


def _compound_first_word(req: Request) -> bool:
    """Whether ``req``'s verb is a word written right before the noun of its work that
    can be a noun as well ("work sheet", "run sheet"): the compound's first word."""
    toks = tokens(req.message.text[req.start : req.end])
    return any(
        language.can_be(a.low, "NOUN")
        and language.lemma(a.low, "VERB") == req.verb
        and language.lemma(b.low, "NOUN") == req.head
        for a, b in zip(toks, toks[1:], strict=False)
    )


def _modifier_sentence(theme: Theme, reqs: list[Request], surface: dict[str, str]) -> str:
    heads = Counter(r.head for r in reqs if r.head)
    head_lemma = heads.most_common(1)[0][0]
    verb = _named_verb(reqs) or _unnamed_verb(head_lemma, reqs)
    noun = language.plural(surface.get(head_lemma, head_lemma))
    qualifier = " ".join(
        _mod(w) for w in [surface.get(theme.qualifier, theme.qualifier), theme.then] if w
    )
    return f"{language.third_person(verb)} {qualifier} {noun}"


def _key_noun_sentence(theme: Theme, reqs: list[Request], surface: dict[str, str]) -> str:
    made = [r for r in reqs if r.head == theme.qualifier]
    used = [r for r in reqs if theme.qualifier in (r.head, *r.mods)]
    made_mods = Counter(
        m
        for r in made
        for m in sorted(set(r.mods))
        if m not in VAGUE_MODIFIERS
        and m not in PEOPLE_WORDS
        and m not in TIME_MODIFIERS
        and not language.is_comparative(m)
    )
    best = [_mod(surface.get(m, m)) for m, n in made_mods.most_common(1) if n * 2 > len(made)]
    verb = _named_verb(used) or _unnamed_verb(theme.qualifier, reqs)
    obj = " ".join([*best, language.plural(surface.get(theme.qualifier, theme.qualifier))])
    modified = Counter(r.head for r in used if theme.qualifier in r.mods and r.head)
    # "write up the survey" beside "a survey report": what is made of the thing written
    # up is the text the other requests make of it, not the thing itself
    made_itself = [r for r in made if not _written_up(r.message)]
    if (
        not best
        and modified
        and (
            language.can_be(theme.qualifier, "ADJ")
            or modified.most_common(1)[0][1] > len({r.message.conversation_id for r in made_itself})
        )
    ):
        # "the welcomes" reads oddly, and "the appointments" says less than most
        # requests do: the word as people put it before what is made, "welcome
        # emails", "appointment confirmations"
        head_lemma = modified.most_common(1)[0][0]
        # the word as written before a head ("appointment", not the "appointments"
        # of "book appointments")
        written_mod = next(
            r.surface.get(theme.qualifier, theme.qualifier)
            for r in used
            if theme.qualifier in r.mods and r.head == head_lemma
        )
        obj = f"{_mod(written_mod)} " + language.plural(surface.get(head_lemma, head_lemma))
    if " " not in obj and not language.is_mass(obj):
        obj = f"the {obj}"
    return f"{language.third_person(verb)} {obj}"


#: how many words may stand between "write" and "up" ("write it up", "write the notes up")
_UP_REACH = 3


def _written_up(message: Any) -> bool:
    """Whether a message asks for a thing to be written up ("write up the survey",
    "write it up"): a write-up is a text made of the thing, not the thing."""
    toks = tokens(message.text)
    return any(
        language.lemma(t.low, "VERB") == WRITTEN_VERB
        and any(u.low == "up" for u in toks[k + 1 : k + 1 + _UP_REACH])
        for k, t in enumerate(toks)
    )


def _verb_object_sentence(theme: Theme, reqs: list[Request], surface: dict[str, str]) -> str:
    noun = surface.get(theme.qualifier, theme.qualifier)
    if theme.verb == SPEED_VERB:
        return _said_slow(theme.verb, _slow_thing(noun))
    noun = noun if language.is_mass(noun) else f"the {language.plural(noun)}"
    return f"{language.third_person(theme.verb)} {noun}"


def _verb_sentence(theme: Theme, reqs: list[Request], surface: dict[str, str]) -> str:
    heads = Counter(r.head for r in reqs if r.head)
    if theme.verb == SPEED_VERB:
        things = [_slow_thing(surface.get(h, h)) for h, _ in heads.most_common(2)]
        return _said_slow(theme.verb, " and ".join(things))
    named = [language.plural(surface.get(h, h)) for h, _ in heads.most_common(2)]
    return f"{language.third_person(theme.verb)} {' and '.join(named)}"


def _slow_thing(noun: str) -> str:
    """A thing said slow as the sentence names it: in the plural, but the code (the thing
    when no request names one, ``DEFAULT_SLOW_THING``) as a mass ("slow code")."""
    return noun if noun == DEFAULT_SLOW_THING else language.plural(noun)


def _said_slow(verb: str, obj: str) -> str:
    """The work of making things faster (``verb``: ``SPEED_VERB``), its object said slow
    as the requests said it and made faster as they ask it ("Makes slow reports and
    loops faster.", ``slowness.slowness_request``): a reviewer keeps what was slow, and
    the quotes share "slow" or "faster" with it ("why so slow?", "can we make this
    faster?"), which "speeds up" shares with neither."""
    obj = obj.removeprefix("the ")
    return f"{language.third_person(SPEED_WORDING[0])} {SLOW_WORD} {obj} {SPEED_WORDING[1]}"


def _head_sentence(theme: Theme, reqs: list[Request], surface: dict[str, str]) -> str:
    """A theme of what is made (a head; or a verb with a phrase noun): its verb, and the
    head with what qualifies it."""
    verb = _named_verb(reqs) or _unnamed_verb(theme.head or "", reqs)
    prefix = [theme.prefix_written or theme.prefix] if theme.prefix else []
    then = [theme.then] if theme.then else []
    qualifier = " ".join(
        _mod(w) for w in [*prefix, surface.get(theme.qualifier, theme.qualifier), *then]
    )
    if theme.kind == "verb":
        heads = Counter(r.head for r in reqs if r.head)
        head_lemma = heads.most_common(1)[0][0]
        verb = theme.verb
    else:
        head_lemma = theme.head
    head = language.plural(surface.get(head_lemma, head_lemma))
    if theme.kind == "verb":
        noun = surface.get(theme.qualifier, theme.qualifier)
        noun = noun if noun.endswith("ing") else language.plural(noun)
        obj = f"{head} {theme.prep} {noun}"
    elif theme.kind == "mod":
        obj = f"{qualifier} {head}"
    elif theme.kind == "phrase":
        obj = _phrase_object(theme, reqs, surface, head)
    elif theme.kind == "topic":
        obj = _topic_object(theme, reqs, surface, head, qualifier, prefix)
    else:
        mods = Counter(
            m
            for r in reqs
            for m in sorted({as_platform(x) for x in r.mods})
            if m not in VAGUE_MODIFIERS and m not in PEOPLE_WORDS and not language.is_comparative(m)
        )
        best = [m for m, n in mods.most_common(1) if n * 2 > len(reqs)]
        obj = " ".join([_mod(surface.get(m, m)) for m in best] + [head])
        if not best and (platforms := platforms_named(reqs)):
            obj = f"{' and '.join(platforms)} {head}"  # "Writes Facebook and Instagram posts."
        answered = "" if best or head_lemma != REPLY_HEAD else _replied_to(reqs)
        if answered:
            obj = f"{head} to {language.plural(answered)}"  # "Writes replies to reviews."
    if verb == SPEED_VERB:
        return _said_slow(verb, DEFAULT_SLOW_THING if head_lemma == DEFAULT_SLOW_THING else obj)
    if " " not in obj and not language.is_mass(obj):
        obj = f"the {obj}"  # "Prepares the rotas.": a kind of work, not a bare noun
    return f"{language.third_person(verb)} {obj}"


#: how many words after "reply to" may name what is replied to ("reply to this google review")
_REPLIED_REACH = 4

#: what ends the sentence that names what a reply answers
_SENTENCE_BREAK = re.compile(r"[.?!:;\n]")


def _replied_to(reqs: list[Request]) -> str:
    """What the messages of a reply theme ask replies to, when its sentence would name
    nothing ("Writes the replies."): the noun that two or more of the messages, and at
    least half, write right before "reply" ("review reply please") or as the last noun
    after "reply to" ("reply to this google review"), and no other noun as many (the others
    may say "draft a reply" without naming it again); "" when none."""
    messages = list({r.message.id: r.message for r in reqs}.values())
    counts: Counter[str] = Counter()
    for m in messages:
        counts.update(nouns_replied_to(m))
    top = counts.most_common(2) + [("", 0)]
    noun, n = top[0]
    return noun if n >= 2 and n * 2 >= len(messages) and top[1][1] < n else ""


def nouns_replied_to(message: Any) -> set[str]:
    """The nouns a message names as what a reply answers: written right before "reply"
    ("review reply please") or as the last noun after "reply to" ("reply to this google
    review"); never "reply" itself or people."""
    toks = tokens(message.text)
    named: set[str] = set()
    for k, t in enumerate(toks):
        if language.lemma(t.low, "NOUN") != REPLY_HEAD:
            continue
        before = toks[k - 1].low if k else ""
        if before.isalpha() and before not in DETERMINERS and _noun_only(before):
            named.add(language.lemma(before, "NOUN"))  # "review reply"
        if k + 1 < len(toks) and toks[k + 1].low == "to":
            # the words after "reply to" in its sentence: "Can you reply to this enquiry?
            # A mum asking …" replies to the enquiry, not to the mum of the next sentence
            nouns = []
            for u, prev in zip(
                toks[k + 2 : k + 2 + _REPLIED_REACH],
                toks[k + 1 : k + 1 + _REPLIED_REACH],
                strict=False,
            ):
                if _SENTENCE_BREAK.search(message.text[prev.end : u.start]):
                    break
                if u.low not in DETERMINERS:
                    nouns.append(u.low)
            run = []
            for w in nouns:
                # a name of a kind stands before the noun: "this google review"
                if not (w.isalpha() and (language.can_be(w, "NOUN") or with_capital(w) != w)):
                    break
                run.append(w)
            if run:
                named.add(language.lemma(run[-1], "NOUN"))  # "reply to this google review"
    return {n for n in named if n != REPLY_HEAD and n not in PEOPLE_WORDS}


def _noun_only(word: str) -> bool:
    """Whether a word before "reply" qualifies it as a noun ("review reply"), not a verb
    of asking or a pronoun ("can you reply", "pls reply")."""
    return (
        language.can_be(word, "NOUN") and word not in PRONOUN_WORDS | CHAT_WORDS | VAGUE_MODIFIERS
    )


def _phrase_object(theme: Theme, reqs: list[Request], surface: dict[str, str], head: str) -> str:
    """The phrase as most often written around the noun: "replies to refund requests"."""
    forms = Counter(
        p[2][p[2].index(theme.qualifier) :]
        for r in reqs
        for p in r.phrases
        if p[0] == theme.prep and theme.qualifier in p[2]
    )
    lemmas = forms.most_common(1)[0][0] if forms else (theme.qualifier,)
    words = [_mod(surface.get(w, w)) for w in lemmas[:-1]] + [surface.get(lemmas[-1], lemmas[-1])]
    if not words[-1].endswith("ing") and not _names_a_kind(theme, reqs):
        words[-1] = language.plural(words[-1])
    as_mod = sum(1 for r in reqs if theme.qualifier in r.mods)
    if (len(lemmas) == 1 and as_mod * 2 >= len(reqs)) or (
        len(lemmas) > 1 and lemmas[-1] in TIME_MODIFIERS
    ):
        # "crew schedules": most requests write the noun before the head; a phrase that
        # ends in a time ("letters from Tuesday's valuation morning") says when, and the
        # noun before the time is the kind of letters: "valuation letters"
        return f"{_mod(surface.get(theme.qualifier, theme.qualifier))} {head}"
    return f"{head} {theme.prep} {' '.join(words)}"


def _names_a_kind(theme: Theme, reqs: list[Request]) -> bool:
    """Whether most requests write the theme's "of" phrase as a singular noun right after
    "of", with no determiner: a name of a kind of thing ("order of service", "bill of
    sale"), whose plural is the head's alone ("orders of service"), not a phrase about
    one thing ("a summary of the meeting": "summaries of meetings")."""
    if theme.prep != "of":
        return False
    bare = 0
    for r in reqs:
        toks = tokens(r.message.text, r.start, r.end)
        bare += any(
            t.low == "of" and k + 1 < len(toks) and toks[k + 1].low == theme.qualifier
            for k, t in enumerate(toks)
        )
    return bare * 2 > len(reqs)


def _topic_object(
    theme: Theme,
    reqs: list[Request],
    surface: dict[str, str],
    head: str,
    qualifier: str,
    prefix: list[str],
) -> str:
    noun = surface.get(theme.qualifier, theme.qualifier)
    # the noun a phrase of the requests puts the topic before ("reply to a 3 star
    # review"): the sentence names that noun ("replies to star reviews", "replies with
    # viewing times"), not "star replies"
    inside = Counter(
        (prep, phrase_head)
        for r in reqs
        if theme.qualifier not in r.mods
        for prep, phrase_head, phrase in r.phrases
        if theme.qualifier in phrase and phrase_head != theme.qualifier
    )
    if theme.compound and not any(theme.qualifier in r.mods for r in reqs) and inside:
        prep, phrase_head = inside.most_common(1)[0][0]
        noun = language.plural(surface.get(phrase_head, phrase_head))
        return f"{head} {prep} {qualifier} {noun}"
    if theme.compound:  # "refund replies": the person writes it that way somewhere
        return f"{qualifier} {head}"
    noun = noun if noun.endswith("ing") else language.plural(noun)
    # the preposition most requests put before the topic ("reply to this review"):
    # "replies to reviews", else "about"
    preps = Counter(
        prep
        for r in reqs
        for prep in {p[0] for p in r.phrases if theme.qualifier in p[2]}
        if prep in ("to", "on", "for", "with")
    )
    prep = next(
        (p for p, n in preps.most_common(1) if n * 2 > len(reqs)),
        "to"
        if _answers_to(theme.head, theme.qualifier, reqs)
        else "for"
        if _made_for(theme.head, reqs)
        else "about",
    )
    return f"{head} {prep} {' '.join([*prefix, noun])}"


def _made_for(head: str, reqs: list[Request]) -> bool:
    """Whether most requests write the head with "for" right after it, whoever or
    whatever follows ("Quote for Mr Okonjo, loft conversion …"): the work is done for a
    job, and a topic of it is what it is for ("quotes for emergence surveys"), not what it
    is about."""
    said = 0
    for r in reqs:
        toks = tokens(r.message.text, r.start, r.end)
        said += any(
            a.low == "for" and language.lemma(b.low, "NOUN") == head
            for b, a in zip(toks, toks[1:], strict=False)
        )
    return said >= 2 and said * 2 > len(reqs)


def _answers_to(head: str, topic: str, reqs: list[Request]) -> bool:
    """Whether a request's message writes the head, "to" and the topic close after it
    ("Reply to this Google review"): the work answers the topic ("replies to reviews"),
    it is not about it."""
    for r in reqs:
        toks = tokens(r.message.text)
        for k in range(1, len(toks) - 1):
            if toks[k].low != "to" or language.lemma(toks[k - 1].low, "NOUN") != head:
                continue
            after = [language.lemma(t.low, "NOUN") for t in toks[k + 1 : k + 5]]
            if topic in after:
                return True
    return False


#: the words before a noun of a sentence that leave it bare ("the playbooks", "replies to
#: emails"): a qualifier may go between them and the noun
_BARE_BEFORE = frozenset(["the", "to", "about", "for", "on", "with", "of"])


def qualified_by_quotes(text: str, quotes: list[str], banned: set[str] | frozenset[str]) -> str:
    """``text`` with the word most of its quotes write right before the sentence's last
    noun, when the sentence leaves that noun bare: "Writes replies to emails." quoted
    "Reply to this customer email" twice of three reads "Writes replies to customer
    emails.". The word is written in lower case in every quote that has it (a capital may
    be a name) unless it names no one (``learning.policy.CAPITALISED_OK``: "Instagram
    captions"), is no word a quote must not hold (``banned``), no function, chat, vague
    or time word and no comparative, and may be a noun or an adjective; "the" goes when
    the noun is qualified."""
    words = text.rstrip(".").split(" ")
    if len(words) < 2 or not quotes or words[-2].lower() not in _BARE_BEFORE:
        return text
    noun = language.lemma(words[-1].lower(), "NOUN")
    from learning.policy import CAPITALISED_OK

    said: Counter[str] = Counter()
    capital: dict[str, str] = {}  # a word written with a capital -> as written
    qualified = 0
    for quote in quotes:
        toks = tokens(quote)
        seen: set[str] = set()
        for before, tok in zip(toks, toks[1:], strict=False):
            if language.lemma(tok.low, "NOUN") != noun or quote[before.end : tok.start] != " ":
                continue
            if before.text != before.low:
                capital[before.low] = before.text
            seen.add(before.low)
        said.update(seen)
        # the noun qualified here, by any word but a function word ("website's notices")
        # (a count, "140 migrations", is none)
        qualified += any(
            (w.isalpha() or w.endswith("'s"))
            and w not in STOP_WORDS
            and not language.function_word(w)
            for w in seen
        )
    named = [
        w for w in said if w.isalpha() and w not in STOP_WORDS and not language.function_word(w)
    ]
    # the one plain word of kind the quotes write, contradicted by none, when most quotes
    # qualify the noun ("Can you write the death notice", "our website's notices page",
    # "Notice for the website"): "Writes death notices." for "Writes the notices.", when it
    # is only a noun (an adjective, "formal", is one letter's; a verb may be the work asked
    # for); a noun most quotes leave bare keeps its article ("unit tests for the parser",
    # "tests for this class", "tests please")
    sole = (
        words[-2].lower() == "the"
        and qualified * 2 > len(quotes)
        and len(named) == 1
        and language.can_be(named[0], "NOUN")
        and not language.can_be(named[0], "ADJ")
        and not language.can_be(named[0], "VERB")  # "can you draft notices": the work
    )
    for word, n in said.most_common(1) if not sole else [(named[0], said[named[0]])]:
        if (
            (not sole and (n < 2 or n * 2 <= len(quotes)))
            or (word in capital and word not in CAPITALISED_OK)
            or word in banned
            or not word.isalpha()
            or len(word) < 3
            or word in STOP_WORDS
            or word in CHAT_WORDS
            or language.function_word(word)
            or word in VAGUE_MODIFIERS
            or word in TIME_MODIFIERS
            or language.is_comparative(word)
            or language.lemma(word, "NOUN") == noun
            or not (
                language.can_be(word, "NOUN")
                or language.can_be(word, "ADJ")
                or word in capital  # a platform (above)
            )
            or word in (w.lower() for w in words)
        ):
            return text
        head = words[:-2] if words[-2].lower() == "the" else words[:-1]
        # a platform as written ("Instagram captions"): it names a kind, no one
        return " ".join([*head, capital.get(word) or _mod(word), words[-1]]) + "."
    return text


def problem_named_by_quotes(theme: Theme, text: str, banned: set[str] | frozenset[str]) -> str:
    """``text`` for a theme of problems people paste ("Debugs the errors."), worded with
    the words their quotes write when most quotes share no word with it (the review's
    verifier refuses such a quote): the problem named by the step of the work the quotes
    say will not run, a verb after a negation ("ghc won't compile this", "compile
    error after …" -> "Debugs compile errors."), or by what fails, the noun before the
    verb of failing ("Build's failing on …", "Kernel build fails after …" -> "Debugs
    failing builds."); never by where it fails ("clippy job in CI fails"). The wording
    chosen is the one sharing a word with the most quotes, kept only when that is more
    than half of them and more than ``text`` shares; else ``text``."""
    from learning.proposers.local.hygiene import quote_for
    from learning.proposers.local.requests import DEBUG_VERB, FAILING_VERBS, PROBLEM_NOUNS

    reqs = list(theme.requests.values())
    if not reqs or not all(r.reported and r.head in PROBLEM_NOUNS for r in reqs):
        return text
    verb = Counter(r.verb or DEBUG_VERB for r in reqs).most_common(1)[0][0]
    head = Counter(r.head for r in reqs).most_common(1)[0][0]
    quotes = [
        q
        for r in reqs
        if (q := quote_for(r.message, r.start, r.end, set(banned), keep=frozenset([r.head])))
    ]
    steps: Counter[str] = Counter()  # a verb after a negation: "won't compile"
    failing: Counter[str] = Counter()  # the noun before the verb of failing: "build fails"
    for quote in quotes:
        toks = [t for t in tokens(quote) if t.low not in ("is", "are", "keeps")]
        # once per quote, in the order written: at a tie the wording said first wins,
        # never the first of a set (its order changes with the hash seed)
        step: dict[str, None] = {}
        what: dict[str, None] = {}
        for before, tok in zip(toks, toks[1:], strict=False):
            word = before.low.removesuffix("'s")
            if before.low in ("not", "cannot") or before.low.endswith("n't"):
                step[language.lemma(tok.low, "VERB")] = None
            if language.lemma(tok.low, "VERB") in FAILING_VERBS and language.can_be(word, "NOUN"):
                what[language.lemma(word, "NOUN")] = None
        steps.update(list(step))
        failing.update(list(what))

    def fit(word: str) -> bool:
        return (
            word not in banned
            and word.isalpha()
            and word not in STOP_WORDS
            and word not in VAGUE_MODIFIERS
            and word not in TIME_MODIFIERS
            and word not in FAILING_VERBS
        )

    third = language.third_person(verb)
    options = [
        _sentence(f"{third} {_mod(w)} {language.plural(head)}")
        for w in steps
        if fit(w) and language.can_be(w, "VERB")
    ] + [
        _sentence(f"{third} failing {language.plural(w)}")
        for w, n in failing.most_common()
        if n >= 2 and fit(w)
    ]
    words_of = [
        {language.lemma(t.low, "VERB") for t in tokens(q)} | content_words(q) for q in quotes
    ]

    def shared(sentence: str) -> int:
        mine = content_words(sentence)
        return sum(1 for w in words_of if w & mine)

    now = shared(text)
    if now * 2 > len(quotes) or not options:
        return text
    best = max(options, key=shared)
    return best if shared(best) * 2 > len(quotes) and shared(best) > now else text
