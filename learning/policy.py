"""The refusal policy for learned sentences and standing rules (PRODUCT.md section 5).

Each check returns ``None`` (allowed) or a reason a person can read on the dashboard.
The checks are word lists and simple patterns on the normalised text (see
``safety.text``): they are strict on purpose, and a person approves what they
let through when the agent is on-with-review and for every rule.

What "a kind of work" means (``sentence_refusal``): the sentence has at least three
words and is written verb-first, the way a job is described: "Helps …", "Drafts …",
"Prices …" (a third-person verb, that is a first word ending in "s" but not in a noun
ending such as "-ics", "-ness", "-ings") or an imperative from ``WORK_VERBS`` ("Advise
small bakery owners on …"). A sentence that starts with a pronoun, an article or a
verb about the person rather than the work ("Likes …", "Is …", "Has …") is refused.
A noun-first sentence whose first word looks like a verb ("Plates …") gets through:
the check is a word list, and a person reviews what it lets through.

Language: the checks that read English words (a rule or recommendation, a reminder, "you",
"I" or "we", a promise, verb-first) are asked only of a persona written in English
(``language.persona_language``; a persona that says too little to tell is read in the
sentence's own language). For another language a sentence is refused only for what can
be judged without reading it: the safety scan (secrets, injections), more than one
sentence, contact details, names known to memory, a capital inside the sentence where the
language writes nouns small, a guardrail, the length of the field, what the field says
already; and a sentence written in another language than the persona's (Danish and
Norwegian, which the identifier tells apart by chance in a few words, read alike).

Names: ``known_names`` (people and companies known to memory) are refused wherever
they appear: the whole name in any case (a name that is also a function word, like
"Will", only when written with a capital), or a part of a longer name of at least
three letters: in any case when the part is no English word ("priya" of "Priya
Shah"), with its capital when it is one ("Mills" of "Millbrook Mills", not "mills").

Sentences addressed to the assistant, in any form, are refused: reminders and notes
to self ("Remember to …", "Don't forget …", "Note to self …") in sentences and rules,
and in a goals/background sentence any "you", "I" or "we" (it describes the
assistant's work in the third person).

Guardrails: whether a sentence or rule goes against one is decided by
``persona.guardrails`` (the layer that owns guardrails; every persona write meets the
same ``guardrail_contradiction``). Standing rules are held to its stricter tests too: a
rule that tells the assistant to tell, send, share, give, quote, confirm, promise or
reveal something (not "never …") is refused when it shares a content word with a
guardrail that forbids something or allows it only under a condition ("before",
"until", "unless", "only …"), whatever else it says. A rule that promises customers
something (an amount, a time, an outcome) is refused; so is a one-off edit request
("Make it shorter", "Punchier") and a rule drawn from corrections that disagree on a
value (``corrections_disagree``: "max 3 hashtags" against "use 5").
Besides, a capitalised word after the first word of the sentence is taken for a
proper noun (a name, a company, a brand) unless it is in ``CAPITALISED_OK`` (days,
months, languages, "I", the platforms people post on: "Instagram", "Facebook"), is an
acronym of at most five capitals ("VAT", "PDF") or is an ordinary noun right after a
nationality, the kind it names ("the British Standard").
"""

from __future__ import annotations

import hashlib
import re
from typing import Any

from learning import language
from persona.guardrails import (
    DISCLOSE_WORDS,
    NEGATION,
    guardrail_contradiction,
    rule_overlap_conflict,
    rule_tells_what_a_guardrail_guards,
)
from persona.guardrails import positive as _positive
from persona.guardrails import words_re as _words_re
from persona.services import MAX_LEARNED_FIELD_CHARS, MAX_RULE_CHARS, is_one_sentence
from safety.checks import UnsafeText, check_write
from safety.text import STOP_WORDS, content_words, normalize, stem, word_set, words

LEARNED_FIELDS = ("goals", "background")

# --- shared patterns (matched on the normalised text: lower case, one space, no punctuation)


