"""Themes: the kinds of work people ask for again and again, by words and by meaning."""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from learning import language
from learning.proposers.local.requests import PROBLEM_NOUNS, _lemma, _message_nouns, _surface
from learning.proposers.local.tokens import _is_noun_word, _wordlike, tokens
from learning.proposers.local.versions import version_themes
from learning.proposers.local.wording import (
    REPLY_HEAD,
    _replied_to,
    as_platform,
    nouns_replied_to,
    platforms_named,
    sentence_for,
)
from learning.proposers.local.words import (
    ABOUT_PREPOSITIONS,
    DETERMINERS,
    GENERIC_HEADS,
    MESSAGE_HEADS,
    META_HEADS,
    MIN_COHERENCE,
    NAMING_CONVERSATIONS,
    NON_TOPICS,
    OUTLIER,
    PEOPLE_WORDS,
    PREPOSITIONS,
    PRONOUN_WORDS,
    SAME_HEAD,
    SAME_WORK,
    SPEED_VERB,
    STAND_IN_OBJECTS,
    TIME_MODIFIERS,
    VAGUE_MODIFIERS,
    VAGUE_TOPICS,
    WORK_NAMING_VERBS,
)
from safety.text import (
    STOP_WORDS,
    content_words,
    readable_text,
)

if TYPE_CHECKING:
    from learning.proposers.local.requests import Request


# --- themes -----------------------------------------------------------------------------------


@dataclass
class Theme:
    head: str  # "" for a theme anchored on a verb
    verb: str = ""
    qualifier: str = ""
    kind: str = ""  # "", "mod", "phrase", "topic", "verb", "verbonly"
    prep: str = ""
    prefix: str = ""  # the word people write before the qualifier ("group" booking quotes)
    prefix_written: str = ""  # that word as written ("sales" of the lemma "sale")
    # the noun people write right after the qualifier, as written ("trial" of "field trial
    # write-up"): the qualifier is that compound (``_compound_after``)
    then: str = ""
    requests: dict[int, Request] = field(default_factory=dict)  # conversation -> request
    coherence: float = 0.0
    compound: bool = False  # a topic the requests also use as a modifier ("refund reply")
    # a theme grown by meaning (``meaning_themes``): the sentence its naming members give
    name: str = ""

    @property
    def people(self) -> int:
        return len({r.message.principal_id for r in self.requests.values()})


def _theme_requests(
    reqs: list[Request], test, topics: dict[int, set[str]] | None = None
) -> dict[int, Request]:
    out: dict[int, Request] = {}
    for r in reqs:
        if test(r):
            out.setdefault(r.message.conversation_id, r)
    return out


def _qualifier_ok(word: str, plurals: frozenset[str] | set[str] = frozenset()) -> bool:
    """A noun a theme may be about: a word, not a pronoun, not an adjective ("in full");
    a word that can be an adjective too is a noun when the messages write it as a
    plural (``plurals``: "residents", "patients"), which no adjective has."""
    return (
        _wordlike(word)
        and len(word) >= 3
        and word not in PRONOUN_WORDS
        and word not in DETERMINERS
        and word not in STOP_WORDS
        and (not language.can_be(word, "ADJ") or word in plurals)
    )


def plural_nouns(messages: Any) -> set[str]:
    """Lemmas of the nouns the messages' readable text writes as plurals ("residents"
    -> "resident"): a word written so is a noun there, whatever else it can be."""
    out = set()
    for message in messages:
        for t in tokens(readable_text(message.text)):
            w = t.low
            if len(w) < 4 or not w.endswith("s") or not _wordlike(w):
                continue
            lemma = language.lemma(w, "NOUN")
            if lemma != w and language.can_be(w, "NOUN") and language.can_be(lemma, "NOUN"):
                out.add(lemma)
    return out


def _names_other_work(request: Request, topic: str) -> bool:
    """Whether ``request`` names its kind of work with a modifier other than ``topic``:
    "reminder" of "tomorrow's reminder texts" (not "short", "weekly", "customer"). A
    compound that holds ``topic`` names it: "book club questions" are about the club."""
    if topic in request.mods:
        return False
    return any(
        m != topic
        and m not in VAGUE_MODIFIERS
        and m not in TIME_MODIFIERS
        and m not in PEOPLE_WORDS
        and language.can_be(m, "NOUN")
        and not language.is_comparative(m)
        for m in request.mods
    )


