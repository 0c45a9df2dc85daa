"""Word lists and thresholds of the local proposer: small and deliberate, each in one place."""

from __future__ import annotations

from typing import TYPE_CHECKING

from safety.text import (
    word_set,
)

if TYPE_CHECKING:
    pass


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


#: two nouns of what is made name one kind of work when their own embeddings (the bare
#: nouns, ``memory.embeddings.encode``) are at least this alike: mostly a noun and its
#: derived form ("quote" / "quotation" 0.76, "list" / "listing" 0.74, "error" /
#: "exception" 0.70). Chosen on the seen parts (every pair of heads of one assistant):
#: the pairs at 0.7 or more are those and "query" / "sql" 0.74, "chase" / "chaser" 0.83,
#: "fail" / "failing" 0.89, "checklist" / "list" 0.71, and one pair of different work,
#: two tools ("fastqc" / "multiqc" 0.78); below it "comment" / "reply" 0.63, "message" /
#: "reply" 0.56, "post" / "reply" 0.51. The encoder does not tell synonyms written with
#: other words ("quote" / "estimate" 0.26, "release notes" / "changelog" 0.21): those
#: stay apart.
SAME_HEAD = 0.7


#: a group of requests alike in meaning is named after words that at least this many of
#: its conversations share (never after one request's words)
NAMING_CONVERSATIONS = 2


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
        "anyway",
        "anyways",
        "alright",
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
    # a hand-off: the one whose turn it is brings the material ("I'm doing the newsletter
    # this week. Fri 20 Nov …"); "the" names a known piece of work ("I'm doing extra
    # hours" is none)
    ("i'm", "doing", "the"),
    ("so", "i'm", "doing", "the"),
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


# verb + particle that name the work: "put together a quote", "write up the report"; a
# casual verb of making is the plain "make" ("knock up a job sheet", "whip up a flyer"),
# too weak to name the work (``WEAK_VERBS``): the verb comes from what is made
PHRASAL = {
    ("put", "together"): "prepare",
    ("sort", "out"): "prepare",
    ("write", "up"): "write",
    ("knock", "up"): "make",
    ("knock", "together"): "make",
    ("throw", "together"): "make",
    ("whip", "up"): "make",
    ("rustle", "up"): "make",
}


# one word for one kind of thing made
HEAD_SYNONYMS = {
    "response": "reply",
    "answer": "reply",
    "e-mail": "email",
    "mail": "email",
    "doc": "documentation",
    # a chat abbreviation is written in full: "msg for the owners" -> "messages"
    "msg": "message",
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


#: the words that say a thing is not there or not wanted: "no scaffold needed", "without
#: the battery", "never miles"
NEGATIONS = frozenset(["no", "not", "never", "don't", "dont", "without"])


PREPOSITIONS = frozenset(
    ["for", "to", "about", "on", "with", "of", "from", "in", "into", "at", "by"]
)

# the prepositions that name what a thing is built, tested or run with ("tested with
# xUnit", "with pytest tests run in CI"): a noun after one names a tool of the trade,
# not a piece of work (``PREPOSITIONS`` holds every one the reading stops at)
INSTRUMENT_PREPOSITIONS = frozenset(["with"])


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


# slowness said of a thing, read as a request to make it faster (``requests.slowness_request``):
# what the thing is or does ("the report is slow as hell", "it's crawling again", "the
# game lags"), the comparative asked for ("can we make this faster?", "is X faster than
# Y?") and how long it takes ("takes ages", "takes forever", "takes too long"); general
# English, lemmas
SLOW_WORDS = word_set("slow slower sluggish laggy crawl lag")
FASTER_WORDS = word_set("faster quicker")
LONG_TIMES = word_set("ages forever long")
# the verbs that ask for the comparative outside a question: "want the upload faster",
# "can we make it quicker"
WANTING_VERBS = word_set("want need make get")

# the work slowness asks for, what a sentence calls the thing said slow, and the thing
# when the person names none ("can we speed it up?"): "Makes slow code faster."
SPEED_VERB = "speed up"
SLOW_WORD = "slow"
# how a sentence words that work: "Makes slow reports faster."
SPEED_WORDING = ("make", "faster")
DEFAULT_SLOW_THING = "code"


# verbs that name the work whatever the object ("Reviews PRs and diffs."); a verb of
# making ("write", "draft", "prepare") needs what is made to name it
WORK_NAMING_VERBS = word_set(
    """review summarise summarize translate proofread debug refactor analyse analyze
    research calculate estimate price schedule reconcile chase document explain
    audit triage"""
) | frozenset([SPEED_VERB])


WEEKDAYS = word_set("monday tuesday wednesday thursday friday saturday sunday")
MONTHS = word_set(
    "january february march april may june july august september october november december"
)


# "weekly report", "weekly order": a time says when, not which work
TIME_MODIFIERS = (
    word_set(
        """daily weekly monthly yearly annual quarterly nightly morning evening weekend
        today tomorrow tonight next last"""
    )
    | MONTHS
    | WEEKDAYS
)


# topics that say nothing on their own: "replies about changes" (changes to what?)
VAGUE_TOPICS = frozenset(["change", "update", "detail", "info", "information", "stuff"])


# "a draft of X", "a list of X": the work is X
OF_HEADS = frozenset(
    ["draft", "list", "version", "copy", "set", "batch", "kind", "sort", "couple", "bit", "piece"]
)


# a part of a piece of work ("a newsletter item", "a bit for the newsletter", "the results
# section for the report"): the kind of work is the whole it is part of (``Request.wholes``)
PART_HEADS = frozenset(["item", "section", "bit", "paragraph", "blurb", "segment"])

# what "every" counts when it says how often, not which things ("every time", "each week")
FREQUENCY_NOUNS = frozenset(["time", "day", "week", "month", "year", "one"])

# a part of a text a rule asks for ("the deposit line", "the FENSA bit"): included in
# the text, never "used"
TEXT_PARTS = PART_HEADS | frozenset(["line", "part", "sentence"])

# the prepositions that name the whole a part belongs to ("a bit for the newsletter")
WHOLE_PREPOSITIONS = frozenset(["for", "of", "in"])


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
        "lad",
        "lads",
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
        ]
    )
    | WEEKDAYS
)