RULE_WORDS = _words_re(
    """
    always, never, must, mustnt, should, shouldnt, shall, ought to, has to, have to,
    dont, do not, does not, required to, is required, are required, mandatory,
    forbidden, not allowed, make sure, ensure that, at all times, under no
    circumstances, without exception, avoid
    """
)
RECOMMEND_WORDS = _words_re(
    """
    recommends?, recommend(?:ed|ing|ation|ations), suggests? (?:you|that|to),
    suggesting, best to, buys?, buying, purchase, try our, try the, our product, our
    products, check out, sign up, subscribe, discount, deal on, upgrade to, use our, you
    should, we recommend, consider using, sponsored
    """
)
SELL_WORDS = _words_re(
    """
    sells?, selling, upsell, upselling, promotes?, promoting, offer a discount, special
    offer, advertise, advertising, affiliate
    """
)
AIMED_AT_MODEL = _words_re(
    """
    you are, youre, you must, you will, you should, ignore, disregard, the assistant
    should, the assistant must, the assistant will, as an ai, as a language model,
    language model, system prompt, your instructions, previous instructions, prior
    instructions, above instructions, jailbreak, developer mode, pretend to be, act as,
    roleplay, new instructions, override, the model, this model, chatgpt, openai, llm
    """
)
# sending or revealing information, allowed only when the rule forbids it
SEND_WORDS = _words_re(
    """
    send(?:s|ing)?, sent, shares?, sharing, forward(?:s|ing)?, email(?:s|ing)?, e mail,
    reveal(?:s|ing)?, disclos(?:e|es|ing), leak(?:s|ing)?, post(?:s|ing)?,
    publish(?:es|ing)?, upload(?:s|ing)?, give out, pass on, hand over, tell
    (?:the|them|anyone|other|others|customers|people), cc, bcc, copy in,
    export(?:s|ing)?, tweet
    """
)
# reminders and notes to self: addressed to the assistant, whatever the verb
ADDRESSED = _words_re(
    """
    remember(?:s|ing)? to, remember(?:s|ing)? that, dont forget, do not forget, never forget,
    not forget, note to self, notes to self, reminders?, remind(?:s|ing)? (?:me|you|us|yourself|them),
    keep(?:s|ing)? in mind, bear(?:s|ing)? in mind, make a note, take a note, for your
    information, fyi, just so you know
    """
)
# reminders as what the work makes, not one addressed to the assistant: a verb in the
# third person, at most two words saying which, then the noun ("Writes service
# reminders.", "Sends payment reminders."), and what they are for ("Prepares appointment
# reminders for fittings."; never "to" and a verb: "Writes reminders to check the date.")
_MAKES_REMINDERS = re.compile(
    r"(?!remember)[a-z]+s (?:[a-z][a-z-]* ){0,2}reminders(?: for(?: [a-z][a-z-]*){1,3})?\.?"
)
# a goals/background sentence is about the assistant's work, in the third person
PERSON_WORDS = _words_re(
    """
    you, your, yours, yourself, yourselves, youre, youll, youve, youd, i, me, my, mine,
    myself, im, ive, we, our, ours, ourselves, weve
    """
)
PROMISE_WORDS = _words_re(
    """
    promis(?:e|es|ed|ing), guarantee(?:s|d|ing)?, assur(?:e|es|ed|ing), pledge(?:s|d)?,
    commit to, vouch(?:es)? for, you have my word
    """
)
# "the refund will be in their account", "they'll get": an outcome stated as certain
FUTURE_OUTCOME = _words_re(
    """
    (?:will|shall) (?:be|get|receive|have|see|arrive|go|come|hear), (?:theyll|youll|itll|shell|hell)
    (?:be|get|receive|have|see), (?:is|are) going to (?:be|get|receive|arrive), can expect
    """
)
OUTCOME_WORDS = _words_re(
    """
    refund(?:s|ed)?, money back, reimburse(?:d|ment)?, compensation, compensate(?:d)?, credit(?:s|ed)?,
    replacement, replaced, free, discount(?:s|ed)?, waive(?:d)?, approved, fixed, resolved,
    delivered, in (?:their|your|the) account, back in
    """
)
_NUMBER_WORDS = (
    "one two three four five six seven eight nine ten eleven twelve fifteen twenty thirty "
    "forty fifty sixty hundred"
)
TIME_OR_AMOUNT = re.compile(
    r"(?<![a-z0-9])(?:within|in|by|before|after|under|over|up to|at least|at most) "
    r"(?:(?:the )?(?:\d+|"
    + _NUMBER_WORDS.replace(" ", "|")
    + r")|monday|tuesday|wednesday|thursday|"
    r"friday|saturday|sunday|tomorrow|tonight|today|the end|end of|next|a (?:day|week|month)|"
    r"24 hours|48 hours)(?![a-z0-9])"
    r"|(?<![a-z0-9])(?:\d+|"
    + _NUMBER_WORDS.replace(" ", "|")
    + r")(?: (?:working|business|calendar))? "
    r"(?:minutes?|hours?|days?|weeks?|months?|years?|percent|pounds?|dollars?|euros?)(?![a-z0-9])"
)
# a rule that sets what customers pay: "Add a rush fee.", "Charge a call-out fee."
_SETS_PRICE = re.compile(
    r"(?<![a-z0-9])(?:add|adds|charge|charges|apply|applies|set|sets|take|takes|ask for|put on)"
    r" (?:(?:a|an|the|our|their|any) )?(?:[a-z-]+ ){0,2}"
    r"(?:fee|fees|surcharge|surcharges|deposit|deposits|price|prices|charge|charges|discount|"
    r"discounts|markup|premium)(?![a-z0-9])"
)
# health: medical procedures and conditions by the shape of the word ("mastectomy",
# "tracheotomy", "colostomy", "arthritis") and a maintained list; a message holding one
# is never evidence, whatever else it asks. "Surgery" and "operation" only as something
# had ("had surgery", "after her knee operation"): a dentist's surgery is a place
_HEALTH = re.compile(
    r"(?<![a-z0-9])(?:[a-z]+(?:ectomy|ectomies|otomy|otomies|ostomy|itis)|"
    r"chemo\w*|radiother\w*|radiotherap\w*|surgical|surgeon\w*|"
    r"(?:had|having|has|after|before|recovering from|needs?) "
    r"(?:an? |her |his |their |my )?(?:\w+ )?(?:operation|surgery|surgeries)|"
    r"diagnos\w*|cancer\w*|tumou?r\w*|"
    r"carcinoma\w*|lymphoma\w*|melanoma\w*|leukaemia|leukemia|pregnan\w*|miscarr\w*|"
    r"prosthe\w*|amputat\w*|dementia|alzheimer\w*|parkinson\w*|diabet\w*|epilep\w*|"
    r"dialysis|transplant\w*|hospice|terminally ill|ivf|"
    r"hospital\w*|hospitali[sz]ed|burn(?:ed|t)? ?out|mental health|depress(?:ion|ed)|"
    r"anxiety|medication\w*|prescription\w*|illness\w*|"
    r"chronic \w+)(?![a-z0-9])"
)


