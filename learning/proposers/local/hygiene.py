"""Evidence hygiene: quotes cut before names, contact details and code; pastes holding a secret left out; quotes the review's verifier accepts."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from learning import language
from learning.proposers.local.requests import PASTED, _acronym, _lemma, message_span
from learning.proposers.local.tokens import (
    _CLAUSE_EDGE,
    _SENTENCE_END,
    EMOJI,
    clauses,
    code_shaped,
    tokens,
)
from learning.proposers.local.words import (
    EDIT_VERBS,
    GREETINGS,
    LEAD_FILLERS,
    MAX_QUOTES,
    MONTHS,
    QUOTE_MAX_WORDS,
    QUOTE_MIN_WORDS,
    TIME_MODIFIERS,
    WEEKDAYS,
)
from safety.text import (
    STOP_WORDS,
    code_outside_strings,
    content_words,
    readable_text,
    share_a_word,
    word_set,
)

if TYPE_CHECKING:
    from learning.proposers.local.other_languages import Ask
    from learning.proposers.local.requests import Request
    from learning.proposers.local.themes import Theme
    from learning.proposers.local.tokens import Tok
    from memory.verification import ReviewCorpus


# --- quotes -------------------------------------------------------------------------------------


def _opens_sentence(text: str, tok: Tok) -> bool:
    """Whether ``tok`` opens a sentence: nothing, sentence punctuation or an emoji before
    it ("hip's great 😊 Order of service for …": "Order" is no name)."""
    before = text[: tok.start].rstrip()
    return not before or before[-1] in ".!?:;\n" or _EMOJI.fullmatch(before[-1]) is not None


_EMOJI = re.compile(EMOJI)


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
    from learning.policy import product_name

    return (
        tok.low in CODE_KEYWORDS
        or (_camel(tok.text) and not product_name(tok.text))  # "xUnit" is a tool: no code
        or code_shaped(text, tok)
    )


def _camel(word: str) -> bool:
    """A capital after a small letter: a brand or an identifier ("TripAdvisor", "getUser")."""
    return any(a.islower() and b.isupper() for a, b in zip(word, word[1:], strict=False))


# the words that say when, right before a day's name: what follows the day is no part of it
_BEFORE_A_DAY = frozenset(
    ["on", "for", "by", "from", "till", "until", "this", "next", "last", "since", "before", "after"]
)


def _short_time_form(text: str, tok: Tok) -> bool:
    """Whether ``tok`` is a day's or a month's name written short with its capital, a
    time and no one's name ("Run sheet for Tues", "Sheet for me Sat please", "Weds"):
    three letters or more of a day's name (an "s" may follow: "Weds"); of a month's only
    beside a number ("Sat 10 Oct", "Sept 12": "Jan" alone may be someone). Before
    another capitalised word it is part of a name ("from the Sun Inn"), unless a word
    that says when stands right before the day ("job sheet for Sat Ryedale autumn show",
    "on Weds Castle Howard": the day, then the place)."""
    low = tok.low
    # the short forms people write: three or four letters, "s" after them ("Thurs", "Weds")
    stems = {w for w in (low, low.removesuffix("s")) if 3 <= len(w) <= 4}
    if not tok.text[:1].isupper() or not low.isalpha() or not stems:
        return False
    after = text[tok.end :].lstrip(" .")
    day = any(d.startswith(w) and d != w for d in WEEKDAYS for w in stems)
    if after[:1].isupper():
        said = text[: tok.start].split()
        return day and bool(said) and said[-1].lower() in _BEFORE_A_DAY
    if day:
        return True
    if not any(m.startswith(low) and m != low for m in MONTHS):
        return False
    before = text[: tok.start].rstrip(" ,")
    return before[-1:].isdigit() or after[:1].isdigit()


def _unclean(
    text: str,
    tok: Tok,
    banned: set[str],
    spans: list[tuple[int, int, str]],
    frame: language.Frame | None = None,
    before: Tok | None = None,
) -> bool:
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
    if "-" in tok.low and any(part in banned for part in tok.low.split("-")):
        return True  # a name joined to a word: "den Whitaker-Tisch"
    if sum(ch.isdigit() for ch in tok.text) >= 7:
        return True
    if any(a < tok.end and tok.start < b for a, b, _ in spans):
        return True
    # a day's possessive ("Saturday's dinghy taster") is the day
    ok = tok.low.removesuffix("'s") in CAPITALISED_OK or _short_time_form(text, tok)
    if not tok.text[:1].isupper() or _acronym(tok.text) or ok:
        return False
    if frame is not None and frame.capitalises_nouns and before is not None:
        # every noun has a capital (German): a noun follows an article or another word
        # written small ("für die Montage"), a name a title or a preposition ("bei Yilmaz")
        low_before = before.text[:1].islower() and before.end <= tok.start
        if (
            not low_before
            and before.end <= tok.start
            and _opens_sentence(text, before)
            and not language.german_last_noun(before.text)
            and language.german_last_noun(tok.text)
        ):
            # after a word that is no noun, capitalised only because it opens the
            # sentence ("Ohne Ausrufezeichen bitte"), a noun the lexicon lists, as after a
            # word written small; after a noun ("Liebe Anna", "Hallo Anna") it stays out
            low_before = True
        return not (
            low_before and before.low not in frame.name_before and before.low not in frame.titles
        ) and not _opens_sentence(text, tok)
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


def proper_words(messages: Any, *, english: bool = True, code: str = "") -> set[str]:
    """Words the messages write as names: capitalised where no sentence opens and never
    in lower case, or in lower case too when English has no such word ("Linden",
    "Hollybank", "Hugo", "tyler" of "Tyler"), capitalised where a sentence or line opens
    when English has no such word and it is never written small ("Nina" of "script
    pls: Nina and Joe"), camel case ("TripAdvisor"); acronyms
    and ``CAPITALISED_OK`` words left out. A capital in pasted code outside its string
    literals starts a type ("Widget build(…)"), no name. A quote holds none of them, wherever it
    stands in its sentence ("Hugo wants …"), and no theme is named after one. Not
    ``english``: only words capitalised where no sentence opens and never written small
    (the English lexicon cannot tell a French word from a name)."""
    from learning.policy import CAPITALISED_OK, product_name

    frame = language.FRAMES.get(code)
    if frame is not None and frame.capitalises_nouns:
        return _names_where_nouns_are_capitalised(messages, frame)
    capitalised: set[str] = set()
    lower: set[str] = set()
    pasted: set[str] = set()
    opening: set[str] = set()  # a word English does not have, capitalised where a sentence opens
    for m in messages:
        readable = readable_text(m.text)
        toks = tokens(readable)
        for k, t in enumerate(toks):
            if (
                not t.low.isalpha()
                or _acronym(t.text)
                or t.low in CAPITALISED_OK
                or _short_time_form(readable, t)
            ):
                continue
            if _written_small_as_a_name(toks, k):
                pasted.add(t.low)
            if product_name(t.text):
                continue  # a tool as its makers write it ("xUnit", "iOS"): no one's name
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
        typed = code_outside_strings(m.text)
        for t in tokens(m.text):
            if any(a <= t.start < b for a, b in typed):
                continue  # a type in code ("Widget build(…)"): no one's name
            if (
                t.text[:1].isupper()
                and not _camel(t.text)
                and not _acronym(t.text)
                and t.low not in CAPITALISED_OK  # no name: "Saturday", "Instagram"
                and not _short_time_form(m.text, t)  # "Sat", "Tues"
                and not _opens_sentence(m.text, t)  # "Rota for next week": no name
            ):
                pasted.add(t.low)
    if not english:  # the lexicon says nothing of the words of another language
        return (capitalised | pasted | _after_titles(messages, frame)) - lower
    # a word also written in lower case is a name only when English has no such word:
    # "rose" may be a flower, "tyler" written small is still Tyler
    unknown = {w for w in lower if w not in STOP_WORDS and not language.is_english_word(w)}
    return (capitalised | pasted) & unknown | (capitalised | opening) - lower


def _after_titles(messages: Any, frame: language.Frame | None) -> set[str]:
    """Capitalised words right after a title of the frame ("Sra. Costa", "Dr. Almeida",
    "Dona Fernanda"): names, though the title's dot makes them look as if they opened a
    sentence."""
    if frame is None or not frame.titles:
        return set()
    out: set[str] = set()
    for m in messages:
        toks = tokens(readable_text(m.text))
        for before, t in zip(toks, toks[1:], strict=False):
            if before.low in frame.titles and t.text[:1].isupper() and t.low.isalpha():
                out.add(t.low)
    return out


def _names_where_nouns_are_capitalised(messages: Any, frame: language.Frame) -> set[str]:
    """The names of messages in a language that writes every noun with a capital (German):
    a word after a title ("Herrn Krüger", "Familie Yilmaz"; written small too, after a title
    no article stands before: "frau kowalski"), a capitalised word after a
    preposition with no article ("bei Yilmaz"), unless the messages also write it after an
    article or where a sentence opens ("mit Angebot" beside "Angebot für …": a noun), and
    camel case; never a word of ``CAPITALISED_OK`` ("für Instagram": a platform)."""
    from learning.policy import CAPITALISED_OK

    after_name_word: set[str] = set()
    as_noun: set[str] = set()
    skip = frame.articles | frame.pronouns | frame.purpose | language.FUNCTION_WORDS[frame.code]
    for m in messages:
        readable = readable_text(m.text)
        toks = tokens(readable)
        for k, t in enumerate(toks):
            if _camel(t.text):
                after_name_word.add(t.low)
            if (
                t.text.islower()
                and t.low.isalpha()
                and k
                and toks[k - 1].low in frame.titles
                and (k < 2 or toks[k - 2].low not in frame.articles)
                and t.low not in skip | frame.titles
            ):
                # written small, as a hasty writer writes every word: a title with no
                # article before it is followed by a name ("rechnung für frau kowalski",
                # not "die frau von nebenan")
                after_name_word.add(t.low)
            if not t.text[:1].isupper() or _acronym(t.text):
                continue
            before = toks[k - 1].low if k else ""
            if _opens_sentence(readable, t) or before in frame.articles:
                as_noun.add(t.low)
            elif before in frame.titles or before in frame.name_before:
                after_name_word.add(t.low)
    return (after_name_word - as_noun) - frame.titles - CAPITALISED_OK


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


# where a sentence ends: a full stop that is no decimal point ("grafana 11.3.1"), ! ? or a line break
_FULL_STOP = re.compile(r"(?<!\d)\.|\.(?!\d)|[!?\n]")

# a passage in quotation marks, single or double: a mark no letter comes before opens it,
# the same mark (or its typographic closer) no letter follows closes it, or the text's end
# ("grandad's" inside it is an apostrophe, no closer)
_QUOTED_PASSAGE = re.compile(
    r"(?<![^\W_])(?:'[^\n]*?(?:'(?![^\W_])|\Z)|\u2018[^\n]*?(?:[\u2019'](?![^\W_])|\Z)"
    r"|[\"\u201c][^\"\u201c\u201d]*(?:[\"\u201d]|\Z))",
    re.S,
)


def _prose_around(text: str, start: int, end: int) -> tuple[int, int]:
    """The bounds a quote of ``[start:end]`` may widen to: not into a passage in
    quotation marks of four words or more, or out of the one the span stands in (a review, an e-mail or a line
    the person pastes: "reseña mala: 'El queso llegó caliente …' contesta" widens to
    neither side of the review), nor into a pasted block (``PASTED``)."""
    # a short quoted particular ("not 'your dog'", 'the "Spring Fair" poster') is prose
    walls = [
        m.span()
        for m in _QUOTED_PASSAGE.finditer(text)
        if len(tokens(m.group())) >= QUOTE_MIN_WORDS
    ]
    walls += [m.span() for m in PASTED.finditer(text)]
    lo = max([b for a, b in walls if a < start] + [0])
    hi = min([a for a, b in walls if b > end] + [len(text)])
    return min(lo, start), max(hi, end)


def quote_for(
    message: Any,
    start: int,
    end: int,
    banned: set[str],
    *,
    keep: frozenset[str] = frozenset(),
    own_sentence: bool = False,
    frame: language.Frame | None = None,
) -> str | None:
    """A verbatim quote from the clause ``[start:end]`` of the message: the clause as
    written (fillers off its start), widened past its end when shorter than four words,
    never into a passage in quotation marks or a paste (``_prose_around``), and cut
    around any word a quote must not hold (``_unclean``), keeping the longest
    clean part that holds a word of ``keep`` (lemmas of the theme); with ``own_sentence``
    (a correction) it widens within the clause's sentence only. When the cuts leave
    no such part, the rest of the sentence may give one ("Reply to a Google review
    please: 5 stars" -> "review please: 5 stars"). None when no clean part of four words
    or more is there, or when the quote holds contact details or a word about someone's
    health."""
    from learning.policy import contact_kind, contact_spans, health_word

    spans = contact_spans(message.text)
    # a quote widens within the prose the clause stands in, never into a paste
    lo, hi = _prose_around(message.text, start, end)
    text = message.text[:hi]
    readable = readable_text(message.text)[:hi]
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
            back = [m.end() for m in _FULL_STOP.finditer(readable, lo, start)]
            toks = tokens(text, back[-1] if back else lo, sentence_end)[-QUOTE_MAX_WORDS:]
    best = _clean_part(text, readable, toks, banned, spans, keep, frame)
    if len(best) < QUOTE_MIN_WORDS or not _holds(best, keep):
        stop = _SENTENCE_END.search(readable, end)
        wider = tokens(text, start, stop.start() if stop else len(text))[:QUOTE_MAX_WORDS]
        other = _clean_part(text, readable, wider, banned, spans, keep, frame)
        if (_holds(other, keep), len(other) >= QUOTE_MIN_WORDS) > (
            _holds(best, keep),
            len(best) >= QUOTE_MIN_WORDS,
        ):
            best = other
    if len(best) < QUOTE_MIN_WORDS:
        return None
    best = best[:QUOTE_MAX_WORDS]
    quote = text[best[0].start : best[-1].end]
    return None if contact_kind(quote) or health_word(quote) else quote


def request_quote(
    req: Request, banned: set[str], *, keep: frozenset[str], words_of_text: set[str]
) -> str | None:
    """The quote behind ``req``: from its own clause, or, when that gives no clean quote
    sharing a word with the sentence (``words_of_text``), from another clause of the
    same message that holds a word of the theme ("Summarise please." after
    "Escalation for engineering: …")."""
    quote = quote_for(req.message, req.start, req.end, banned, keep=keep)
    if quote and share_a_word(quote, words_of_text):
        return quote
    text = req.message.text
    for a, b in clauses(readable_text(text)):
        a, b = message_span(text, a, b)
        if (a, b) == (req.start, req.end) or not _holds(tokens(text, a, b), keep):
            continue
        quote = quote_for(req.message, a, b, banned, keep=keep)
        if quote and share_a_word(quote, words_of_text):
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
    frame: language.Frame | None = None,
) -> list[Tok]:
    """The longest run of ``toks`` free of blanked code and unclean words (fillers off
    its start, stop words off its end), one holding a word of ``keep`` first."""
    # the function words a quote does not end on, in the language of the frame too
    trailing = (
        language.FUNCTION_WORDS.get(frame.code, frozenset()) | frame.name_before
        if frame is not None
        else frozenset()
    )
    segments: list[list[Tok]] = [[]]
    for k, t in enumerate(toks):
        before = toks[k - 1] if k else None
        if readable[t.start : t.end] != t.text or _unclean(text, t, banned, spans, frame, before):
            segments.append([])  # blanked code, or a word a quote must not hold
        else:
            segments[-1].append(t)
    best: list[Tok] = []
    for seg in segments:
        while seg and seg[0].low in LEAD_FILLERS and len(seg) > QUOTE_MIN_WORDS:
            seg = seg[1:]
        while (
            seg
            and len(seg) > QUOTE_MIN_WORDS
            and (seg[-1].low in STOP_WORDS or seg[-1].low in trailing)
        ):
            seg = seg[:-1]
        if len(seg) < QUOTE_MIN_WORDS:
            continue
        if (_holds(seg, keep), len(seg)) > (_holds(best, keep), len(best)):
            best = seg
    return best


def _name_words(known_names: Any) -> set[str]:
    """The words of the names known to memory, each a word no quote may hold; not the
    function words a name is built with ("de" and "el" of "El Racó de Vicent", "of" of
    "Bank of England"): the other words of the name are left out all the same, and a
    quote without "de" could not be written in Spanish."""
    out: set[str] = set()
    for name in known_names or ():
        out.update(
            t.low for t in tokens(str(name)) if len(t.low) > 1 and not language.function_word(t.low)
        )
    return out


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
    whole text ("HW_CLOUD_TOKEN: …" above a CMake error), by the same check as the
    review's reading (``safety.evidence.secret_kinds``: invisible characters normalised)."""
    from safety.evidence import secret_kinds

    return any(
        secret_kinds(line)
        for m in PASTED.finditer(message.text)
        for line in m.group(0).splitlines()
        if line.strip()
    )


def follow_up_quote(
    req: Request | Ask,
    later: list[Any],
    banned: set[str],
    *,
    noun: str,
    words_of_text: set[str],
    frame: language.Frame | None = None,
) -> str | None:
    """When the request's own message gives no clean quote (a name or an address cut it:
    "Quote for Mrs Okafor please"), a clean quote from a later message of the same
    person in the same conversation that names the work's ``noun`` (a lemma) again:
    a follow-up about the same piece of work ("Say it's an insurance-approved lock.
    Gareth wants that on every quote for a door lock." -> "wants that on every quote for
    a door lock"); never a clause asking to edit the draft at hand ("Just this once, add
    the same notice in Polish underneath": that one piece, changed). None when no such
    message gives one; never from a message pasting a secret."""
    keep = frozenset([noun])
    for message in later:
        if (
            message.conversation_id != req.message.conversation_id
            or message.principal_id != req.message.principal_id
            or message.seq <= req.message.seq
            or _paste_holds_secret(message)
        ):
            continue
        text = message.text
        for a, b in clauses(readable_text(text)):
            a, b = message_span(text, a, b)
            toks = tokens(text, a, b)
            words = [t for t in toks if t.low not in LEAD_FILLERS]
            if not _holds(toks, keep) or (
                words and language.lemma(words[0].low, "VERB") in EDIT_VERBS
            ):
                # an edit of the draft at hand ("add the same notice in Polish
                # underneath") changes that one piece: no evidence of the kind of work
                continue
            quote = quote_for(message, a, b, banned, keep=keep, frame=frame)
            if quote and _holds(tokens(quote), keep) and share_a_word(quote, words_of_text):
                return quote
    return None


def theme_evidence(
    theme: Theme, text: str, banned: set[str], messages: list[Any] | None = None
) -> tuple[list[dict[str, Any]], set[int]]:
    """The quotes that may back ``text`` for ``theme`` (one per conversation, cut
    before names and other words a quote must not hold; none from a message pasting a
    secret), and the people they are from. With the ``messages`` read, a request whose
    own message gives no clean quote may be quoted by a later message of its
    conversation naming the noun the request made, when the sentence writes it
    (``follow_up_quote``)."""
    # the words of the sentence that say something: "the" of "Writes the methods." would
    # let a longer part without the theme ("part of the organoid paper") pass for one
    keep = frozenset(w for w in (theme.head, theme.qualifier, theme.verb) if w) | frozenset(
        t.low for t in tokens(text) if t.low not in STOP_WORDS
    )
    evidence = []
    people = set()
    words_of_text = content_words(text)
    # the nouns the sentence writes: a follow-up names the noun its request made
    nouns = {language.lemma(t.low, "NOUN") for t in tokens(text)}
    for req in theme.requests.values():
        if _paste_holds_secret(req.message):
            continue
        quote = request_quote(req, banned, keep=keep, words_of_text=words_of_text)
        if quote is None and messages and req.head in nouns:
            quote = follow_up_quote(
                req, messages, banned, noun=req.head, words_of_text=words_of_text
            )
        if quote:
            evidence.append({"quote": quote, "conversation": req.message.conversation_label})
            people.add(req.message.principal_id)
        named = _topic_quote(req, quote, banned, keep, words_of_text)
        if quote and named:
            # the words that say what the reply answers ("Someone's left us a three-star
            # review") beside the request: together they prove the sentence
            evidence.append({"quote": named, "conversation": req.message.conversation_label})
    return evidence, people


def _topic_quote(
    req: Request, quote: str | None, banned: set[str], keep: frozenset[str], words: set[str]
) -> str | None:
    """A quote of the clause that names what a bare reply answers (``topic_span``)."""
    if req.topic_span is None:
        return None
    named = quote_for(req.message, *req.topic_span, banned, keep=keep)
    if not named or named == quote or not share_a_word(named, words):
        return None
    return named


# a quoted particular: a title, a line to use, a name as written ('the "Spring Fair" poster')
_QUOTED_PARTICULAR = re.compile(
    r"(?<![^\W_])[\"\u201c\u2018']([^\"\u201c\u201d\u2018\u2019']+)[\"\u201d\u2019'](?![^\W_])"
)


def work_of_clause(text: str, banned: set[str] | frozenset[str]) -> str:
    """The clause with its particulars left out, so that what remains says which kind of
    work it asks for: the names it writes (``banned``: "Estimate for Mrs Haigh" is an
    estimate, whoever it is for), with a capitalised word just before one where the clause
    does not open ("Mrs", "Dr", "St"), words holding a digit (amounts, dates, codes:
    "INV-2041", "12th"), the words of a time (``TIME_MODIFIERS``: "the November
    newsletter") and quoted text. The clause as written when nothing would remain."""
    blank = _QUOTED_PARTICULAR.sub(lambda m: " " * len(m.group()), text)
    toks = tokens(blank)
    drop = {
        k
        for k, t in enumerate(toks)
        if t.low.removesuffix("'s") in banned
        or t.low in TIME_MODIFIERS
        or any(c.isdigit() for c in t.text)
    }
    drop |= {
        k - 1
        for k in range(2, len(toks))
        if toks[k].low.removesuffix("'s") in banned and toks[k - 1].text[:1].isupper()
    }
    kept = [t.text for k, t in enumerate(toks) if k not in drop]
    return " ".join(kept) if kept else text
