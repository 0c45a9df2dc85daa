"""The ``local`` proposer (the offline default): themes from people's requests.

**A goals sentence** names a kind of work the person asks for again and again:

1. It reads people's own words only: code (fenced and inline), stack traces, quoted
   e-mail lines, URLs, identifiers and file names ("fct_orders", "load.py") and pasted
   documents are blanked (``safety.text.readable_text``).
2. It finds *requests*: clauses that ask for a piece of work, with a verb ("Can you
   draft a reply to the refund request", "Write pytest tests for this view", "Reply
   to a Google review"), without one ("Weekend post please", "Flour order time",
   "Crew schedule this week"), passed on from someone else ("Hugo wants an
   explanation of …") or made by pasting an error (a trace, a log naming an error) in
   an opening message: a request to debug the problem the person's words around it
   name ("Getting this error when saving", "Another stack trace"; "error" when they
   name none), its quote the clause that introduces the paste, and no topic theme
   from the paste's surroundings. A clause that edits the draft at hand ("Make it shorter",
   "Type hints please" after a reply) is a correction, not a request; after a reply a
   request counts when it asks for work also asked for in opening messages or names
   it with a verb of work ("Also write pytest tests for …"). People ask in many more
   ways, and those count too: "any chance you could write up …", "would you mind
   drafting …", "can I get a price for …", "I'd love a caption …", "do the induction
   checklist …", "allotment renewal letters need to go out", a request passed on by a
   name written small ("jonno wants a bar chart …", the name no part of the quote), a
   count that announces requests ("2 things.", itself none), and in an opening message
   a later sentence that names the work and what it is for ("… long covid flare.
   allotment inspection letter for the 4 plots") or a later clause of a noun phrase and
   "pls" ("welcome email pls"), questions or ideas asked to be made ("book club
   questions pls", "do the questions"), what the thing at hand is turned into ("turn
   this into a component"), a verb alone after an article ("draft the invite"), after a
   greeting of its own ("hi. practice notes for …"); a word and a number are a label
   ("grade 1 exam prep note"), and a reported error keeps what fails ("CI is failing on
   the job": CI errors). Parts of speech, lemmas and inflection come from
   ``learning.language``.
3. A request gives a *head* (what is made: "reply", "post", "quote"), its modifiers
   ("weekend", "cake"), the nouns of its prepositional phrases ("to the refund
   request") and its verb. A *theme* recurs in ``min_conversations`` conversations
   (and ``min_users`` people in team mode); it is a head, alone or with one
   qualifier (a modifier, a phrase noun, a noun of the same messages), a verb with a
   phrase noun ("summarise … for engineering"), a verb that names the work on its own
   ("Reviews PRs and diffs."), a modifier over several texts ("aftercare sheet",
   "aftercare notes") or a noun some requests make and others are about ("chase the
   overdue invoice", "a reminder for an unpaid invoice"), a noun made in one request
   and named in others ("start a terminology glossary", "Glossary update"), or a verb
   that names the work with a noun of its object wherever the request puts it
   ("proofread a paragraph of my translation", "Proofread please" under a pasted
   translation -> "Proofreads the translations."). A generic head ("reply",
   "explanation") needs a qualifier that names the work: not a vague modifier
   ("short"), not the people it is for ("guest replies"), not a name; a vague topic
   ("changes") only with the word people put before it ("booking changes").
4. Meaning, from the stored embeddings: a theme's messages must be about the same
   thing. A message far from the others (mean cosine below ``OUTLIER``) does not
   count, and a theme whose messages are too far apart (``MIN_COHERENCE``) is left
   out; among themes equally recurrent the most coherent wins (ties by name, so every
   run gives the same answer). Requests are also grouped by meaning, whatever words
   they use: the embeddings of their clauses are clustered (average linkage, cosine at
   least ``SAME_WORK``) and a group in ``min_conversations`` conversations is a theme
   named after the word-level theme most of its members share ("Need cover for
   Friday's shift" joins "redo the rota" and "sort the October rota"); a group no
   shared words name is left out (``meaning_themes``).
5. The sentence is built from the requests' verb and object, third person, plural,
   no article, acronyms as people write them: "Drafts replies to refund requests.",
   "Writes SQL queries.". The quotes are whole request clauses (at least four words),
   one per conversation, cut before any word a quote must not hold: names (known to
   memory, or written as names in the messages read: "Hugo", "TripAdvisor"), a
   capitalised word inside a sentence, addresses and street names, titled names,
   postcodes and other contact details (``learning.policy.contact_spans``), code.

**A standing rule** comes from corrections (user lines written after a reply) that
give the same instruction in ``min_corrections`` conversations: a word sequence
(compared by lemma, so "dates" and "date" agree) with at least two content words.
Its text is the clearest variant of the instruction: no pronoun pointing at the
draft or at one person, verb first, hyphens kept ("Use 24-hour times."); a verbless
one gets "Show" when it says where something goes ("Show VAT on its own line.") and
"Use" otherwise ("Use British spelling."). One-off edits, corrections that disagree
on a value and rules the policy refuses are skipped: an edit of the draft at hand
("Write it in German", "Make it shorter") is no rule however often it recurs, and a
value in a rule ("max 6 bullets") must be given alike in ``min_corrections``
conversations and contradicted by no other correction ("8 bullet points is fine").

It proposes; the review still verifies every quote and applies the policy. It makes
no network call; it encodes the request clauses of a review in one batch (the model is
loaded once per process), and messages without a stored vector.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from learning import language
from learning.candidates import (
    AVOIDED,
    IN_PERSONA,
    MAX_RECORDED,
    REFUSED,
    TOO_FEW_CONVERSATIONS,
    TOO_FEW_PEOPLE,
    candidate,
)
from learning.proposers.base import ProposerResult
from safety.text import (
    STOP_WORDS,
    content_words,
    fold_case,
    readable_text,
    stem,
    word_set,
    words,
)

if TYPE_CHECKING:
    from learning.models import LearningSettings
    from memory.verification import ReadMessage, ReviewCorpus

QUOTE_MIN_WORDS = 4
QUOTE_MAX_WORDS = 24
MAX_QUOTES = 8
#: a message whose mean cosine to the theme's other messages is below this does not count
OUTLIER = 0.1
#: a theme whose messages are further apart than this (mean pairwise cosine) is left out
MIN_COHERENCE = 0.15
MAX_CANDIDATES = 40
#: two request clauses ask for the same kind of work when the mean cosine between their
#: groups is at least this (average linkage). Chosen on the tune part: the lowest value at
#: which pairs of request clauses from different conversations judged alike are about one
#: key theme three times in four (0.45: 0.73, 0.5: 0.75, 0.55: 0.81).
SAME_WORK = 0.5
#: a group of requests alike in meaning is named after words that at least this many of
#: its conversations share (never after one request's words)
NAMING_CONVERSATIONS = 2

# --- word lists (small and deliberate) ---------------------------------------------------

# a word: letters, with an apostrophe ("don't") or a hyphen ("pre-op", "24-hour") inside
_WORD = re.compile(r"[^\W_]+(?:['\u2019-][^\W_]+)*")
# a clause ends at sentence punctuation, a colon, a semicolon, a comma, a dash, a
# bracket or an emoji ("Worth a try 😅 Then draft a quote"); a full stop or comma
# between digits is part of a number ("0.9.3", "£73.50", "1,500")
_CLAUSE_EDGE = re.compile(
    r"(?<!\d)[.,]|[.,](?!\d)|[!?;:\n()\[\]\u2014\u2013\"\u201c\u201d]"
    r"|\s-\s|\s{2,}|[\u2600-\u27bf\U0001f000-\U0001faff]+"
)

LEAD_FILLERS = frozenset(
    [
        "also",
        "and",
        "so",
        "ok",
        "okay",
        "oh",
        "right",
        "yes",
        "fine",
        "great",
        "good",
        "perfect",
        "thanks",
        "lovely",
        "morning",
        "hi",
        "hey",
        "hello",
        "please",
        "pls",
        "just",
        "then",
        "now",
        "actually",
        "but",
        "ugh",
        "sorry",
    ]
)
# "can you (please) (also)", "i need (you) to", "help me": what comes after is the work
CUES = (
    ("would", "you", "mind"),
    ("would", "u", "mind"),
    ("can", "you"),
    ("could", "you"),
    ("would", "you"),
    ("will", "you"),
    ("can", "u"),
    ("could", "u"),
    ("would", "u"),
    ("will", "u"),
    ("can", "i", "have"),
    ("can", "i", "get"),
    ("could", "i", "have"),
    ("could", "i", "get"),
    ("can", "we", "get"),
    ("can", "we", "have"),
    ("is", "it", "possible", "to"),
    ("i", "need", "help"),
    ("need", "help"),
    ("i", "need", "you", "to"),
    ("i", "need", "to"),
    ("we", "need", "to"),
    ("need", "to"),
    ("i'd", "like", "you", "to"),
    ("i'd", "like", "to"),
    ("i", "want", "you", "to"),
    ("help", "me", "to"),
    ("help", "me"),
    ("let's",),
    ("time", "to"),
    ("please",),
    ("pls",),
    ("also",),
    ("just",),
)
# "… can you draft a reply": a request asked in the middle of a clause
MID_CUE_MODALS = frozenset(["can", "could", "would", "will"])
# "I need X", "Time for X", "Need X", "want X for Y": a verbless request follows
NOUN_CUES = (
    ("i", "need"),
    ("need",),
    ("time", "for"),
    ("we", "need"),
    ("i'd", "like"),
    ("i'd", "love"),
    ("i", "want"),
    ("we", "want"),
    ("want",),
)
# verbs that edit the draft at hand or instruct, never a kind of work
EDIT_VERBS = frozenset(
    [
        "add",
        "put",
        "use",
        "include",
        "remove",
        "delete",
        "drop",
        "keep",
        "change",
        "replace",
        "leave",
        "lead",
        "sign",
        "greet",
        "wrap",
        "mention",
        "tell",
        "say",
        "ignore",
        "swap",
        "move",
        "cut",
        "shorten",
        "lengthen",
        "fix",
        "correct",
        "start",
        "end",
        "open",
        "close",
        "call",
        "ask",
        "let",
        "try",
        "stop",
        "avoid",
        "note",
        "remember",
        "forget",
        "mark",
        "bold",
        "capitalise",
        "capitalize",
        "spell",
        "be",
        "am",
        "is",
        "are",
        "was",
        "were",
        "been",
    ]
)
# edit verbs that begin a new piece of work when "a"/"an" follows ("start a glossary",
# "open a ticket"); the sentence names the work with its own verb
CREATE_VERBS = frozenset(["start", "open"])
# verbs that make something of what is at hand: "turn this into a component"
TURNING_VERBS = frozenset(["turn", "convert", "make", "rework", "rewrite"])
# verbs too weak to name the work ("do the rota", "get me a quote"): the sentence uses
# DEFAULT_VERB instead
WEAK_VERBS = frozenset(
    [
        "do",
        "make",
        "get",
        "give",
        "have",
        "need",
        "want",
        "help",
        "send",
        "take",
        "see",
        "look",
        "check",
        "find",
        "bring",
        "show",
    ]
)
DEFAULT_VERB = "prepare"
# what is written gets "Writes" when nobody named the verb ("Reply to a review please")
WRITTEN_VERB = "write"
# particles after a verb ("put together", "write up", "sort out")
PARTICLES = frozenset(["up", "out", "together", "over", "through"])
# a verb whose object follows a preposition: "help with the cards", "start on the report"
OBJECT_AFTER_PREPOSITION = frozenset([("help", "with"), ("start", "on"), ("work", "on")])
# verb + particle that name the work: "put together a quote", "write up the report"
PHRASAL = {("put", "together"): "prepare", ("sort", "out"): "prepare", ("write", "up"): "write"}
# one word for one kind of thing made
HEAD_SYNONYMS = {
    "response": "reply",
    "answer": "reply",
    "e-mail": "email",
    "mail": "email",
    "doc": "documentation",
}
DETERMINERS = frozenset(
    [
        "a",
        "an",
        "the",
        "this",
        "that",
        "these",
        "those",
        "my",
        "our",
        "your",
        "their",
        "his",
        "her",
        "its",
        "another",
        "some",
        "any",
        "each",
        "every",
        "next",
        "last",
        "same",
        "usual",
        "new",
        "couple",
        "few",
        "two",
        "three",
        "four",
        "five",
        "one",
    ]
)
PREPOSITIONS = frozenset(
    ["for", "to", "about", "on", "with", "of", "from", "in", "into", "at", "by"]
)
QUESTION_STARTS = frozenset(
    [
        "why",
        "what",
        "how",
        "when",
        "where",
        "who",
        "which",
        "whose",
        "is",
        "are",
        "was",
        "were",
        "does",
        "do",
        "did",
        "should",
        "shall",
        "would",
        "could",
        "any",
        "anything",
    ]
)
# what a request is about, not the work itself
META_HEADS = frozenset(
    [
        "request",
        "requests",
        "enquiry",
        "inquiry",
        "question",
        "questions",
        "issue",
        "issues",
        "problem",
        "problems",
        "thing",
        "things",
        "one",
        "ones",
        "bit",
        "lot",
        "time",
        "idea",
        "way",
        "something",
        "anything",
        "everything",
        "favour",
        "correction",
        "corrections",
        "help",
        "look",
        "point",
        "sense",
        "stuff",
        "range",
        "kind",
        "sort",
        "type",
        "couple",
        "set",
        "bunch",
        "batch",
        "version",
        "copy",
        "lot",
        "week",
        "weekend",
        "day",
        "days",
        "month",
        "morning",
        "afternoon",
        "today",
        "tomorrow",
        "line",
        "lines",
        "customer",
        "customers",
        "client",
        "clients",
        "user",
        "users",
        "person",
        "people",
        "guy",
        "team",
        "everyone",
        "anyone",
        "someone",
        "thanks",
        "thank",
        "idea",
        "ideas",
        "ok",
        "deal",
        "word",
        "words",
        "name",
        "part",
    ]
)
# heads that say what is made but not about what: a theme needs a qualifier
GENERIC_HEADS = frozenset(
    [
        "reply",
        "response",
        "answer",
        "email",
        "mail",
        "message",
        "letter",
        "note",
        "text",
        "document",
        "draft",
        "summary",
        "write-up",
        "writeup",
        "update",
        "post",
        "piece",
        "content",
        "copy",
        "thread",
        "doc",
        "explanation",
        "description",
        "overview",
        "outline",
        "brief",
        "statement",
        "report",
        "checklist",
        "template",
        "form",
        "file",
        "plan",
        "list",
        # made only when asked for (``MADE_META_HEADS``): "book club questions"
        "question",
        "idea",
    ]
)
# heads that are written texts: without a verb the sentence says "Writes …"
WRITTEN_HEADS = GENERIC_HEADS - frozenset(
    ["checklist", "template", "form", "file", "plan", "list"]
) | (frozenset(["newsletter", "caption", "announcement", "notice", "apology", "documentation"]))
# modifiers that say how, not what: "a short explanation", "a quick reply"
VAGUE_MODIFIERS = word_set(
    """short long quick brief simple plain nice good better proper detailed full rough
    clear polite friendly formal informal new old little big small first final usual
    standard same other extra whole general main real right wrong great lovely
    different similar separate current latest recent few couple proper"""
)
# verbs that name the work whatever the object ("Reviews PRs and diffs."); a verb of
# making ("write", "draft", "prepare") needs what is made to name it
WORK_NAMING_VERBS = word_set(
    """review summarise summarize translate proofread debug refactor analyse analyze
    research calculate estimate price schedule reconcile chase document explain
    audit triage"""
)
# "weekly report", "weekly order": a time says when, not which work
TIME_MODIFIERS = word_set(
    """daily weekly monthly yearly annual quarterly nightly morning evening weekend
    today tomorrow tonight next last monday tuesday wednesday thursday friday saturday
    sunday january february march april may june july august september october november
    december"""
)
# topics that say nothing on their own: "replies about changes" (changes to what?)
VAGUE_TOPICS = frozenset(["change", "update", "detail", "info", "information", "stuff"])
# "a draft of X", "a list of X": the work is X
OF_HEADS = frozenset(
    ["draft", "list", "version", "copy", "set", "batch", "kind", "sort", "couple", "bit", "piece"]
)
# people are who the work is for, not what it is about
PEOPLE_WORDS = frozenset(
    [
        "customer",
        "customers",
        "client",
        "clients",
        "user",
        "users",
        "person",
        "people",
        "guy",
        "team",
        "everyone",
        "anyone",
        "someone",
        "guest",
        "guests",
        "member",
        "members",
        "staff",
        "colleague",
        "colleagues",
        "visitor",
        "visitors",
        "reader",
        "readers",
        "family",
    ]
)
# nouns of the same messages that never qualify a theme (nor do people: "guest replies"
# says who the work is for, not what it is)
NON_TOPICS = (
    META_HEADS
    | PEOPLE_WORDS
    | frozenset(
        [
            "app",
            "thanks",
            "please",
            "morning",
            "bit",
            "week",
            "weekend",
            "day",
            "days",
            "time",
            "today",
            "tomorrow",
            "yesterday",
            "monday",
            "tuesday",
            "wednesday",
            "thursday",
            "friday",
            "saturday",
            "sunday",
        ]
    )
)
# a verbless request in a message written after a reply is a correction ("Type hints
# please") unless it opens like a new request ("Also a quote for …", "And the order")
NEW_REQUEST_OPENERS = frozenset(["also", "and", "another", "next", "last"])
GREETINGS = frozenset(["hi", "hiya", "hey", "hello", "morning", "evening", "afternoon", "yo"])
OPENER_CLAUSE_WORDS = frozenset(
    ["last", "thing", "one", "more", "also", "and", "next", "finally", "oh"]
    # an acknowledgement closes the last piece of work: "Good. Aftercare note for …"
    + ["good", "great", "perfect", "lovely", "nice", "thanks", "thank", "you", "cheers"]
    + ["ok", "okay", "fine", "brilliant", "cool"]
    # a greeting of its own: "hi. practice notes for Freya", "hiya, can you …"
    + list(GREETINGS)
)
# "this week", "next Monday": when, after what is asked for ("Crew schedule this week")
WHEN_WORDS = word_set(
    """week weekend month year quarter morning afternoon evening monday tuesday
    wednesday thursday friday saturday sunday"""
)
# what stands before a correction's instruction and is no part of it
RULE_FILLER = frozenset(
    [
        "no",
        "nope",
        "please",
        "pls",
        "can",
        "could",
        "would",
        "you",
        "actually",
        "again",
        "also",
        "and",
        "but",
        "oh",
        "ok",
        "okay",
        "so",
        "just",
        "hey",
        "hi",
        "thanks",
        "remember",
        "to",
        "i",
        "said",
        "asked",
        "told",
        "we",
        "need",
        "want",
        "should",
        "always",
        "make",
        "sure",
        "that's",
        "wrong",
        "not",
        "quite",
        "like",
        "as",
        "usual",
        "ugh",
        "sorry",
        "fine",
        "great",
        "good",
        "right",
    ]
)
RULE_TAIL_FILLER = frozenset(
    [
        "please",
        "pls",
        "again",
        "too",
        "also",
        "always",
        "thanks",
        "thank",
        "you",
        "as",
        "usual",
        "like",
        "before",
        "same",
    ]
)
PRONOUN_WORDS = frozenset(
    [
        "it",
        "this",
        "that",
        "these",
        "those",
        "them",
        "her",
        "him",
        "his",
        "their",
        "its",
        "they",
        "she",
        "he",
        "me",
        "my",
        "i",
        "we",
        "us",
        "our",
        "you",
        "your",
    ]
)


# --- tokens ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Tok:
    text: str  # as written
    low: str  # case-folded, typographic apostrophe folded
    start: int
    end: int


def tokens(text: str, start: int = 0, end: int | None = None) -> list[Tok]:
    out = []
    for m in _WORD.finditer(text, start, len(text) if end is None else end):
        out.append(Tok(m.group(), fold_case(m.group()).replace("\u2019", "'"), m.start(), m.end()))
    return out


def clauses(readable: str) -> list[tuple[int, int]]:
    """Spans of the clauses of ``readable`` (code and pasted text already blanked)."""
    spans, start = [], 0
    for m in _CLAUSE_EDGE.finditer(readable):
        if m.start() > start:
            spans.append((start, m.start()))
        start = m.end()
    if start < len(readable):
        spans.append((start, len(readable)))
    return [(a, b) for a, b in spans if readable[a:b].strip()]


# stop words that are nouns all the same ("a login help reply")
NOUN_STOP_WORDS = frozenset(
    ["help", "way", "thing", "things", "stuff", "bit", "lot", "lots", "need", "one"]
)
# words that close a verbless request: "Flour order time", "Refund reply needed"
REQUEST_TAILS = frozenset(["time", "please", "pls", "needed", "again", "asap"])


def _wordlike(word: str) -> bool:
    """Letters only, or words of letters joined by hyphens ("pre-op", "follow-up"): a
    hyphenated word is one word, and its prefix ("pre", "non", "co") never one alone."""
    return word.replace("-", "").isalpha()


def _is_noun_word(tok: Tok) -> bool:
    w = tok.low
    if (w in STOP_WORDS and w not in NOUN_STOP_WORDS) or w in DETERMINERS or w in PREPOSITIONS:
        return False
    if not _wordlike(w) or w in REQUEST_TAILS:
        return False
    if language.can_be(w, "NOUN") or language.can_be(w, "ADJ"):
        return True
    return not language.is_english_word(w)  # an unknown word: a name of a thing


def _is_verb_here(toks: list[Tok], i: int) -> bool:
    """Whether ``toks[i]`` is the verb of an imperative clause starting at ``i``: it can
    be a verb, and a determiner or pronoun follows, or it is a verb of work ("Write
    pytest tests"), or it can be nothing else and no noun follows ("Commit message for"
    is a noun phrase)."""
    from learning.policy import WORK_VERBS

    w = toks[i].low
    if not language.can_be(w, "VERB"):
        return False
    nxt = toks[i + 1].low if i + 1 < len(toks) else ""
    if nxt in DETERMINERS or nxt in PRONOUN_WORDS or nxt in PARTICLES or nxt.endswith("'s"):
        return True
    if w in WORK_VERBS or w in EDIT_VERBS:
        return True
    if language.can_be(w, "NOUN") or language.can_be(w, "ADJ"):
        return False
    return not (i + 1 < len(toks) and _is_noun_word(toks[i + 1]))


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
        if _code_label(tok) and i + 1 < len(toks) and _is_noun_word(toks[i + 1]):
            # a label with digits says which one, not what: "a Y9 lesson"
            i += 1
            continue
        if (
            i + 2 < len(toks)
            and toks[i + 1].low.isdigit()
            and _is_noun_word(tok)
            and _is_noun_word(toks[i + 2])
        ):
            # a word and a number say which one, as a label does: "grade 1 exam prep
            # note", "year 9 reports"
            i += 2
            continue
        if not _is_noun_word(tok):
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
    """A capitalised word that does not open its clause: a name (a brand, a person);
    an acronym ("SQL", "PRs") is no name."""
    return tok.text[:1].isupper() and not _acronym(tok.text) and tok is not first


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
    writer gave it ("SQL", "PR" of "PRs"), any other word is lower case."""
    if _acronym(tok.text):
        return tok.text[:-1] if tok.text.endswith("s") and len(tok.text) > 2 else tok.text
    return tok.low