def health_word(text: str) -> str | None:
    """A word of ``text`` about someone's health (a medical procedure or condition), or None."""
    m = _HEALTH.search(normalize(text or "").text)
    return m.group(0) if m else None


_CURRENCY = re.compile(r"[£$€¥]\s?\d|\d\s?(?:%|£|€|gbp|usd|eur)\b", re.IGNORECASE)
# one-off edits to the draft at hand: "make it shorter", "punchier", "one line"
_ONE_OFF_LEAD = word_set(
    "please pls just and also now ok okay so then a bit little lot much way slightly even"
)
_ONE_OFF_VERBS = word_set("make keep get write do put turn")
_ONE_OFF_OBJECTS = word_set(
    "it this that them these those the draft email post reply message text letter note version one"
)

_EMAIL = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")
_URL = re.compile(
    r"(?:https?://|ftp://|www\.)\S+|\b[\w-]+(?:\.[\w-]+)*\.(?:com|org|net|io|co|uk|de|fr|ai|dev|app|info|biz|us|eu|gov|edu)\b",
    re.IGNORECASE,
)
_PHONE_RUN = re.compile(r"(?:\+|\b)\d[\d\s().-]{5,}\d\b")
_LOCAL_PHONE = re.compile(r"\b\d{3}[-. ]\d{4}\b")
_HANDLE = re.compile(r"(?<![\w@])@[A-Za-z_][\w.]{1,}")
# street words: what follows a street's name ("Linden Avenue", "12 Harbour Road", "Elm Rd")
_STREET_TYPES = (
    r"(?:Street|St|Road|Rd|Avenue|Ave|Lane|Ln|Boulevard|Blvd|Drive|Dr|Way|Court|Ct|Place|Pl"
    r"|Square|Sq|Terrace|Close|Crescent|Grove|Highway|Hwy|Parkway|Row|Gardens|Mews|Hill"
    r"|Park|Parade|Walk|Rise|Wharf|Quay|Estate)"
)
# "12 Harbour Road", "4b Mill Lane", "221 baker street": a number, up to three words,
# a street word (capitalised names, or one of the unmistakable street words in lower
# case, "rd" and "ave" included: "14 chandos rd")
_STREET = re.compile(
    r"\b\d{1,5}[A-Za-z]?\s+(?:[A-Z][\w'’-]*\s+){1,3}" + _STREET_TYPES + r"\b"
    r"|\b\d{1,5}[a-z]?\s+(?:[a-z'’-]+\s+){1,3}(?:street|road|avenue|lane|boulevard|drive|rd|ave)\b"
)
# a street without its number: one to three capitalised words and a capitalised street
# word ("on Linden Avenue", "Station Road", "the Elm Rd job"); "I" is no name
_STREET_NAME = re.compile(r"\b(?:(?!I\s)[A-Z][\w'’-]*\s+){1,3}" + _STREET_TYPES + r"\b")
# a flat, unit or suite number ("Flat 3", "unit 12b")
_DWELLING = re.compile(
    r"\b(?:flat|apartment|apt|suite|unit)\s+(?:no\.?\s*)?\d{1,4}[a-z]?\b", re.IGNORECASE
)
_POSTCODE = re.compile(
    r"\b[A-Z]{1,2}\d[A-Z\d]?\s*\d[A-Z]{2}\b|\bP\.?\s?O\.?\s+Box\b", re.IGNORECASE
)
# a US state and ZIP code ("CA 94103", "NY 10001-1234")
_ZIP = re.compile(r"\b[A-Z]{2}\s+\d{5}(?:-\d{4})?\b")
# a title and a capitalised word: a person ("Mrs Patel", "Dr. Okafor")
_TITLED_NAME = re.compile(r"\b(?:Mr|Mrs|Ms|Mx|Miss|Dr|Prof|Sir|Dame)\.?\s+[A-Z][\w'’-]*")