# a verbless request in a message written after a reply is a correction ("Type hints
# please") unless it opens like a new request ("Also a quote for …", "And the order")
NEW_REQUEST_OPENERS = frozenset(["also", "and", "another", "next", "last"])


GREETINGS = frozenset(["hi", "hiya", "hey", "hello", "morning", "evening", "afternoon", "yo"])


# the words of a thanks or an acknowledgement ("perfect, thanks", "lovely, cheers", "ta"):
# a clause made of them alone says the work is done, it asks for none
ACKNOWLEDGEMENTS = frozenset(
    ["thanks", "thank", "you", "thx", "ta", "ty", "cheers", "much", "many", "so"]
    + ["good", "great", "perfect", "lovely", "nice", "brilliant", "cool", "fab", "ace"]
    + ["ok", "okay", "fine", "sound", "spot", "on", "sorted", "done", "that's", "it"]
)


OPENER_CLAUSE_WORDS = frozenset(
    ["last", "thing", "one", "more", "also", "and", "next", "finally", "oh"]
    # an acknowledgement closes the last piece of work: "Good. Aftercare note for …"
    + ["good", "great", "perfect", "lovely", "nice", "thanks", "thank", "you", "cheers"]
    + ["ok", "okay", "fine", "brilliant", "cool"]
    # after a joke or a test, the request meant: "ok real one: rota for Sunday"
    + ["real", "actual", "proper"]
    # a greeting of its own: "hi. practice notes for Freya", "hiya, can you …"
    + list(GREETINGS)
)


# "this week", "next Monday": when, after what is asked for ("Crew schedule this week")
WHEN_WORDS = word_set("week weekend month year quarter morning afternoon evening") | WEEKDAYS


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


# the object of an edit to the draft at hand: "write it in German", "make this shorter"
DRAFT_PRONOUNS = frozenset(["it", "this", "that", "these", "those"])

# the object of a request that stands for a thing its message named before: "… want a
# credit on the sport show. Write one?", "can you write it and an email to …"
STAND_IN_OBJECTS = DRAFT_PRONOUNS | frozenset(["one", "them"])

# the prepositions of a phrase that says what a text is about or for ("a paragraph about
# the reset", "poster text for the reset")
ABOUT_PREPOSITIONS = frozenset(["about", "for", "on"])

# heads that are messages written to someone ("email to parents", "reply to a parent")
MESSAGE_HEADS = frozenset(
    ["reply", "response", "answer", "email", "mail", "message", "letter", "note", "text"]
)

# verbs whose object is what is answered: "answer this review" asks for a reply to it
# ("reply" and "respond" take "to": "reply saying …" has no object)
ANSWER_VERBS = frozenset(["answer"])