def _request_in(message: Any, readable: str, a: int, b: int, *, fresh: bool) -> Request | None:
    """The request in the clause ``readable[a:b]``, if it is one. ``fresh``: the clause
    opens a message not written after a reply, or follows "Last thing," / "Also:"."""
    toks = tokens(readable, a, b)
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
    cue = False
    for _ in range(3):  # "can you" "help me" "put together …"
        for pattern in CUES:
            if tuple(t.low for t in toks[i : i + len(pattern)]) == pattern:
                i += len(pattern)
                cue = True
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
    if not (cue or noun_cue):
        relayed = _relayed(toks, i)
        if relayed is not None:
            if not toks[i].text[:1].isupper() and not language.is_english_word(toks[i].low):
                # a name written in lower case is no part of the quote ("jonno wants …")
                a = toks[relayed].start
            i, noun_cue = relayed, True
    if i >= len(toks):
        return None
    verb: str | None = None
    had_verb = False
    made_by = ""  # the verb as asked, weak or not ("do the questions")
    verb_tok: Tok | None = None
    if not noun_cue and _is_verb_here(toks, i):
        had_verb = True
        verb_tok = toks[i]
        verb = made_by = language.lemma(toks[i].low, "VERB")
        i += 1
        if i < len(toks) and toks[i].low in PARTICLES:
            verb = PHRASAL.get((verb, toks[i].low), verb)
            i += 1
        if verb in CREATE_VERBS and i < len(toks) and toks[i].low in ("a", "an"):
            verb = None  # "start a terminology glossary": a new piece of work, named below
        elif (
            verb in TURNING_VERBS
            and i + 1 < len(toks)
            and toks[i].low in DRAFT_PRONOUNS
            and toks[i + 1].low in ("into", "to")
        ):
            # "turn this into a component", "convert it to a checklist": what it becomes
            # is what is made
            verb, verb_tok, made_by = None, None, ""
            i += 2
        elif verb in EDIT_VERBS:
            return None
        if verb in WEAK_VERBS:
            verb = None
        if i < len(toks) and toks[i].low in ("me", "us", "him", "her", "them"):
            i += 1  # "write me a note", "give her a quote"
    elif not (cue or noun_cue or opened_new or fresh):
        # a verbless clause after a reply is a correction ("Type hints please"); one
        # further into a message is a detail or a list ("rye flour, wheat flour")
        return None
    words, j = _noun_phrase(toks, i)
    if not words and verb and not language.can_be(verb, "NOUN"):
        # "Summarise this for engineering", "Summarise for the dev team": the verb and
        # its phrases, no object
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
        span = message_span(readable, a, b)
        return Request(
            message=message, start=span[0], end=span[1], verb=verb, head="", phrases=words_only
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
    phrases: list[tuple[str, str, tuple[str, ...]]] = []
    while j < len(toks) and toks[j].low in PREPOSITIONS and len(phrases) < 2:
        prep = toks[j].low
        if (
            prep == "to"
            and not verb
            and j + 1 < len(toks)
            and language.can_be(toks[j + 1].low, "VERB")
            and language.lemma(toks[j + 1].low, "VERB") == toks[j + 1].low
            and (j + 2 >= len(toks) or toks[j + 2].low in REQUEST_TAILS)
        ):
            # "Another overdue invoice to chase": what is to be done with it
            to_do = language.lemma(toks[j + 1].low, "VERB")
            if to_do not in EDIT_VERBS and to_do not in WEAK_VERBS:
                verb = to_do
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
        if head in OF_HEADS and prep == "of" and not phrases:
            head_tok = pwords[-1]
            head, mods = _lemma(head_tok), [_lemma(t) for t in pwords[:-1]]
            surface[head] = _written(head_tok)
        else:
            # "to the refund request": the request is meta, the refund is what it is about
            lemmas = tuple(_lemma(t) for t in pwords)
            phrases.append((prep, lemmas[-1], lemmas))
        for t in pwords:
            surface.setdefault(_lemma(t), _written(t))
        j = j2
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
    if (head in META_HEADS and not _made_meta(head, mods, made_by, toks, j)) or (
        len(head) < 3 and not (head_tok and _acronym(head_tok.text))
    ):
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
    return Request(
        message=message,
        start=span[0],
        end=span[1],
        verb=verb,
        head=head,
        mods=mods,
        phrases=phrases,
        surface=surface,
    )


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
_PASTED = re.compile(
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


def error_report(message: Any, readable: str) -> Request | None:
    """An opening message that pastes an error with the person's own words around it
    ("every time I load a save I get this: <trace> why is it null??"): a request to
    debug it, though it has no verb of work. Its clause is the nearest before the paste
    that names the problem ("Getting this error when saving a manifest"), else the
    nearest before it of four words or more, else the first after it; what is made is
    the problem as named there."""
    if message.after_assistant:
        return None
    pasted = [m for m in _PASTED.finditer(message.text) if _ERROR_IN_PASTE.search(m.group(0))]
    if not pasted:
        return None
    at = pasted[0].start()
    spans = [message_span(readable, a, b) for a, b in clauses(readable)]

    def problem(a: int, b: int) -> str:
        lemmas = [language.lemma(t.low, "NOUN") for t in tokens(readable, a, b)]
        return next((w for w in lemmas if w in PROBLEM_NOUNS), "")

    before = [(a, b) for a, b in spans if b <= at]
    long_enough = [(a, b) for a, b in spans if len(tokens(readable, a, b)) >= QUOTE_MIN_WORDS]
    chosen = next((span for span in reversed(before) if problem(*span)), None) or next(
        (span for span in reversed(long_enough) if span[1] <= at),
        next((span for span in long_enough if span[0] >= at), None),
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
            and t.text.islower()
            and _is_noun_word(t)
            and language.can_be(t.low, "NOUN")
            and not language.can_be(t.low, "ADJ")
            and not t.low.endswith("ing")  # "is failing", "cross compiling"
            and language.lemma(t.low, "NOUN") not in PROBLEM_NOUNS | TIME_MODIFIERS
        )
    ]
    mods = list(dict.fromkeys(_lemma(t) for t in where))
    return Request(
        message=message,
        start=chosen[0],
        end=chosen[1],
        verb=DEBUG_VERB,
        head=head,
        mods=mods,
        surface={head: head, **{_lemma(t): _written(t) for t in where}},
        reported=True,
    )


def requests_of(message: Any) -> list[Request]:
    from learning.policy import WORK_VERBS, health_word

    if health_word(message.text):
        return []  # a message about someone's health is never evidence
    readable = readable_text(message.text)
    found = []
    report = error_report(message, readable)
    if report is not None:
        found.append(report)
    opener = not message.after_assistant
    after_opener = False
    for k, (a, b) in enumerate(clauses(readable)):
        # "2 things." / "Two jobs:" announce requests: the clause is none, the next one
        # opens like a first one
        words = {t.low for t in tokens(readable, a, b)}
        if _announces_requests(words) or (words and words <= GREETINGS | {"good", "there"}):
            # a greeting is no request either: "hiya," / "morning!" / "hi there."
            after_opener = after_opener or k == 0 or _announces_requests(words)
            continue
        fresh = (k == 0 and opener) or after_opener
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
        if req is not None:
            found.append(req)
        # "Last thing, the allergen label …", "One more thing: …"
        after_opener = bool(words) and words <= OPENER_CLAUSE_WORDS
    return found


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
    word that does not open a sentence or a clause)."""
    readable = readable_text(message.text)
    out = set()
    for t in tokens(readable):
        before = readable[: t.start].rstrip()
        opens = not before or before[-1] in ".!?:;\n"
        if t.text[:1].isupper() and not opens:
            continue
        if _is_noun_word(t) and (language.can_be(t.low, "NOUN") or _plural_gerund(t.low)):
            out.add(_lemma(t))
    return out


def _plural_gerund(word: str) -> bool:
    """A verb's "-ing" form made a plural noun ("viewings", "fittings"): a noun, though
    the lexicon knows the "-ing" form only as a verb."""
    return word.endswith("ings") and language.can_be(word[:-1], "VERB")


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


def find_themes(
    requests: list[Request],
    vectors: dict[int, Any],
    *,
    min_conversations: int,
    min_users: int | None,
    exclude: frozenset[str] | set[str] = frozenset(),
    clause_vectors: Any = None,
) -> list[Theme]:
    """Themes that recur in enough conversations, most recurrent and coherent first.
    ``exclude``: words no theme is named after (names written in the messages).
    ``clause_vectors``: one row per request, the embedding of its clause; with them,
    requests alike in meaning are grouped too, whatever words they use
    (``meaning_themes``)."""

    def recurs(theme: Theme) -> bool:
        """Weighed for meaning: still in enough conversations (and people), coherent."""
        _weigh(theme, vectors)
        return (
            len(theme.requests) >= min_conversations
            and (min_users is None or theme.people >= min_users)
            and theme.coherence >= MIN_COHERENCE
        )

    by_head: dict[str, list[Request]] = defaultdict(list)
    by_verb: dict[str, list[Request]] = defaultdict(list)
    for r in requests:
        if r.head and r.head not in exclude:
            by_head[r.head].append(r)
        if r.verb:
            by_verb[r.verb].append(r)
    nouns = {r.message.id: _message_nouns(r.message) for r in requests}
    plurals = plural_nouns({r.message.id: r.message for r in requests}.values())

    def qualifier_ok(word: str) -> bool:
        return _qualifier_ok(word, plurals)

    as_modifier = {m for r in requests for m in r.mods} | {
        w for r in requests for p in r.phrases for w in p[2][:-1]
    }
    # the word written right before a noun, over all requests ("group" before "booking")
    before: dict[str, Counter[str]] = defaultdict(Counter)
    written_as: dict[str, str] = {}
    for r in requests:
        for k, v in r.surface.items():
            written_as.setdefault(k, v)
        written = [*r.mods, r.head] if r.head else list(r.mods)
        for p in r.phrases:
            written.extend(p[2])
        for w1, w2 in zip(written, written[1:], strict=False):
            before[w2][w1] += 1
    themes: list[Theme] = []
    for head, reqs in by_head.items():
        convs = {r.message.conversation_id for r in reqs}
        if len(convs) < min_conversations:
            continue
        options: list[Theme] = []
        if head not in GENERIC_HEADS:
            options.append(Theme(head=head, requests=_theme_requests(reqs, lambda r: True)))
        mods = Counter(m for r in reqs for m in sorted(set(r.mods)))
        for mod in mods:
            if mod in PEOPLE_WORDS or mod in STOP_WORDS or mod == head or mod in exclude:
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
        seen_phrases: set[tuple[str, str]] = set()
        for prep, noun, lemmas in (p for r in reqs for p in r.phrases):
            if noun in META_HEADS and len(lemmas) > 1:
                noun = lemmas[-2]  # "to the refund request": about refunds
            if noun in NON_TOPICS or noun == head or (prep, noun) in seen_phrases:
                continue
            if noun in exclude:
                continue
            if not qualifier_ok(noun):
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
        if reqs:
            topic_counts = Counter(t for r in reqs for t in nouns[r.message.id])
            verbs_here = {r.verb for r in reqs if r.verb}
            for topic in topic_counts:
                if topic in NON_TOPICS or topic == head or topic in GENERIC_HEADS:
                    continue
                if topic in exclude:
                    continue
                if topic in verbs_here or not qualifier_ok(topic):
                    continue  # "Reviews diffs about reviews"
                options.append(
                    Theme(
                        head=head,
                        qualifier=topic,
                        kind="topic",
                        compound=topic in as_modifier,
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
        for theme in options:
            if not recurs(theme):
                continue
            if theme.kind in ("mod", "topic"):
                theme.prefix = _prefix(theme, before, nouns, exclude)
                theme.prefix_written = written_as.get(theme.prefix, theme.prefix)
                if theme.qualifier in VAGUE_TOPICS and not theme.prefix:
                    continue  # "replies about changes": changes to what?
            themes.append(theme)
    # a modifier over several heads that name one kind of text: "aftercare sheet",
    # "aftercare notes" -> "Writes aftercare notes."
    by_mod: dict[str, list[Request]] = defaultdict(list)
    for r in requests:
        if r.head and r.head not in exclude:
            # what a reported error names is what fails, not a kind of work
            for m in sorted(set(r.mods) if not r.reported else ()):
                by_mod[m].append(r)
    for mod, reqs in by_mod.items():
        if len({r.head for r in reqs}) < 2 or mod in exclude or mod in by_head:
            continue
        if mod in VAGUE_MODIFIERS or mod in PEOPLE_WORDS or mod in TIME_MODIFIERS:
            continue
        if not qualifier_ok(mod) and not language.can_be(mod, "NOUN"):
            continue
        theme = Theme(
            head="",
            qualifier=mod,
            kind="modonly",
            requests=_theme_requests(reqs, lambda r: True),
        )
        if recurs(theme):
            themes.append(theme)
    # a noun that is what is made in some requests and what others are about, named
    # as the requests that make it say it: "chase the overdue invoice", "another
    # overdue invoice to chase", "a payment reminder for an unpaid invoice" -> "Chases
    # overdue invoices."
    by_noun: dict[str, list[Request]] = defaultdict(list)
    for r in requests:
        for n in {r.head, *(p[1] for p in r.phrases)}:
            if n and n not in exclude:
                by_noun[n].append(r)
    for noun, reqs in by_noun.items():
        made = [r for r in reqs if r.head == noun]
        if len({r.message.conversation_id for r in made}) < 2 or len({r.head for r in reqs}) < 2:
            continue
        if noun in GENERIC_HEADS or noun in NON_TOPICS or not any(r.verb for r in made):
            continue
        theme = Theme(
            head="", qualifier=noun, kind="noun", requests=_theme_requests(reqs, lambda r: True)
        )
        if recurs(theme) and any(r.head == noun and r.verb for r in theme.requests.values()):
            themes.append(theme)
    # a noun that names the work wherever the request puts it: what is made ("start a
    # terminology glossary"), a modifier ("Glossary update") or what a phrase is for
    # ("pull out the key terms for a glossary") -> "Prepares terminology glossaries."; it
    # is made in at least one request, so it is a kind of work, not a topic
    by_key: dict[str, list[Request]] = defaultdict(list)
    for r in requests:
        if r.head:
            for n in {r.head, *(r.mods if not r.reported else ()), *(p[1] for p in r.phrases)}:
                by_key[n].append(r)
    for noun, reqs in by_key.items():
        if noun in exclude or noun in GENERIC_HEADS or noun in NON_TOPICS:
            continue
        if noun in VAGUE_MODIFIERS or noun in TIME_MODIFIERS or noun in VAGUE_TOPICS:
            continue
        if not language.can_be(noun, "NOUN"):
            continue
        made_in = {r.message.conversation_id for r in reqs if r.head == noun}
        if not made_in:
            continue
        # a word that can be an adjective too is a noun where two requests make it: "draft
        # the welcome", "write a welcome for the new starters"
        if not qualifier_ok(noun) and not (_wordlike(noun) and len(made_in) >= 2):
            continue
        theme = Theme(
            head="", qualifier=noun, kind="key", requests=_theme_requests(reqs, lambda r: True)
        )
        if recurs(theme) and any(r.head == noun for r in theme.requests.values()):
            themes.append(theme)
    # a verb and a phrase noun, whatever the object: "summarise … for engineering"; a
    # request counts when the noun is in its phrases or elsewhere in its message
    # ("Escalation for engineering: … Summarise please.")
    for verb, reqs in by_verb.items():
        if len({r.message.conversation_id for r in reqs}) < min_conversations:
            continue
        if not any(r.head for r in reqs):
            continue  # nothing names what is made
        preps = Counter((p[1], p[0]) for r in reqs for p in r.phrases)
        # what is made with the noun in a phrase: a request naming something else
        # ("a SQL query" in a message that also names "the orders table") is other work
        phrase_heads: dict[str, set[str]] = defaultdict(set)
        for r in reqs:
            for p in r.phrases:
                phrase_heads[p[1]].add(r.head)
        for noun in {p[1] for r in reqs for p in r.phrases}:
            if noun in NON_TOPICS or noun in exclude or not qualifier_ok(noun):
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
            if recurs(theme) and any(r.head for r in theme.requests.values()):
                themes.append(theme)
        # a verb that names the work on its own and a noun of what it is done to,
        # wherever the request puts it: "proofread a paragraph of my translation",
        # "proofread this bit of my translation", "Proofread please" under a pasted
        # translation -> "Proofreads translations."
        if verb in WORK_NAMING_VERBS:
            objects = {
                id(r): (
                    {r.head, *r.mods, *(p[1] for p in r.phrases)} - {""}
                    if r.head or r.phrases
                    else nouns[r.message.id]
                )
                for r in reqs
            }
            counts = Counter(n for r in reqs for n in objects[id(r)])
            for noun, times in counts.items():
                if times < min_conversations or noun in NON_TOPICS or noun in exclude:
                    continue
                if noun in GENERIC_HEADS or noun == verb or not qualifier_ok(noun):
                    continue
                theme = Theme(
                    head="",
                    verb=verb,
                    qualifier=noun,
                    kind="verbnoun",
                    requests=_theme_requests(reqs, lambda r, x=noun, o=objects: x in o[id(r)]),
                )
                if recurs(theme):
                    themes.append(theme)
        # a verb that names the work on its own, over what it is done to: "Reviews PRs
        # and diffs." (every request names its object)
        if verb in WORK_NAMING_VERBS:
            theme = Theme(
                head="",
                verb=verb,
                kind="verbonly",
                requests=_theme_requests(
                    reqs,
                    lambda r: (
                        bool(r.head)
                        and r.head not in exclude
                        and r.head not in GENERIC_HEADS
                        and r.head not in PEOPLE_WORDS
                    ),
                ),
            )
            if recurs(theme):
                themes.append(theme)
    if clause_vectors is not None:
        for theme in meaning_themes(
            requests,
            clause_vectors,
            vectors,
            min_conversations=min_conversations,
            exclude=exclude,
        ):
            if recurs(theme):
                themes.append(theme)
    # at equal recurrence a named theme beats a bare head ("cake quotes" over "quotes")
    kind_rank = {
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
    # and a topic people also write before the head ("group quotes") beats one they
    # never do ("quotes about rooms"); the same answer on every run whatever the order
    # sets were read in
    themes.sort(key=lambda t: (t.kind, t.head, t.verb, t.qualifier, t.prefix, t.prep))
    themes.sort(
        key=lambda t: (
            len(t.requests),
            t.people,
            kind_rank[t.kind],
            t.compound,
            # over the same requests "book club questions" names more than "book questions"
            bool(t.prefix),
            round(t.coherence, 2),
        ),
        reverse=True,
    )
    # one group of requests is one theme: a later theme of the same head over mostly the
    # same conversations names the same work again ("posts about loaves")
    kept: list[Theme] = []
    for theme in themes:
        if any(_same_work(theme, k) for k in kept):
            continue
        kept.append(theme)
    return kept


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


def _words_before(message: Any, noun: str) -> set[str]:
    """Lemmas of the words a message writes right before ``noun`` (a lemma)."""
    toks = tokens(readable_text(message.text))
    return {
        _lemma(a)
        for a, b in zip(toks, toks[1:], strict=False)
        if _lemma(b) == noun and b.start - a.end == 1 and _is_noun_word(a)
    }


def _same_work(theme: Theme, other: Theme) -> bool:
    """Whether ``theme`` names the work of ``other`` again: over mostly the same
    conversations, with the same head and verb, or one of them is the verb alone and
    the other's requests are mostly made with that verb ("Reviews the diffs." and
    "Reviews PRs and diffs.")."""
    mine, theirs = set(theme.requests), set(other.requests)
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


def sentence_for(theme: Theme) -> str:
    """Third person, plural, no article: "Drafts replies to refund requests."."""
    if theme.name:
        return theme.name
    reqs = list(theme.requests.values())
    # a verb the same requests also use as a noun is a noun read as a verb: "review reply
    # pls" beside "reply to a 3 star review" makes no "Reviews star replies."
    as_nouns = _nouns_of(reqs)
    reqs = [
        replace(r, verb=None) if r.verb and r.verb in as_nouns and r.verb != r.head else r
        for r in reqs
    ]
    verbs = Counter(r.verb for r in reqs if r.verb)
    surface: dict[str, str] = {}
    for r in reqs:
        for k, v in r.surface.items():
            # an acronym as written ("SQL") wins over the same word in lower case
            if k not in surface or (v != v.lower() and surface[k] == surface[k].lower()):
                surface[k] = v
    if theme.kind == "noun":
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
        text = " ".join([language.third_person(verb), *best, noun])
        return text[:1].upper() + text[1:] + "."
    if theme.kind == "modonly":
        heads = Counter(r.head for r in reqs if r.head)
        head_lemma = heads.most_common(1)[0][0]
        verbs_used = [r.verb for r in reqs if r.verb]
        verb = (
            Counter(verbs_used).most_common(1)[0][0]
            if verbs_used
            else WRITTEN_VERB
            if head_lemma in WRITTEN_HEADS
            else DEFAULT_VERB
        )
        noun = language.plural(surface.get(head_lemma, head_lemma))
        text = f"{language.third_person(verb)} {_mod(surface.get(theme.qualifier, theme.qualifier))} {noun}"
        return text[:1].upper() + text[1:] + "."
    if theme.kind == "key":
        made = [r for r in reqs if r.head == theme.qualifier]
        used = [r for r in reqs if theme.qualifier in (r.head, *r.mods)]
        verb_counts = Counter(r.verb for r in used if r.verb)
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
        if verb_counts:
            verb = verb_counts.most_common(1)[0][0]
        else:
            verb = WRITTEN_VERB if theme.qualifier in WRITTEN_HEADS else DEFAULT_VERB
        obj = " ".join([*best, language.plural(surface.get(theme.qualifier, theme.qualifier))])
        modified = Counter(r.head for r in used if theme.qualifier in r.mods and r.head)
        if (
            not best
            and modified
            and (
                language.can_be(theme.qualifier, "ADJ")
                or modified.most_common(1)[0][1] > len({r.message.conversation_id for r in made})
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
        text = f"{language.third_person(verb)} {obj}"
        return text[:1].upper() + text[1:] + "."
    if theme.kind == "verbnoun":
        noun = surface.get(theme.qualifier, theme.qualifier)
        noun = noun if language.is_mass(noun) else f"the {language.plural(noun)}"
        text = f"{language.third_person(theme.verb)} {noun}"
        return text[:1].upper() + text[1:] + "."
    if theme.kind == "verbonly":
        heads = Counter(r.head for r in reqs if r.head)
        named = [language.plural(surface.get(h, h)) for h, _ in heads.most_common(2)]
        text = f"{language.third_person(theme.verb)} {' and '.join(named)}"
        return text[:1].upper() + text[1:] + "."
    if verbs:
        verb = verbs.most_common(1)[0][0]
    else:
        verb = WRITTEN_VERB if (theme.head or "") in WRITTEN_HEADS else DEFAULT_VERB
    prefix = [theme.prefix_written or theme.prefix] if theme.prefix else []
    qualifier = " ".join(_mod(w) for w in [*prefix, surface.get(theme.qualifier, theme.qualifier)])
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
        # the phrase as most often written around the noun: "to refund requests"
        forms = Counter(
            p[2][p[2].index(theme.qualifier) :]
            for r in reqs
            for p in r.phrases
            if p[0] == theme.prep and theme.qualifier in p[2]
        )
        lemmas = forms.most_common(1)[0][0] if forms else (theme.qualifier,)
        words = [_mod(surface.get(w, w)) for w in lemmas[:-1]] + [
            surface.get(lemmas[-1], lemmas[-1])
        ]
        if not words[-1].endswith("ing"):
            words[-1] = language.plural(words[-1])
        as_mod = sum(1 for r in reqs if theme.qualifier in r.mods)
        if len(lemmas) == 1 and as_mod * 2 >= len(reqs):
            # "crew schedules": most requests write the noun before the head
            obj = f"{_mod(surface.get(theme.qualifier, theme.qualifier))} {head}"
        else:
            obj = f"{head} {theme.prep} {' '.join(words)}"
    elif theme.kind == "topic":
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
            obj = f"{head} {prep} {qualifier} {noun}"
        elif theme.compound:  # "refund replies": the person writes it that way somewhere
            obj = f"{qualifier} {head}"
        else:
            noun = noun if noun.endswith("ing") else language.plural(noun)
            obj = f"{head} about {' '.join([*prefix, noun])}"
    else:
        mods = Counter(
            m
            for r in reqs
            for m in sorted(set(r.mods))
            if m not in VAGUE_MODIFIERS and m not in PEOPLE_WORDS and not language.is_comparative(m)
        )
        best = [m for m, n in mods.most_common(1) if n * 2 > len(reqs)]
        obj = " ".join([_mod(surface.get(m, m)) for m in best] + [head])
    if " " not in obj and not language.is_mass(obj):
        obj = f"the {obj}"  # "Prepares the rotas.": a kind of work, not a bare noun
    text = f"{language.third_person(verb)} {obj}"
    return text[:1].upper() + text[1:] + "."


# --- quotes -------------------------------------------------------------------------------------


def _opens_sentence(text: str, tok: Tok) -> bool:
    before = text[: tok.start].rstrip()
    return not before or before[-1] in ".!?:;\n"


def _code_word(text: str, tok: Tok) -> bool:
    """Part of an identifier, a dotted name or an assignment: "fct_sessions",
    "pd.read_parquet", "Booking.com", "load_batch(", "n=12,300" (code or output the
    readable text did not blank)."""
    before = text[tok.start - 1] if tok.start else ""
    before2 = text[tok.start - 2] if tok.start > 1 else ""
    after = text[tok.end] if tok.end < len(text) else ""
    after2 = text[tok.end + 1] if tok.end + 1 < len(text) else ""
    if "=" in (before, after):
        return True  # a key=value pair, a comparison: output, not the person's words
    if tok.text.isdigit() and not (before.isalpha() or after.isalpha()):
        return False  # a number, a version or a price: "0.9.3", "73.50"
    return (
        "_" in (before, after)
        or after == "("
        or (after == "." and after2.isalnum())
        or (before == "." and before2.isalnum())
    )


# keywords and built-in names of programming languages that are no English words
CODE_KEYWORDS = word_set(
    """
    func fn def struct structs nil elif impl goroutine goroutines chan println printf
    sprintf errorf int64 int32 uint8 kwargs stdin stdout stderr isinstance typeof iota
    """
)


def _code_token(text: str, tok: Tok) -> bool:
    """A word that is code: a language keyword ("func", "nil", "def"), an identifier
    (camel case, snake case, "x.y", "load(") or a key=value pair."""
    return tok.low in CODE_KEYWORDS or _camel(tok.text) or _code_word(text, tok)


def _camel(word: str) -> bool:
    """A capital after a small letter: a brand or an identifier ("TripAdvisor", "getUser")."""
    return any(a.islower() and b.isupper() for a, b in zip(word, word[1:], strict=False))


def _unclean(text: str, tok: Tok, banned: set[str], spans: list[tuple[int, int, str]]) -> bool:
    """A word a quote must not hold: a name (``banned``: known to memory or written as a
    name in the messages read, any case), a word inside contact or address details
    (``learning.policy.contact_spans``: "Linden Avenue", "Mrs Patel", a postcode), a
    capitalised word that does not open its sentence (a person, a place, a company,
    whether or not it is also an English word) unless it is an acronym or in
    ``CAPITALISED_OK`` (a name where a sentence or a line opens, "Nina" after "script
    pls:", is in ``banned``: ``proper_words``), a camel-case word, a run of seven or more digits (a phone or
    an account number)."""
    from learning.policy import CAPITALISED_OK

    if tok.low in banned or _code_token(text, tok):
        return True
    if sum(ch.isdigit() for ch in tok.text) >= 7:
        return True
    if any(a < tok.end and tok.start < b for a, b, _ in spans):
        return True
    if not tok.text[:1].isupper() or _acronym(tok.text) or tok.low in CAPITALISED_OK:
        return False
    return not _opens_sentence(text, tok)


# words people open a message or a line with that the lexicon does not hold: no names
CHAT_WORDS = word_set(
    """
    pls plz thx ta ok hi hiya hey yo yeah yep nope fyi btw tbh asap np hmm ugh oops re ps
    nb eta lol imo aka diy tho cos coz gonna wanna dunno
    """
)


def _unknown_word(low: str) -> bool:
    """A word English does not have ("nina", "joe", "thirsk"): written with a capital it
    is a name wherever it stands, at the start of a sentence or a line, after a colon
    ("script pls: Nina and Joe") or a dash too; not a chat word ("Pls", "Thx"), a
    greeting, a stop word or a contraction of an English word ("Can't", "Let's")."""
    if not low.replace("'", "").replace("-", "").isalpha():
        return False
    if low in STOP_WORDS or low in CHAT_WORDS or low in GREETINGS or low in LEAD_FILLERS:
        return False
    parts = [p for p in re.split(r"[-']", low) if p]
    stem_part = parts[0] if "'" in low else None
    if stem_part is not None:  # "can't", "let's", "we're": the word before the apostrophe
        return not (stem_part in STOP_WORDS or language.is_english_word(stem_part))
    return any(
        not (p in STOP_WORDS or p in CHAT_WORDS or language.is_english_word(p)) for p in parts
    )


def proper_words(messages: Any) -> set[str]:
    """Words the messages write as names: capitalised where no sentence opens and never
    in lower case, or in lower case too when English has no such word ("Linden",
    "Hollybank", "Hugo", "tyler" of "Tyler"), capitalised where a sentence or line opens
    when English has no such word and it is never written small ("Nina" of "script
    pls: Nina and Joe"), camel case ("TripAdvisor"); acronyms
    and ``CAPITALISED_OK`` words left out. A quote holds none of them, wherever it
    stands in its sentence ("Hugo wants …"), and no theme is named after one."""
    from learning.policy import CAPITALISED_OK

    capitalised: set[str] = set()
    lower: set[str] = set()
    pasted: set[str] = set()
    opening: set[str] = set()  # a word English does not have, capitalised where a sentence opens
    for m in messages:
        readable = readable_text(m.text)
        toks = tokens(readable)
        for k, t in enumerate(toks):
            if not t.low.isalpha() or _acronym(t.text) or t.low in CAPITALISED_OK:
                continue
            if _written_small_as_a_name(toks, k):
                pasted.add(t.low)
            if _camel(t.text):
                capitalised.add(t.low)
            elif t.text[:1].isupper():
                if not _opens_sentence(readable, t):
                    capitalised.add(t.low)
                elif _unknown_word(t.low):
                    opening.add(t.low)  # "script pls: Nina and Joe"
            else:
                lower.add(t.low)
        # a name inside what the person pasted or quoted ('Mum wrote: "Tyler says …"')
        # and written small in their own words ("report for tyler")
        for t in tokens(m.text):
            if (
                t.text[:1].isupper()
                and not _camel(t.text)
                and not _acronym(t.text)
                and not _opens_sentence(m.text, t)  # "Rota for next week": no name
            ):
                pasted.add(t.low)
    # a word also written in lower case is a name only when English has no such word:
    # "rose" may be a flower, "tyler" written small is still Tyler
    unknown = {w for w in lower if w not in STOP_WORDS and not language.is_english_word(w)}
    return (capitalised | pasted) & unknown | (capitalised | opening) - lower


# who a piece of work is for or from: "report comment for tyler", "email to jonno"
NAME_PREPOSITIONS = frozenset(["for", "to", "from"])


def _written_small_as_a_name(toks: list[Tok], k: int) -> bool:
    """Whether ``toks[k]`` stands where a person's name does, written in lower case: after
    "for", "to" or "from" ("Y10 report comment for tyler") or before "wants", "needs",
    "asked" ("jonno wants a bar chart"). ``proper_words`` counts it as a name when
    English has no such word."""
    if not toks[k].text[:1].islower():
        return False
    before = toks[k - 1].low if k > 0 else ""
    after = toks[k + 1].low if k + 1 < len(toks) else ""
    return before in NAME_PREPOSITIONS or after in ("wants", "needs", "asked")


_SENTENCE_END = re.compile(r"[.!?\n]")
# where a sentence ends: a full stop that is no decimal point ("grafana 11.3.1"), ! ? or a line break
_FULL_STOP = re.compile(r"(?<!\d)\.|\.(?!\d)|[!?\n]")


def quote_for(
    message: Any,
    start: int,
    end: int,
    banned: set[str],
    *,
    keep: frozenset[str] = frozenset(),
    own_sentence: bool = False,
) -> str | None:
    """A verbatim quote from the clause ``[start:end]`` of the message: the clause as
    written (fillers off its start), widened past its end when shorter than four words,
    and cut around any word a quote must not hold (``_unclean``), keeping the longest
    clean part that holds a word of ``keep`` (lemmas of the theme); with ``own_sentence``
    (a correction) it widens within the clause's sentence only. When the cuts leave
    no such part, the rest of the sentence may give one ("Reply to a Google review
    please: 5 stars" -> "review please: 5 stars"). None when no clean part of four words
    or more is there."""
    from learning.policy import _contact, contact_spans

    text = message.text
    readable = readable_text(text)
    spans = contact_spans(text)
    toks = tokens(text, start, end)
    if len(toks) < QUOTE_MIN_WORDS:
        # too short to judge ("Weekend post!"): on into what follows, to that clause's
        # end; a correction's quote never past the end of its sentence ("use the name. And
        # make it shorter" would quote another edit), but back to where the sentence starts
        stop = _FULL_STOP.search(readable, end) if own_sentence else None
        sentence_end = stop.start() if stop else len(text)
        more = tokens(text, start, sentence_end)[:12]
        if len(more) >= QUOTE_MIN_WORDS or not own_sentence:
            toks = more[:QUOTE_MIN_WORDS]
            edge = _CLAUSE_EDGE.search(readable, toks[-1].end)
            limit = edge.start() if edge else len(text)
            toks = [t for t in more if t.end <= limit] or toks
        else:
            back = [m.end() for m in _FULL_STOP.finditer(readable, 0, start)]
            toks = tokens(text, back[-1] if back else 0, sentence_end)[-QUOTE_MAX_WORDS:]
    best = _clean_part(text, readable, toks, banned, spans, keep)
    if len(best) < QUOTE_MIN_WORDS or not _holds(best, keep):
        stop = _SENTENCE_END.search(readable, end)
        wider = tokens(text, start, stop.start() if stop else len(text))[:QUOTE_MAX_WORDS]
        other = _clean_part(text, readable, wider, banned, spans, keep)
        if (_holds(other, keep), len(other) >= QUOTE_MIN_WORDS) > (
            _holds(best, keep),
            len(best) >= QUOTE_MIN_WORDS,
        ):
            best = other
    if len(best) < QUOTE_MIN_WORDS:
        return None
    best = best[:QUOTE_MAX_WORDS]
    quote = text[best[0].start : best[-1].end]
    return None if _contact(quote) else quote


def request_quote(
    req: Request, banned: set[str], *, keep: frozenset[str], words_of_text: set[str]
) -> str | None:
    """The quote behind ``req``: from its own clause, or, when that gives no clean quote
    sharing a word with the sentence (``words_of_text``), from another clause of the
    same message that holds a word of the theme ("Summarise please." after
    "Escalation for engineering: …")."""
    quote = quote_for(req.message, req.start, req.end, banned, keep=keep)
    if quote and content_words(quote) & words_of_text:
        return quote
    text = req.message.text
    for a, b in clauses(readable_text(text)):
        a, b = message_span(text, a, b)
        if (a, b) == (req.start, req.end) or not _holds(tokens(text, a, b), keep):
            continue
        quote = quote_for(req.message, a, b, banned, keep=keep)
        if quote and content_words(quote) & words_of_text:
            return quote
    return None


def _holds(seg: list[Tok], keep: frozenset[str]) -> bool:
    return any(_lemma(t) in keep or t.low in keep for t in seg)


def _clean_part(
    text: str,
    readable: str,
    toks: list[Tok],
    banned: set[str],
    spans: list[tuple[int, int, str]],
    keep: frozenset[str],
) -> list[Tok]:
    """The longest run of ``toks`` free of blanked code and unclean words (fillers off
    its start, stop words off its end), one holding a word of ``keep`` first."""
    segments: list[list[Tok]] = [[]]
    for t in toks:
        if readable[t.start : t.end] != t.text or _unclean(text, t, banned, spans):
            segments.append([])  # blanked code, or a word a quote must not hold
        else:
            segments[-1].append(t)
    best: list[Tok] = []
    for seg in segments:
        while seg and seg[0].low in LEAD_FILLERS and len(seg) > QUOTE_MIN_WORDS:
            seg = seg[1:]
        while seg and seg[-1].low in STOP_WORDS and len(seg) > QUOTE_MIN_WORDS:
            seg = seg[:-1]
        if len(seg) < QUOTE_MIN_WORDS:
            continue
        if (_holds(seg, keep), len(seg)) > (_holds(best, keep), len(best)):
            best = seg
    return best


def _name_words(known_names: Any) -> set[str]:
    out: set[str] = set()
    for name in known_names or ():
        out.update(t.low for t in tokens(str(name)) if len(t.low) > 1)
    return out


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
    from learning.policy import _clause_around, _values

    wanted = _values(rule)
    if not wanted:
        return None
    for unit, vals in wanted.items():
        agreeing = sum(
            1 for text, a, b in quoted if _values(_clause_around(text, a, b)).get(unit) == vals
        )
        if agreeing < needed:
            return (
                f"only {agreeing} of the corrections give {'/'.join(sorted(vals))} {unit}…; "
                "a standing value needs corrections that agree"
            )
        for c in corrections:
            other = _values(c.message.text[c.start : c.end]).get(unit)
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
# the object of an edit to the draft at hand: "write it in German", "make this shorter"
DRAFT_PRONOUNS = frozenset(["it", "this", "that", "these", "those"])
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


# --- the proposer -----------------------------------------------------------------------------------


def verified_evidence(
    text: str, evidence: list[dict[str, Any]], corpus: ReviewCorpus
) -> list[dict[str, Any]]:
    """The items of ``evidence`` whose quote the review's verifier accepts for ``text``
    (found word for word, four words or more, sharing a word with it), in order."""
    from memory.verification import verify_quotes

    kept: list[dict[str, Any]] = []
    for at in range(0, len(evidence), MAX_QUOTES):
        part = evidence[at : at + MAX_QUOTES]
        check = verify_quotes(
            text=text, quotes=part, corpus=corpus, min_conversations=1, min_users=None
        )
        kept.extend(item for item, v in zip(part, check.verdicts, strict=True) if v.ok)
    return kept


def _paste_holds_secret(message: Any) -> bool:
    """Whether a line of a block the message pastes (code, a log, a config) holds a
    credential. The review never reads a message the secret scan flags; a paste is
    scanned line by line as well, since a token among log lines may pass a scan of the
    whole text ("HW_CLOUD_TOKEN: …" above a CMake error)."""
    from safety.secrets import find_secrets

    return any(
        find_secrets(line)
        for m in _PASTED.finditer(message.text)
        for line in m.group(0).splitlines()
        if line.strip()
    )


_STATEMENT_END = re.compile(r"(?<=[.!?;])\s+|\n+")


def persona_statements(persona: dict[str, Any]) -> list[set[str]]:
    """The content words of each sentence of the persona's goals and background. A
    theme the persona already says is said in one of them: "Writes allotment letters."
    is news to a persona that helps "with letters to residents" in one sentence and
    "runs the allotments" in another."""
    text = "\n".join(str(persona.get(f) or "") for f in ("goals", "background"))
    return [words for part in _STATEMENT_END.split(text) if (words := content_words(part))]


def _seen(
    theme: Theme, text: str, reason: str, *, key: str = "", detail: str = ""
) -> dict[str, Any]:
    return candidate(
        kind="sentence",
        text=text,
        reason=reason,
        conversations=len(theme.requests),
        people=theme.people,
        key=key,
        detail=detail,
    )


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


class LocalProposer:
    name = "local"

    def _vectors(self, messages: list[ReadMessage], result: ProposerResult) -> dict[int, Any]:
        from memory.embeddings import encode, vectors_for_messages

        stored = vectors_for_messages([m.id for m in messages])
        missing = [m for m in messages if m.id not in stored]
        if missing:
            result.notes.append(
                f"{len(missing)} of {len(messages)} messages had no stored embedding yet; "
                "they were encoded for this review."
            )
            for message, vector in zip(missing, encode([m.text for m in missing]), strict=True):
                stored[message.id] = vector
        return stored

    def _clause_vectors(self, requests: list[Request]) -> Any:
        """One row per request: the embedding of its clause, all encoded in one batch
        (each distinct clause once). Clauses are not stored: a review's requests are a
        few hundred short clauses at most."""
        import numpy as np

        from memory.embeddings import encode

        texts = [r.message.text[r.start : r.end] for r in requests]
        distinct = list(dict.fromkeys(texts))
        rows = dict(zip(distinct, encode(distinct), strict=True))
        return np.vstack([rows[t] for t in texts])

    def _themes(
        self,
        corpus: ReviewCorpus,
        result: ProposerResult,
        *,
        min_conversations: int,
        min_users: int | None,
        meaning: bool,
    ) -> tuple[list[Theme], list[Request], dict[int, Any], set[str]] | None:
        """The themes that recur in the corpus (None when no message asks for anything),
        with the requests, message vectors and banned words they were found with.
        ``meaning``: also group requests alike in meaning (encodes every clause)."""
        names: set[str] = getattr(corpus, "known_names", set())
        banned = _name_words(names) | proper_words(corpus.messages)
        requests = [r for m in corpus.messages for r in requests_of(m)]
        opening = {r.head or r.verb or "" for r in requests if not r.message.after_assistant}
        requests = [r for r in requests if counts_as_request(r, opening)]
        if not requests:
            return None
        vectors = self._vectors(list({r.message.id: r.message for r in requests}.values()), result)
        themes = find_themes(
            requests,
            vectors,
            min_conversations=min_conversations,
            min_users=min_users,
            exclude=banned,
            clause_vectors=self._clause_vectors(requests) if meaning else None,
        )
        return themes, requests, vectors, banned

    def _near_misses(
        self,
        requests: list[Request],
        vectors: dict[int, Any],
        banned: set[str],
        themes: list[Theme],
        *,
        settings: LearningSettings,
        persona: dict[str, Any],
        names: set[str],
    ) -> list[dict[str, Any]]:
        """Themes that recur (in two conversations or more) but in fewer conversations,
        or said by fewer people, than the settings ask: what the log explains as "too
        few conversations" and "too few people". Grouped by words only (no encoding)."""
        from learning import policy

        min_users = settings.min_users if settings.across_users else None
        floor = min(2, settings.min_conversations)
        if settings.min_conversations <= floor and min_users is None:
            return []
        shown = {policy.content_key(sentence_for(t)) for t in themes}
        out: list[dict[str, Any]] = []
        # the policy's check of a wording may scan it: look at a bounded number of themes
        for theme in find_themes(
            requests, vectors, min_conversations=floor, min_users=None, exclude=banned
        )[:MAX_CANDIDATES]:
            n = len(theme.requests)
            if n >= settings.min_conversations and (min_users is None or theme.people >= min_users):
                continue  # recurs enough: a theme above, or the same work as one
            text = sentence_for(theme)
            key = policy.content_key(text)
            if key in shown or any(t.low in banned for t in tokens(text)):
                continue
            if policy.sentence_refusal(
                sentence=text, field="goals", persona=persona, known_names=names
            ):
                continue  # what the policy refuses is not shown in the log
            shown.add(key)
            reason = TOO_FEW_CONVERSATIONS if n < settings.min_conversations else TOO_FEW_PEOPLE
            out.append(_seen(theme, text, reason, key=key))
            if len(out) >= MAX_RECORDED:
                break
        return out

    def recurring_sentences(
        self, corpus: ReviewCorpus, persona: dict[str, Any], settings: LearningSettings
    ) -> list[dict[str, Any]]:
        """The goals/background themes that recur enough in ``corpus`` (words only, no
        encoding), as candidates without a reason: the review reads the whole history
        with it to find what recurs outside the recent conversations."""
        from learning import policy

        result = ProposerResult()
        min_users = settings.min_users if settings.across_users else None
        found = self._themes(
            corpus,
            result,
            min_conversations=settings.min_conversations,
            min_users=min_users,
            meaning=False,
        )
        if found is None:
            return []
        names: set[str] = getattr(corpus, "known_names", set())
        out = []
        for theme in found[0][:MAX_RECORDED]:
            text = sentence_for(theme)
            if any(t.low in found[3] for t in tokens(text)) or policy.sentence_refusal(
                sentence=text, field="goals", persona=persona, known_names=names
            ):
                continue
            out.append(_seen(theme, text, "", key=policy.content_key(text)))
        return out

    def propose_sentence(
        self,
        corpus: ReviewCorpus,
        persona: dict[str, Any],
        settings: LearningSettings,
        *,
        avoid=frozenset(),
    ) -> ProposerResult:
        from learning import policy
        from memory.verification import verify_quotes

        result = ProposerResult(calls=1)
        result.data = {"field": None, "sentence": "", "evidence": []}
        names: set[str] = getattr(corpus, "known_names", set())
        min_users = settings.min_users if settings.across_users else None
        found = self._themes(
            corpus,
            result,
            min_conversations=settings.min_conversations,
            min_users=min_users,
            meaning=True,
        )
        if found is None:
            return result
        themes, requests, vectors, banned = found
        near = self._near_misses(
            requests, vectors, banned, themes, settings=settings, persona=persona, names=names
        )
        left_out: list[str] = []
        tried: set[str] = set()
        covered = persona_statements(persona)
        for theme in themes[:MAX_CANDIDATES]:
            text = sentence_for(theme)
            named = [t.text for t in tokens(text) if t.low in banned]
            if named:
                left_out.append(f"{text!r}: names a person, place or company ({named[0]})")
                continue  # never recorded: the log would show the name
            # the object says what the work is, unless the verb names it ("Proofreads
            # translations." is news to a persona about translation jobs)
            said = text if theme.kind == "verbnoun" else text.split(" ", 1)[1]
            if any(content_words(said) <= statement for statement in covered):
                left_out.append(f"{text!r}: the persona says this already in other words")
                result.candidates.append(_seen(theme, text, IN_PERSONA))
                continue
            key = policy.content_key(text)
            if key in tried:
                continue
            tried.add(key)
            if key in avoid:
                left_out.append(f"{text!r} was turned down, undone or is in the persona")
                result.candidates.append(_seen(theme, text, AVOIDED, key=key))
                continue
            refusal = policy.sentence_refusal(
                sentence=text, field="goals", persona=persona, known_names=names
            )
            if refusal:
                left_out.append(f"{text!r}: {refusal}")
                continue  # not recorded: the words the policy refuses stay out of the log
            keep = frozenset(w for w in (theme.head, theme.qualifier, theme.verb) if w) | frozenset(
                t.low for t in tokens(text)
            )
            evidence = []
            people = set()
            words_of_text = content_words(text)
            for req in theme.requests.values():
                if _paste_holds_secret(req.message):
                    continue
                quote = request_quote(req, banned, keep=keep, words_of_text=words_of_text)
                if quote:
                    evidence.append(
                        {"quote": quote, "conversation": req.message.conversation_label}
                    )
                    people.add(req.message.principal_id)
            if len(evidence) < settings.min_conversations or (
                min_users is not None and len(people) < min_users
            ):
                left_out.append(f"{text!r}: too few conversations with a clean quote")
                result.candidates.append(
                    _seen(
                        theme,
                        text,
                        REFUSED,
                        key=key,
                        detail="Too few of its conversations hold a quote that may be shown.",
                    )
                )
                continue
            # the review verifies the quotes and refuses the whole proposal over one it
            # rejects, and the next review would make the same proposal: keep only the
            # quotes it accepts, and pass on to the next theme when too few are left
            evidence = verified_evidence(text, evidence, corpus)
            check = verify_quotes(
                text=text,
                quotes=evidence[:MAX_QUOTES],
                corpus=corpus,
                min_conversations=settings.min_conversations,
                min_users=min_users,
            )
            if not check.ok:
                left_out.append(f"{text!r}: {check.reason}")
                result.candidates.append(_seen(theme, text, REFUSED, key=key, detail=check.reason))
                continue
            result.data = {"field": "goals", "sentence": text, "evidence": evidence[:MAX_QUOTES]}
            break
        result.candidates.extend(near)
        if left_out:
            result.notes.append(
                "Candidates left out: " + "; ".join(list(dict.fromkeys(left_out))[:5])
            )
        return result

    def propose_rule(
        self,
        corpus: ReviewCorpus,
        persona: dict[str, Any],
        settings: LearningSettings,
        *,
        avoid=frozenset(),
    ) -> ProposerResult:
        from learning import policy

        result = ProposerResult(calls=1)
        result.data = {"rule": None, "evidence": []}
        names: set[str] = getattr(corpus, "known_names", set())
        banned = _name_words(names) | proper_words(corpus.messages)
        asked = frozenset(
            r.head for m in corpus.messages if not m.after_assistant for r in requests_of(m)
        )
        corrections = [
            c for m in corpus.messages if m.after_assistant for c in corrections_of(m, asked)
        ]
        rules_now = [content_words(x) for x in persona.get("standing_rules") or []]
        min_users = settings.min_users if settings.across_users else None
        left_out: list[str] = []
        tried: set[str] = set()
        for _phrase, hits in recurring_instructions(
            corrections, min_conversations=settings.min_corrections, min_users=min_users
        )[:MAX_CANDIDATES]:
            text = rule_for(hits)
            if not text:
                continue
            plain = _CONTRAST_TAIL.sub(".", text)
            if plain != text and policy.rule_refusal(rule=text, persona=persona, known_names=names):
                text = plain  # the refused wording may read as a name ("Hi there"): leave it out
            if any(content_words(text) <= have for have in rules_now):
                left_out.append(f"{text!r}: the persona holds this rule already in other words")
                result.candidates.append(_rule_seen(hits, text, IN_PERSONA))
                continue
            key = policy.content_key(text)
            if key in tried:
                continue
            tried.add(key)
            if key in avoid:
                left_out.append(f"{text!r} was turned down, undone or is in the persona")
                result.candidates.append(_rule_seen(hits, text, AVOIDED, key=key))
                continue
            refusal = policy.rule_refusal(rule=text, persona=persona, known_names=names)
            if refusal:
                left_out.append(f"{text!r}: {refusal}")
                continue
            evidence, quoted = [], []
            for c, _ in hits.values():
                toks = _variant(c)
                if not toks:
                    continue
                quote = quote_for(
                    c.message,
                    toks[0].start,
                    toks[-1].end,
                    banned,
                    keep=frozenset(_phrase),
                    own_sentence=True,
                )
                if quote and content_words(quote) & content_words(text):
                    evidence.append({"quote": quote, "conversation": c.message.conversation_label})
                    begin = c.message.text.find(quote, c.start - 1 if c.start else 0)
                    quoted.append((c.message.text, begin, begin + len(quote)))
            people = {c.message.principal_id for c, _ in hits.values()}
            if len(evidence) < settings.min_corrections or (
                min_users is not None and len(people) < min_users
            ):
                left_out.append(f"{text!r}: too few conversations with a clean quote")
                result.candidates.append(
                    _rule_seen(
                        hits,
                        text,
                        REFUSED,
                        key=key,
                        detail="Too few of its conversations hold a quote that may be shown.",
                    )
                )
                continue
            disagree = (
                policy.corrections_disagree(rule=text, quoted=quoted)
                or _values_refusal(text, quoted, corrections, settings.min_corrections)
                or _subject_values_refusal(text, corrections)
            )
            if disagree:
                left_out.append(f"{text!r}: {disagree}")
                result.candidates.append(_rule_seen(hits, text, REFUSED, key=key, detail=disagree))
                continue
            result.data = {"rule": text, "evidence": evidence[:MAX_QUOTES]}
            break
        result.candidates.extend(
            _rule_near_misses(
                corrections, settings=settings, persona=persona, names=names, tried=tried
            )
        )
        if left_out:
            result.notes.append(
                "Candidates left out: " + "; ".join(list(dict.fromkeys(left_out))[:5])
            )
        return result