WORK_VERBS = word_set(
    """
    advise answer analyse analyze arrange assist book build calculate check coach
    compile coordinate draft design edit estimate file find fix follow handle keep
    maintain manage monitor organise organize plan prepare price process produce quote
    reconcile reply research respond review run schedule serve sort summarise summarize
    support teach test track translate tutor update work write
    """
)
NON_WORK_STARTERS = word_set(
    """
    a an the this that these those it its i me my we our you your he she him her his
    they them their there here user users person people customer customers client
    clients owner is are was were be been has have had does did likes like loves love
    prefers prefer enjoys enjoy hates hate feels feel believes believe thinks think
    wants want needs need lives live seems seem gets get goes go knows know remembers
    remember always never
    """
)
#: platforms people write posts, captions and texts for: a kind of work named by one
#: ("publication Instagram", "Instagram-Beitrag") is one theme, whatever the noun
PLATFORMS = word_set("instagram facebook tiktok linkedin youtube pinterest")
#: short forms of a platform's name people type, each with the name it stands for: read as
#: the platform by the proposer's foreign path, and written out in full in a proposal
#: ("fb posts" -> "Facebook posts"; a reviewer writes the name, not the texting form)
PLATFORM_SHORT_FORMS = {"insta": "instagram", "ig": "instagram", "fb": "facebook"}
#: texting forms of a word, by the language they are typed in, and the word written out: a
#: proposal the assistant keeps says "que", not the "q" of a hurried message ("pon q va
#: galvanizada" -> "pon que va galvanizada"). Only forms that stand for one word alone (the
#: common SMS abbreviations of each language); a form that may be a word of its own ("d",
#: "x", "k") is left as written, and so is one that is also a common abbreviation at work ("pr":
#: "pour", but "la PR" of a developer), as is any form typed in capitals (an acronym).
TEXTING_FORMS = {
    "es": {"q": "que", "xq": "porque", "pq": "porque", "tb": "también", "tmb": "también"},
    "pt": {"q": "que", "vc": "você", "pq": "porque", "tb": "também", "tbm": "também"},
    "it": {"cmq": "comunque", "nn": "non", "xché": "perché", "ke": "che"},
    "fr": {"tjs": "toujours", "bcp": "beaucoup", "qd": "quand"},
}
#: sites people leave reviews on: "Reply to this Google review" names no one
REVIEW_SITES = word_set("google tripadvisor airbnb trustpilot")
#: the adjectives of a nation, a language or a continent, capitalised in English
NATIONALITIES = word_set(
    """
    english french german spanish italian portuguese dutch chinese japanese korean arabic
    hindi russian polish welsh irish scottish british european american african asian latin
    greek roman
    """
)
#: currencies written short with a capital where the language writes them so (the Czech
#: koruna "Kč", the Polish złoty "Zł" opening a line): a price, no one's name
CURRENCIES = word_set("kč zł")
CAPITALISED_OK = (
    word_set(
        """
    i monday tuesday wednesday thursday friday saturday sunday january february march
    april may june july august september october november december christmas easter
    """
    )
    | NATIONALITIES
    | PLATFORMS
    | REVIEW_SITES
    | CURRENCIES
)


def content_key(text: str) -> str:
    """The key "never proposed again" is stored under: sha256 of the normalised text."""
    return hashlib.sha256(normalize(text).text.encode("utf-8")).hexdigest()


_PERSONA_SENTENCE_END = re.compile(r"(?<=[.!?])\s+")


def persona_keys(persona: dict[str, Any], *, rules: bool = False) -> frozenset[str]:
    """The content keys of the sentences of ``persona``'s goals and background (and of
    its standing rules when ``rules``): what a proposal already in the persona has."""
    keys = {
        content_key(sentence)
        for name in ("goals", "background")
        for sentence in _PERSONA_SENTENCE_END.split(persona.get(name) or "")
        if sentence.strip()
    }
    if rules:
        keys.update(content_key(rule) for rule in persona.get("standing_rules") or [])
    return frozenset(keys)


def append_sentence(field_text: str, sentence: str) -> str:
    """The field with ``sentence`` appended, as a learned sentence is applied."""
    head = (field_text or "").rstrip()
    return f"{head} {sentence.strip()}".strip()


# --- checks shared by sentences and rules


def _safety(text: str, *, kind: str) -> str | None:
    """The write-time safety check (``safety.checks.check_write``: secrets, the word
    patterns and the learned layer), as a reason instead of a refusal."""
    try:
        check_write(text, kind)
    except UnsafeText as exc:
        return str(exc)
    return None


def _first(pattern: re.Pattern[str], norm: str) -> str | None:
    m = pattern.search(norm)
    return m.group(0) if m else None


#: what opens a clause saying when a rule holds: "every time we recommend a lock"
_WHEN_CLAUSE = re.compile(r"\b(?:when|whenever|every time|each time|if)\s+(?:\w+\s+){0,2}$")


