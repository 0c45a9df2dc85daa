"""The time facet of ``build_context``: which time a question asks about, read with a
small general grammar relative to ``now``, and how well a belief's due time and validity
window answer it.

The grammar (on the normalised question; every span is ``[start, end]``):

- a day: today, tonight, this morning/afternoon/evening, tomorrow, yesterday, the day
  after tomorrow, the day before yesterday;
- a named span: this/next/last/coming/past/previous week, weekend, month or year; the
  weekend; the end of the week/month/year; the week after this (one) / after next;
  this time next/last week, month or year (that one day);
- a counted span: the next/coming/last/past N days/weeks/fortnights/months/years, within
  N ..., in N ... (around then), N ... from today/now/tomorrow (as "in N ...", counted
  from that day), N ... ago (N a number or a number word, "a", "a few", "a couple of");
  "in a fortnight", "a fortnight from today" and "three months ago" name a point give or
  take half their unit: a date at the point answers best, one at the edge as a covering
  window;
- a day of the month with no month ("the 27th", "Friday the 27th"): the next such date
  (the last one in the past tense), on that weekday when one is named; a weekday with a
  date ("Friday 27 November"): that date;
- the first/second/third/fourth/last weekday of (or in) a month ("the last Sunday of
  November"); the first ... fourth or last week (seven days) or the first or second half
  of a month ("the last week of November", "the first half of December");
- a weekday, alone or after this/next/last/on (a span of up to three days, such as
  "tomorrow" or "this weekend", names its weekdays and the weekend: an undated "goes
  to the sauna on Sundays" answers it, after what is dated inside the span); a weekday
  in the plural or before a part of the day in the plural ("on Sundays", "Sunday
  mornings") says when the person does something, and names no date;
- Christmas ("Christmas", "Christmas Day", "the Christmas holidays"): the holidays of
  late December (as "late December"), from the day before a trip to spend it to the new
  year; after a relation ("after Christmas") the day itself, 25 December; "the Christmas
  market" (qualifying a thing) names no time;
- a month, alone or with a day ("March 3", "the 3rd of March") or early/mid/late; "may"
  and "march" only with a preposition, a modifier or a day (they are verbs too); the
  month meant is the coming one, or the last one when the question is in the past tense;
- a season after in/this/next/last/during/over, or as a verb's object ("How did she
  spend the summer?"; not "through the winter", "the winter stoppage"): meteorological seasons
  of the northern hemisphere (spring is March to May; where the person lives is not
  known to the ranking). With no year, a season is the most recent one that has begun
  in the past tense (the one under way, else the last), and otherwise (the present or
  the future tense) the one under way, else the coming one;
- "the new year": the moment the coming year begins (the last one, in the past tense);
  "New Year" with no article is a feast of a calendar and is not read;
- any of the above followed by "starts/begins" or "ends/finishes/is over": that moment;
- a relation (before, after, since, until, till, by; "once" as "after") followed by one
  of the above, or by
  an event named with a determiner ("before the renewal", "after my exam") or, ahead of
  it, told as a clause ("before she leaves for Spain"): the event is found among the
  person's beliefs and intentions with a date (``memory.context._with_event``); told
  with its own time ("before she heads off to Denmark in January"), it is looked for in
  that time, by its words on both sides of it, and when nothing there names it, it may
  be any day of it; a text that names it only in a relation clause of its own ("Must
  build a perch before her new hawk arrives") prepares for it and is not it
  (``event_date``); ahead of the event, what shares a word with it (its text, the
  question's words for it, the words a preparation names it with) comes before a date
  that only falls in the span (``OFF_EVENT``); a question in the present or future
  tense takes for "after"/"once" the event not yet past over one gone by that names it
  as well, and its "by" is of place when the event it finds is past ("Is he still
  living out by the airport?");
- "when" asks about time leading the question or a clause of its own ("If I text him at
  eight, when will he see it?"), not joining a clause to a question led otherwise
  ("Should I make him a coffee when he comes round?"); "next" with no span after it
  ("When does he next see the doctor?") asks for the coming year, not a date gone by.

Tense: ``past`` when the question says so plainly ("used to", "ago", "previously", "no
longer", "before" with nothing after it, "before" and a clause in the past tense, "before he
left the city", which then names no event ahead; a span that ended before ``now``) and
``soft_past`` when only an auxiliary is in the past ("did", "was", "were", "had"; "we're"
is not "were"), a wh-question's verb is a regular past ("What happened in the summer?") or
a question led by a thing drops its "did" ("Anything big happen in the spring?": a verb in
its base form after anything/something/nothing, an adjective between at most): an
ended belief may answer either, but only a plainly past question ranks it as a current
one (a current belief outranks its ended near-twin otherwise).
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from datetime import datetime, timedelta

import numpy as np

from safety.text import can_be, content_words, inflections, lemmas, normalize

DAY = timedelta(days=1)
_UNITS = {"day": DAY, "week": 7 * DAY, "fortnight": 14 * DAY, "month": 30 * DAY, "year": 365 * DAY}
_NUMBERS = {
    "a": 1,
    "an": 1,
    "one": 1,
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
    "ten": 10,
    "eleven": 11,
    "twelve": 12,
    "a couple of": 2,
    "couple of": 2,
    "a few": 3,
    "few": 3,
}
WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
MONTHS = (
    "january",
    "february",
    "march",
    "april",
    "may",
    "june",
    "july",
    "august",
    "september",
    "october",
    "november",
    "december",
)
_SEASONS = {"spring": 3, "summer": 6, "autumn": 9, "fall": 9, "winter": 12}  # first month

_B, _E = r"(?<![a-z0-9])", r"(?![a-z0-9])"
_NUM = r"(?P<n>\d{1,3}|a couple of|couple of|a few|few|an|a|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)"
_UNIT = r"(?P<u>day|week|fortnight|month|year)s?"
_MONTH = "|".join(MONTHS)
_WEEKDAY = "|".join(WEEKDAYS)
_ORD = r"(?:st|nd|rd|th)?"
_NTH = {"first": 0, "1st": 0, "second": 1, "2nd": 1, "third": 2, "3rd": 2, "fourth": 3, "4th": 3}

#: (name, pattern) in order of precedence: the first that matches reads the span
_EXPRESSIONS: tuple[tuple[str, re.Pattern[str]], ...] = tuple(
    (name, re.compile(_B + "(?:" + pattern + ")" + _E))
    for name, pattern in (
        ("next_n", rf"(?:the )?(?:next|coming|following) {_NUM} {_UNIT}"),
        ("last_n", rf"(?:the )?(?:last|past|previous) {_NUM} {_UNIT}"),
        ("ago", rf"{_NUM} {_UNIT} ago"),
        ("within", rf"within (?:the next )?{_NUM} {_UNIT}"),
        ("in_n", rf"in {_NUM} {_UNIT}(?: time)?"),
        ("from_n", rf"{_NUM} {_UNIT} from (?P<f>today|tonight|now|tomorrow)"),
        ("day_after", r"(?:the )?day after tomorrow"),
        ("day_before", r"(?:the )?day before yesterday"),
        ("today", r"today|tonight|this (?:morning|afternoon|evening)"),
        ("tomorrow", r"tomorrow"),
        ("yesterday", r"yesterday"),
        ("end_of", r"(?:the )?end of (?:the |this )?(?P<u>week|month|year)"),
        ("week_after", r"(?:the )?week after (?P<m>next|this(?: one| week)?)"),
        ("this_time", r"this time (?P<m>next|last) (?P<u>week|month|year)"),
        ("christmas", r"christmas(?: (?P<k>day|eve|holidays?|break|period|week|time))?"),
        (
            "part_of_month",
            rf"(?:the )?(?P<k>{'|'.join(_NTH)}|last) (?P<p>week|half) (?:of|in) "
            rf"(?P<m>this |next |last )?(?P<mo>{_MONTH})",
        ),
        ("named", r"(?P<m>this|next|last|coming|past|previous) (?P<u>weekend|week|month|year)"),
        ("weekend", r"(?:the |at the |on the )?weekend"),
        (
            "nth_weekday",
            rf"(?:the )?(?P<k>{'|'.join(_NTH)}|last) (?P<w>{_WEEKDAY}) (?:of|in) "
            rf"(?P<m>this |next |last )?(?P<mo>{_MONTH})",
        ),
        (
            "weekday_date",
            rf"(?P<w>{_WEEKDAY}) (?:the )?(?P<d>\d{{1,2}}){_ORD}(?: (?:of )?(?P<mo>{_MONTH}))?",
        ),
        ("day_of_month", rf"the (?P<d>\d{{1,2}})(?:st|nd|rd|th)(?! (?:of )?(?:{_MONTH}))"),
        ("weekday", rf"(?:(?P<m>this|next|last|coming|on) )?(?P<w>{_WEEKDAY})s?"),
        (
            "month",
            rf"(?:(?P<m>this|next|last|coming|early|mid|late|in|on|since|until|till|by|before|"
            rf"after|during|from|of) )?(?:(?:the )?(?P<d1>\d{{1,2}}){_ORD} (?:of )?)?"
            rf"(?P<mo>{_MONTH})(?: (?P<d2>\d{{1,2}}){_ORD})?",
        ),
        (
            "season",
            r"(?P<m>this|next|last|coming|in|in the|during|during the|over the|the|"
            r"(?P<own>my|your|her|his|their|our)) "
            r"(?P<s>spring|summer|autumn|fall|winter)",
        ),
        ("new_year", r"(?P<in>in )?the new year"),
    )
)
#: "the new year starts", "the summer is over": the point where the span begins or ends
_SPAN_POINT = re.compile(r" (?:(?P<start>starts?|begins?)|(?P<end>ends?|finishes|is over))" + _E)
_RELATION = re.compile(
    _B + r"(?<!day )(?!(?<=week )after (?:next|this))(?P<r>before|after|since|until|till|by|once) "
    r"(?P<rest>.*)"
)
#: "the day after her birthday", "two weeks before the move": a span of the unit counted
#: from the event (or time), not all of the time before or after it
_OFFSET = re.compile(
    _B + rf"(?:the (?P<u1>day|week|fortnight|month|year)|{_NUM} {_UNIT}) (?P<r>before|after) "
    r"(?!(?:tomorrow|yesterday|next|this|that)\b)(?P<rest>.*)"
)
#: "between the 1st and the 15th of December": from the first to the second
_BETWEEN = re.compile(_B + r"between (?P<a>.+?) and (?P<b>.+)")
_DAY_ONLY = re.compile(r"^(?:the )?(?P<d>\d{1,2})(?:st|nd|rd|th)?$")
_MONTH_NAMED = re.compile(_B + rf"(?P<mo>{_MONTH})" + _E)
_RELATION_WORD = re.compile(_B + r"(?:before|after|since|until|till|by|once)" + _E)
#: "once" joining a time ("once the new year starts") is "after" it
_RELATION_AS = {"once": "after"}
_EVENT = re.compile(r"^(?:the|my|her|his|their|our|your|its|this|that|next) (?P<words>.+)$")
#: an event told as a clause ("before she leaves for Spain"): only ahead of it (before, by,
#: until) is it an event to find; "since he gave up the restaurant" asks what holds now
_CLAUSE_EVENT = re.compile(r"^(?:she|he|they|we|i|you) (?P<words>.+)$")
_AHEAD = ("before", "by", "until", "till")
#: the subject of a clause after a relation ("before he left the city"), and the same with
#: "'d" once the apostrophe is folded away ("before she'd moved": "shed moved")
_SUBJECTS = ("she", "he", "it", "they", "we", "i", "you")
_SUBJECTS_HAD = tuple(f"{s}d" for s in _SUBJECTS if s != "it")
_THIRD_PERSON = ("she", "he", "it")
#: the words opening a noun phrase that is a clause's subject ("before the kids went back")
_DETERMINERS = ("the", "my", "her", "his", "their", "our", "your")
#: the relation words that have another sense ("looks after her cat", "by the window"):
#: with no event found and no other word of time, they ask nothing about time
_OTHER_SENSE = ("after", "by")
_MAX_EVENT_WORDS = 5
_STRONG_PAST = re.compile(
    _B + r"(?:used to|previously|in the past|formerly|former|back then|back when|ago|earlier|"
    r"originally|no longer|anymore|any more|history|last (?:week|weekend|month|year)(?! (?:of|in) )|"
    r"before (?:that|then|now)|before$)" + _E
)
#: "When was she last back in Kenya?", "When did you last see him?": "last" after the
#: subject of a when-question in the past (or after its auxiliary, the name taken out)
#: asks for the latest time it happened, plainly gone by ("When was the last time ..."
#: names it as a thing, and is past by its verb)
_LAST_TIME_ASKED = re.compile(r"^whens? (?:did|was|were|had) (?!the )(?:[a-z]+ ){0,3}last" + _E)
_ARE = re.compile(r"\b(we|you|they)['\u2019]re\b", re.IGNORECASE)
#: a name's possessive inside a sentence ("the day after Bence's birthday", "Tell me about
#: Dori's summer"): the name, and a determiner as "their" is, before what it owns ("the
#: Bence their birthday": an event; "their summer": a season of theirs); at the head of a
#: sentence "What's", "It's" are contractions
_NAME_OWNS = re.compile(r"(?<=[a-z,] )([A-Z][a-z]+)['\u2019]s\b")
_WEEKDAY_OWNS = re.compile(rf"\b({_WEEKDAY})['\u2019]s\b", re.IGNORECASE)
_SOFT_PAST = re.compile(_B + r"(?:did|was|were|had|went)" + _E)
#: a wh-question whose verb is a regular past ("What happened to him last autumn?", "Who
#: called her?"): the word after it is not an auxiliary ("What breed is her dog?" names a
#: thing) but a preposition, a determiner, a pronoun or a time ("What tinned food ..." is
#: not a verb either)
_PAST_VERB = re.compile(
    r"^(?:what|who)(?: else)? [a-z]{3,}ed(?= (?:to|in|on|at|with|for|over|during|after|since|"
    r"last|this|that|the|a|an|her|him|his|them|their|me|my|you|your|us|our)\b|$)"
)
#: a question led by a thing as its subject and a verb in its base form ("Anything big
#: happen for him in the spring?", "Something come up?"): the "did" before it was dropped
_THING_LED = re.compile(r"^(?:anything|something|nothing)(?: (?P<a>[a-z]+))? (?P<v>[a-z]+)")


def _is_past_form(word: str, subject: str | None, *, perfect: bool) -> bool:
    """Whether ``word`` is a verb's simple past (its participle too after "had" or "'d",
    ``perfect``) by the English lexicon ("left", "moved", "had", "was"); a past equal to
    the base form ("quit") only after a subject whose present would end in -s."""
    tags = ("VBD", "VBN") if perfect else ("VBD",)
    forms = lemmas(word)
    for lemma in (*forms.get("VERB", ()), *forms.get("AUX", ())):
        if any(word in inflections(lemma, tag) for tag in tags):
            return word != lemma or subject in _THIRD_PERSON
    return False


def past_clause(rest: str) -> bool:
    """Whether ``rest``, the words after a relation, is a clause in the past tense ("he
    left the city", "she'd moved", "they had the baby", "he finally quit", "the kids went
    back"; with no subject where a name was taken out for time, "left the city"): a subject
    (a pronoun or a short noun phrase), one adverb at most, then a verb in the past. It names a time gone by, not an event ahead to do things
    before."""
    words = rest.split()
    subject, perfect = None, False
    if words and words[0] in _SUBJECTS:
        subject, words = words[0], words[1:]
    elif words and words[0] in _SUBJECTS_HAD:
        subject, perfect, words = words[0][:-1], True, words[1:]
    elif len(words) > 2 and words[0] in _DETERMINERS:
        # "before the kids went back", "before her dad retired": a noun phrase (a noun, and
        # one word before it at most) as the subject; its number is not known, so a past
        # equal to the base form ("the kids quit") is not read as past
        nouns = 2 if len(words) > 3 and can_be(words[2], "NOUN") else 1
        if not can_be(words[nouns], "NOUN") or _is_past_form(words[nouns], None, perfect=False):
            return False
        subject, words = words[0], words[nouns + 1 :]
    if subject is not None and words[:1] == ["had"]:
        # "they had the baby", "he had left": "had" is the past either way
        return True
    if len(words) > 1 and can_be(words[0], "ADV") and not can_be(words[0], "VERB"):
        words = words[1:]
    return bool(words) and _is_past_form(words[0], subject, perfect=perfect)


def _is_base_verb(word: str) -> bool:
    """Whether ``word`` (lower case) is a verb in its base form ("happen"; the English
    lexicon of ``safety.text``)."""
    return word in lemmas(word).get("VERB", ())


def _did_dropped(text: str) -> bool:
    """Whether ``text`` is a question led by a thing and a verb in its base form, an
    adjective between them at most (the "did" dropped: "Anything big happen ...?")."""
    m = _THING_LED.match(text)
    if m is None:
        return False
    if m["a"] is not None and _is_base_verb(m["a"]):
        return True
    adjective = m["a"] is None or can_be(m["a"], "ADJ")
    return adjective and _is_base_verb(m["v"])


#: words that make a question about time even when no span is named
_ABOUT_TIME = re.compile(
    _B + r"(?:due|deadline|deadlines|until|till|by when|what time|what date|which day|"
    r"how long|how soon|schedule|scheduled|calendar|date|dates|soon|upcoming|coming up|"
    r"later|ago|since|expire|expires|expiry|end|ends|start|starts|begin|begins|"
    r"happening|planned)" + _E
)


#: "when" asks about time where it leads the question or a clause of its own ("If I text
#: him at eight, when will he see it?": an auxiliary follows it); after a question led
#: otherwise and before a subject it joins a clause ("Should I make him a coffee when he
#: comes round?"), which asks nothing about time
_WHEN_ASKED = re.compile(
    rf"^whens?{_E}|{_B}whens?{_E}(?= (?:is|are|was|were|do|does|did|has|have|had|will|would|"
    rf"can|could|should|shall|may|might|must){_E})"
)
_WHEN_ANY = re.compile(_B + r"when" + _E)
#: "next" with no span after it ("When does he next see the doctor?", "When is her next
#: check-up?"): the first time to come
_NEXT = re.compile(_B + r"next" + _E)


#: a date asked for by name: "when is it due?", "when does it start?", "... expire?"
_FIELDS = tuple(
    (name, re.compile(_B + "(?:" + pattern + ")" + _E))
    for name, pattern in (
        ("due", r"due|deadlines?|by when|have to|must|needs? to be"),
        ("end", r"expire|expires|expiry|expiring|end|ends|ending|until|till|last|lasts"),
        ("start", r"start|starts|starting|begin|begins|beginning|from when"),
    )
)


@dataclass(frozen=True)
class TimeAsk:
    """What a question asks about time."""

    about_time: bool
    span: tuple[datetime, datetime] | None = None
    past: bool = False
    soft_past: bool = False
    relation: str | None = None  # with an event to find: before, after, since, until, by
    event_terms: frozenset[str] = frozenset()
    field: str | None = None  # the date asked for by name: "due", "start" or "end"
    #: nothing but time is asked ("what is due next week?"): no subject to match on
    pure: bool = False
    #: stems of the weekday, month or season the question names: a statement naming it
    #: ("calls her mother every Sunday") answers as a window covering the span would,
    #: after a belief dated inside it
    named_terms: frozenset[str] = frozenset()
    #: the span names a point roughly ("in a fortnight"): the nearer its middle, the better
    around: bool = False
    #: the time the event itself is told at ("before she heads off to Denmark in January")
    event_span: Span | None = None
    #: what the event found for "before <event>" is about (``Event.words``): a date in the
    #: span that shares none of them is only in the span (``OFF_EVENT``)
    event_words: frozenset[str] = frozenset()
    #: "the day after her birthday": the count and unit of the span from the event
    offset: tuple[int, str] | None = None
    #: the question asks about time only through its event (no other word of time): an
    #: event no text names leaves a relation word of another sense ("looks after her cat")
    by_event_only: bool = False
    #: the question's words for the event, outside its time ("he goes home to hokkaido"):
    #: read by meaning when no dated text shares its words (``memory.context``)
    event_text: str = ""
    #: the clause in the past that names the time asked about ("before she moved to
    #: cornwall"), as read: it says when, not what is asked (``memory.context``)
    past_clause: str = ""

    def with_event(self, event: Event, now: datetime) -> TimeAsk:
        """This question with its event found: the span the relation names. "Before the
        renewal" ends just before it: the renewal is not before itself. Ahead of the event
        (before, by, until) what is done is done for it: the span keeps the event's words."""
        when = event.when
        if self.relation == "before":
            when -= timedelta(seconds=1)
        if self.offset is not None:
            span = _shift(self.relation or "after", (when, when), self.offset)
        else:
            span = _relate(self.relation or "by", (when, when), now)
        # a question in the present tense stays in it, wherever its event lies ("Does he
        # still live by the zoo in Osaka?" is asked of now, though "by" finds a past event)
        past = self.past or (self.soft_past and span[1] <= now)
        about = event.words if self.relation in _AHEAD and self.offset is None else frozenset()
        return TimeAsk(
            True,
            span,
            past,
            self.soft_past,
            None,
            frozenset(),
            self.field,
            self.pure,
            event_words=about,
        )


def _count(raw: str) -> int:
    return int(raw) if raw.isdigit() else _NUMBERS.get(raw, 1)


def _midnight(now: datetime) -> datetime:
    return now.replace(hour=0, minute=0, second=0, microsecond=0)


def _month_start(year: int, month: int, like: datetime) -> datetime:
    year += (month - 1) // 12
    month = (month - 1) % 12 + 1
    return like.replace(year=year, month=month, day=1, hour=0, minute=0, second=0, microsecond=0)


def _which_month(month: int, mod: str | None, now: datetime, past: bool) -> datetime:
    """The start of the month named: this one or the coming one, the last one that has
    started in the past tense ("last" and "next" exclude this month)."""
    if mod == "last" or (past and mod not in ("next", "coming")):
        back = (now.month - month) % 12 or (12 if mod == "last" else 0)
        return _month_start(now.year, now.month - back, now)
    ahead = (month - now.month) % 12 or (12 if mod in ("next", "coming") else 0)
    return _month_start(now.year, now.month + ahead, now)


def _month_span(m: re.Match[str], now: datetime, past: bool) -> tuple[datetime, datetime] | None:
    mod = m["m"]
    day = m["d1"] or m["d2"]
    if m["mo"] in ("may", "march") and mod is None and day is None:
        return None  # "may I", "they march": a verb, not a month
    start = _which_month(MONTHS.index(m["mo"]) + 1, mod, now, past)
    end = _month_start(start.year, start.month + 1, now)
    if day is not None:
        try:
            start = start.replace(day=int(day))
        except ValueError:
            return None
        return start, start + DAY
    third = (end - start) / 3
    if mod == "early":
        return start, start + third
    if mod == "mid":
        return start + third, end - third
    if mod == "late":
        return end - third, end
    return start, end


def _weekday_span(m: re.Match[str], now: datetime, past: bool) -> tuple[datetime, datetime]:
    day = _midnight(now)
    wanted = WEEKDAYS.index(m["w"])
    mod = m["m"]
    if mod == "next":
        start = day + timedelta(days=7 - day.weekday() + wanted)
    elif mod == "last" or (past and mod not in ("this", "coming")):
        start = day - timedelta(days=(day.weekday() - wanted) % 7 or 7)
    else:
        start = day + timedelta(days=(wanted - day.weekday()) % 7)
    return start, start + DAY


def _nth_weekday_span(m: re.Match[str], now: datetime, past: bool) -> Span:
    """The first ... fourth or last such weekday of the month named."""
    mod = (m["m"] or "").strip() or None
    start = _which_month(MONTHS.index(m["mo"]) + 1, mod, now, past)
    end = _month_start(start.year, start.month + 1, now)
    wanted = WEEKDAYS.index(m["w"])
    if m["k"] == "last":
        day = end - DAY - ((end - DAY).weekday() - wanted) % 7 * DAY
    else:
        day = start + ((wanted - start.weekday()) % 7 + 7 * _NTH[m["k"]]) * DAY
    return day, day + DAY


def _part_of_month_span(m: re.Match[str], now: datetime, past: bool) -> Span | None:
    """The first ... fourth or last week (seven days) or the first or last (second) half of
    the month named."""
    mod = (m["m"] or "").strip() or None
    start = _which_month(MONTHS.index(m["mo"]) + 1, mod, now, past)
    end = _month_start(start.year, start.month + 1, now)
    k = m["k"]
    if m["p"] == "half":
        if k not in ("first", "1st", "second", "2nd", "last"):
            return None
        middle = start + (end - start) / 2
        return (start, middle) if k in ("first", "1st") else (middle, end)
    if k == "last":
        return end - 7 * DAY, end
    first = start + 7 * _NTH[k] * DAY
    return first, first + 7 * DAY


def _day_of_month_span(m: re.Match[str], now: datetime, past: bool) -> Span | None:
    """A day of the month: in the month named, else the next date with that day (the
    last one in the past tense), on the weekday named if one is."""
    day = int(m["d"])
    if m.groupdict().get("mo"):
        start = _which_month(MONTHS.index(m["mo"]) + 1, None, now, past)
        try:
            at = start.replace(day=day)
        except ValueError:
            return None
        return at, at + DAY
    wanted = WEEKDAYS.index(m["w"]) if m.groupdict().get("w") else None
    first = _month_start(now.year, now.month, now)
    step = -1 if past else 1
    today = _midnight(now)
    for k in range(0, 13 * 4):  # four years of months: every weekday falls on every date
        try:
            at = _month_start(first.year, first.month + step * k, now).replace(day=day)
        except ValueError:
            continue
        if (at < today if not past else at > today) or (
            wanted is not None and at.weekday() != wanted
        ):
            continue
        return at, at + DAY
    return None


def _named_span(unit: str, mod: str, now: datetime) -> tuple[datetime, datetime]:
    day = _midnight(now)
    shift = {"next": 1, "coming": 1, "last": -1, "past": -1, "previous": -1}.get(mod, 0)
    if unit == "week":
        start = day - timedelta(days=day.weekday()) + shift * 7 * DAY
        return start, start + 7 * DAY
    if unit == "weekend":
        saturday = day + timedelta(days=(5 - day.weekday()) % 7)
        if shift < 0:
            saturday -= 7 * DAY
        elif shift > 0 and day.weekday() < 5:
            saturday += 7 * DAY
        return saturday, saturday + 2 * DAY
    if unit == "month":
        start = _month_start(now.year, now.month + shift, now)
        return start, _month_start(start.year, start.month + 1, now)
    start = now.replace(
        year=now.year + shift, month=1, day=1, hour=0, minute=0, second=0, microsecond=0
    )
    return start, start.replace(year=start.year + 1)


def _season_span(m: re.Match[str], now: datetime, past: bool) -> tuple[datetime, datetime]:
    first = _SEASONS[m["s"]]
    mod = m["m"]
    # the season that is on now, or the coming one (the last one in the past tense)
    starts = [_month_start(now.year + k, first, now) for k in (-2, -1, 0, 1)]
    spans = [(s, _month_start(s.year, s.month + 3, now)) for s in starts]
    current = next((s for s in spans if s[0] <= now < s[1]), None)
    coming = next(s for s in spans if s[0] > now)
    gone = [s for s in spans if s[1] <= now][-1]
    if mod == "next":
        return coming if current is None else spans[spans.index(current) + 1]
    if mod == "last" or (past and current is None):
        return gone
    if m["own"] and current is None and now - gone[1] < coming[0] - now:
        # "her summer", "Dori's summer" in no tense of its own: the one nearest now
        return gone
    return current or coming


Span = tuple[datetime, datetime]


def _christmas(now: datetime, past: bool, *, day: bool) -> Span:
    """Christmas of this December (the last one in the past tense): the day itself after a
    relation ("after Christmas", "before Christmas"), else the holidays of late December
    around it, as the month grammar reads "late December" ("spending Christmas Day with
    her family" from the 23rd, "over Christmas", "the Christmas holidays")."""
    december = _which_month(12, None, now, past)
    if day:
        at = december.replace(day=25)
        return at, at + DAY
    end = _month_start(december.year, 13, now)
    return end - (end - december) / 3, end


def _span_of(name: str, m: re.Match[str], now: datetime, past: bool) -> Span | None:
    day = _midnight(now)
    if name in ("next_n", "last_n", "ago", "within", "in_n", "from_n"):
        length = _count(m["n"]) * _UNITS[m["u"]]
        if name == "from_n" and m["f"] == "tomorrow":
            length += DAY  # "a week from tomorrow": counted from tomorrow
        if name in ("next_n", "within"):
            return now, now + length
        if name == "last_n":
            return now - length, now
        slack = max(_UNITS[m["u"]] / 2, DAY)
        at = now - length if name == "ago" else now + length
        return at - slack, at + slack
    if name == "day_after":
        return day + 2 * DAY, day + 3 * DAY
    if name == "day_before":
        return day - 2 * DAY, day - DAY
    if name == "today":
        return now - timedelta(hours=12), day + DAY
    if name == "tomorrow":
        return day + DAY, day + 2 * DAY
    if name == "yesterday":
        return day - DAY, day
    if name == "end_of":
        end = _named_span(m["u"], "this", now)[1]
        return now, end
    if name == "named":
        return _named_span(m["u"], m["m"], now)
    if name == "week_after":
        # "the week after this (one)" is next week, "the week after next" the one after it
        start = _named_span("week", "next", now)[0] + (7 * DAY if m["m"] == "next" else 0 * DAY)
        return start, start + 7 * DAY
    if name == "this_time":
        # "this time next week": the day one week (month, year) from now
        step = 1 if m["m"] == "next" else -1
        if m["u"] == "week":
            at = day + step * 7 * DAY
        else:
            at = _month_start(day.year, day.month + step * (1 if m["u"] == "month" else 12), day)
            at = at.replace(day=min(day.day, ((at + 31 * DAY).replace(day=1) - DAY).day))
        return at, at + DAY
    if name == "part_of_month":
        return _part_of_month_span(m, now, past)
    if name == "nth_weekday":
        return _nth_weekday_span(m, now, past)
    if name in ("weekday_date", "day_of_month"):
        return _day_of_month_span(m, now, past)
    if name == "weekend":
        return _named_span("weekend", "this", now)
    if name == "weekday":
        return _weekday_span(m, now, past)
    if name == "month":
        return _month_span(m, now, past)
    if name == "new_year":
        # the moment the coming year begins (the last one that began, in the past tense);
        # "in the new year" is some time in that year
        at = now.replace(month=1, day=1, hour=0, minute=0, second=0, microsecond=0)
        at = at if past else at.replace(year=at.year + 1)
        return (at, at.replace(year=at.year + 1)) if m["in"] else (at, at + DAY)
    return _season_span(m, now, past)


@dataclass(frozen=True)
class _Found:
    """A time expression found in a question: its span, the weekday, month or season it
    names ("" for none), where it starts, and whether it names a time only roughly ("in
    a fortnight", "three months ago": around a point, not a whole span)."""

    span: Span
    named: str
    start: int
    around: bool
    end: int = 0


#: "seeing the new year in" is done on its eve: the new year named as a time (not after a
#: relation, not "in the new year") runs from the day before it
NEW_YEAR_EVE = DAY
#: the expressions that name a point give or take half their unit
_AROUND = ("in_n", "from_n", "ago")


#: "Sunday mornings", "on Sundays": a habit, not a date
_HABIT_PART = re.compile(r" (?:mornings|afternoons|evenings|nights)" + _E)
#: "the Christmas market", "the Christmas party": Christmas qualifies a thing
_QUALIFIES = re.compile(r" (?P<w>[a-z]+)")


def _habit(text: str, m: re.Match[str]) -> bool:
    """Whether a weekday names when the person does something, not a date: in the plural
    ("on Sundays") or before a part of the day in the plural ("Sunday mornings")."""
    return m[0].endswith("s") or _HABIT_PART.match(text, m.end()) is not None


#: the present simple asked with "do"/"does" ("Where does he swim in the winter?")
_PRESENT_SIMPLE = re.compile(_B + r"(?:do|does|doesnt|dont)" + _E)


def _seasonal_habit(text: str, m: re.Match[str]) -> bool:
    """Whether a season names when the person does something, not a stretch of dates:
    asked in the present simple with "in"/"in the" ("What does he like doing in autumn?",
    "How does she start her day in winter?") it is a habit of every such season, as
    "on Sundays" is of every Sunday; "this autumn", "over the summer" and the other tenses
    ("What is she doing in the spring?") still name the dates."""
    return m["m"] in ("in", "in the") and _PRESENT_SIMPLE.search(text) is not None


#: "home for a weekend", "away for a week": a span with the indefinite article is a length
#: of time, not a time (the weekend, this weekend: the coming one); False reads it as the
#: coming weekend
INDEFINITE_IS_LENGTH = True
_INDEFINITE = re.compile(r"(?:^|\s)an? $")


def _first_span(text: str, now: datetime, past: bool, *, at_start: bool = False) -> _Found | None:
    """The first time expression of ``text`` (in the order of ``_EXPRESSIONS``); at the
    start of ``text`` only with ``at_start`` (the words after a relation)."""
    for name, pattern in _EXPRESSIONS:
        m = pattern.match(text) if at_start else pattern.search(text)
        if m is None or (name == "season" and m["m"] == "the" and not _object(text, m)):
            continue
        if name == "weekday" and _habit(text, m):
            continue
        if name == "weekend" and INDEFINITE_IS_LENGTH and _INDEFINITE.search(text[: m.start()]):
            continue
        if name == "season" and not (at_start or past) and _seasonal_habit(text, m):
            continue
        if name == "christmas" and m["k"] is None:
            after = _QUALIFIES.match(text, m.end())
            if after is not None and content_words(after["w"]):
                continue  # "the Christmas market" is a thing, not a time
        span = _christmas(now, past, day=at_start) if name == "christmas" else None
        span = span or _span_of(name, m, now, past)
        if span is not None:
            named = {"weekday": "w", "weekday_date": "w", "nth_weekday": "w"}.get(name)
            named = named or {"month": "mo", "season": "s"}.get(name)
            end = m.end()
            point = _SPAN_POINT.match(text, end)
            if point is not None:
                # "once the new year starts", "after the summer is over": that moment
                at = span[0] if point["start"] else span[1]
                span, end = (at, at), point.end()
            elif name == "new_year" and not (at_start or m["in"]):
                # "seeing the new year in": its eve and its first day
                span = (span[0] - NEW_YEAR_EVE, span[1])
            # the word the span is named by: a weekday's, a month's or a season's, or the
            # holiday's own ("over Christmas": a statement naming Christmas is about it)
            word = m[named] if named else ("christmas" if name == "christmas" else "")
            return _Found(span, word, m.start(), name in _AROUND, end)
    return None


def _object(text: str, m: re.Match[str]) -> bool:
    """Whether a season named with "the" is a verb's or a relation's object ("spend the
    summer", "after the summer"): a verb (the English lexicon) or nothing before it in
    ``text``, and no content word after it that it qualifies
    ("enjoy the winter sun", "before the winter stoppage" name no time)."""
    before = text[: m.start()].split()
    following = text[m.end() :].split(" ", 2)
    if len(following) > 1 and content_words(following[1]):
        return False
    # at the head of a relation's words ("after the summer is over") it is its object
    return not before or can_be(before[-1], "VERB")


def _shift(relation: str, span: Span, offset: tuple[int, str]) -> Span:
    """The span an offset from ``span`` names: "the day after" it is the day after its
    last day, "two weeks before" it the seventh to fourteenth day before its first."""
    count, unit = offset
    length = _UNITS[unit]
    if relation == "before":
        first = _midnight(span[0])
        return first - count * length, first - (count - 1) * length
    last = _midnight(span[1])
    after = last if last == span[1] and span[1] > span[0] else last + DAY
    return after + (count - 1) * length, after + count * length


def _between(text: str, now: datetime, past: bool) -> Span | None:
    """The span "between <a time> and <a time>" names, from the first to the second ("the
    1st" takes the month of the second: "between the 1st and the 15th of December");
    None when either is no time ("between the bins and the fence")."""
    m = _BETWEEN.search(text)
    if m is None:
        return None
    first_text, last_text = m["a"], m["b"]
    day, month = _DAY_ONLY.match(first_text), _MONTH_NAMED.search(last_text)
    if day is not None and month is not None:
        first_text = f"{day['d']} {month['mo']}"
    if first_text in ("now", "today"):
        first: Span | None = (now, now)
    else:
        found = _first_span(first_text, now, past, at_start=True)
        first = None if found is None else found.span
    if first is None:
        return None
    # the second is counted from the first ("between Monday and Wednesday" on a Tuesday)
    last = _first_span(last_text, now if past else max(now, first[0]), past, at_start=True)
    if last is None or _first_span(last_text[last.end :], now, past) is not None:
        return None  # "between Monday and Friday next week": the week holds both
    return min(first[0], last.span[0]), max(first[1], last.span[1])


def _relate(relation: str, span: Span, now: datetime) -> Span:
    """The span a relation to ``span`` names: before March, after the renewal..."""
    start, end = span
    if relation == "before":
        return (now, start) if start > now else (start - _UNITS["year"], start)
    if relation in ("by", "until", "till"):
        return (now, end) if end > now else (end - _UNITS["year"], end)
    if relation == "since":
        return start, max(now, end)
    # after
    return (end, end + _UNITS["month"]) if end >= now else (end, now)


#: "start", "begin", "stop" or "end" before a verb ("if she starts wheezing", "when he
#: stops coughing", "begins to shake") is an aspect of that verb, not the date a thing
#: starts or ends: it makes a question about time no more than the verb alone would (a
#: span, a relation or "when" still do); False reads it as the date asked for
ASPECT_IS_NO_DATE = True
_ASPECT = re.compile(
    _B
    + r"(?:start|starts|started|starting|begin|begins|began|stop|stops|stopped|end|ends)"
    + r" (?:(?!(?:some|any|no|every)thing\b)[a-z]+ing|to [a-z]+)"
    + _E
)


#: "before" (by, until) and a clause in the past tense ("before he left the city", "before
#: she'd moved") names a time gone by: the question is plainly past (an ended belief
#: answers as a current one) and no event ahead is looked for; False reads the clause as
#: an event to do things before, as one in the present tense is
PAST_CLAUSE_IS_PAST = True


#: a question asking why asks no time (the tense it is asked in still counts)
REASON_ASKS_NO_TIME = True
_REASON_ASKED = re.compile(r"^\W*why\b")


@functools.lru_cache(maxsize=4096)
def read_time(query: str, now: datetime) -> TimeAsk:
    """What ``query`` asks about time, relative to ``now`` (see the module docstring)."""
    # "we're" is not "were" once the apostrophe is folded away (a present question)
    # ... nor is "Sunday's race" a habit of Sundays once the apostrophe is gone
    # ... and "after Bence's birthday" is after "the Bence their birthday" (see _NAME_OWNS)
    query = _NAME_OWNS.sub(r"the \1 their", _WEEKDAY_OWNS.sub(r"\1", _ARE.sub(r"\1 are", query)))
    text = normalize(query).text
    named = next((f for f, pattern in _FIELDS if pattern.search(text)), None)
    pure = not _subject_terms(text)
    past = bool(_STRONG_PAST.search(text) or _LAST_TIME_ASKED.search(text))
    soft = not past and bool(
        _SOFT_PAST.search(text) or _PAST_VERB.match(text) or _did_dropped(text)
    )
    if REASON_ASKS_NO_TIME and _REASON_ASKED.match(text):
        # "Why does he prick his finger before he eats?", "Why won't she take on more than
        # a handful of jobs in one day?": a reason is asked; the time words set the
        # circumstance of a habit or a rate, they name no time to look in
        return TimeAsk(False, None, past, soft, field=named, pure=False)
    span = _between(text, now, past or soft)
    said_when = ""
    named_word = ""
    offset: tuple[int, str] | None = None
    shifted = None if span is not None else _OFFSET.search(text)
    relation = shifted or (None if span is not None else _RELATION.search(text))
    if shifted is not None:
        unit = shifted["u1"] or shifted["u"]
        offset = (1 if shifted["u1"] else _count(shifted["n"]), unit)
    if relation is not None:
        rest = relation["rest"]
        # "since March" is the last March; "before March", "by the weekend": as asked
        tense = past or soft or relation["r"] == "since"
        inner = None
        for head in (rest, rest[4:] if rest.startswith("the ") else "", relation.group(0)):
            inner = inner or (head and _first_span(head, now, tense, at_start=True)) or None
        kind = _RELATION_AS.get(relation["r"], relation["r"])
        if inner is not None:
            if offset is not None:
                span, named_word = _shift(kind, inner.span, offset), inner.named
            else:
                span, named_word = _relate(kind, inner.span, now), inner.named
        else:
            event = _EVENT.match(rest)
            if kind in _AHEAD and PAST_CLAUSE_IS_PAST and past_clause(rest):
                # "What was he in before he left the city?": a time gone by, asked in
                # the past as plainly as "before then" is; no event ahead to find
                past, soft, event = True, False, None
                said_when = relation.group(0)
            elif event is None and kind in _AHEAD:
                event = _CLAUSE_EVENT.match(rest)
            if event is not None:
                told = event["words"]
                # "before she heads off to Denmark in January": the event's own time,
                # and the event's own words around it ("the big January ceremony in
                # the orchard": a ceremony in the orchard)
                when = _first_span(told, now, tense)
                if when is not None:
                    told = " ".join((told[: when.start] + " " + told[when.end :]).split())
                words = " ".join(told.split(" ")[:_MAX_EVENT_WORDS])
                terms = frozenset(content_words(words))
                if terms:
                    pure = not (_subject_terms(text[: relation.start()]) - terms)
                    besides = f"{text[: relation.start()]} {rest}"
                    timed = _ABOUT_TIME.search(besides) or _WHEN_ASKED.search(text)
                    return TimeAsk(
                        True,
                        None,
                        past,
                        soft,
                        kind,
                        terms,
                        event_text=told,
                        field=named,
                        pure=pure,
                        event_span=None if when is None else when.span,
                        offset=offset,
                        by_event_only=kind in _OTHER_SENSE and not (timed or named or when),
                    )
    around = False
    if span is None:
        found = _first_span(text, now, past or soft)
        if found is not None:
            span, named_word, around = found.span, found.named, found.around
    if span is not None:
        return TimeAsk(
            True,
            span,
            past or span[1] <= now,
            soft and span[1] > now,
            field=named,
            pure=pure,
            named_terms=frozenset(content_words(named_word)) | _days_named(span),
            around=around,
        )
    bare = _ASPECT.sub(" ", text) if ASPECT_IS_NO_DATE else text
    about = bool(_ABOUT_TIME.search(bare) or _WHEN_ASKED.search(text))
    if named and bare != text:
        named = next((f for f, pattern in _FIELDS if pattern.search(bare)), None)
    if about and not (past or soft) and _NEXT.search(text):
        # "When is she next back at her parents'?": the coming date, not one gone by
        ahead = (now, now + _UNITS["year"])
        return TimeAsk(True, ahead, False, False, field=named, pure=pure)
    return TimeAsk(about, None, past, soft, field=named, pure=about and pure, past_clause=said_when)


#: A span this short ("tomorrow", "this weekend") names its days: "goes to the sauna on
#: Sundays" happens in it as a date inside it would. A longer one (a week) holds every
#: weekday, and a weekly habit is no answer to "what is on this week?".
DAYS_NAMED_MAX = 3 * DAY


def _days_named(span: Span) -> frozenset[str]:
    """Stems of the weekdays a short span holds, and "weekend" when it holds one of its
    days; none for a span longer than ``DAYS_NAMED_MAX``."""
    start, end = span
    if end - start > DAYS_NAMED_MAX:
        return frozenset()
    names: set[str] = set()
    day = start
    while day < end:
        names.add(WEEKDAYS[day.weekday()])
        if day.weekday() >= 5:
            names.add("weekend")
        day += DAY
    return frozenset(content_words(" ".join(names)))


def _subject_terms(text: str) -> set[str]:
    """The content words of a normalised question outside its time expressions."""
    for pattern in (
        *(p for _, p in _EXPRESSIONS),
        *(p for _, p in _FIELDS),
        _ABOUT_TIME,
        _WHEN_ANY,
    ):
        text = pattern.sub(" ", text)
    for pattern in (_STRONG_PAST, _SOFT_PAST, _RELATION_WORD):
        text = pattern.sub(" ", text)
    return content_words(text)


#: How well a belief answers a question that names a span: a due time or a validity
#: bound inside the span answers it (but not the end of a window that began before the
#: span: a way of life that ended then, which answers as a covering window does); a
#: validity window covering the span is true then, and answers by the share of it the
#: span holds (none for a window still open); a belief dated at another time is about
#: another time.
INSIDE, COVERS, ELSEWHERE = 1.0, 0.6, -0.5
#: ... and a question about time that names no span: a belief with the date it asks for
#: by name ("when is it due?": a due time) answers best, any date can answer "when".
NAMED_FIELD, DATED = 0.6, 0.3


def time_match(
    ask: TimeAsk,
    due: np.ndarray,
    valid_from: np.ndarray,
    valid_until: np.ndarray,
    known_since: np.ndarray,
) -> np.ndarray:
    """Per belief, in [-0.5, 1]: how well its dates answer ``ask`` (timestamps, NaN open).
    A window with an end and no start is taken to start when the belief was last
    confirmed (``known_since``), not forever ago: "tired this week" covers no past month."""
    has_bound = ~np.isnan(valid_from) | ~np.isnan(valid_until)
    dated = ~np.isnan(due) | has_bound
    if ask.span is None:
        named = {"due": due, "start": valid_from, "end": valid_until}.get(ask.field or "")
        has_named = np.zeros(len(due), dtype=bool) if named is None else ~np.isnan(named)
        return np.where(has_named, NAMED_FIELD, np.where(dated, DATED, 0.0))
    lo, hi = ask.span[0].timestamp(), ask.span[1].timestamp()
    inside = np.zeros(len(due), dtype=bool)
    for ts in (due, valid_from, valid_until):
        inside |= (ts >= lo) & (ts <= hi)
    start = np.where(np.isnan(valid_from), np.fmin(known_since, valid_until), valid_from)
    end = np.nan_to_num(valid_until, nan=np.inf)
    with np.errstate(invalid="ignore"):
        # a way of life that ended in the span ("Was a midwife on the labour ward" until
        # mid-September) held before it too: the span is the end of it, not what it is
        # about; it answers as a window covering the span does, by the share of it the
        # span holds, so what happened in the span ("Mentored two students") comes first
        ended_in = (valid_until >= lo) & (valid_until <= hi) & (start < lo)
        ended_in &= ~((due >= lo) & (due <= hi)) & ~((valid_from >= lo) & (valid_from <= hi))
        # ... and one begun in the span and held past it ("Has blisters from Sunday's long
        # run", "Rents a cottage since June"): the span is the start of it
        begun_in = (valid_from >= lo) & (valid_from <= hi) & (end > hi)
        begun_in &= ~((due >= lo) & (due <= hi))
    inside &= ~ended_in & ~begun_in
    with np.errstate(invalid="ignore"):
        covers = has_bound & np.isnan(due) & (start <= hi) & (end >= lo)
        # how much of the belief's time the span holds: a window of a week covering the
        # week asked is about it; one open since July is true next weekend but says
        # nothing about it (as an undated belief)
        overlap = np.minimum(end, hi) - np.maximum(start, lo)
        share = np.where(
            np.isfinite(end), np.clip(overlap / np.maximum(end - start, 86_400.0), 0.0, 1.0), 0.0
        )
    hit = np.full(len(due), INSIDE)
    if ask.around:
        # "in a fortnight" is a point give or take: a date at its middle answers it fully,
        # one at its edge as a window covering it would
        middle, half = (lo + hi) / 2, max((hi - lo) / 2, 1.0)
        off = np.full(len(due), np.inf)
        for ts in (due, valid_from, valid_until):
            with np.errstate(invalid="ignore"):
                near = (ts >= lo) & (ts <= hi)
            off = np.where(near, np.fmin(off, np.abs(ts - middle) / half), off)
        hit = np.where(np.isfinite(off), INSIDE - (INSIDE - COVERS) * np.clip(off, 0, 1), INSIDE)
    return np.where(inside, hit, np.where(covers, COVERS * share, np.where(dated, ELSEWHERE, 0.0)))


#: the share of an event's words a text must hold to name it
EVENT_SHARE = 0.5
#: Ahead of an event found ("before her training course in January"), a date in the span
#: that shares no word with the event (its text outside its time, or the question's words
#: for it) is only in the span, not done for the event: its match keeps this share, so the
#: to-dos "while she is in Luxembourg" come before an unrelated medical in December.
OFF_EVENT = 0.6


@dataclass(frozen=True)
class Event:
    """An event found for a relation: when it is, and the words of what it is about (the
    content words of its text outside its time, and the question's words for it)."""

    when: datetime
    words: frozenset[str]


def event_date(terms: frozenset[str], dated: list[tuple[str, datetime]]) -> Event | None:
    """The event these words name: the dated text (a belief's statement with its due time
    or validity bound, an intention's action with its due time) that covers most of the
    words, at least half of them; the first listed breaks ties (the caller lists them in
    the order that puts the event first).

    A text that names the event only in a clause of its own relation ("Must build a
    perch before her new hawk arrives") prepares for it and is not it, and the event is
    not before what prepares for it: when no text is the event, or the one found is
    dated before the last preparation ("a New Zealand Christmas party" in December, "… to
    fetch her father for the wedding" against "… before the wedding" in January), the
    event comes just after the last preparation (what is due before it is theirs)."""
    best, best_share, best_text = None, EVENT_SHARE, ""
    prepared: datetime | None = None
    # what the event is about: the question's words for it, the words the preparations
    # name it with ("before she flies to Chile") and, below, those of its own text
    about = set(terms)
    for text, when in dated:
        share = len(terms & content_words(text)) / len(terms)
        if share < EVENT_SHARE:
            continue
        named = _preparation(terms, text)
        if named is not None:
            prepared = when if prepared is None else max(prepared, when)
            about |= named
        elif share > best_share or best is None:
            best, best_share, best_text = when, share, text
    if prepared is not None and (best is None or best <= prepared):
        return Event(prepared + timedelta(seconds=1), frozenset(about))
    if best is None:
        return None
    return Event(best, frozenset(about | _subject_terms(normalize(best_text).text)))


def prepared_for(dated: list[tuple[str, datetime]]) -> dict[int, frozenset[str]]:
    """The dated texts something else is done before, by words: for each text naming an
    event after a relation word of its own ("Must do a stocktake before the HMRC excise
    visit"), the text (not itself one such) its words there name (``event_date``: "An
    HMRC excise officer inspects the duty records on 10 December"), by its index in
    ``dated``, with the words the preparations name it with."""
    plain = [
        i for i, (text, _) in enumerate(dated) if not _RELATION_WORD.search(normalize(text).text)
    ]
    found: dict[int, frozenset[str]] = {}
    for text, _ in dated:
        normal = normalize(text).text
        relation = _RELATION_WORD.search(normal)
        if relation is None:
            continue
        clause = frozenset(_subject_terms(normal[relation.end() :]))
        if not clause:
            continue
        best, best_share = -1, EVENT_SHARE
        for i in plain:
            share = len(clause & content_words(dated[i][0])) / len(clause)
            if share >= best_share and (best < 0 or share > best_share):
                best, best_share = i, share
        if best >= 0:
            found[best] = found.get(best, frozenset()) | clause
    return found


def _preparation(terms: frozenset[str], text: str) -> frozenset[str] | None:
    """When ``text`` names the event ``terms`` name only after a relation word of its own
    (before, by, until, after...: fewer than half of them before it), the words it names
    the event with there (outside their time); None when it is no preparation."""
    normal = normalize(text).text
    relation = _RELATION_WORD.search(normal)
    if relation is None:
        return None
    if len(terms & content_words(normal[: relation.start()])) / len(terms) >= EVENT_SHARE:
        return None
    return frozenset(_subject_terms(normal[relation.start() :]))
