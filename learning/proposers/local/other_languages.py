"""Goals sentences for a persona written in French, Spanish, German, Italian, Portuguese,
Dutch, Swedish, Danish, Norwegian, Polish, Croatian or Czech (``language.FRAMES``).

The English reading (``requests``, ``themes``, ``wording``) leans on an English lexicon;
in another language the proposer reads less, and says only what it can judge:

1. A *request* is a sentence of an opening message (never a line written after a reply)
   that asks for a piece of work: a verb of the frame where the sentence opens or
   after an asking word ("Écris une légende …", "Tu peux me préparer un devis ?",
   "Il faut écrire la newsletter", "¿Puedes redactar la ficha …?"), a request passed on
   ("Le café veut un devis pour …"), or a label: a noun phrase that opens the sentence
   and is followed by its end, a colon or a preposition ("Fiche produit : …", "Devis
   pour un restaurant", "Demande d'inscription au stage …"). A reply noun stands for its
   verb ("rédiger la réponse à cette demande" is "répondre à la demande").
2. What is asked for is the noun phrase's noun, with the complement written right
   after it ("fiche produit", "demande d'inscription") and what it is for ("pour la
   boutique en ligne"); names (``banned``), numbers and capitalised words inside a
   sentence are never part of it.
3. A theme is a noun asked for in ``min_conversations`` conversations (and by
   ``min_users`` people in team mode), or what requests are about: the noun of a
   complement ("contrat de location", "Relance location") or a platform named beside the
   noun ("publication Instagram", "Post Instagram", "Publication pour Instagram",
   "Instagram-Beitrag": "Prépare les publications Instagram."); its complement and
   purpose count when at least two of its conversations and half of them write them
   alike. Its verb is the one its requests use most; a theme no request names a verb
   for is left out (the proposer cannot tell what work is done with it).
4. The sentence is built from these words in a small frame, like an English one
   ("Drafts …"): the verb in the third person, the plural definite article, the plural
   noun: "Écrit les fiches produit pour la boutique en ligne.", "Répond aux demandes
   d'inscription.", "Prepara los presupuestos.", "Escreve as publicações do Instagram.".
   A plural no spelling rule settles is the one the messages write (``Frame.plurals_seen``:
   German, Portuguese "-ão"), else the theme is left out. The quotes are the requests as
   written, one per conversation, cut like English ones (``hygiene.quote_for``); the dot
   of a title ("Sra. Costa") ends no sentence.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field, replace
from functools import cache
from typing import Any

from learning import language
from learning.policy import PLATFORM_SHORT_FORMS
from learning.policy import PLATFORMS as NAMED_PLATFORMS
from learning.proposers.local.hygiene import _paste_holds_secret, follow_up_quote, quote_for
from learning.proposers.local.requests import message_span
from learning.proposers.local.tokens import EMOJI, Tok, clauses, tokens
from learning.proposers.local.wording import with_capital
from learning.proposers.local.words import QUOTE_MIN_WORDS
from safety.text import (
    COMPOUND_PART,
    content_words,
    readable_text,
    share_a_word,
)

# the platforms a request may name, with the short forms people write ("Post voor Insta")
PLATFORMS = NAMED_PLATFORMS | frozenset(PLATFORM_SHORT_FORMS)
# a sentence, or the label before a colon; an emoji ends a sentence as a full stop does
# ("… parar 2 semanas 😩 Escreve uma publicação para o Insta")
_SENTENCE_EDGE = re.compile(rf"[.!?;:\n¿¡]|{EMOJI}+")
# words of a purpose: "pour la boutique en ligne" (at most this many after "pour")
PURPOSE_WORDS = 5
# the noun a request opens with may be preceded by this many asking words and pronouns
ASK_REACH = 3


@dataclass
class Ask:
    """One request: its message, the span to quote, the verb (infinitive, or "" for a
    label), the noun and what was written around it."""

    message: Any
    start: int
    end: int
    verb: str
    noun: str
    article: str = ""
    complement: str = ""
    purpose: str = ""
    to: bool = False  # the verb's object follows the frame's "to" ("répondre à")
    # the platform it is for, as written: "publication Instagram", "Publication pour
    # Instagram", "Instagram-Beitrag" (``learning.policy.PLATFORMS``)
    platform: str = ""
    # the second thing asked for with the same verb ("lag bekreftelse og faktura")
    also: tuple[Ask, ...] = ()
    # read from a shape that may name other things than work (a label its details follow
    # after a comma: "salgsannonse, sjekte 20 fot …"): it counts only for work that
    # requests read otherwise make (``find_foreign_themes``)
    weak: bool = False


@dataclass
class ForeignTheme:
    key: str
    noun: str
    verb: str
    to: bool
    complement: str
    purpose: str
    article: str
    asks: dict[str, Ask] = field(default_factory=dict)  # conversation -> first request
    people: int = 0
    plural: str = ""  # the noun's plural, where the language's rule needs the messages
    # a second noun the requests make, named after the first with its plural article ("los
    # posteos y las historias de Instagram"), and as written in the singular
    also: str = ""
    also_noun: str = ""

    @property
    def requests(self) -> dict[str, Ask]:  # the name the review log's helpers read
        return self.asks


def _words(text: str, a: int, b: int, frame: language.Frame) -> list[Tok]:
    """The words of ``text[a:b]``, an elided word split off its noun ("d'inscription" ->
    "d'", "inscription"); an asking word written with a letter dropped is read as the
    word ("kanst du mir …" is "kannst", ``slip_of``); a short form typed on a phone is
    read as the words it stands for (``Frame.short_forms``: "pal" is "para" and "el",
    the second an empty word at its end, so a quote still ends where the word does); a
    word of the frame typed without its accents is the word ("podrias" is "podrías",
    "voce" is "você", ``_typed_plain_words``); an asking word written with a hyphen is
    read when typed with a space ("aide moi")."""
    out: list[Tok] = []
    plain = _typed_plain_words(frame.code)
    toks = tokens(text, a, b)
    for k, t in enumerate(toks):
        head, sep, rest = t.low.partition("'")
        if k and f"{toks[k - 1].low}-{t.low}" in frame.asking and out and out[-1] == toks[k - 1]:
            # an asking word written with a hyphen, typed with a space ("aide moi a faire
            # ma tournée" is "aide-moi"): the two words are the one
            out[-1] = Tok(
                text[toks[k - 1].start : t.end],
                f"{toks[k - 1].low}-{t.low}",
                toks[k - 1].start,
                t.end,
            )
        elif t.low in frame.short_forms:
            first, *more = frame.short_forms[t.low]
            out.append(replace(t, low=first))
            out.extend(Tok("", word, t.end, t.end) for word in more)
        elif t.low in plain:
            out.append(replace(t, low=plain[t.low]))
        elif sep and rest and head in frame.elided:
            cut = t.start + len(head) + 1
            out.append(Tok(t.text[: len(head) + 1], head + "'", t.start, cut))
            out.append(Tok(t.text[len(head) + 1 :], rest, cut, t.end))
        elif t.low not in frame.asking and (meant := slip_of(t.low, frame.asking)):
            out.append(replace(t, low=meant))
        else:
            out.append(t)
    return out


@cache
def _typed_plain_words(code: str) -> dict[str, str]:
    """The words of the frame that are written with accents (asking words, articles,
    prepositions …), by their spelling typed without them, as people type on a phone,
    where an accent is a long press: "podrias" -> "podrías", "ayudame" -> "ayúdame",
    "voce" -> "você", "puo" -> "può". Only where the accents mark a vowel and the words
    are not joined into compounds (the languages whose nouns ``_key`` folds so too):
    German, Dutch and Scandinavian letters with dots or rings are other letters, and a
    word typed without them is often another word ("hatte" and "hätte", "vara" and
    "våra"). Not a spelling that is a word of the language itself or a single letter
    (French "a", "la", "ou"; Spanish "tu", "esta"), nor one two words of the frame
    share."""
    frame = language.FRAMES[code]
    if frame.compounds:
        return {}
    listed = (
        frame.asking
        | frame.relayed
        | frame.articles
        | frame.openers
        | frame.pronouns
        | frame.of
        | frame.purpose
        | frame.subjects
        | frame.titles
        | frame.label_next
        | frame.fillers
        | frame.contracted_to
        | frame.and_words
        | frame.plural_quantifiers
        | {frame.to}
    )
    taken = listed | language.FUNCTION_WORDS[code]
    spellings: dict[str, set[str]] = {}
    for word in listed:
        bare = language.typed_plain(word)
        if bare != word and len(bare) > 1 and bare not in taken:
            spellings.setdefault(bare, set()).add(word)
    return {bare: next(iter(words)) for bare, words in spellings.items() if len(words) == 1}


# the shortest word a slip of typing is read in (the word as meant is a letter longer):
# shorter words are too often other words a letter apart ("post", "poste")
SLIP_LENGTH = 5


def slip_of(word: str, meant: Any) -> str:
    """The word of ``meant`` that ``word`` is with one letter dropped, the commonest slip
    in a message typed in haste ("kanst" for "kannst", "rechnug" for "rechnung", "tilbd"
    for "tilbud"); "" when none is, or ``word`` is shorter than ``SLIP_LENGTH``. Only a
    dropped letter: a letter changed often makes another word ("kunde", "kunne")."""
    if len(word) < SLIP_LENGTH or not word.isalpha():
        return ""
    for full in meant:
        if len(full) == len(word) + 1 and any(
            full[:i] + full[i + 1 :] == word for i in range(len(full))
        ):
            return str(full)
    return ""


def _content(tok: Tok, frame: language.Frame, banned: set[str]) -> bool:
    """A word that may be a noun of a request: letters, three or more, no function word,
    article or verb of the frame, no name."""
    low = tok.low
    return (
        len(low) >= 3
        and low.replace("-", "").isalpha()
        and low not in language.FUNCTION_WORDS[frame.code]
        and low not in frame.articles
        and low not in frame.asking
        and low not in frame.pronouns  # "fais moi un contrat": "moi" is never a noun
        and low not in banned
        and not language.work_verb(low, frame.code)
    )


def _capitalised_inside(text: str, tok: Tok, frame: language.Frame | None = None) -> bool:
    """A capital inside a sentence: a name, unless the language writes every noun so
    (German: its names are in ``banned``, ``hygiene.proper_words``)."""
    if frame is not None and frame.capitalises_nouns:
        return False
    before = text[: tok.start].rstrip()
    return tok.text[:1].isupper() and bool(before) and before[-1] not in ".!?:;\n¿¡"


def _noun_phrase(
    text: str, ws: list[Tok], j: int, frame: language.Frame, banned: set[str]
) -> tuple[Tok, str, str, int] | None:
    """The noun phrase at ``ws[j]``: (noun, article written before it, complement,
    index after it), or None when no noun is there."""
    article = ""
    while j < len(ws) and (
        ws[j].low in frame.articles
        or ws[j].low in frame.openers
        or ws[j].low in frame.subjects
        or (ws[j].low in frame.titles and j + 1 < len(ws) and ws[j + 1].low in banned)
    ):
        if ws[j].low in frame.titles:
            # a title and the name after it say whom the work is for, never what it is
            # ("Schreib Herrn Krüger ein Angebot"); a comma after them ends the phrase
            j += 1
            while j < len(ws) and ws[j].low in banned:
                j += 1
            if j < len(ws) and "," in text[ws[j - 1].end : ws[j].start]:
                return None
            continue
        if ws[j].low in frame.articles:
            article = ws[j].low
        j += 1
    if article and frame.code in language.CAPITALISES_NOUNS:
        # where every noun has a capital, the words written small between the article
        # and a capitalised word are its adjectives ("eine kurze Anleitung")
        k = j
        while (
            k + 1 < len(ws)
            and ws[k].text[:1].islower()
            and ws[k].low.isalpha()
            and ws[k].low not in language.FUNCTION_WORDS[frame.code]
            and ws[k].low not in frame.articles | frame.subjects | frame.pronouns
        ):
            k += 1
        if k > j and ws[k].text[:1].isupper():
            j = k
    while _adjective_before_noun(text, ws, j, frame, banned):
        j += 1  # "een vriendelijke betalingsherinnering": the noun is the word after it
    if (
        frame.compounds
        and j + 1 < len(ws)
        and ws[j].low in banned
        and _content(ws[j + 1], frame, banned)
        and not text[ws[j].end : ws[j + 1].start].strip()
    ):
        # a name written before a noun where a language joins the two in a compound says
        # which one or where ("ny finn annonse" of a site named Finn.no): the noun follows
        j += 1
    if (
        j >= len(ws)
        or not (_content(ws[j], frame, banned) or _short_platform(ws, j, frame, banned))
        or (_capitalised_inside(text, ws[j], frame) and not _platform_before_noun(text, ws, j))
    ):
        return None
    noun, j = ws[j], j + 1
    complement = ""
    if (
        noun.low in PLATFORMS
        and j < len(ws)
        and _content(ws[j], frame, banned)
        and not _capitalised_inside(text, ws[j], frame)
    ):
        # a platform written before the noun it names the kind of ("instagram post",
        # "Instagram inlägg"): the noun is what is made, the platform its complement
        return ws[j], article, noun.text, j + 1
    # the complement's noun may follow an article: "el texto de la tarjeta"
    at = j + 2 if j + 2 < len(ws) and ws[j + 1].low in frame.articles else j + 1
    if at < len(ws) and ws[j].low in frame.of and _content(ws[at], frame, banned):
        if not _capitalised_inside(text, ws[at], frame):
            glue = "" if ws[j].low.endswith("'") else " "
            complement = " ".join(w.low for w in ws[j + 1 : at + 1])
            complement = f"{ws[j].low}{glue}{complement}"
            j = at + 1
            if (
                j + 1 < len(ws)
                and ws[j].low.endswith("'")
                and ws[j].low in frame.of
                and ws[j].end == ws[j + 1].start
                and _content(ws[j + 1], frame, banned)
                and not _capitalised_inside(text, ws[j + 1], frame)
            ):
                # an elided complement of the complement is one term with it ("le menu
                # de la table d'hôtes"): "de la table" alone names another thing
                complement = f"{complement} {ws[j].low}{ws[j + 1].low}"
                j += 2
    elif j < len(ws) and (_platform(ws[j]) or ws[j].low in PLATFORM_SHORT_FORMS):
        # a platform after the noun says which kind ("légende Instagram"), as written; its
        # short form typed small too ("publication fb pour le groupe", "post insta: …"),
        # too short to be read as a noun of its own
        complement = ws[j].text
        j += 1
    elif j < len(ws) and ws[j].low in banned:
        j += 1  # a name after the noun ("devis Dupont") is no part of the theme
    elif (
        j < len(ws)
        and _content(ws[j], frame, banned)
        # a title after the noun opens whom it is for ("racun gdji Tadić"), as a name does
        and not (not frame.has_articles and ws[j].low in frame.titles)
        and not _capitalised_inside(text, ws[j], frame)
        and ws[j].low not in frame.purpose
        and not text[noun.end : ws[j].start].strip()  # "Laarzen, werkhandschoenen": a list
    ):
        complement = ws[j].low
        j += 1
    return noun, article, complement, j


def _short_platform(ws: list[Tok], j: int, frame: language.Frame, banned: set[str]) -> bool:
    """Whether ``ws[j]`` is a platform's short form of two letters written before the noun
    it names the kind of ("fb innlegg: …", as "insta innlegg"): shorter than a noun may be,
    it is read as the platform of the word after it."""
    return ws[j].low in PLATFORMS and j + 1 < len(ws) and _content(ws[j + 1], frame, banned)


def _platform_before_noun(text: str, ws: list[Tok], j: int) -> bool:
    """Whether ``ws[j]`` is a platform written with its capital before the noun it names
    the kind of, inside a sentence ("Maak even een Facebook post"): no name."""
    return (
        ws[j].low in PLATFORMS
        and j + 1 < len(ws)
        and ws[j + 1].low.isalpha()
        and not text[ws[j].end : ws[j + 1].start].strip()
    )


def _adjective_before_noun(
    text: str, ws: list[Tok], j: int, frame: language.Frame, banned: set[str]
) -> bool:
    """Whether ``ws[j]`` is an adjective written before its noun, in a language that puts
    it there with an ending (``Frame.adjective_endings``: "vriendelijke
    betalingsherinnering", "openstaande facturen"): it has the ending and a word that may
    be a noun follows it, with nothing written between them."""
    if not frame.adjective_endings or j + 1 >= len(ws):
        return False
    word, after = ws[j], ws[j + 1]
    return (
        word.low.endswith(frame.adjective_endings)
        and _content(word, frame, banned)
        and not _capitalised_inside(text, word, frame)
        and word.low not in PLATFORMS
        and not text[word.end : after.start].strip()
        and _content(after, frame, banned)
        and not _capitalised_inside(text, after, frame)
        and after.low not in PLATFORMS
    )


def _platform_key(platform: str) -> str:
    """What groups a platform's names: the name in full a short form people write
    stands for ("insta": "instagram", ``learning.policy.PLATFORM_SHORT_FORMS``)."""
    low = platform.lower()
    return PLATFORM_SHORT_FORMS.get(low, low)


def _platform(tok: Tok) -> bool:
    """A capitalised word that names no one (``learning.policy.CAPITALISED_OK``: a day,
    a language, a platform such as "Instagram")."""
    from learning.policy import CAPITALISED_OK

    return tok.text[:1].isupper() and tok.low in CAPITALISED_OK


def _purpose(text: str, ws: list[Tok], j: int, frame: language.Frame, banned: set[str]) -> str:
    """What the work is for, as written right after the noun phrase: "pour la boutique
    en ligne"; stops at a comma, a number, a name or a capitalised word."""
    if j >= len(ws) or ws[j].low not in frame.purpose:
        return ""
    kept = [ws[j]]
    for t in ws[j + 1 : j + 1 + PURPOSE_WORDS]:
        gap = text[kept[-1].end : t.start]
        if "," in gap or not t.low.replace("-", "").isalpha() or t.low in banned:
            break
        if t.low in frame.titles:
            break  # "für Herrn …": who it is for, not what
        if t.low in frame.subjects and t.low in frame.label_next:
            break  # "para el grupo porfa", "für den Verein bitte": a please ends it
        if _capitalised_inside(text, t, frame):
            break
        kept.append(t)
    while kept and (kept[-1].low in frame.articles or kept[-1].low in frame.of):
        kept.pop()
    while kept and kept[-1].low in language.FUNCTION_WORDS[frame.code]:
        kept.pop()
    if len(kept) < 2:  # "pour" alone, or with an article, says nothing; "para casa" does
        return ""
    return " ".join(t.low for t in kept)


def _ask_in(
    message: Any, text: str, a: int, b: int, frame: language.Frame, banned: set[str]
) -> Ask | None:
    ws = _words(text, a, b, frame)
    # a word that opens the message and asks nothing ("che me armás un aviso"): the request
    # opens after it
    while ws and ws[0].low in frame.fillers:
        ws = ws[1:]
    if not ws:
        return None
    verb, j, to = "", 0, False
    verb_end = 0  # the end of an infinitive read out of the words (``_infinitive_last``)
    # the first word of the clause after a comma ("Deze kwam binnen, kun je een
    # bevestiging schrijven", "Me llegó este correo, hazme la factura")
    q = next((k for k in range(1, len(ws)) if "," in text[ws[k - 1].end : ws[k].start]), 0)
    for k, w in enumerate(ws):
        inf = language.work_verb(w.low, frame.code)
        if not inf:
            continue
        before = {x.low for x in ws[max(0, k - ASK_REACH) : k]}
        # the verb opens the sentence or the clause after a comma, after an asking word
        # ("tu peux me préparer") or after object pronouns alone ("¿Me preparas un
        # presupuesto?")
        if k in (0, q) or before & (frame.asking | frame.relayed) or before <= frame.pronouns:
            verb, j = inf, k + 1
            break
    # an object pronoun typed after the imperative as a word of its own, the hyphen left
    # out ("fais moi un contrat", "ecris lui un message", "prepare nous la facture", Dutch
    # "schrijf me een mail", Danish "lav mig et tilbud"): the noun phrase follows it
    while (
        verb
        and j + 1 < len(ws)
        and ws[j].low in frame.pronouns
        and ws[j].low not in frame.articles
        and (ws[j + 1].low in frame.articles | frame.openers or not frame.has_articles)
    ):
        j += 1
    # the asking word opens the sentence, or the clause after a comma
    opens = [k for k in (0, q) if k < len(ws) and ws[k].low in frame.asking]
    if not verb and frame.verb_last and opens and len(ws) > opens[0] + 2:
        # a modal question or a "bitte" with the infinitive at its end is a request:
        # "Kannst du mir einen Kostenvoranschlag schreiben?", or before what it is for
        # (Dutch: "Kun je een bevestiging maken voor een reservering?")
        k = _infinitive_last(ws, frame, opens[0] + 2)
        if k:
            verb_end = ws[k].end  # the quote holds the infinitive: "… maken"
            verb, j, ws = ws[k].low, opens[0] + 1, ws[:k] + ws[k + 1 :]
    if not verb:
        for k, w in enumerate(ws[:-1]):  # "le café veut un devis", "necesito un presupuesto"
            if not (w.low in frame.relayed or w.low in frame.asking):
                continue
            # "j'ai besoin d'un devis": the complement's preposition before the article
            at = k + 2 if ws[k + 1].low in frame.of and k + 2 < len(ws) else k + 1
            if ws[at].low in frame.articles:
                verb, j = "", at
                break
            if not frame.has_articles:
                # no article to open the noun phrase: the noun, or an adjective, follows
                # the asking word and the pronouns after it ("potrzebuję fakturę", "triba
                # mi ponuda", "potřebuju cenovou nabídku")
                while at < len(ws) - 1 and ws[at].low in frame.pronouns:
                    at += 1
                infinitive = ws[at].low.endswith(frame.infinitive_endings)
                if not infinitive and _noun_phrase(text, ws, at, frame, banned) is not None:
                    verb, j = "", at
                    break
        if j and _noun_phrase(text, ws, j, frame, banned) is None:
            # "zutatenliste für die rüblitorte …, die brauchen das für die theke": a
            # wanting word later in the sentence names no work; the label it opens with does
            j = 0
    label = not verb and j == 0
    # "to" joined to an article ("aux", "al", "alla"): the noun follows it, and it says
    # the noun's gender as an article would
    joined = ""
    if verb in frame.to_object:
        if j < len(ws) and (ws[j].low == frame.to or ws[j].low in _contracted(frame)):
            to = True
            joined = ws[j].low if ws[j].low != frame.to else ""
            j += 1
        else:
            return None
    phrase = _noun_phrase(text, ws, j, frame, banned)
    if phrase is None:
        return None
    noun, article, complement, j = phrase
    if noun.low in frame.verb_nouns:  # "la réponse à cette demande" = "répondre à la demande"
        if j >= len(ws) or not (ws[j].low == frame.to or ws[j].low in _contracted(frame)):
            return None
        verb, to = frame.verb_nouns[noun.low], True
        joined = ws[j].low if ws[j].low != frame.to else ""
        phrase = _noun_phrase(text, ws, j + 1, frame, banned)
        if phrase is None:
            return None
        noun, article, complement, j = phrase
    article = article or joined
    if label and j + 1 < len(ws) and ws[j].low in frame.purpose | {frame.to}:
        # the work named after the noun, in the infinitive that ends the phrase: "Mais
        # uma avaliação para responder, …" is "responder à avaliação" (not "Devis à
        # répondre à ce mail": the infinitive has an object of its own)
        inf = language.work_verb(ws[j + 1].low, frame.code)
        ends = j + 2 == len(ws) or "," in text[ws[j + 1].end : ws[j + 2].start]
        if inf and inf == ws[j + 1].low and ends:
            verb, to, label = inf, inf in frame.to_object, False
            j += 2
    if (
        label
        and frame.verb_last
        and j < len(ws)
        and language.work_verb(ws[j].low, frame.code) == ws[j].low
        and (j + 1 == len(ws) or ws[j + 1].low in frame.purpose | {frame.to})
    ):
        # a label's noun and the infinitive of its work: "Offerte maken voor een
        # bedrijfsuitje", "instagram post maken"
        verb, to, label = ws[j].low, ws[j].low in frame.to_object, False
        j += 1
    while label and j < len(ws) and any(c.isdigit() for c in ws[j].text):
        j += 1  # a document's number after its noun ("Factuur 2026-047 voor …")
    weak = listed = False
    # a title and a name right after a label's noun, in a language without articles, say
    # whom it is for ("racun gdji Tadić, 558,50 e"), as a purpose would: the label ends at
    # its noun
    for_someone = (
        label
        and not frame.has_articles
        and j + 1 < len(ws)
        and ws[j].low in frame.titles
        and ws[j + 1].low in banned
    )
    if label and not for_someone and j < len(ws) and ws[j].low not in frame.label_next:
        if ws[0].low in frame.openers and "," in text[ws[j - 1].end : ws[j].start]:
            # "Nog een offerte, fietsclub …": another one asked for, its details after
            listed = True
        elif not article and _details_follow(text, ws, j, noun.end):
            # "angebot hochzeit 100 gäste, 4 stöckig, …", "salgsannonse, sjekte 20 fot …":
            # the label opens the message and its details follow, a comma after them
            weak = True
        elif not _named(text, ws, j, b, banned):
            return None  # "Une dame m'a écrit": a subject, not a label
        if complement and complement.split()[0] not in frame.of and not (weak or listed):
            complement = ""  # "Familie" of "Rechnung Familie Huber:" is whom, not what
    platform = _platform_of(noun, complement, ws, j, frame)
    purpose = _purpose(text, ws, j, frame, banned)
    end = ws[j - 1].end
    if purpose:
        end = ws[min(len(ws) - 1, j + len(purpose.split()) - 1)].end
    end = max(end, verb_end)
    ask = Ask(
        message=message,
        start=ws[0].start,
        end=end,
        verb=verb,
        noun=noun.low,
        article=article,
        complement=complement,
        purpose=purpose,
        to=to,
        platform=platform,
        weak=weak,
    )
    if not purpose and j + 1 < len(ws) and ws[j].low in frame.and_words:
        # "lag bekreftelse og faktura", "prépare le devis et la facture": the second noun
        # is asked for with the same verb, when its phrase ends the clause or runs into
        # what it is for
        second = _noun_phrase(text, ws, j + 1, frame, banned)
        if second is not None:
            noun2, article2, complement2, k = second
            if (k == len(ws) or ws[k].low in frame.purpose) and _key(noun2.low, frame) != _key(
                noun.low, frame
            ):
                purpose2 = _purpose(text, ws, k, frame, banned)
                end2 = ws[min(len(ws), k + len(purpose2.split())) - 1].end
                also = replace(  # the same request, its second noun
                    ask,
                    end=end2,
                    noun=noun2.low,
                    article=article2,
                    complement=complement2,
                    purpose=purpose2,
                    platform=_platform_of(noun2, complement2, ws, k, frame),
                )
                ask = replace(ask, end=end2, also=(also,))
    return ask


def _infinitive_last(ws: list[Tok], frame: language.Frame, start: int) -> int:
    """Where the infinitive of a work verb ends the request (0 when none does): the first
    from ``start`` that is the last word or is followed by a preposition, what the work
    is for, whom it goes to or another function word that opens what it says ("maken
    voor de stalronde van donderdag bij …", "sturen naar de deelnemers", "maken dat ik
    het dossier sluit")."""
    after = frame.purpose | frame.label_next | {frame.to} | language.FUNCTION_WORDS[frame.code]
    for k in range(max(start, 2), len(ws)):
        last = k == len(ws) - 1 or ws[k + 1].low in after
        if last and language.work_verb(ws[k].low, frame.code) == ws[k].low:
            return k
    return 0


def _details_follow(text: str, ws: list[Tok], j: int, noun_end: int) -> bool:
    """Whether the label before ``ws[j]`` opens its message and what follows it are its
    details, listed after a comma at most a word after where the label was read to
    ("salgsannonse, sjekte 20 fot fra 1978, …", "angebot hochzeit 100 gäste, 4 stöckig,
    …"; a label has no article: "As publicações de ontem tiveram …, obrigada" is a
    sentence): the shape of a request written in haste, and of a list of things too
    ("Laarzen, werkhandschoenen"), so it is read as weak (``Ask.weak``)."""
    return (
        not text[: ws[0].start].strip() and "," in text[noun_end : ws[min(len(ws), j + 2) - 1].end]
    )


def _named(text: str, ws: list[Tok], j: int, b: int, banned: set[str]) -> bool:
    """Whether the words after a label's noun, up to the colon that ends it, say only whom
    it is for: at most two words, the last a name ("Rechnung Familie Huber: …")."""
    rest = ws[j:]
    return text[b : b + 1] == ":" and 0 < len(rest) <= 2 and rest[-1].low in banned


def _platform_of(noun: Tok, complement: str, ws: list[Tok], j: int, frame: language.Frame) -> str:
    """The platform a request names beside its noun, as written: its complement
    ("publication Instagram"), the first part of a compound ("Instagram-Beitrag") or the
    one word after the purpose word or the complement's preposition ("Publication pour
    Instagram", "Post de Instagram"); "" when none."""
    first = noun.text.split("-")[0]
    if "-" in noun.text and first.lower() in PLATFORMS:
        return first
    if complement.lower() in PLATFORMS:
        return complement
    if j + 1 < len(ws) and ws[j].low in frame.purpose | frame.of:
        # an article may stand between ("Publicação para o Instagram")
        at = j + 2 if ws[j + 1].low in frame.articles and j + 2 < len(ws) else j + 1
        if ws[at].low in PLATFORMS:
            return ws[at].text
    return ""


def _contracted(frame: language.Frame) -> frozenset[str]:
    """The frame's "to" joined to an article: "au", "aux"; "al"; "alla"."""
    return frame.contracted_to


# the most words a lead-in before a colon may have for what follows it after a reply to be
# a new request ("da: instagram-innlegg om …", "ok alors : …")
LEAD_IN_WORDS = 2


def asks_of(message: Any, code: str, banned: set[str]) -> list[Ask]:
    """The requests of a message, one per sentence at most (and the second thing asked
    for with the same verb). After a reply a sentence is read only when it asks with a
    verb of work for a noun with its article ("propose l'expertise alors"), or is a label
    a short lead-in's colon announces ("da: instagram-innlegg om …"); any other corrects
    the draft at hand ("Scrivi olio extravergine"), and ``find_foreign_themes`` keeps
    those read only for work opening messages ask for too."""
    frame = language.FRAMES[code]
    text = readable_text(message.text)
    out: list[Ask] = []
    a = 0
    # what the part after a request's colon names without a verb is a detail of that
    # request ("Facture pour l'école : sortie scolaire du 1er octobre"), not another one
    detail = False
    edges = [m for m in _SENTENCE_EDGE.finditer(text) if not _title_dot(text, m, frame)]
    lead_in = False  # the sentence before ended on a short lead-in's colon ("da:")
    for m in [*edges, None]:
        b = m.start() if m else len(text)
        asked = read = False
        if b > a:
            ask = _ask_in(message, text, a, b, frame, banned)
            read = ask is not None
            if ask and message.after_assistant and not (ask.verb and ask.article or lead_in):
                # "Facture : toujours en HT", or a verb and a bare noun ("Scrivi olio
                # extravergine": the words to write) after a reply correct the draft
                ask = None
            if ask and not (detail and not ask.verb):
                out.append(ask)
                out.extend(ask.also)
                # a request with its verb or saying whom it is for ("Devis pour le
                # CE :"); not a lead-in ("Última cosa: instrucciones de cuidado …")
                asked = bool(ask.verb) or any(t.low in frame.purpose for t in tokens(text[a:b]))
        detail = asked and m is not None and m.group(0) == ":"
        # a lead-in names nothing itself ("da:", not "Facture :")
        lead_in = (
            not read
            and m is not None
            and m.group(0) == ":"
            and 0 < len(tokens(text, a, b)) <= LEAD_IN_WORDS
        )
        a = m.end() if m else b
    return out


_WORD_BEFORE = re.compile(r"([^\W\d_]+)$")


def _title_dot(text: str, edge: re.Match[str], frame: language.Frame) -> bool:
    """Whether ``edge`` is the dot of a title written short ("Sra. Costa", "Dr. Almeida"):
    the sentence goes on, the name after it is whom the work is for."""
    if edge.group(0) != "." or not frame.titles:
        return False
    before = _WORD_BEFORE.search(text, 0, edge.start())
    return before is not None and before.group(1).lower() in frame.titles


def _key(noun: str, frame: language.Frame | None = None) -> str:
    """What groups requests for one noun: singular and plural alike (the last letter
    they differ by, ``Frame.key_letters``: "fiche"/"fiches", "preventivo"/"preventivi").
    A German compound the lexicon does not list is the kind of the noun it ends in
    ("Kursanfrage" -> "anfrage", "Pflegehinweise" -> "hinweis", ``language.german_kind``).
    A noun typed without its accents is the noun ("orcamento", "orçamento"; "cobranca",
    "cobrança"): a phone's keyboard makes them a long press, so people in haste leave them
    off; the key has none."""
    if frame is not None and frame.capitalises_nouns:
        kind = language.german_kind(noun)
        if kind:
            return kind
    if frame is not None and frame.long_vowels_doubled:
        return _open_syllable_key(noun, frame)
    letters = frame.key_letters if frame is not None else "sx"
    # (not where compounds are written as one word: their parts are matched as written)
    bare = language.typed_plain if frame is not None and not frame.compounds else str
    for plural, single in frame.plural_spellings if frame is not None else ():
        if noun.endswith(plural) and len(noun) > len(plural) + 2:
            return bare(noun[: -len(plural)] + single)  # "publicações" -> "publicacao"
    return bare(noun[:-1] if len(noun) > 4 and noun[-1] in letters else noun)


def _spelt_in_full(noun: str, written: list[str]) -> str:
    """``noun`` as a request writes it with its accents, when one does ("orçamento" for
    "orcamento"): accents are left off in haste, never added where none belong."""
    bare = language.typed_plain(noun)
    accented = [w for w in written if w != bare and language.typed_plain(w) == bare]
    return Counter(accented).most_common(1)[0][0] if accented else noun


_DOUBLED = re.compile(r"([aeiou])\1([^aeiou])$")
_DOUBLED_CONSONANT = re.compile(r"([^aeiou])\1$")


def _open_syllable_key(noun: str, frame: language.Frame) -> str:
    """The key of a Dutch noun, one for both numbers: the plural ending off ("-s",
    "-en", ``Frame.plural_spellings``), a long vowel written double before the last
    consonant and a doubled last consonant written once, a diminutive's ending off
    (``Frame.diminutives``): "factuur" and "facturen" -> "factur", "afspraak" and
    "afspraken" -> "afsprak", "bak" and "bakken" -> "bak", "verslagje" -> "verslag"."""
    for plural, single in frame.plural_spellings:
        if noun.endswith(plural) and len(noun) > len(plural) + 2:
            noun = noun[: -len(plural)] + single
            break
    else:
        if len(noun) > 4 and noun.endswith("en"):
            noun = noun[:-2]
        elif len(noun) > 4 and noun[-1] == "s":
            noun = noun[:-1]
    for small in frame.diminutives:  # "verslagje" is a "verslag"
        if noun.endswith(small) and len(noun) - len(small) >= COMPOUND_PART:
            noun = noun[: -len(small)]
            break
    noun = _DOUBLED.sub(r"\1\2", noun)
    return _DOUBLED_CONSONANT.sub(r"\1", noun)


def _compound_kind(key: str, made: set[str], frame: language.Frame) -> str:
    """The noun another request makes (``made``, keys) that ``key`` is a compound of, in
    a language that writes compounds as one word (``Frame.compounds``): the longest such
    key ``key`` ends in, with a part of its own before it ("kursbekreftels" ->
    "bekreftels", "instagram-innlegg" -> "innlegg"); "" when there is none."""
    if not frame.compounds:
        return ""
    return max(
        (
            other
            for other in made
            if len(other) >= COMPOUND_PART
            and len(key) - len(other) >= COMPOUND_PART
            and key.endswith(other)
        ),
        key=len,
        default="",
    )


def _compound_named(key: str, asks: list[Ask], frame: language.Frame) -> str:
    """The key a group of ``key`` that compounds joined is named by: the compound its
    requests make most, when most of its messages write that compound's first part, which
    then says what all of them are for ("kursbekreftelse" beside "en bekreftelse til de som
    har meldt seg på strikkekurset": "Lager kursbekreftelser."); else ``key``."""
    compounds = Counter(
        own
        for a in asks
        if (own := _key(a.noun, frame)) != key and _compound_kind(own, {key}, frame) == key
    )
    if not compounds:
        return key
    compound = compounds.most_common(1)[0][0]
    part = compound[: -len(key)].rstrip("-")
    writing = sum(1 for a in asks if _writes_part(a.message, part, frame))
    return compound if writing * 2 > len(asks) else key


def _writes_part(message: Any, part: str, frame: language.Frame) -> bool:
    """Whether a message writes ``part`` as a word or as the first or last part of one,
    a definite ending left off ("kurset", "strikkekurset", "kursplass" write "kurs")."""
    for t in tokens(readable_text(message.text)):
        forms = {t.low} | {
            t.low[: -len(end)] for end in frame.definite_endings if t.low.endswith(end)
        }
        if any(f.startswith(part) or f.endswith(part) for f in forms):
            return True
    return False


def _singular(noun: str, frame: language.Frame, article: str = "") -> bool:
    """Whether ``noun`` is written in the singular: a German noun unless the noun it ends in
    is a plural of the lexicon ("Pflegehinweise"); elsewhere when it is its own key or has
    a plural of its own ("preventivo" -> "preventivi")."""
    if frame.capitalises_nouns:
        kind = language.german_kind(noun)
        return kind == language.german_last_noun(noun) if kind else _key(noun, frame) == noun
    return _key(noun, frame) == noun or language.plural_noun(
        noun, frame.code, article_seen=article
    ) not in ("", noun)


def _agreed(values: list[str], n: int, *, frame: language.Frame | None = None) -> str:
    """The value written alike in at least two conversations and half of the ``n``, the
    longest such. With ``frame`` (a purpose) a value counts for each of its beginnings that
    ends on a word of its own ("pour la boutique" and "para casa" in "pour la boutique en
    ligne" and "para casa de esta semana"), and it must be written in most of the ``n``: a
    purpose half of them share names one of the things the work is for ("para el grupo de
    cachorros" of the puppy and the teenage groups), not what it is for; and one of them
    must write it whole, so a beginning no request stops at ("pour la sortie" of "pour la
    sortie raquettes" and "pour la sortie trappeur") is no purpose."""
    counts: Counter[str] = Counter()
    for v in values:
        parts = v.split()
        ends = [len(parts)]
        if frame is not None:
            ends = [
                i
                for i in range(2, len(parts) + 1)
                if parts[i - 1] not in frame.articles
                and parts[i - 1] not in frame.of
                and parts[i - 1] not in language.FUNCTION_WORDS[frame.code]
            ]
        for i in ends:
            counts[" ".join(parts[:i])] += 1
    need = max(2, n // 2 + 1) if frame is not None else max(2, (n + 1) // 2)
    fits = [v for v, c in counts.items() if v and c >= need and (frame is None or v in values)]
    return max(fits, key=lambda v: (len(v.split()), counts[v]), default="")


def find_foreign_themes(
    messages: Any,
    code: str,
    banned: set[str],
    *,
    min_conversations: int,
    min_users: int | None,
    persona: dict[str, Any] | None = None,
    unworded: list[str] | None = None,
) -> list[ForeignTheme]:
    """The themes of the messages (``code``: a language of ``language.FRAMES``), the
    most recurrent first (ties by noun, so every run gives the same answer). Work that
    recurs enough but that the frame cannot word is said in ``unworded`` (the noun as
    written and why), for the proposer's notes."""
    frame = language.FRAMES[code]
    messages = list(messages)
    # the words the messages and the persona's role, goals and background write, where a
    # plural is told by being seen (German, Dutch, Swedish, Danish, Norwegian, Portuguese
    # "-ão"): the owner
    # writes the language ("Helpt Femke met reserveringen, offertes, facturen, reviews")
    texts = [readable_text(m.text) for m in messages]
    texts += [str((persona or {}).get(f) or "") for f in ("role", "goals", "background")]
    seen_words = {t.low for w in texts for t in tokens(w)} if frame.plurals_seen else set()
    if frame.plurals_seen and frame.plural_quantifiers:
        # a word after a plural quantifier, as "alle tilbud" (``Frame.plural_quantifiers``)
        for w in texts:
            toks = tokens(w)
            seen_words |= {
                f"{a.low} {b.low}"
                for a, b in zip(toks, toks[1:], strict=False)
                if a.low in frame.plural_quantifiers and not w[a.end : b.start].strip()
            }
    groups: dict[str, list[Ask]] = {}
    about: dict[str, str] = {}  # a key that is what the requests are about -> as written
    asked = _slips_read_as_meant([(m, asks_of(m, code, banned)) for m in messages], frame)
    # a request after a reply counts for work opening messages ask for too (as the English
    # ``requests.counts_as_request``): any other asks to change the draft at hand
    # (and a weak request, ``Ask.weak``, for work requests read otherwise make)
    asked = [(m, [_split_compound(a, asked, frame) for a in asks]) for m, asks in asked]
    opening = {
        _key(a.noun, frame)
        for m, asks in asked
        if not m.after_assistant
        for a in asks
        if not a.weak
    }
    asked = [
        (
            m,
            [
                a
                for a in asks
                if not (m.after_assistant or a.weak)
                or _key(a.noun, frame) in opening
                or (a.weak and _compound_kind(_key(a.noun, frame), opening, frame))
            ],
        )
        for m, asks in asked
    ]
    # the words requests write as nouns: what they make, and complements after "de"
    made = {_key(a.noun, frame) for _, asks in asked for a in asks}
    nouns = made | {k for _, asks in asked for a in asks for k, _w in _about(a, frame, bare=False)}
    for _m, asks in asked:
        seen: set[str] = set()
        for ask in asks:
            own = _key(ask.noun, frame)
            # a compound counts for the noun it ends in too ("kursbekreftelse" is a
            # "bekreftelse"), as a request counts for what it is about
            kind = _compound_kind(own, made, frame)
            for k, written in (
                (own, ""),
                *(((kind, ""),) if kind else ()),
                # a weak request counts for its noun alone, never for what it is about
                *(() if ask.weak else _about(ask, frame, as_nouns=nouns)),
            ):
                if k in seen:
                    continue
                seen.add(k)
                groups.setdefault(k, []).append(ask)
                if written:
                    about.setdefault(k, written)
    out: list[ForeignTheme] = []
    for k, asks in groups.items():
        by_conv: dict[str, Ask] = {}
        for ask in asks:
            label = ask.message.conversation_label
            # one request per conversation: the one that names a verb first
            if label not in by_conv or (ask.verb and not by_conv[label].verb):
                by_conv[label] = ask
        people = len({a.message.principal_id for a in by_conv.values()})
        if len(by_conv) < min_conversations or (min_users is not None and people < min_users):
            continue
        verbs = Counter(a.verb for a in by_conv.values() if a.verb)
        if not verbs and not frame.default_verb:
            _say(unworded, by_conv, "no request says what is done with it")
            continue  # nobody said what is done with it
        # every request a label ("Confirmación de pedido para …"): the work is prepared;
        # the frame's verb of making ("fais moi une publication", "hazme las fichas") says
        # no work, as "do" does in English: the verb another request names ("Scrive le
        # conferme", not "Fa le conferme"), else the work is prepared ("Prépare les
        # publications Facebook.", not "Fait les publications Facebook."), unless it is
        # the language's usual verb for making a document (``weak_verb_makes``: "Lager
        # tilbud."), which then only yields to a verb as often named
        named = [v for v in verbs if frame.weak_verb_makes or v not in frame.weak_verbs]
        verb = max(
            named,
            key=lambda v: (verbs[v], v not in frame.weak_verbs, -list(verbs).index(v)),
            default=frame.default_verb,
        )
        n = len(by_conv)
        # the noun most of its requests make (by key: "instrucciones" and "instrucción"
        # alike), written in the singular where a request does
        keys = Counter(_key(a.noun, frame) for a in by_conv.values())
        ranked = sorted(keys, key=lambda x: (keys[x], x), reverse=True)
        if code == "de":  # of nouns equally often made, one whose plural can be told
            ranked.sort(key=lambda x: not language.german_plural(x, seen_words))
            ranked.sort(key=lambda x: -keys[x])
        top = _compound_named(k, list(by_conv.values()), frame) if k in keys else ranked[0]
        making = [a for a in by_conv.values() if _key(a.noun, frame) == top]
        singular = [a.noun for a in making if _singular(a.noun, frame, a.article)]
        noun = Counter(singular or [a.noun for a in making]).most_common(1)[0][0]
        noun = _spelt_in_full(noun, singular or [a.noun for a in making])
        articles = [a.article for a in making if a.article]
        complement = _agreed([a.complement for a in by_conv.values()], n)
        purpose = _agreed([a.purpose for a in by_conv.values()], n, frame=frame)
        article = articles[0] if articles else _determiner_seen(noun, code, texts)
        if code == "de":
            plural = language.german_plural(noun, seen_words)
        else:
            plural = language.plural_noun(noun, code, article_seen=article, seen=seen_words)
        if not plural:
            _say(unworded, by_conv, "no message writes its plural", noun)
            continue  # a plural no message shows and no ending settles is not guessed
        if frame.plural_takes_article and not language.plural_article(
            noun, code, article_seen=article
        ):
            _say(unworded, by_conv, "nothing tells its gender", noun)
            continue  # nor the article of a noun whose gender nothing tells
        # the platform most requests name beside the noun ("Post per Instagram"), when
        # they agree on nothing else written after it
        platform = _agreed([_platform_key(a.platform) for a in by_conv.values()], n)
        if (
            platform
            and not (complement or purpose)
            and k not in PLATFORMS
            and platform not in noun.lower().split("-")  # "Instagram-Beitrag" names it
        ):
            written = about.get(platform, platform)
            complement = f"{frame.platform_before} {written}".strip()
        if k in PLATFORMS and k not in noun.lower().split("-"):
            # the platform the requests name, as written after the noun, whatever else
            # they agree on ("Prépare les publications Instagram.")
            platform = about.get(k, k)
            complement = f"{frame.platform_before} {platform}".strip()
            purpose = ""
        elif k in PLATFORMS:
            complement, purpose = "", ""  # the noun names it: "Erstellt Instagram-Beiträge."
        elif (
            _key(noun, frame) != k
            and _compound_kind(_key(noun, frame), {k}, frame) != k
            and not any(_key(w, frame) == k for w in f"{complement} {purpose}".split())
        ):
            # grouped by what they are about ("el texto de la tarjeta", "la tarjeta de
            # una corona"): the sentence names it as the complement of the work
            # after the complement the work's own words agree on ("les listes de
            # matériel des sorties")
            of = _of_plural(about.get(k, k), frame, seen_words)
            if not of:
                _say(unworded, by_conv, "no message writes its plural", about.get(k, k))
                continue  # its plural or its article is not guessed
            complement, purpose = (f"{complement} {of}" if complement else of), ""
        if any(_key(w, frame) == _key(noun, frame) for w in purpose.split()[1:]):
            # "Vorschlag für die Inschrift", "Inschrift für ein Kindergrab": the work
            # named for itself says nothing of what it is for ("Macht Inschriften.")
            purpose = ""
        if noun.lower() in frame.generic_nouns and not (complement or purpose):
            # "Escreve as mensagens." says only that texts are written, not which
            _say(unworded, by_conv, "it says only that a text is written, not which", noun)
            continue
        out.append(
            ForeignTheme(
                key=k,
                noun=noun,
                verb=verb,
                to=verb in frame.to_object,
                complement=complement,
                purpose=purpose,
                article=article,
                asks=by_conv,
                people=people,
                plural=plural,
            )
        )
    out.sort(key=lambda t: (-len(t.asks), t.noun != t.key and _key(t.noun, frame) != t.key, t.key))
    out = [_with_second_noun(t, banned, code, seen_words, min_conversations) for t in out]
    quotable = {t.key: _quotable(t, banned, code) for t in out}
    return _one_per_work(out, quotable, min_conversations)


def _determiner_seen(noun: str, code: str, texts: list[str]) -> str:
    """The article or determiner a message writes right before ``noun`` ("questo post",
    "un post"), for a noun no request writes with one ("post per Instagram: …") and whose
    gender its spelling does not tell (a borrowed word, "post", "reel"): the gender the
    person gives it, which the plural's article needs; "" when no message writes one, or
    when the spelling tells the gender already (nothing then changes)."""
    frame = language.FRAMES[code]
    if not frame.plural_takes_article or language.plural_article(noun, code):
        return ""
    low = noun.lower()
    seen: Counter[str] = Counter()
    for text in texts:
        toks = tokens(text)
        seen.update(
            a.low
            for a, b in zip(toks, toks[1:], strict=False)
            if b.low == low and a.low in frame.articles and not text[a.end : b.start].strip()
        )
    for determiner, _count in seen.most_common():
        if language.plural_article(noun, code, article_seen=determiner):
            return determiner
    return ""


def _with_second_noun(
    theme: ForeignTheme, banned: set[str], code: str, seen: set[str], floor: int
) -> ForeignTheme:
    """A theme of the work for one platform ("posteo pal insta", "historia pal insta")
    named by its two nouns most made ("Prepara los posteos y las historias de Instagram.")
    when its first noun alone leaves fewer than ``floor`` conversations whose quote shares
    a word with its sentence: the second noun is then what the other requests ask for,
    and the sentence says it. German is left as it is (its plurals are told apart)."""
    frame = language.FRAMES[code]
    if theme.key not in PLATFORMS or code == "de" or not frame.and_words:
        return theme
    own = _key(theme.noun, frame)
    others = Counter(_key(a.noun, frame) for a in theme.asks.values() if _key(a.noun, frame) != own)
    if not others or _quotable(theme, banned, code) >= floor:
        return theme
    second = others.most_common(1)[0][0]
    noun = Counter(a.noun for a in theme.asks.values() if _key(a.noun, frame) == second)
    noun2 = noun.most_common(1)[0][0]
    plural = language.plural_noun(noun2, code, seen=seen)
    article = language.plural_article(noun2, code) if frame.plural_takes_article else ""
    if not plural or (frame.plural_takes_article and not article):
        return theme
    # Spanish "e" stands for "y" only before an "i" sound
    joiner = "y" if "y" in frame.and_words else min(frame.and_words, key=len)
    named = replace(
        theme, also=" ".join(w for w in (joiner, article, plural) if w), also_noun=noun2
    )
    return named if _quotable(named, banned, code) > _quotable(theme, banned, code) else theme


def _split_compound(ask: Ask, asked: list[tuple[Any, list[Ask]]], frame: language.Frame) -> Ask:
    """``ask`` read as a compound written in two words where a language writes compounds
    as one (``Frame.compounds``): the second word is the noun when other requests make it
    and none makes the first ("ny finn annonse" beside "annonse til finn" is an
    "annonse"), as a platform before a noun names its kind ("insta innlegg")."""
    if not frame.compounds or not ask.complement or " " in ask.complement:
        return ask
    if ask.complement in frame.of or ask.complement in PLATFORMS:
        return ask
    second, first = _key(ask.complement, frame), _key(ask.noun, frame)
    made = {
        _key(a.noun, frame)
        for m, asks in asked
        for a in asks
        if a is not ask and not a.weak and not m.after_assistant
    }
    if second not in made or first in made:
        return ask
    return replace(ask, noun=ask.complement, complement=ask.noun)


def _slips_read_as_meant(
    asked: list[tuple[Any, list[Ask]]], frame: language.Frame
) -> list[tuple[Any, list[Ask]]]:
    """The requests, a noun written with a letter dropped read as the noun meant
    (``slip_of``): one that requests in more conversations make ("rechnug" beside
    "rechnung" asked for three times is a "rechnung")."""
    conversations: dict[str, set[str]] = {}
    written: dict[str, Counter[str]] = {}
    for m, asks in asked:
        for a in asks:
            conversations.setdefault(_key(a.noun, frame), set()).add(m.conversation_label)
            written.setdefault(_key(a.noun, frame), Counter())[a.noun] += 1

    def meant(ask: Ask) -> Ask:
        own = _key(ask.noun, frame)
        full = slip_of(
            own, [k for k, c in conversations.items() if len(c) > len(conversations[own])]
        )
        return replace(ask, noun=written[full].most_common(1)[0][0]) if full else ask

    return [(m, [meant(a) for a in asks]) for m, asks in asked]


def _say(unworded: list[str] | None, asks: dict[str, Ask], why: str, noun: str = "") -> None:
    """Note in ``unworded`` work asked for in ``asks`` that is not worded, and why."""
    if unworded is not None:
        noun = noun or Counter(a.noun for a in asks.values()).most_common(1)[0][0]
        unworded.append(f"{noun!r}: asked for in {len(asks)} conversations, {why}")


def _about(
    ask: Ask, frame: language.Frame, *, bare: bool = True, as_nouns: set[str] | None = None
) -> list[tuple[str, str]]:
    """What a request is about besides its noun: the noun of its complement ("de la
    tarjeta", "de cuidados") and the first noun of its purpose ("para la tarjeta"), as
    (key, word as written); a request counts for the themes of both, so "el texto de la
    tarjeta" and "escribir la tarjeta de una corona" are one kind of work. A complement
    written bare ("Relance location") counts when ``bare`` and other requests write the
    word as a noun (``as_nouns``: "contrat de location"), never an adjective ("devis urgent")."""
    out = []
    complement = ask.complement.split()
    if complement and complement[0] in frame.of:
        complement = complement[1:]  # "de la tarjeta"
    elif complement and "'" in complement[0]:
        complement = []  # "d'inscription": the noun's kind, grouped with its noun
    elif complement and not (
        bare and as_nouns is not None and _key(complement[0], frame) in as_nouns
    ):
        complement = []  # a bare word no request writes as a noun
    for words in (complement, ask.purpose.split()[1:]):
        nouns = [w for w in words if w not in frame.articles]
        if nouns and words is not complement and _definite(nouns[0], frame):
            continue  # "rapport til bureauet": whom it goes to, not what it is about
        if nouns and len(nouns[0]) >= 3:
            out.append((_key(nouns[0], frame), nouns[0]))
    if ask.platform:  # a post, a caption, a text for Instagram: one kind of work
        key = _platform_key(ask.platform)
        # a short form is named in full ("Insta": "Instagram")
        out.append((key, ask.platform if ask.platform.lower() == key else key))
    return out


# the shortest noun read as made definite by its ending ("ejeren"; not "ven", "net")
DEFINITE_LENGTH = 5


def _definite(noun: str, frame: language.Frame) -> bool:
    """Whether ``noun`` is written in the definite, by a suffix (``Frame.definite_endings``:
    "bureauet", "ejeren", "gæsterne")."""
    return len(noun) >= DEFINITE_LENGTH and noun.endswith(frame.definite_endings)


def _of_plural(word: str, frame: language.Frame, seen: set[str]) -> str:
    """ "de las tarjetas", "des cartes": the frame's complement preposition with the
    plural of what the work is about; "" when the spelling settles neither its plural nor
    its article and the messages (``seen``) do not write it."""
    if not frame.of:
        # German writes no preposition before a complement ("Rechnung Firmenkurs",
        # "Aushang für den Schrauberkurs"): the work is named by what it is for, a
        # capitalised plural after "für die" ("für die Firmenkurse")
        if frame.code != "de" or not frame.purpose:
            return ""
        plural = language.german_plural(word[:1].upper() + word[1:], seen)
        return f"{min(frame.purpose)} die {plural}" if plural else ""
    noun = language.plural_noun(word, frame.code, seen=seen)
    article = language.plural_article(word, frame.code)
    if not noun or (frame.plural_takes_article and not article):
        return ""
    of = sorted(frame.of)[0] if frame.code != "fr" else "de"
    if frame.joined:  # "delle recensioni"
        of = frame.complement_of or of
        return f"{frame.joined.get(f'{of} {article}', f'{of} {article}')} {noun}"
    if frame.code == "fr" and article == "les":
        return f"des {noun}"
    return f"{of} {article} {noun}"


def _quotable(theme: ForeignTheme, banned: set[str], code: str) -> int:
    """The conversations of ``theme`` whose request gives a clean quote (``foreign_evidence``:
    cut before names) that shares a word with its sentence, as the review's verifier asks:
    a label whose only word after the noun is a name ("Chambre Lavande, du 2 au 4 octobre")
    leaves a quote without the noun ("du 2 au 4 octobre"), no evidence of the work."""
    words = content_words(foreign_sentence(theme, code))
    evidence, _people = foreign_evidence(theme, banned, code)
    return len({e["conversation"] for e in evidence if share_a_word(e["quote"], words)})


def _one_per_work(
    themes: list[ForeignTheme], quotable: dict[str, int] | None = None, floor: int = 0
) -> list[ForeignTheme]:
    """One kind of work is one theme: a theme most of whose conversations a theme
    before it holds names that work again ("Confirmación para un pedido" is in the
    themes of "confirmación" and of "pedido"). A theme before it that has fewer than
    ``floor`` conversations with a clean quote for its sentence (``quotable``: the names
    cut out of its requests took its noun with them) is never proposed, and hides no
    other ("Chambre Lavande" beside "Tu peux rédiger la confirmation de réservation pour
    M. et Mme Lambert ?": the confirmations stay)."""
    kept: list[ForeignTheme] = []
    for theme in themes:
        mine = set(theme.asks)
        if any(
            len(mine & set(k.asks)) * 2 > len(mine)
            and (quotable is None or quotable.get(k.key, 0) >= floor)
            for k in kept
        ):
            continue
        kept.append(theme)
    return kept


def _capitalised_words(theme: ForeignTheme) -> dict[str, str]:
    """The words the messages of ``theme``'s requests write with a capital inside a
    sentence, lower case -> as written (German writes every noun so: "Inschrift")."""
    out: dict[str, str] = {}
    for ask in theme.asks.values():
        text = ask.message.text
        for t in tokens(text):
            before = text[: t.start].rstrip()
            if t.text[:1].isupper() and before and before[-1] not in ".!?:;\n":
                out.setdefault(t.low, t.text)
    return out


def foreign_sentence(theme: ForeignTheme, code: str) -> str:
    """ "Écrit les fiches produit pour la boutique en ligne.", "Répond aux demandes
    d'inscription.", "Prepara los presupuestos."."""
    article = language.plural_article(
        theme.noun, code, article_seen=theme.article, after_to=theme.to
    )
    verb = language.third_person_in(theme.verb, code)
    noun = theme.plural or language.plural_noun(theme.noun, code)
    if code == "de":  # German writes every noun with a capital, each part of a compound too
        noun = "-".join(part[:1].upper() + part[1:] for part in noun.split("-"))
    parts = [p for p in (verb.capitalize(), article, noun, theme.also) if p]
    after = [p for p in (theme.complement, theme.purpose) if p]
    if code == "de":  # "für die Inschrift": a noun after the work keeps its capital
        grammar = language.FRAMES[code].articles | language.FUNCTION_WORDS[code]
        capitalised = _capitalised_words(theme)
        after = [
            " ".join(w if w in grammar else capitalised.get(w, w) for w in p.split(" "))
            for p in after
        ]
    parts += after
    # a brand written small gets its capital: "Prépare les posts Instagram."
    return " ".join(with_capital(w, code) for w in " ".join(parts).split(" ")) + "."


def foreign_evidence(
    theme: ForeignTheme, banned: set[str], code: str = "", messages: list[Any] | None = None
) -> tuple[list[dict[str, Any]], set[int]]:
    """The quotes that may back the theme's sentence: each request as written, one per
    conversation, cut before names and other words a quote must not hold; none from a
    message pasting a secret. With the ``messages`` read, a request whose own message
    gives no clean quote may be quoted by a later message of its conversation naming
    its noun again (``hygiene.follow_up_quote``: "Factura para La Alacena Gourmet …",
    then "En todas las facturas y pedidos")."""
    keep = frozenset(
        [
            theme.noun,
            *([theme.also_noun] if theme.also_noun else []),
            *theme.complement.replace("'", " ").split(),
        ]
    )
    frame = language.FRAMES.get(code)
    words = content_words(foreign_sentence(theme, code)) if code else set()
    evidence = []
    people: set[int] = set()
    for ask in theme.asks.values():
        if _paste_holds_secret(ask.message):
            continue
        quote = quote_for(ask.message, ask.start, ask.end, banned, keep=keep, frame=frame)
        if words and not (quote and share_a_word(quote, words)):
            # the request's own words give no clean quote of the work (a name cut out
            # of "Pflegehinweise für Herrn Krüger, …" leaves two words): another sentence
            # of the same message that names it may ("Die Pflegehinweise braucht sie
            # dann auch."), as for an English request (``hygiene.request_quote``)
            quote = _other_sentence_quote(ask, banned, keep | {ask.noun}, words, frame) or quote
        if (
            words
            and messages
            and frame is not None
            and _asked_for_someone(ask, frame)
            and not (quote and share_a_word(quote, words))
        ):
            quote = (
                follow_up_quote(
                    ask, messages, banned, noun=ask.noun, words_of_text=words, frame=frame
                )
                or quote
            )
        if words and not (quote and share_a_word(quote, words)):
            quote = _with_the_words_before(ask, banned, keep | {ask.noun}, words, frame) or quote
        if quote and words and frame is not None:
            quote = _few_of_its_details(ask, quote, words, frame)
        if quote:
            evidence.append({"quote": quote, "conversation": ask.message.conversation_label})
            people.add(ask.message.principal_id)
    return evidence, people


def _few_of_its_details(ask: Ask, quote: str, words: set[str], frame: language.Frame) -> str:
    """The quote of a label its colon announces the details of ("posteo pa insta: este
    sábado estoy con un puesto en la feria"), widened past the colon only as far as a
    quote's four words need: those details are of the one piece asked for (a date, a
    place, what happens just this once), no evidence of the kind of work; the quote
    still shares a word with the sentence (``words``), else it is left whole."""
    text = ask.message.text
    colon = text.find(":", ask.end, ask.end + 2)
    at = text.find(quote, max(0, ask.start - len(quote)))
    if colon < 0 or at < 0 or at + len(quote) <= colon + 1:
        return quote
    toks = tokens(text, at, at + len(quote))
    # it ends on a word that says something: no article, preposition or short word ("ya")
    grammar = (
        language.FUNCTION_WORDS[frame.code]
        | frame.articles
        | frame.label_next
        | frame.purpose
        | frame.of
    )
    for n in range(QUOTE_MIN_WORDS, len(toks)):
        last = toks[n - 1]
        if last.end <= colon or last.low in grammar or len(last.low) < 3 or not last.low.isalpha():
            continue
        short = text[at : last.end]
        if share_a_word(short, words):
            return short
    return quote


def _asked_for_someone(ask: Ask, frame: language.Frame) -> bool:
    """Whether the request asks for a piece of work for someone ("hazme la factura",
    "Factura para La Alacena Gourmet"): its verb, or the frame's "for" right after it; a
    label naming a particular ("Chambre Lavande, du 2 au 4 octobre") asks for no work a
    later "chambres d'hôtes" could be evidence of."""
    text = ask.message.text
    after = tokens(text, ask.end, min(len(text), ask.end + 40))[:1]
    # a purpose read with the request ("rechnug für hochzeit …") is the frame's "for" too
    return bool(ask.verb or ask.purpose) or any(t.low in frame.purpose for t in after)


def _with_the_words_before(
    ask: Ask,
    banned: set[str],
    keep: frozenset[str],
    words: set[str],
    frame: language.Frame | None,
) -> str | None:
    """A request with its verb too short to quote that ends its message ("… Cena cca 9
    800 Kč. Napiš nabídku."), quoted with the clause before it, which says what the work
    is for: a clean quote sharing a word with the sentence (``words``), or None. Not a
    label: two words that end a message without a verb ("… for volunteers? March
    edition.") are a detail of what came before as often as a request."""
    text = ask.message.text
    if (
        not ask.verb
        or len(tokens(text, ask.start, ask.end)) >= QUOTE_MIN_WORDS
        or tokens(text, ask.end)
    ):
        return None
    spans = [message_span(text, a, b) for a, b in clauses(readable_text(text))]
    before = [a for a, b in spans if b <= ask.start and tokens(text, a, b)]
    if not before:
        return None
    quote = quote_for(ask.message, before[-1], ask.end, banned, keep=keep, frame=frame)
    return quote if quote and share_a_word(quote, words) else None


def _other_sentence_quote(
    ask: Ask,
    banned: set[str],
    keep: frozenset[str],
    words: set[str],
    frame: language.Frame | None,
) -> str | None:
    """A clean quote sharing a word with the sentence (``words``) from a clause of the
    request's message other than its own, one that writes the work's noun (``keep``)."""
    text = ask.message.text
    for a, b in clauses(readable_text(text)):
        a, b = message_span(text, a, b)
        if a <= ask.start < b or not any(t.low in keep for t in tokens(text, a, b)):
            continue
        quote = quote_for(ask.message, a, b, banned, keep=keep, frame=frame)
        if quote and share_a_word(quote, words):
            return quote
    return None