def _recommends(norm: str) -> str | None:
    """The first recommending words of a rule outside a clause that says when it holds:
    "every time we recommend a lock" is the occasion of the rule, no recommendation."""
    for m in RECOMMEND_WORDS.finditer(norm):
        if not _WHEN_CLAUSE.search(norm[: m.start()]):
            return m.group(0)
    return None


class _PhoneFinder:
    """A phone number: nine or more digits in one run, seven after a "+", or "555-0123"."""

    @staticmethod
    def finditer(text: str) -> list[re.Match[str]]:
        found = list(_LOCAL_PHONE.finditer(text))
        for m in _PHONE_RUN.finditer(text):
            digits = sum(ch.isdigit() for ch in m.group(0))
            if digits >= 9 or (m.group(0).startswith("+") and digits >= 7):
                found.append(m)
        return found


_CONTACT_KINDS: tuple[tuple[str, Any], ...] = (
    ("an email address", _EMAIL),
    ("a web address", _URL),
    ("a phone number", _PhoneFinder),
    ("a social media handle", _HANDLE),
    ("a street address", _STREET),
    ("a street name", _STREET_NAME),
    ("a flat or unit number", _DWELLING),
    ("a postal code", _POSTCODE),
    ("a postal code", _ZIP),
    ("a person's title and name", _TITLED_NAME),
)


def contact_spans(text: str) -> list[tuple[int, int, str]]:
    """Where ``text`` holds contact or address details or a titled name: ``(start, end,
    kind)`` per span, in order. A learned sentence or rule holding one is refused; a
    quote is cut around them (``learning.proposers.local``)."""
    spans = [
        (m.start(), m.end(), kind)
        for kind, pattern in _CONTACT_KINDS
        for m in pattern.finditer(text)
    ]
    return sorted(spans)


def contact_kind(text: str) -> str | None:
    """The kind of the first contact or address detail in ``text`` (``contact_spans``),
    or None when it holds none."""
    for kind, pattern in _CONTACT_KINDS:
        for _m in pattern.finditer(text):
            return kind
    return None


def _known_name(text: str, known_names: set[str], lang: str = "en") -> str | None:
    """A name of ``known_names`` that ``text`` (written in ``lang``) names, or None. The
    function words of the language are no part of a name: "Los" of "Restaurante Los
    Almendros" is no name in "Prepara los whatsapps."."""
    function_words = STOP_WORDS | language.FUNCTION_WORDS.get(lang, frozenset())
    hay = f" {normalize(text).text} "
    capitalised = {
        normalize(w).text for w in re.findall(r"[^\W\d_][\w'’]*", text) if w[0].isupper()
    }
    for name in sorted(known_names, key=lambda n: (-len(n), n)):  # ties: no set order
        needle = normalize(name).text
        if len(needle) < 2:
            continue
        # the whole name in any case; a name that is also a function word ("Will") only
        # when written with a capital
        if (needle not in STOP_WORDS and f" {needle} " in hay) or needle in capitalised:
            return name
        # a part of a multi-word name: "priya" of "Priya Shah" in any case; a part that
        # is an English word ("Mills" of "Millbrook Mills") only with its capital
        for part in needle.split(" "):
            if len(part) < 3 or part in function_words:
                continue
            if part in capitalised or (not language.is_english_word(part) and f" {part} " in hay):
                return name
    return None


def product_name(word: str) -> bool:
    """A product's name written the way its makers write it, never a person's or a
    company's: a small first letter, one to three small letters that are no English word
    (or a single letter), then a capital ("xUnit", "iOS", "pgAdmin", "eBay"). An
    identifier opens with an English verb ("getUser", "setState")."""
    m = re.fullmatch(r"([a-z]{1,3})([A-Z][A-Za-z]*)", word)
    if m is None:
        return False
    return len(m.group(1)) == 1 or not language.is_english_word(m.group(1))


def _kind_named_by_a_nationality(before: str, tok: str) -> bool:
    """Whether a capitalised word is the ordinary noun of a kind a nationality adjective
    names before it ("the British Standard", "a French Polish finish"): English writes such a
    kind with capitals. A surname is no noun of the lexicon ("Halliwell"), and one that is
    ("Mills", "Brown") is still refused wherever no nationality stands right before it."""
    return (
        before[:1].isupper()
        and before.casefold() in NATIONALITIES
        and tok[:1].isupper()
        and tok[1:].islower()
        and tok.isalpha()
        and language.can_be(tok.casefold(), "NOUN")
    )


def own_name_words(persona: dict[str, Any]) -> frozenset[str]:
    """The capitalised words of the assistant's own name in its persona ("Brushwood
    Grooming office assistant"): the business it works for, which its persona already
    names. A rule or sentence saying them ("Sign off as the Brushwood team.") names no
    brand or company from the conversations."""
    name = str(persona.get("name") or "")
    return frozenset(w.casefold() for w in re.findall(r"[^\W\d_][\w'’-]*", name) if w[:1].isupper())