@dataclass
class _Reading:
    """What every kind of theme is found with: the requests, grouped and indexed once,
    and the recurrence the settings ask for."""

    requests: list[Request]
    vectors: dict[int, Any]
    min_conversations: int
    min_users: int | None
    exclude: frozenset[str] | set[str]
    # the head each head is grouped under (``same_heads``): "quotation" -> "quote"
    head_of: dict[str, str] = field(default_factory=dict)
    by_head: dict[str, list[Request]] = field(default_factory=lambda: defaultdict(list))
    by_verb: dict[str, list[Request]] = field(default_factory=lambda: defaultdict(list))
    nouns: dict[int, set[str]] = field(default_factory=dict)  # message id -> its nouns
    plurals: set[str] = field(default_factory=set)
    as_modifier: set[str] = field(default_factory=set)
    # the word written right before a noun, over all requests ("group" before "booking")
    before: dict[str, Counter[str]] = field(default_factory=lambda: defaultdict(Counter))
    written_as: dict[str, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        for r in self.requests:
            if r.head and r.head not in self.exclude:
                self.by_head[self.head_of.get(r.head, r.head)].append(r)
            if r.verb:
                self.by_verb[r.verb].append(r)
        self.nouns = {r.message.id: _message_nouns(r.message) for r in self.requests}
        self.plurals = plural_nouns({r.message.id: r.message for r in self.requests}.values())
        self.as_modifier = {m for r in self.requests for m in r.mods} | {
            w for r in self.requests for p in r.phrases for w in p[2][:-1]
        }
        for r in self.requests:
            for k, v in r.surface.items():
                self.written_as.setdefault(k, v)
            written = [*r.mods, r.head] if r.head else list(r.mods)
            for p in r.phrases:
                written.extend(p[2])
            for w1, w2 in zip(written, written[1:], strict=False):
                self.before[w2][w1] += 1

    def recurs(self, theme: Theme) -> bool:
        """Weighed for meaning: still in enough conversations (and people), coherent."""
        _weigh(theme, self.vectors)
        return (
            len(theme.requests) >= self.min_conversations
            and (self.min_users is None or theme.people >= self.min_users)
            and theme.coherence >= MIN_COHERENCE
        )

    def qualifier_ok(self, word: str) -> bool:
        return _qualifier_ok(word, self.plurals)


def find_themes(
    requests: list[Request],
    vectors: dict[int, Any],
    *,
    min_conversations: int,
    min_users: int | None,
    exclude: frozenset[str] | set[str] = frozenset(),
    clause_vectors: Any = None,
    head_vectors: dict[str, Any] | None = None,
) -> list[Theme]:
    """Themes that recur in enough conversations, most recurrent and coherent first.
    ``exclude``: words no theme is named after (names written in the messages).
    ``clause_vectors``: one row per request, the embedding of its clause; with them,
    requests alike in meaning are grouped too, whatever words they use
    (``meaning_themes``). ``head_vectors``: the embedding of each head noun; with them,
    requests whose heads mean one kind of work are one head's requests (``same_heads``)."""
    head_of = same_heads(requests, head_vectors) if head_vectors else {}
    rd = _Reading(requests, vectors, min_conversations, min_users, exclude, head_of)
    themes = [
        *_head_themes(rd),
        *_modifier_themes(rd),
        *_made_noun_themes(rd),
        *_key_noun_themes(rd),
        *_verb_themes(rd),
        *_audience_themes(rd),
        *_joined_noun_themes(rd),
        *version_themes(rd),
    ]
    if clause_vectors is not None:
        for theme in meaning_themes(
            requests,
            clause_vectors,
            vectors,
            min_conversations=min_conversations,
            exclude=exclude,
        ):
            if rd.recurs(theme):
                themes.append(theme)
    return _one_per_work(_ranked(themes))


def parts_as_wholes(requests: list[Request]) -> list[Request]:
    """Requests for a part of a piece of work ("Newsletter item: …", "a bit for the
    newsletter", ``Request.wholes``) read as requests for the whole when another
    conversation asks for the whole itself (its word is the head there): one kind of work,
    one theme. A part another conversation asks for in the same words ("the agenda
    item"), or whose modifier another conversation writes before a part when the whole
    is asked for nowhere ("methods section", "methods paragraph"), is work of its own
    and stays as read, as does a part no whole is found for, unless its head says nothing
    alone ("bit"): then it is no request."""
    heads_in: dict[str, set[Any]] = defaultdict(set)
    part_mods_in: dict[str, set[Any]] = defaultdict(set)
    parts_in: dict[tuple[str, str], set[Any]] = defaultdict(set)
    for r in requests:
        if r.wholes and r.mods:
            part_mods_in[r.mods[-1]].add(r.message.conversation_id)
            parts_in[r.mods[-1], r.head].add(r.message.conversation_id)
        elif r.head and not r.wholes:
            heads_in[r.head].add(r.message.conversation_id)
    read = []
    for r in requests:
        others = {r.message.conversation_id}
        if not r.wholes or (r.mods and parts_in[r.mods[-1], r.head] - others):
            read.append(r)  # "the agenda item" asked for again: the part is the work
            continue
        whole = None
        for word in r.wholes:
            if heads_in[word] - others:
                whole = word
                break
            if r.mods and word == r.mods[-1] and part_mods_in[word] - others:
                break  # "methods section": the part is the work
        if whole is None:
            if r.head not in META_HEADS:
                read.append(r)
            continue
        if r.mods and r.mods[-1] == whole:
            mods, phrases = r.mods[:-1], r.phrases
        else:
            phrase = next(p for p in r.phrases if p[1] == whole)
            mods = [w for w in phrase[2][:-1] if w not in DETERMINERS]
            phrases = [p for p in r.phrases if p is not phrase]
        read.append(replace(r, head=whole, mods=mods, phrases=phrases, wholes=()))
    return read


def objects_named_before(requests: list[Request]) -> list[Request]:
    """A request made with a verb of work whose object stands for a thing ("Write one?",
    "can you write it and an email to their manager", ``STAND_IN_OBJECTS``) asks for what its message named
    before it: "… want a credit on the sport show. Write one?" asks for a credit. It is
    read so (that noun its head) when another conversation asks for that noun itself
    (its word is the head there), as ``parts_as_wholes`` reads a part: the nearest such
    noun before the request, never a name. A request written after a reply (an edit of
    the draft at hand: "rewrite it"), or with no such noun before it, stays as read."""
    from learning.policy import WORK_VERBS

    heads_in: dict[str, set[Any]] = defaultdict(set)
    for r in requests:
        if r.head and not r.reported:
            heads_in[r.head].add(r.message.conversation_id)
    read = []
    for r in requests:
        if r.head or r.reported or r.message.after_assistant or (r.verb or "") not in WORK_VERBS:
            read.append(r)
            continue
        readable = readable_text(r.message.text)
        if not _stand_in_object(tokens(readable, r.start, r.end), r.verb or ""):
            read.append(r)  # "editing x1", "confirming": no thing stood for
            continue
        # the thing is the first one named in the last sentence before the request that
        # names one ("… want a flyer to go beside the poster. Write one?": the flyer)
        named = None
        sentence = -1
        earlier = tokens(readable, 0, r.start)
        for k, t in enumerate(earlier):
            before = readable[: t.start].rstrip()
            if _after_name(t, readable):
                continue  # a name ("Harbour Fry", "Folk on the Esk")
            if not _is_noun_word(t) or not language.can_be(t.low, "NOUN"):
                continue
            if _in_phrase(earlier, k):
                continue  # where or what for, not the thing: "a credit on the sport show"
            if _the_named(earlier, k, readable):
                continue  # a place or matter a name says which: "the Waterloo Road job"
            if heads_in[_lemma(t)] - {r.message.conversation_id}:
                at = len(_SENTENCE_ENDS.findall(before))
                if at > sentence:
                    named, sentence = t, at
        if named is None:
            read.append(r)
            continue
        noun = _lemma(named)
        read.append(replace(r, head=noun, surface={**r.surface, noun: _surface(named)}))
    return read


_SENTENCE_ENDS = re.compile(r"[.!?\n]+(?=\s|$)")


def _after_name(before: Any, readable: str) -> bool:
    """Whether ``before`` is a name: capitalised where no sentence opens."""
    ahead = readable[: before.start].rstrip()
    return before.text[:1].isupper() and bool(ahead) and ahead[-1] not in ".!?:;\n"


def _the_named(toks: list[Any], k: int, readable: str) -> bool:
    """Whether the noun at ``k`` is one particular thing a name says which: "the" (or a
    possessive) and a name before it ("the Waterloo Road job"), not a kind a name is
    part of ("Gazette notice £110" in an estimate's list)."""
    j = k
    while j > 0 and _after_name(toks[j - 1], readable):
        j -= 1
    return j < k and j > 0 and (toks[j - 1].low == "the" or toks[j - 1].low.endswith("'s"))


def _in_phrase(toks: list[Any], k: int) -> bool:
    """Whether the noun at ``k`` ends a prepositional phrase ("on the sport show"): its
    noun phrase (up to three modifiers, then an article) follows a preposition."""
    j = k - 1
    while j >= 0 and k - j <= 3 and _is_noun_word(toks[j]):
        j -= 1  # its modifiers ("sport" of "the sport show")
    if j >= 0 and toks[j].low in DETERMINERS:
        j -= 1  # the article that opens it
    return j >= 0 and toks[j].low in PREPOSITIONS


def _stand_in_object(toks: list[Any], verb: str) -> bool:
    """Whether the object of ``verb`` in a clause is a word that stands for a thing named
    before (``STAND_IN_OBJECTS``): "Write one?", "can you write it", "draft me one"."""
    for k, t in enumerate(toks):
        if language.lemma(t.low, "VERB") != verb:
            continue
        rest = [x.low for x in toks[k + 1 :] if x.low not in ("me", "us")]
        return bool(rest) and rest[0] in STAND_IN_OBJECTS
    return False


def same_heads(requests: list[Request], head_vectors: dict[str, Any]) -> dict[str, str]:
    """The head each head's requests are grouped under: heads whose own embeddings are at
    least ``SAME_HEAD`` alike name one kind of work ("Quotation for the church hall
    committee" with "quote for the takeaway"), joined when every pair of the group is so
    alike (no chain of near words). A group is named by the head most of its
    conversations write (the one most of its quotes then write; ties by the shorter word,
    then the alphabet), so the sentence never names a kind its quotes do not write. Heads
    alone are left out of the map."""
    import numpy as np

    convs: dict[str, set[int]] = defaultdict(set)
    for r in requests:
        if r.head and r.head in head_vectors:
            convs[r.head].add(r.message.conversation_id)
    heads = sorted(convs, key=lambda h: (-len(convs[h]), len(h), h))
    groups: list[list[str]] = []
    for head in heads:
        v = np.asarray(head_vectors[head])
        for group in groups:
            if all(float(v @ np.asarray(head_vectors[g])) >= SAME_HEAD for g in group):
                group.append(head)
                break
        else:
            groups.append([head])
    return {h: group[0] for group in groups if len(group) > 1 for h in group[1:]}


def _head_themes(rd: _Reading) -> list[Theme]:
    """Themes of a head: alone (unless generic), with a modifier, a phrase noun or a
    noun of the same messages (a topic)."""
    themes: list[Theme] = []
    for head, reqs in rd.by_head.items():
        convs = {r.message.conversation_id for r in reqs}
        if len(convs) < rd.min_conversations:
            continue
        options: list[Theme] = []
        if head not in GENERIC_HEADS:
            options.append(Theme(head=head, requests=_theme_requests(reqs, lambda r: True)))
        options += _modifier_options(rd, head, reqs)
        options += _phrase_options(rd, head, reqs)
        options += _topic_options(rd, head, reqs)
        recurring_mods: set[str] = set()
        found_before = len(themes)
        for theme in options:
            if not rd.recurs(theme):
                continue
            if theme.kind in ("mod", "topic"):
                theme.prefix = _prefix(theme, rd.before, rd.nouns, rd.exclude)
                theme.prefix_written = rd.written_as.get(theme.prefix, theme.prefix)
                if theme.qualifier in VAGUE_TOPICS and not theme.prefix and not _text_kind(theme):
                    continue  # "replies about changes": changes to what?
            if theme.kind == "mod":
                recurring_mods.add(theme.qualifier)
                theme.then = _compound_after(theme, rd.exclude)
            themes.append(theme)
        if head in GENERIC_HEADS:
            named = _named_by_most(rd, head, reqs, recurring_mods)
            if named is None and len(themes) == found_before:
                # no modifier, phrase or topic of the replies recurs: what they answer
                named = _named_by_what_it_answers(rd, head, reqs, recurring_mods)
            if named is not None:
                themes.append(named)
    return themes


def _named_by_what_it_answers(
    rd: _Reading, head: str, reqs: list[Request], recurring_mods: set[str]
) -> Theme | None:
    """Replies that recur though no modifier names them, named by what most of their
    messages ask a reply to ("reply to this enquiry", "Reply to an enquiry from a dad",
    "write her a reply": "Writes replies to enquiries.", ``wording._replied_to``): a reply
    is a kind of work by the message it answers, as a review reply or a complaint reply
    is. None for any other head, when the replies do not recur, when no one noun is
    replied to in most of them, or when a modifier recurs alone (its own theme names the
    work); the caller asks only when no theme of the replies recurs ("replies to reviews"
    and "replies about booking changes" stay two kinds of work)."""
    if head != REPLY_HEAD or recurring_mods:
        return None
    theme = Theme(head=head, requests=_theme_requests(reqs, lambda r: True))
    if not rd.recurs(theme):
        return None
    answered = _replied_to(list(theme.requests.values()))
    if not answered or answered in rd.exclude or not rd.qualifier_ok(answered):
        return None
    return theme


def _text_kind(theme: Theme) -> bool:
    """Whether a modifier is itself a kind of text that a head of the medium is sent as:
    an "update email" is an update, sent by e-mail (not "changes" or "details": of
    what?)."""
    return theme.kind == "mod" and theme.qualifier in GENERIC_HEADS and theme.head in GENERIC_HEADS


def _named_by_most(
    rd: _Reading, head: str, reqs: list[Request], recurring_mods: set[str]
) -> Theme | None:
    """A head that needs a qualifier ("posts") whose requests, together, recur though no
    modifier recurs alone, named by the modifier most of them write: "Facebook post",
    "Instagram post for the open day", "facebook post" -> "Writes Facebook posts." (the
    sentence names that modifier, ``wording``). None when no modifier is written by more
    than half of them (after the messages far in meaning are dropped), or when that
    modifier recurs alone (its own theme names the work)."""
    theme = Theme(head=head, requests=_theme_requests(reqs, lambda r: True))
    if not rd.recurs(theme):
        return None
    kept = list(theme.requests.values())
    mods = Counter(m for r in kept for m in sorted({as_platform(x) for x in r.mods}))
    if not mods:
        return None
    mod, n = mods.most_common(1)[0]
    if n * 2 <= len(kept) and platforms_named(kept):
        return theme  # each names a platform, none most: "Writes Facebook and Instagram posts."
    if n * 2 <= len(kept) or n == len(kept) or mod in recurring_mods:
        return None  # no modifier most write, or every one: the modifier's own theme
    if (
        mod in PEOPLE_WORDS
        or mod in VAGUE_MODIFIERS
        or mod in TIME_MODIFIERS
        or mod in STOP_WORDS
        or mod in rd.exclude
        or mod == head
        or language.is_comparative(mod)
        or not rd.qualifier_ok(mod)
    ):
        return None
    return theme


def _modifier_options(rd: _Reading, head: str, reqs: list[Request]) -> list[Theme]:
    options: list[Theme] = []
    mods = Counter(m for r in reqs for m in sorted(set(r.mods)))
    for mod in mods:
        if mod in PEOPLE_WORDS or mod in STOP_WORDS or mod == head or mod in rd.exclude:
            continue
        if mod in VAGUE_MODIFIERS or language.is_comparative(mod):
            continue  # "short explanations": how, not what
        options.append(
            Theme(
                head=head,
                qualifier=mod,
                kind="mod",
                requests=_theme_requests(reqs, lambda r, m=mod: m in r.mods),
            )
        )
    return options


def _phrase_options(rd: _Reading, head: str, reqs: list[Request]) -> list[Theme]:
    options: list[Theme] = []
    seen_phrases: set[tuple[str, str]] = set()
    for prep, noun, lemmas in (p for r in reqs for p in r.phrases):
        if noun in META_HEADS and len(lemmas) > 1:
            noun = lemmas[-2]  # "to the refund request": about refunds
        if noun in NON_TOPICS or noun == head or (prep, noun) in seen_phrases:
            continue
        if noun in rd.exclude:
            continue
        if not rd.qualifier_ok(noun):
            continue
        seen_phrases.add((prep, noun))
        options.append(
            Theme(
                head=head,
                qualifier=noun,
                kind="phrase",
                prep=prep,
                requests=_theme_requests(
                    reqs,
                    lambda r, n=noun: n in r.mods or any(n in p[2] for p in r.phrases),
                ),
            )
        )
    return options


def _topic_options(rd: _Reading, head: str, reqs: list[Request]) -> list[Theme]:
    options: list[Theme] = []
    if not reqs:
        return options
    nouns = rd.nouns
    topic_counts = Counter(t for r in reqs for t in nouns[r.message.id])
    verbs_here = {r.verb for r in reqs if r.verb}
    for topic in topic_counts:
        if topic in NON_TOPICS or topic == head or topic in GENERIC_HEADS:
            continue
        if topic in rd.exclude:
            continue
        if topic in verbs_here or not rd.qualifier_ok(topic):
            continue  # "Reviews diffs about reviews"
        options.append(
            Theme(
                head=head,
                qualifier=topic,
                kind="topic",
                compound=topic in rd.as_modifier,
                # a request that names its own kind of work ("reminder texts")
                # is not about the topic of the others ("texts about appointments")
                requests=_theme_requests(
                    reqs,
                    lambda r, t=topic: (
                        (t in nouns[r.message.id] or any(t in p[2] for p in r.phrases))
                        and not _names_other_work(r, t)
                        # what a reported error is about is in the paste
                        and not r.reported
                    ),
                ),
            )
        )
    return options


def _modifier_themes(rd: _Reading) -> list[Theme]:
    """A modifier over several heads that name one kind of text: "aftercare sheet",
    "aftercare notes" -> "Writes aftercare notes."; a text about or for what the modifier
    names is that kind too, once two conversations write it as a modifier ("reset notice",
    "reset post": "a paragraph about the comp wall reset", "poster text for the reset")."""
    themes: list[Theme] = []
    by_mod: dict[str, list[Request]] = defaultdict(list)
    by_phrase: dict[str, list[Request]] = defaultdict(list)
    for r in rd.requests:
        if r.head and r.head not in rd.exclude and not r.reported:
            # what a reported error names is what fails, not a kind of work
            for m in sorted(set(r.mods)):
                by_mod[m].append(r)
            for p in {p[1] for p in r.phrases if p[0] in ABOUT_PREPOSITIONS} - set(r.mods):
                by_phrase[p].append(r)
    for mod, reqs in by_mod.items():
        if len({r.head for r in reqs}) < 2 or mod in rd.exclude or mod in rd.by_head:
            continue
        if len({r.message.conversation_id for r in reqs}) >= 2:
            reqs = reqs + by_phrase.get(mod, [])
        if mod in VAGUE_MODIFIERS or mod in PEOPLE_WORDS or mod in TIME_MODIFIERS:
            continue
        if not rd.qualifier_ok(mod) and not language.can_be(mod, "NOUN"):
            continue
        theme = Theme(
            head="",
            qualifier=mod,
            kind="modonly",
            requests=_theme_requests(reqs, lambda r: True),
        )
        if rd.recurs(theme):
            theme.then = _compound_after(theme, rd.exclude)
            themes.append(theme)
    return themes


def _compound_after(theme: Theme, exclude: frozenset[str] | set[str]) -> str:
    """The noun most of a modifier theme's requests write right after its qualifier, as
    written, when it is not what they make: "field trial write-up", "field trial summary",
    "write up yesterday's field trial" -> "trial", so the sentence names the work as
    people do ("field trial write-ups", not "field write-ups"). Only a word written small
    (never a name) that is no head of the theme and says what, not how or when ("field
    final summary"): "" when there is none."""
    reqs = list(theme.requests.values())
    after: Counter[str] = Counter()
    written_as: dict[str, str] = {}
    for r in reqs:
        written = [*r.mods, r.head] if r.head else list(r.mods)
        for a, b in zip(written, written[1:], strict=False):
            if a == theme.qualifier:
                after[b] += 1
                written_as.setdefault(b, r.surface.get(b, b))
                break
    heads = Counter(r.head for r in reqs if r.head)
    made = theme.head or (heads.most_common(1)[0][0] if heads else "")
    for word, n in after.most_common(1):
        surface = written_as[word]
        if (
            n >= 2
            and n * 2 > len(reqs)
            and word != made
            and word not in exclude
            and surface == surface.lower()
            and word not in VAGUE_MODIFIERS
            and word not in TIME_MODIFIERS
            and word not in PEOPLE_WORDS
            and not language.is_comparative(word)
            # a word that can be an adjective too is a noun between a noun and the head
            # ("field trial write-up"): a noun as a modifier comes after any adjective
            and _qualifier_ok(word, {word})
            and language.can_be(word, "NOUN")
        ):
            return surface
    return ""


def _audience_themes(rd: _Reading) -> list[Theme]:
    """Messages of every kind written to one group of people: "Email to parents of the
    Tuesday juniors", "Reply to a parent asking …", "Message to the parents of …" ->
    "Writes messages to parents.". Not people in general ("customers", "guests": who
    every message is for) and only when the kinds differ (one kind is a phrase theme of
    its head)."""
    themes: list[Theme] = []
    by_noun: dict[str, list[Request]] = defaultdict(list)
    for r in rd.requests:
        if r.head in MESSAGE_HEADS and not r.reported:
            for p in {p[1] for p in r.phrases if p[0] == "to"}:
                by_noun[p].append(r)
    for noun, reqs in by_noun.items():
        if len({r.head for r in reqs}) < 2 or noun in NON_TOPICS or noun in rd.exclude:
            continue
        if not rd.qualifier_ok(noun) or not language.can_be(noun, "NOUN"):
            continue
        theme = Theme(
            head="message",
            qualifier=noun,
            kind="phrase",
            prep="to",
            requests=_theme_requests(reqs, lambda r: True),
        )
        if rd.recurs(theme):
            themes.append(theme)
    return themes


def _kind_nouns(rd: _Reading, r: Request, kinds: set[str]) -> list[str]:
    """The nouns that say which kind of work ``r`` asks for, in the order the sentence
    writes them: the noun of a phrase of a generic head first, when other requests write
    it before a head (``kinds``: "reminder texts for tomorrow's appointments" beside
    "appointment confirmation email"; not "for tomorrow's dogs", not "label text for a
    linen shirt": what the text is about), then the
    modifiers as written, then the head ("booking confirmation"). Not a generic head
    ("text", "email"), nor a word that says how, when or for whom: those name no kind;
    nothing of a reply, whose nouns name what it answers ("reply to a 3 star review")."""
    if not r.head or r.reported or r.named or r.head == REPLY_HEAD:
        return []
    about = [p[1] for p in r.phrases if p[1] in kinds] if r.head in GENERIC_HEADS else []
    out: list[str] = []
    for noun in [*about, *r.mods, r.head]:
        if (
            noun in out
            or noun in rd.exclude
            or noun in GENERIC_HEADS
            or noun in NON_TOPICS
            or noun in VAGUE_MODIFIERS
            or noun in TIME_MODIFIERS
            or noun in VAGUE_TOPICS
            or not rd.qualifier_ok(noun)
            or not language.can_be(noun, "NOUN")
        ):
            continue
        out.append(noun)
    return out


def _kinds_made(r: Request, nouns: list[str]) -> list[str]:
    """Of the nouns ``r`` writes (``_kind_nouns``), the ones it asks for as its kind of
    work: every one when the head says only that a text is made ("confirmation email",
    "reminder texts for …") or is vague ("booking details"); else the head and the noun
    right before it, the compound it names ("shop listing", "appointment confirmation").
    A noun further before names something else: "scaffold licence application" is an
    application for a licence, no kind of scaffold."""
    if r.head in GENERIC_HEADS or r.head in VAGUE_TOPICS:
        return nouns
    return [n for n in (r.mods[-1] if r.mods else "", r.head) if n in nouns]


def _joined_noun_themes(rd: _Reading) -> list[Theme]:
    """One kind of work asked for under two nouns, each in too few conversations alone,
    that one request writes together as one compound: "Booking confirmation for the
    Hargreaves", "welcome + booking details", "Confirmation email please" -> "Writes
    booking confirmations."; "reminder texts for tomorrow's appointments", "appointment
    confirmation email", "clinic reminders" -> "Writes appointment reminders.". The
    compound is the evidence that both nouns name one kind (no chain through a third
    noun, no generic head such as "text" between them), and the sentence writes both, so
    every quote shares a word with it. A noun that recurs enough alone is a theme of its
    own and is joined to nothing; each noun joins one other at most (the pair in the
    most conversations). A request counts for the nouns it asks for as its kind
    (``_kinds_made``)."""
    convs: dict[str, set[int]] = defaultdict(set)
    named: dict[int, list[str]] = {}
    kinds = {m for r in rd.requests if r.head != REPLY_HEAD for m in r.mods}
    made: dict[int, list[str]] = {}
    for k, r in enumerate(rd.requests):
        named[k] = _kind_nouns(rd, r, kinds)
        made[k] = _kinds_made(r, named[k])
        for noun in made[k]:
            convs[noun].add(r.message.conversation_id)
    few = {n for n, c in convs.items() if NAMING_CONVERSATIONS <= len(c) < rd.min_conversations}
    pairs: dict[tuple[str, str], int] = {}
    for nouns in named.values():
        joined = [n for n in nouns if n in few]
        for a, b in zip(joined, joined[1:], strict=False):
            # each noun brings a conversation of its own: else one names the other's work
            if convs[a] <= convs[b] or convs[b] <= convs[a]:
                continue
            if (a, b) not in pairs and (b, a) not in pairs:
                pairs[(a, b)] = len(convs[a] | convs[b])
    themes: list[Theme] = []
    used: set[str] = set()
    for (qualifier, head), _ in sorted(pairs.items(), key=lambda p: (-p[1], p[0])):
        if qualifier in used or head in used:
            continue
        # "Test class for …" names the thing made, no verb: "Writes test classes."
        reqs = [
            replace(r, verb=None) if r.verb in (qualifier, head) else r
            for k, r in enumerate(rd.requests)
            if {qualifier, head} & set(made[k])
        ]
        theme = Theme(
            head=head,
            qualifier=qualifier,
            kind="mod",
            requests=_theme_requests(reqs, lambda r: True),
        )
        if rd.recurs(theme):
            used |= {qualifier, head}
            themes.append(theme)
    return themes


def _made_noun_themes(rd: _Reading) -> list[Theme]:
    """A noun that is what is made in some requests and what others are about, named
    as the requests that make it say it: "chase the overdue invoice", "another overdue
    invoice to chase", "a payment reminder for an unpaid invoice" -> "Chases overdue
    invoices."."""
    themes: list[Theme] = []
    by_noun: dict[str, list[Request]] = defaultdict(list)
    for r in rd.requests:
        for n in {r.head, *(p[1] for p in r.phrases)}:
            if n and n not in rd.exclude:
                by_noun[n].append(r)
    for noun, reqs in by_noun.items():
        made = [r for r in reqs if _makes(r, noun)]
        if len({r.message.conversation_id for r in made}) < 2 or len({r.head for r in reqs}) < 2:
            continue
        if noun in GENERIC_HEADS or noun in NON_TOPICS or not any(r.verb for r in made):
            continue
        theme = Theme(
            head="", qualifier=noun, kind="noun", requests=_theme_requests(reqs, lambda r: True)
        )
        if rd.recurs(theme) and any(_makes(r, noun) and r.verb for r in theme.requests.values()):
            themes.append(theme)
    return themes


def _key_noun_themes(rd: _Reading) -> list[Theme]:
    """A noun that names the work wherever the request puts it: what is made ("start a
    terminology glossary"), a modifier ("Glossary update") or what a phrase is for
    ("pull out the key terms for a glossary") -> "Prepares terminology glossaries."; it
    is made in at least one request, so it is a kind of work, not a topic."""
    themes: list[Theme] = []
    by_key: dict[str, list[Request]] = defaultdict(list)
    for r in rd.requests:
        if r.head:
            for n in {r.head, *(r.mods if not r.reported else ()), *(p[1] for p in r.phrases)}:
                by_key[n].append(r)
    for noun, reqs in by_key.items():
        if noun in rd.exclude or noun in GENERIC_HEADS or noun in NON_TOPICS:
            continue
        if noun in VAGUE_MODIFIERS or noun in TIME_MODIFIERS or noun in VAGUE_TOPICS:
            continue
        if not language.can_be(noun, "NOUN"):
            continue
        made_in = {r.message.conversation_id for r in reqs if _makes(r, noun)}
        if not made_in:
            continue
        # a word that can be an adjective too is a noun where two requests make it: "draft
        # the welcome", "write a welcome for the new starters"
        if not rd.qualifier_ok(noun) and not (_wordlike(noun) and len(made_in) >= 2):
            continue
        theme = Theme(
            head="", qualifier=noun, kind="key", requests=_theme_requests(reqs, lambda r: True)
        )
        if rd.recurs(theme) and any(_makes(r, noun) for r in theme.requests.values()):
            themes.append(theme)
    return themes


def _makes(request: Request, noun: str) -> bool:
    """Whether ``request`` makes ``noun``: its object or label, not one particular thing a
    name says which ("Mrs Beardmore job again.": the site the work is for)."""
    return request.head == noun and not request.named


def _verb_themes(rd: _Reading) -> list[Theme]:
    """Themes of a verb: with a phrase noun, with a noun of its object (a verb that
    names the work), or alone over what it is done to."""
    themes: list[Theme] = []
    for verb, reqs in rd.by_verb.items():
        if len({r.message.conversation_id for r in reqs}) < rd.min_conversations:
            continue
        if not any(r.head for r in reqs):
            continue  # nothing names what is made
        themes += _verb_phrase_themes(rd, verb, reqs)
        if verb in WORK_NAMING_VERBS:
            themes += _verb_object_themes(rd, verb, reqs)
            # a verb that names the work on its own, over what it is done to: "Reviews PRs
            # and diffs." (every request names its object)
            theme = Theme(
                head="",
                verb=verb,
                kind="verbonly",
                requests=_theme_requests(
                    reqs,
                    lambda r, v=verb: (
                        bool(r.head)
                        and r.head not in rd.exclude
                        # what is said slow is named whatever it is: "Makes slow
                        # reports faster." (a generic head says nothing of what is reviewed)
                        and (r.head not in GENERIC_HEADS or v == SPEED_VERB)
                        and r.head not in PEOPLE_WORDS
                    ),
                ),
            )
            if rd.recurs(theme):
                themes.append(theme)
    return themes


def _verb_phrase_themes(rd: _Reading, verb: str, reqs: list[Request]) -> list[Theme]:
    """A verb and a phrase noun, whatever the object: "summarise … for engineering"; a
    request counts when the noun is in its phrases or elsewhere in its message
    ("Escalation for engineering: … Summarise please.")."""
    themes: list[Theme] = []
    nouns = rd.nouns
    preps = Counter((p[1], p[0]) for r in reqs for p in r.phrases)
    # what is made with the noun in a phrase: a request naming something else
    # ("a SQL query" in a message that also names "the orders table") is other work
    phrase_heads: dict[str, set[str]] = defaultdict(set)
    for r in reqs:
        for p in r.phrases:
            phrase_heads[p[1]].add(r.head)
    for noun in {p[1] for r in reqs for p in r.phrases}:
        if noun in NON_TOPICS or noun in rd.exclude or not rd.qualifier_ok(noun):
            continue
        prep = max((n, p) for (q, p), n in preps.items() if q == noun)[1]
        theme = Theme(
            head="",
            verb=verb,
            qualifier=noun,
            kind="verb",
            prep=prep,
            requests=_theme_requests(
                reqs,
                lambda r, n=noun, heads=phrase_heads: (
                    any(x[1] == n for x in r.phrases)
                    or (n in nouns[r.message.id] and (not r.head or r.head in heads[n]))
                ),
            ),
        )
        if rd.recurs(theme) and any(r.head for r in theme.requests.values()):
            themes.append(theme)
    return themes


def _verb_object_themes(rd: _Reading, verb: str, reqs: list[Request]) -> list[Theme]:
    """A verb that names the work on its own and a noun of what it is done to, wherever
    the request puts it: "proofread a paragraph of my translation", "proofread this bit
    of my translation", "Proofread please" under a pasted translation -> "Proofreads
    translations."."""
    themes: list[Theme] = []
    objects = {
        id(r): (
            {r.head, *r.mods, *(p[1] for p in r.phrases)} - {""}
            if r.head or r.phrases
            else rd.nouns[r.message.id]
        )
        for r in reqs
    }
    counts = Counter(n for r in reqs for n in objects[id(r)])
    for noun, times in counts.items():
        if times < rd.min_conversations or noun in NON_TOPICS or noun in rd.exclude:
            continue
        if noun in GENERIC_HEADS or noun == verb or not rd.qualifier_ok(noun):
            continue
        theme = Theme(
            head="",
            verb=verb,
            qualifier=noun,
            kind="verbnoun",
            requests=_theme_requests(reqs, lambda r, x=noun, o=objects: x in o[id(r)]),
        )
        if rd.recurs(theme):
            themes.append(theme)
    return themes


#: at equal recurrence a named theme beats a bare head ("cake quotes" over "quotes")
_KIND_RANK = {
    "mod": 4,
    "phrase": 3,
    "verb": 3,
    "verbnoun": 2,
    "key": 1,
    "topic": 2,
    "modonly": 1,
    "noun": 1,
    "verbonly": 1,
    "": 0,
}


def _ranked(themes: list[Theme]) -> list[Theme]:
    """Most recurrent first; at equal recurrence a named theme beats a bare head, and a
    topic people also write before the head ("group quotes") beats one they never do
    ("quotes about rooms"); the same answer on every run whatever the order sets were
    read in."""
    themes = sorted(themes, key=lambda t: (t.kind, t.head, t.verb, t.qualifier, t.prefix, t.prep))
    themes.sort(
        key=lambda t: (
            len(t.requests),
            t.people,
            _KIND_RANK[t.kind],
            _answered_topic(t),
            t.compound,
            # over the same requests "book club questions" names more than "book questions"
            bool(t.prefix),
            round(t.coherence, 2),
        ),
        reverse=True,
    )
    return themes


def _answered_topic(theme: Theme) -> bool:
    """Whether a topic of replies is what a message of the theme names the reply as
    answering ("Reply to this google review"): that names the work better than a topic
    as often written that the messages only mention ("5 stars", "the old tyre")."""
    return (
        theme.kind == "topic"
        and theme.head == REPLY_HEAD
        and any(theme.qualifier in nouns_replied_to(r.message) for r in theme.requests.values())
    )


def _one_per_work(themes: list[Theme]) -> list[Theme]:
    """One group of requests is one theme: a later theme of the same head over mostly
    the same conversations names the same work again ("posts about loaves")."""
    kept: list[Theme] = []
    for theme in themes:
        if any(_same_work(theme, k) for k in kept):
            continue
        kept.append(theme)
    return kept


#: two themes name one kind of work when their requests' messages are this alike (cosine
#: between the means of their normalised message vectors), whatever words they are named
#: with. Chosen on the tune part, where the one theme found twice ("Summarises threads for
#: engineering." and "Prepares the escalations.", one key theme) stands at 0.89 and the
#: closest pair of different kinds of work ("Drafts refund replies." and "Drafts replies
#: about passwords.") at 0.64: the threshold sits between them, nearer the different work.
SAME_THEME_COSINE = 0.8
#: ... or when most of the conversations of the smaller are the other's too (this share)
#: and their messages are at least this alike: on the tune part the theme found twice
#: shares every conversation, different work at most a third of them
SAME_THEME_SHARED = 0.5
SAME_THEME_SHARED_COSINE = 0.5


def _centre(theme: Theme, vectors: dict[int, Any]) -> Any:
    """The mean of the theme's message vectors, normalised (None without vectors)."""
    import numpy as np

    rows = [vectors[r.message.id] for r in theme.requests.values() if r.message.id in vectors]
    if not rows:
        return None
    mean = np.vstack(rows).mean(axis=0)
    norm = float(np.linalg.norm(mean))
    return mean / norm if norm else None


def same_theme(a: Theme, b: Theme, vectors: dict[int, Any]) -> bool:
    """Whether themes ``a`` and ``b`` name one kind of work, by meaning: their messages
    are very alike (``SAME_THEME_COSINE``), or they share most conversations of the
    smaller one and are alike (``SAME_THEME_SHARED``, ``SAME_THEME_SHARED_COSINE``). "Summarises threads for
    engineering." and "Prepares the escalations." over the same escalation threads are
    one theme; "Drafts refund replies." and "Drafts replies about passwords." are two."""
    ca, cb = _centre(a, vectors), _centre(b, vectors)
    if ca is None or cb is None:
        return False
    cosine = float(ca @ cb)
    mine, theirs = set(a.requests), set(b.requests)
    shared = len(mine & theirs) / max(1, min(len(mine), len(theirs)))
    return cosine >= SAME_THEME_COSINE or (
        shared >= SAME_THEME_SHARED and cosine >= SAME_THEME_SHARED_COSINE
    )


def theme_families(themes: list[Theme], vectors: dict[int, Any]) -> list[list[Theme]]:
    """The themes grouped into kinds of work (``same_theme``, joined transitively): each
    family in the order of its first theme, its themes in the order given (the best
    worded first). One family is one theme for the reviewer: it is proposed once, in one
    wording, and when one of its wordings is turned down or in the persona, none of the
    others is proposed."""
    parent = list(range(len(themes)))

    def root(k: int) -> int:
        while parent[k] != k:
            parent[k] = parent[parent[k]]
            k = parent[k]
        return k

    for i in range(len(themes)):
        for j in range(i + 1, len(themes)):
            if root(i) != root(j) and same_theme(themes[i], themes[j], vectors):
                parent[max(root(i), root(j))] = min(root(i), root(j))
    families: dict[int, list[Theme]] = {}
    for k, theme in enumerate(themes):
        families.setdefault(root(k), []).append(theme)
    return list(families.values())


def meaning_clusters(clause_vectors: Any, threshold: float = SAME_WORK) -> list[list[int]]:
    """Groups of rows alike in meaning (average-linkage agglomerative clustering over
    cosine): the two groups whose rows are closest on average merge while that mean is
    at least ``threshold``. Rows are L2-normalised vectors; groups of two rows or more,
    each sorted, in order of their first row (the same answer on every run)."""
    import numpy as np

    n = len(clause_vectors)
    if n < 2:
        return []
    mat = np.asarray(clause_vectors, dtype=np.float64)
    sims = mat @ mat.T
    np.fill_diagonal(sims, -np.inf)
    members: dict[int, list[int]] = {k: [k] for k in range(n)}
    while True:
        a, b = divmod(int(np.argmax(sims)), n)
        if sims[a, b] < threshold:
            break
        # Lance-Williams update for average linkage: the merged group's mean to each other
        # group is the size-weighted mean of its two parts' means
        na, nb = len(members[a]), len(members[b])
        row = (na * sims[a] + nb * sims[b]) / (na + nb)
        sims[a, :] = row
        sims[:, a] = row
        sims[a, a] = -np.inf
        sims[b, :] = -np.inf
        sims[:, b] = -np.inf
        members[a].extend(members.pop(b))
    return sorted((sorted(m) for m in members.values() if len(m) > 1), key=lambda m: m[0])


def meaning_themes(
    requests: list[Request],
    clause_vectors: Any,
    vectors: dict[int, Any],
    *,
    min_conversations: int,
    exclude: frozenset[str] | set[str] = frozenset(),
) -> list[Theme]:
    """Themes of requests grouped by meaning (``meaning_clusters`` over the embeddings of
    their clauses), so requests for one kind of work phrased with different words count
    together ("can u do the oct newsletter", "Can you start on the September newsletter
    for volunteers", "november newsletter pls"). A group in ``min_conversations``
    conversations is named as the word-level themes name work (``sentence_for``): after
    a theme found among the group alone in ``NAMING_CONVERSATIONS`` conversations, the one
    whose object (the sentence without its verb) the messages of most of the group's
    conversations name, at least half of them; a group with no such theme is left out
    (never a fragment or one request's words). Its requests: one per conversation, the
    naming theme's own first, then the members closest to the group's centre whose
    message names the object (a quote must share a word with the sentence), unless the
    member names other work: a modifier of its own (``_names_other_work``) or a head
    other conversations ask for as work of its own ("a quiz" is no lesson plan, however
    close in meaning). Not yet weighed against ``min_users`` or coherence: ``find_themes``
    does that."""
    import numpy as np

    heads: dict[str, set[int]] = defaultdict(set)
    for r in requests:
        if r.head:
            heads[r.head].add(r.message.conversation_id)
    words_of = {r.message.id: content_words(readable_text(r.message.text)) for r in requests}
    out: list[Theme] = []
    for group in meaning_clusters(clause_vectors):
        members = [requests[k] for k in group]
        conversations = {r.message.conversation_id for r in members}
        if len(conversations) < min_conversations:
            continue
        rows = np.asarray(clause_vectors)[group]
        centre = rows.mean(axis=0)
        closest = sorted(range(len(group)), key=lambda k: (-float(rows[k] @ centre), k))
        best: tuple[int, Theme, str, dict[int, Request]] | None = None
        for seed in find_themes(
            members,
            vectors,
            min_conversations=min(NAMING_CONVERSATIONS, min_conversations),
            min_users=None,
            exclude=exclude,
        ):
            name = sentence_for(seed)
            obj = content_words(name.split(" ", 1)[1])
            own = {seed.head, seed.qualifier, seed.verb} - {""}
            chosen = dict(seed.requests)
            for k in closest:
                r = members[k]
                if not words_of[r.message.id] & obj or _names_other_work(
                    r, seed.qualifier or seed.head
                ):
                    continue
                if (
                    r.head
                    and r.head not in own
                    and r.head not in GENERIC_HEADS
                    and len(heads[r.head]) >= NAMING_CONVERSATIONS
                ):
                    continue  # work of its own kind, asked for elsewhere too
                chosen.setdefault(r.message.conversation_id, r)
            if len(chosen) * 2 < len(conversations):
                continue
            if best is None or len(chosen) > best[0]:
                best = (len(chosen), seed, name, chosen)
        if best is None:
            continue
        _, seed, name, chosen = best
        if len(chosen) == len(seed.requests):
            continue  # the word-level theme says it all
        out.append(
            Theme(
                head=seed.head,
                verb=seed.verb,
                qualifier=seed.qualifier,
                kind=seed.kind,
                prep=seed.prep,
                prefix=seed.prefix,
                prefix_written=seed.prefix_written,
                then=seed.then,
                requests=chosen,
                compound=seed.compound,
                name=name,
            )
        )
    return out


def _prefix(
    theme: Theme,
    before: dict[str, Counter[str]],
    nouns: dict[int, set[str]],
    exclude: frozenset[str] | set[str],
) -> str:
    """The word people write before the theme's qualifier, so the sentence names it as
    they do: before a modifier when at least half of the theme's requests write it
    there ("group" of "group booking quote"); before a vague topic ("booking" of
    "booking change") when any request writes it there and it stands in at least half
    of the theme's messages. The lemma; "" when there is none."""
    reqs = list(theme.requests.values())

    def usable(word: str) -> bool:
        return (
            word not in exclude
            and word not in VAGUE_MODIFIERS
            and word not in PEOPLE_WORDS
            and word != theme.head
            and _qualifier_ok(word)
        )

    if theme.qualifier not in VAGUE_TOPICS:
        pairs = Counter(
            r.mods[k - 1]
            for r in reqs
            for k, m in enumerate(r.mods)
            if m == theme.qualifier and k > 0
        )
        if theme.kind == "topic":
            # a topic is named as the messages write it, in the request or not: "book
            # club questions", "for book club members", "the book club pick"
            for r in reqs:
                if any(m == theme.qualifier and k > 0 for k, m in enumerate(r.mods)):
                    continue
                pairs.update(_words_before(r.message, theme.qualifier))
        for word, n in pairs.most_common(1):
            if n * 2 >= len(reqs) and usable(word):
                return word
        return ""
    for word, _ in before.get(theme.qualifier, Counter()).most_common():
        if not usable(word):
            continue
        in_messages = sum(1 for r in reqs if word in nouns[r.message.id] or word in r.mods)
        return word if in_messages * 2 >= len(reqs) else ""
    return ""


def _words_before(message: Any, noun: str) -> list[str]:
    """Lemmas of the words a message writes right before ``noun`` (a lemma), each once,
    in the order written: counted, the first written wins a tie (a set's order would
    change with the hash seed)."""
    toks = tokens(readable_text(message.text))
    return list(
        dict.fromkeys(
            _lemma(a)
            for a, b in zip(toks, toks[1:], strict=False)
            if _lemma(b) == noun and b.start - a.end == 1 and _is_noun_word(a)
        )
    )


def _writes_word(message: Any, word: str) -> bool:
    """Whether a message writes ``word`` (a lemma) as a noun or a verb ("swept" and
    "sweeping" write "sweep")."""
    return any(
        word in (_lemma(t), language.lemma(t.low, "VERB"))
        for t in tokens(readable_text(message.text))
    )


def _bare_within(bare: Theme, named: Theme) -> bool:
    """Whether a theme of a head alone ("Writes the reminders.") is work a narrower theme
    already names: they share a conversation, and most of its requests' messages write
    the narrower theme's qualifier ("sweep" in "the folk we swept", "Sweep reminder")."""
    noun = (
        bare.qualifier if bare.kind == "key" else "" if bare.kind or bare.qualifier else bare.head
    )
    if not noun or bare.prefix or bare.name or named.qualifier in ("", noun):
        return False
    if named.kind not in ("mod", "modonly") or named.prep:
        return False  # a kind of the work ("sweep confirmations"), not whom it is for
    if not set(bare.requests) & set(named.requests):
        return False
    writing = sum(_writes_word(r.message, named.qualifier) for r in bare.requests.values())
    return writing * 2 > len(bare.requests)


def _same_work(theme: Theme, other: Theme) -> bool:
    """Whether ``theme`` names the work of ``other`` again: over mostly the same
    conversations, with the same head and verb, or one of them is the verb alone and
    the other's requests are mostly made with that verb ("Reviews the diffs." and
    "Reviews PRs and diffs.")."""
    mine, theirs = set(theme.requests), set(other.requests)
    if _bare_within(theme, other) or _bare_within(other, theme):
        return True
    if (theme.head, theme.verb) == (other.head, other.verb) and theme.kind not in (
        "noun",
        "modonly",
        "key",
    ):
        return len(mine & theirs) * 2 >= len(mine)
    for anchored, named in ((theme, other), (other, theme)):
        # a word anchors one theme and is the head or qualifier of the other
        if (
            anchored.kind == "verbnoun"
            and anchored.qualifier in PROBLEM_NOUNS
            and named.kind == "mod"
            and named.head == anchored.qualifier
            and named.qualifier
        ):
            # what fails names a narrower kind of problem: "Debugs CI errors." is other
            # work than "Debugs the errors." (whose quotes seldom say "error")
            continue
        if anchored.kind in ("noun", "modonly", "key", "verbnoun") and anchored.qualifier in (
            named.head,
            named.qualifier,
            named.prefix,
        ):
            return len(mine & theirs) * 2 >= min(len(mine), len(theirs))
    if "verbonly" not in (theme.kind, other.kind):
        return False
    verbonly, named = (theme, other) if theme.kind == "verbonly" else (other, theme)
    made_so = sum(1 for r in named.requests.values() if r.verb == verbonly.verb)
    shared = len(mine & theirs)
    return made_so * 2 >= len(named.requests) and shared * 2 >= min(len(mine), len(theirs))


def _weigh(theme: Theme, vectors: dict[int, Any]) -> None:
    """Drop the messages far from the others in meaning; record the coherence."""
    import numpy as np

    reqs = list(theme.requests.items())
    if len(reqs) < 2:
        theme.coherence = 1.0
        return
    mat = np.vstack([vectors[r.message.id] for _, r in reqs])
    sims = mat @ mat.T
    n = len(reqs)
    mean = (sims.sum(axis=1) - np.diag(sims)) / (n - 1)
    keep = [k for k in range(n) if mean[k] >= OUTLIER]
    theme.requests = {reqs[k][0]: reqs[k][1] for k in keep}
    if len(keep) >= 2:
        sub = sims[np.ix_(keep, keep)]
        theme.coherence = float((sub.sum() - np.trace(sub)) / (len(keep) * (len(keep) - 1)))
    else:
        theme.coherence = 0.0