def _proper_noun(text: str, own: frozenset[str] = frozenset()) -> str | None:
    """A capitalised word after the first one, not a known-ordinary one (see module doc),
    nor one of the assistant's own name (``own``, from ``own_name_words``)."""
    tokens = re.findall(r"[^\W\d_][\w'’-]*", text)
    for k, tok in enumerate(tokens[1:], start=1):
        if _kind_named_by_a_nationality(tokens[k - 1], tok):
            continue
        if tok.casefold() in own or tok.casefold().removesuffix("'s") in own:
            continue  # "the Brushwood team" of "Brushwood Grooming office assistant"
        for part in tok.split("-"):
            if not any(ch.isupper() for ch in part) or product_name(part):
                continue  # no capital, or a tool written as its makers write it: "xUnit"
            if (part.isupper() and len(part) <= 5) or (
                part.endswith("s") and part[:-1].isupper() and 2 <= len(part) <= 6
            ):
                continue  # an acronym: VAT, PDF, HR, PRs
            low = part.casefold()
            if low in CAPITALISED_OK or low.removesuffix("s") in CAPITALISED_OK:
                continue
            return tok
    return None


def _promise(text: str, norm: str) -> str | None:
    """Why ``text`` promises customers something (an amount, a time, an outcome)."""
    m = _positive(PROMISE_WORDS, norm)
    if m:
        return f'promises something ("{m.group(0)}")'
    future = _positive(FUTURE_OUTCOME, norm)
    told = _positive(DISCLOSE_WORDS, norm)
    amount = TIME_OR_AMOUNT.search(norm) or _CURRENCY.search(text)
    outcome = OUTCOME_WORDS.search(norm)
    if future and (amount or outcome):
        what = amount.group(0) if amount else outcome.group(0) if outcome else ""
        return f'states an outcome as certain ("{future.group(0)}", "{what.strip()}")'
    if told and amount:
        return f'tells someone an amount or a time as certain ("{told.group(0)}", "{amount.group(0).strip()}")'
    return None


def one_off_edit(rule: str) -> bool:
    """An edit to the draft at hand ("Make it shorter", "Punchier, one line", "Less
    formal please"), not an instruction that holds for every future piece of work."""
    ws = [w for w in words(rule) if w not in _ONE_OFF_LEAD]
    if not ws:
        return False
    if ws[0] in _ONE_OFF_VERBS:
        ws = ws[1:]
    while ws and ws[0] in _ONE_OFF_OBJECTS:
        ws = ws[1:]
    rest = [w for w in ws if w not in _ONE_OFF_LEAD]
    if not rest:
        return True  # "Make it." / "Do that again."
    head = rest[0]
    if head in ("more", "less") or language.is_comparative(head):
        return len(rest) <= 4  # "shorter", "less grovelling", "shorter one line"
    return " ".join(rest[:2]) in ("one line", "in one", "a one")


# --- goals / background sentence


def _work_first(ws: list[str]) -> bool:
    """Verb-first, as a job is described (see the module docstring)."""
    if len(ws) < 3 or not ws[0].isalpha() or ws[0] in NON_WORK_STARTERS:
        return False
    first = ws[0]
    if first in WORK_VERBS:
        return True
    # a third-person verb ("Helps", "Prices"); not a noun like "Ceramics", "Business", "Savings"
    return first.endswith("s") and len(first) > 3 and not first.endswith(NOUN_ENDINGS)


NOUN_ENDINGS = ("ics", "ss", "ness", "ings", "ous", "us", "is")


def _english_sentence_refusal(s: str, norm: str) -> str | None:
    """The checks of a goals/background sentence that read English words: a rule or a
    recommendation, a reminder to the assistant, "you"/"I"/"we", a promise. They are
    asked only of an English persona: in another language these words say nothing, and
    a check that cannot read a sentence does not refuse it."""
    rule = _first(RULE_WORDS, norm)
    if rule:
        return (
            f'The sentence holds a rule ("{rule}"): a rule or recommendation, not a kind of work.'
        )
    rec = _first(RECOMMEND_WORDS, norm) or _first(SELL_WORDS, norm)
    if rec:
        return f'The sentence holds a recommendation ("{rec}"): a rule or recommendation, not a kind of work.'
    addressed = _first(ADDRESSED, norm)
    if addressed and not _MAKES_REMINDERS.fullmatch(norm):
        return (
            f'The sentence is a reminder addressed to the assistant ("{addressed}"), not a '
            "description of the work."
        )
    person = _first(PERSON_WORDS, norm)
    if person:
        return (
            f'The sentence speaks to the assistant or as the person ("{person}"); describe '
            'the work in the third person, like "Drafts …".'
        )
    promise = _promise(s, norm)
    if promise:
        return f"The sentence {promise}."
    return None


def sentence_refusal(
    *, sentence: str, field: str, persona: dict[str, Any], known_names: set[str]
) -> str | None:
    """Why ``sentence`` may not be added to ``persona[field]``, or None when it may."""
    s = " ".join((sentence or "").split())
    if not s:
        return "The proposal has no sentence."
    if field not in LEARNED_FIELDS:
        return f"Learning adds only to goals or background, not to {field or 'no field'}."
    problem = _safety(s, kind="proposal")
    if problem:
        return problem
    norm = normalize(s).text
    aimed = _first(AIMED_AT_MODEL, norm)
    if aimed:
        return f'The sentence is aimed at the model ("{aimed}"), not a description of the work.'
    if "\n" in sentence.strip() or not is_one_sentence(s):
        return "The proposal is more than one sentence; learning adds one sentence at a time."
    contact = contact_kind(s)
    if contact:
        return f"The sentence holds contact details ({contact})."
    # the checks that read words read the persona's language (or, for a persona that says
    # too little to tell, the sentence's own); a sentence in another language is refused
    known, said_in = language.persona_language(persona), language.detect(s)
    # a persona in a language the proposer does not name (``UNREAD``: many languages)
    # refuses English only: a short sentence of its own may lean towards a neighbour the
    # proposer names (Czech towards Polish); a sibling the persona's frame reads (Danish and
    # Norwegian, ``language.written_alike``) is no other language
    if (
        known
        and said_in
        and not language.written_alike(known, said_in)
        and (known != language.UNREAD or said_in == "en")
    ):
        wanted = language.LANGUAGE_NAMES[known]
        return (
            f"The sentence is written in {language.LANGUAGE_NAMES[said_in]}, but the persona "
            f"is written in {wanted}; propose it in {wanted}."
        )
    lang = known or said_in or "en"
    if lang == "en":
        problem = _english_sentence_refusal(s, norm)
        if problem:
            return problem
    against = guardrail_contradiction(s, list(persona.get("guardrails") or []))
    if against:
        return f"The sentence {against}."
    name = _known_name(s, known_names, lang)
    if name:
        return f'The sentence names a person or company known to memory ("{name}").'
    proper = (
        _proper_noun(s, own_name_words(persona)) if lang not in language.CAPITALISES_NOUNS else None
    )
    if proper:
        return f'The sentence seems to name a person, company or brand ("{proper}").'
    if lang == "en" and not _work_first(words(s)):
        return (
            "The sentence does not describe a kind of work; write it verb-first, "
            'like "Helps …" or "Drafts …".'
        )
    current = persona.get(field) or ""
    if f" {norm} " in f" {normalize(current).text} ":
        return f"The {field} already says this."
    combined = append_sentence(current, s)
    if len(combined) > MAX_LEARNED_FIELD_CHARS:
        return (
            f"The {field} would be {len(combined):,} characters long with this sentence; "
            f"learning stops adding at {MAX_LEARNED_FIELD_CHARS:,}."
        )
    # the field as it would be written: a sentence safe alone may tip the whole field
    # into the injection scan, which would refuse the write at approval
    problem = _safety(combined, kind=field) if current.strip() else None
    if problem:
        return f"With this sentence, the {field} would be refused at write: {problem}"
    return None


# --- standing rules


def _overlap(a: set[str], b: set[str]) -> float:
    """Share of ``b``'s content words that ``a`` holds."""
    return len(a & b) / len(b) if b else 0.0


REPEAT_OVERLAP = 0.8  # both ways: the rule and an existing one hold mostly the same words


# a participle or a word of code before a sending word makes it a thing, not an act:
# "Use named exports.", "Prefer default exports.", "Keep pinned posts short."
NOUN_MAKERS = frozenset(["default"])


def _sending(norm: str) -> re.Match[str] | None:
    """The first word of ``norm`` that sends or reveals information, skipping one used
    as the name of a thing after a participle or a code word ("named exports"): a rule
    about how code or posts are written sends nothing."""
    for found in SEND_WORDS.finditer(norm):
        before = norm[: found.start()].split()
        prev = before[-1] if before else ""
        participle = prev.endswith("ed") and language.can_be(prev, "VERB")
        if (participle or prev in NOUN_MAKERS) and language.can_be(found.group(0), "NOUN"):
            continue
        return found
    return None


def rule_refusal(*, rule: str, persona: dict[str, Any], known_names: set[str]) -> str | None:
    """Why ``rule`` may not become a standing rule of ``persona``, or None when it may."""
    r = " ".join((rule or "").split())
    if not r:
        return "The proposal has no rule."
    problem = _safety(r, kind="rule_proposal")
    if problem:
        return problem
    if "\n" in rule.strip() or not is_one_sentence(r):
        return "The rule is more than one sentence; a standing rule is one sentence."
    if len(r) > MAX_RULE_CHARS:
        return (
            f"The rule is {len(r)} characters long; a standing rule has at most {MAX_RULE_CHARS}."
        )
    norm = normalize(r).text
    aimed = _first(AIMED_AT_MODEL, norm)
    if aimed:
        return f'The rule holds wording aimed at the model ("{aimed}").'
    addressed = _first(ADDRESSED, norm)
    if addressed and not _MAKES_REMINDERS.fullmatch(norm):
        return (
            f'The rule is a reminder ("{addressed}"), not a standing rule; write it as one, '
            'like "Use British spelling."'
        )
    if one_off_edit(r):
        return (
            'The rule is a one-off edit to a draft (like "make it shorter"), not a standing '
            "rule to generalise."
        )
    contact = contact_kind(r)
    if contact:
        return f"The rule holds contact details ({contact})."
    lang = language.persona_language(persona) or language.detect(r)
    name = _known_name(r, known_names, lang or "en")
    if name:
        return f'The rule names a person or company known to memory ("{name}").'
    proper = (
        _proper_noun(r, own_name_words(persona)) if lang not in language.CAPITALISES_NOUNS else None
    )
    if proper:
        return f'The rule seems to name a person, company or brand ("{proper}").'
    guardrails = list(persona.get("guardrails") or [])
    against = guardrail_contradiction(r, guardrails) or rule_overlap_conflict(r, guardrails)
    if against:
        return f"The rule {against}."
    mine = content_words(r)
    existing = [("guardrail", g) for g in persona.get("guardrails") or []]
    existing += [("standing rule", x) for x in persona.get("standing_rules") or []]
    for kind, other in existing:
        theirs = content_words(other)
        same = normalize(other).text == norm
        if same or (
            _overlap(mine, theirs) >= REPEAT_OVERLAP and _overlap(theirs, mine) >= REPEAT_OVERLAP
        ):
            return f'The rule repeats a {kind} the persona has: "{other}".'
    against = rule_tells_what_a_guardrail_guards(r, guardrails)
    if against:
        return f"The rule {against}."
    promise = _promise(r, norm)
    if promise:
        return f"The rule {promise}; a rule may not promise customers anything."
    price = _SETS_PRICE.search(norm)
    if price and not NEGATION.search(norm[: price.start()]):
        return (
            f'The rule sets what customers pay ("{price.group(0)}"); a price is a promise '
            "to customers, not a standing rule."
        )
    health = health_word(r)
    if health:
        return f'The rule is about someone\'s health ("{health}").'
    sells = _first(SELL_WORDS, norm) or _recommends(norm)
    if sells:
        return f'The rule sells or recommends something ("{sells}").'
    send = _sending(norm)
    if send and not NEGATION.search(norm[: send.start()]):
        return (
            f'The rule sends or reveals information ("{send.group(0)}"); a rule may only '
            "forbid that."
        )
    return None


# --- corrections behind a rule

_CLAUSE_EDGE = re.compile(r"[.!?;:,\n\u2014\u2013()\"\u201c\u201d]|\s-\s")
_NUMBER_VALUES = {
    w: str(i)
    for i, w in enumerate(
        [
            "zero",
            "one",
            "two",
            "three",
            "four",
            "five",
            "six",
            "seven",
            "eight",
            "nine",
            "ten",
            "eleven",
            "twelve",
        ]
    )
}
_UNIT_SKIP = word_set("working business calendar more less max maximum min minimum at most least")


def clause_around(text: str, start: int, end: int) -> str:
    """The clause of ``text`` that holds ``text[start:end]`` (the whole quote)."""
    a = max((m.end() for m in _CLAUSE_EDGE.finditer(text, 0, start)), default=0)
    m = _CLAUSE_EDGE.search(text, end)
    return text[a : m.start() if m else len(text)]


def counted_values(text: str) -> dict[str, frozenset[str]]:
    """Numbers in ``text`` by the word they count: "max 3 hashtags" -> {hashtag: {3}}."""
    ws = words(text)
    out: dict[str, set[str]] = {}
    for i, w in enumerate(ws):
        value = _NUMBER_VALUES.get(w, w if w.isdigit() else None)
        if value is None:
            continue
        for unit in ws[i + 1 : i + 4]:
            if unit.isdigit() or unit in _NUMBER_VALUES or unit in STOP_WORDS or unit in _UNIT_SKIP:
                continue
            out.setdefault(stem(unit), set()).add(value.lstrip("0") or "0")
            break
    return {unit: frozenset(vals) for unit, vals in out.items()}


def corrections_disagree(*, rule: str, quoted: list[tuple[str, int, int]]) -> str | None:
    """Why the corrections behind ``rule`` do not agree, or None when they do.

    ``quoted`` holds, per verified quote, its message text and the quote's span. The
    clause around each quote (and the rule itself) is read for numbers and the word
    each counts: two that give different values for the same thing ("max 3
    hashtags", "use 5 hashtags"; "within 5 working days", "within 7 days") disagree,
    and a rule may not pick one of them.
    """
    items = [counted_values(rule)] + [counted_values(clause_around(t, a, b)) for t, a, b in quoted]
    seen: dict[str, frozenset[str]] = {}
    for item in items:
        for unit, vals in item.items():
            if unit in seen and seen[unit] != vals:
                a, b = sorted(seen[unit]), sorted(vals)
                return (
                    f"The corrections behind the rule disagree ({'/'.join(a)} against "
                    f"{'/'.join(b)} {unit}…); a standing rule needs corrections that agree."
                )
            seen.setdefault(unit, vals)
    return None
