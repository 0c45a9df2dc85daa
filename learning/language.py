"""Words for persona learning: English parts of speech, lemmas and inflection, and
which language a text is written in (``detect``, ``persona_language``).

Built on the English lexicon of ``safety.text`` (``lemmas``, ``can_be``,
``is_english_word``, ``inflections``: the one wrapper of lemminflect, which memory reads
too; ``can_be`` and ``is_english_word`` are named here as well, for learning's callers),
so the local proposer can tell a verb from a noun ("Review this diff" against "Weekend
post please"), turn "replies" into "reply" and "draft" into "drafts", and the refusal
policy can tell an ordinary word ("Mills", "Rose") from a name ("Priya").

The lexicon says what a word *can* be, not what it is in a given sentence; the
callers decide with the words around it.

Which language a text is written in is told by ``py3langid`` (a language identifier
trained on 140 languages, its model shipped inside the package: no download), never by
lists of words.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass, field
from typing import Any

from safety.text import COMPOUND_PART, inflections, lemmas, strip_accents
from safety.text import can_be as can_be
from safety.text import is_english_word as is_english_word


def lemma(word: str, pos: str) -> str:
    """The lemma of ``word`` as a ``pos``; an unknown word is its own lemma, except
    that a plausible plural noun loses its "s" ("rotas" -> "rota")."""
    found = lemmas(word).get(pos)
    if found:
        return found[0]
    low = word.lower()
    if pos == "NOUN" and not lemmas(word) and low.endswith("s") and not low.endswith("ss"):
        return low[:-1]
    return low


def third_person(verb: str) -> str:
    """'draft' -> 'drafts', 'summarise' -> 'summarises', 'reply' -> 'replies'; a verb
    with its particle inflects the verb: 'work out' -> 'works out'."""
    if " " in verb:
        first, rest = verb.split(" ", 1)
        return f"{third_person(first)} {rest}"
    forms = [f for f in inflections(verb, "VBZ") if f.isalpha()]
    if forms:  # never "proof-reads" for "proofread"
        return forms[0]
    if verb.endswith(("s", "sh", "ch", "x", "z", "o")):
        return verb + "es"
    if verb.endswith("y") and verb[-2:-1] not in tuple("aeiou"):
        return verb[:-1] + "ies"
    return verb + "s"


def plural(noun: str) -> str:
    """'reply' -> 'replies', 'rota' -> 'rotas', 'PR' -> 'PRs'; 'notes' and an unknown
    word written as a plural ('docs') stay as they are."""
    if noun.isupper():
        return noun + "s"
    if noun.endswith("s") and not noun.endswith("ss"):
        if can_be(noun, "NOUN") and lemma(noun, "NOUN") != noun:
            return noun  # already plural
        if not is_english_word(noun) and not noun.endswith(("us", "is")):
            return noun  # an unknown word written as a plural: "docs", "rotas"
    if is_mass(noun):
        return noun  # "documentation", "aftercare", "research"
    forms = inflections(noun, "NNS")
    if forms and forms[0] != noun:
        return forms[0]
    if noun.endswith(("s", "sh", "ch", "x", "z")):
        return noun + "es"
    if noun.endswith("y") and noun[-2:-1] not in tuple("aeiou"):
        return noun[:-1] + "ies"
    return noun + "s"


def is_mass(noun: str) -> bool:
    """A noun the lexicon gives no plural of its own first: "documentation",
    "aftercare", "research" (not "quote", "explanation")."""
    forms = inflections(noun.lower(), "NNS")
    return bool(forms) and forms[0] == noun.lower() and can_be(noun, "NOUN")


def is_comparative(word: str) -> bool:
    """'shorter', 'punchier', 'simpler': an adjective's comparative form."""
    low = word.lower()
    if not low.endswith("er"):
        return False
    base = lemmas(low).get("ADJ")
    return base is not None and bool(base) and base[0] != low


# plurals English keeps before another noun ("sales reports", "arts centre")
PLURAL_MODIFIERS = frozenset(
    ["sales", "arts", "customs", "arms", "accounts", "communications", "operations", "admissions"]
)


def modifier_form(noun: str) -> str:
    """A noun as it stands before another noun: in the singular ("reading lists", not
    "readings lists"; "PR descriptions"), unless the lexicon holds the plural as a word
    of its own ("goods", "savings", "news", "sports") or English keeps it
    (``PLURAL_MODIFIERS``: "sales reports"); an unknown word stays as written."""
    low = noun.lower()
    if low in PLURAL_MODIFIERS or not low.endswith("s") or low.endswith("ss"):
        return noun
    if len(noun) > 2 and noun[:-1].isupper():
        return noun[:-1]  # an acronym's plural: "PRs"
    nouns = lemmas(low).get("NOUN")
    if not nouns or low in nouns:
        return noun
    single = nouns[0]
    if plural(single) != low:
        return noun
    if noun == low:
        return single
    return single.capitalize() if noun == low.capitalize() else noun


# --- which language a text is written in ------------------------------------------------------

# letters that are no accent to Unicode but that people leave off all the same when they type
# in haste: Polish "ł" as "l" ("wysłać" typed "wyslac"), Croatian "đ" as "dj" ("gđa" typed
# "gdja")
_LETTERS_TYPED_PLAIN = str.maketrans({"ł": "l", "Ł": "L", "đ": "dj", "Đ": "Dj"})


def typed_plain(word: str) -> str:
    """``word`` as it is typed without its diacritics ("ofertę" -> "oferte", "wyślij" ->
    "wyslij", "gđa" -> "gdja", "pošalji" -> "posalji"); case kept."""
    return strip_accents(word.translate(_LETTERS_TYPED_PLAIN))


def _with_plain(text: str) -> frozenset[str]:
    """The words of ``text`` and each as it is typed without its diacritics: Polish, Croatian
    and Czech are typed so on a phone as often as not ("potrzebuje", "posalji", "muzes")."""
    words = text.split()
    return frozenset(words) | {typed_plain(w) for w in words}


# The most frequent function words of the languages the proposer reads: articles, pronouns,
# prepositions, conjunctions and the commonest verb forms. They are no way to tell a language
# (``detect`` asks a trained identifier); the proposer uses them as the stop words of a
# language, the words that never make a theme or a name ("de", "el", "of", "von").
FUNCTION_WORDS: dict[str, frozenset[str]] = {
    code: frozenset(text.split())
    for code, text in {
        "en": """the and of to a in is it that for with on are as this be at by from or an
            was not but have has you your we our they their will can what which who
            when about into than then them there these those would should could""",
        "fr": """le la les un une des du de et est sont dans pour avec sur par ne pas que
            qui au aux ce cette ces il elle ils elles nous vous leur leurs son sa ses
            mais ou donc être avoir fait très plus""",
        "de": """der die das den dem des ein eine einen einem einer und ist sind nicht mit
            für auf von zu im ins zum zur bei aus nach wir sie ihr ich es auch oder aber
            wird werden kein keine über unter was""",
        "es": """el la los las un una unos unas y es son en de del al con por para que no
            se su sus lo le les como pero más muy este esta estos estas nuestro nuestra""",
        "it": """il lo la gli le un uno una e è sono di del della dei delle in con per che
            non si suo sua suoi ma come più molto questo questa nel nella al alla ai agli
            alle allo dal dalla dai dagli dalle sul sulla sui sulle nei negli nelle degli
            dello anche sempre mai ha hanno io lui lei noi voi loro ci essere""",
        "nl": """de het een en is zijn niet met voor op van te in wij we ze zij ik het dat
            die deze dit ook maar of naar bij uit aan wordt worden geen over onze graag aub""",
        "pt": """o a os as um uma uns umas e é são em de do da dos das no na nos nas com
            por para que não se seu sua mas como mais muito este esta ao aos às pelo pela
            pelos pelas num numa dum duma pra pro também você vocês eu ele ela isso essa
            esse nosso nossa já até""",
        "sv": """och att det som en ett är på för med av till den det de inte om har jag du
            vi hon han men eller från vid så kan ska var sig sin sitt sina min mitt mina
            dig mig oss hennes hans vill också inom efter utan under över någon något""",
        "da": """og at det som en et er på for med af til den de ikke om har jeg du vi hun
            han men eller fra ved så kan skal var sig sin sit sine min mit mine dig mig os
            hendes hans vil også efter uden under over nogen noget nogle der her hvor når
            hvis end""",
        "no": """og at det som en ei et er på for med av til den de ikke om har jeg du vi
            hun han men eller fra ved så kan skal var seg sin sitt sine min mitt mine deg
            meg oss hennes hans vil også etter uten under over noen noe der her hvor når
            hvis enn""",
        # Polish, Croatian and Czech have no articles; "coś", "nešto", "něco" ("something")
        # name no work ("napisz coś na insta")
        "pl": """i a w we z ze na do od o u po za przez dla że czy nie to ten ta te jest są
            się jak co coś ale lub albo bo też już tylko jeszcze tak tu tam ja ty on ona ono
            my wy oni one sobie przy pod nad przed bez by być ma mam mi mnie mu jej ich go
            je nam wam im ile kiedy gdzie który która które""",
        "hr": """i a u na od do o s sa za iz po pri kod je su se da ne to taj ta ti mi mu joj
            im ga ih li ili ali pa kao što već samo još tako sam si smo ste bi bih biti ovo
            ono ova ovaj nije koji koja koje tko ko sve kad kada gdje koliko nešto evo imam
            ima imaš""",
        "cs": """a i v ve z ze na do od o u po za pro s se je jsou to ten ta ty že ale nebo
            jak co už jen ještě tak mi mě mu jí jim ho ji si bych by byl být jsem nic něco
            kolik kde kdy který která které aby ať mám má máš""",
    }.items()
}
for _code in ("pl", "hr", "cs"):  # typed without diacritics as often as with them
    FUNCTION_WORDS[_code] = _with_plain(" ".join(FUNCTION_WORDS[_code]))
# the words ``function_word`` knows. Swedish, Danish, Norwegian, Polish, Croatian and Czech
# ones serve their own frames only: several are English words ("men", "hon", "under", "hun",
# "at", "to", "do", "on")
_ANY_FUNCTION_WORD = frozenset().union(
    *(
        words
        for code, words in FUNCTION_WORDS.items()
        if code not in ("sv", "da", "no", "pl", "hr", "cs")
    )
)


def function_word(word: str) -> bool:
    """Whether ``word`` (lower case) is a function word of any language above: "de",
    "el", "of", "von"."""
    return word in _ANY_FUNCTION_WORD


# the code ``detect`` gives a text written in a language it tells but the proposer does not
# name (Czech, Finnish, Icelandic, Norwegian Nynorsk, ...; ISO 639-2 "undetermined"): never read with the frames
# of another language, never read as English
UNREAD = "und"
# the languages told by their own code: those the proposer words (English and the codes of
# ``FRAMES``) and Polish, which the review declines by name
LANGUAGE_NAMES = {
    "en": "English",
    "fr": "French",
    "de": "German",
    "es": "Spanish",
    "it": "Italian",
    "nl": "Dutch",
    "pt": "Portuguese",
    "sv": "Swedish",
    "da": "Danish",
    "no": "Norwegian",
    "pl": "Polish",
    "hr": "Croatian",
    "cs": "Czech",
    "sk": "Slovak",
    UNREAD: "a language other than English",
}
# languages that write every noun with a capital: a capital there is no sign of a name
CAPITALISES_NOUNS = frozenset({"de"})
# Languages written so alike that the identifier cannot tell them apart in a few words, and
# whose frames read each other's requests: Danish and Norwegian Bokmål share most of their
# spelling ("Kan du skrive et tilbud til …" is either), and a sentence of four words is told
# one or the other by chance. A text told the sibling of the persona's language is written
# in a language the persona's frame reads, never "another language".
READ_ALIKE: tuple[frozenset[str], ...] = (frozenset({"da", "no"}), frozenset({"cs", "sk"}))
# Bosnian, Croatian and Serbian written in Latin letters share their grammar and the words a
# frame lists; the identifier tells them apart by a word or two of dialect ("triba", "lipo")
# or a text typed without diacritics, by chance. Such a text is read as Croatian (the frame
# of the three); Serbian in Cyrillic letters is another script, never read.
_READ_AS = {"bs": "hr", "sr": "hr"}
_CYRILLIC = re.compile(r"[\u0400-\u04ff]")


def written_alike(a: str, b: str) -> bool:
    """Whether a text told ``b`` is written in a language the frame of ``a`` reads: the
    same code, or siblings of ``READ_ALIKE`` ("da" and "no")."""
    return a == b or any({a, b} <= group for group in READ_ALIKE)


_WORD = re.compile(r"[^\W\d_]+(?:['’][^\W\d_]+)*")

# The least probability the identifier must give its first language for ``detect`` to name
# it. Its probabilities are calibrated to the length of the text (py3langid 0.4): a persona
# is told at 0.99 or more, while a sentence of three or four words may lean towards a
# neighbour (Galician for Portuguese, Nigerian Pidgin for English) at 0.5 to 0.6; below
# this a short text is "cannot tell", and the caller reads the persona's language.
CONFIDENCE = 0.7
# The same for a persona, lower: a persona told "cannot tell" is read as English, itself a
# guess, so it is read in the language that holds more than half the probability (a short
# Portuguese persona shares it with Galician: 0.66 against 0.33). Every persona of the seen
# learning parts is told at 0.99 or more.
PERSONA_CONFIDENCE = 0.5
# the identifier's code for a text that holds no language (code, numbers, symbols)
_NO_LANGUAGE = "zxx"


@functools.cache
def _identifier() -> Any:
    """py3langid's naive Bayes identifier over its 140 languages, with probabilities. Its
    model ships inside the package (4 MB, read once per process, about a second); nothing
    is downloaded."""
    from py3langid.langid import MODEL_FILE, LanguageIdentifier

    return LanguageIdentifier.from_model_file(MODEL_FILE, norm_probs=True)


def detect(text: str, confidence: float = CONFIDENCE) -> str:
    """The language ``text`` is written in: its code when the proposer names it ("en",
    "fr", "de", ..., ``LANGUAGE_NAMES``), ``UNREAD`` for any other language, or "" when
    it cannot be told (no word of letters, no language, or the identifier gives its
    first language less than ``confidence``: a few words)."""
    if not _WORD.search(text or ""):
        return ""
    code, probability = _identifier().classify(text)
    if probability < confidence or code == _NO_LANGUAGE:
        return ""
    if code in _READ_AS and not _CYRILLIC.search(text):
        code = _READ_AS[code]
    return code if code in LANGUAGE_NAMES else UNREAD


def persona_language(persona: dict[str, Any]) -> str:
    """The language the persona is written in (its role, goals, background, guardrails
    and standing rules read together, ``detect`` at ``PERSONA_CONFIDENCE``), or "" when
    it says too little to tell."""
    parts = [persona.get(f) or "" for f in ("role", "goals", "background")]
    for f in ("guardrails", "standing_rules"):
        parts.extend(str(x) for x in persona.get(f) or [])
    return detect("\n".join(str(p) for p in parts), PERSONA_CONFIDENCE)


# --- a small frame per language for goals sentences outside English ------------------------------

# What the local proposer needs to word "verb + object + what for" in French or Spanish from
# the person's own words: the verbs of work people ask with (their infinitives, from which
# the forms people write are derived: "rédige", "écris", "prepárame"), the words around a
# noun phrase (articles, the preposition of a complement and of a purpose), who passes a
# request on ("veut", "quiere"), the reply noun that stands for its verb ("la réponse à" is
# "répondre à") and the article and plural of the sentence. Nothing here names a domain.


@dataclass(frozen=True)
class Frame:
    code: str
    # infinitive -> its irregular forms: the third person singular first, then the
    # imperatives people write ("écrire": "écrit", "écris", "écrivez"); () when regular
    verbs: dict[str, tuple[str, ...]]
    # verbs whose object follows the preposition ``to`` ("répondre à la demande")
    to_object: frozenset[str]
    to: str
    # nouns that stand for a verb ("la réponse à" = "répondre à")
    verb_nouns: dict[str, str]
    # words that ask for work before an infinitive or a noun phrase ("tu peux", "il faut")
    asking: frozenset[str]
    # who passes a request on: "le café veut un devis"
    relayed: frozenset[str]
    articles: frozenset[str]
    # words that may open a noun phrase before its noun ("nouvelle fiche", "otra ficha")
    openers: frozenset[str]
    # object pronouns between the asking word and the verb ("tu peux me préparer")
    pronouns: frozenset[str]
    of: frozenset[str]  # the preposition of a noun's complement ("demande d'inscription")
    purpose: frozenset[str]  # "pour", "para"
    # elided words written with an apostrophe ("d'inscription", "m'écrire")
    elided: frozenset[str]
    # pronouns written after an imperative ("prepárame", "écris-moi")
    enclitics: tuple[str, ...] = ()
    # words that may stand between a verb and its object: subject pronouns ("que le
    # escriba yo el texto"), German pronouns and "bitte" ("Schreib mir bitte ein Angebot")
    subjects: frozenset[str] = frozenset()
    # a language that writes every noun with a capital (German): a capital is no sign of
    # a name there; a name is a capitalised word after a title ("Herrn Krüger") or after
    # a preposition a name follows without an article ("bei Yilmaz")
    titles: frozenset[str] = frozenset()
    name_before: frozenset[str] = frozenset()
    # the verb of work a sentence takes when every request only names what it is
    # ("Confirmación de pedido para …"), as English "Prepares"
    default_verb: str = ""
    # the word between a noun and the platform it is for, as the language writes it:
    # "publications Instagram", "publicaciones de Instagram", "Beiträge für Instagram"
    platform_before: str = ""
    # a modal or "bitte" that opens a request puts the infinitive at its end (German:
    # "Kannst du mir einen Kostenvoranschlag schreiben?")
    verb_last: bool = False
    # a language that writes every noun with a capital (German): a capital is no sign of
    # a name; names are told by ``titles`` and ``name_before`` instead
    capitalises_nouns: bool = False
    # how regular verbs are written, by the ending of their infinitive: the endings of the
    # forms people ask with (imperatives, the present of "mi prepari?"), the ending of
    # the third person a goals sentence opens with; for a frame that lists them (the
    # French, Spanish and German forms are derived in ``_verb_forms``)
    asked_endings: dict[str, tuple[str, ...]] = field(default_factory=dict)
    third_endings: dict[str, str] = field(default_factory=dict)
    # what may follow a label's noun phrase: the end of its sentence, or a preposition
    label_next: frozenset[str] = frozenset()
    # ``to`` joined to an article ("au", "al", "alla"): the object of a ``to_object`` verb
    contracted_to: frozenset[str] = frozenset()
    # a preposition and an article the language writes as one word: "a le" -> "alle",
    # "di i" -> "dei" (for a frame whose plural article it builds: ``plural_article``)
    joined: dict[str, str] = field(default_factory=dict)
    # the preposition of a complement before a plural ("di" of "delle recensioni"), for a
    # frame with ``joined``
    complement_of: str = ""
    # the last letters singular and plural differ by, dropped to group them ("fiche",
    # "fiches"; Italian "preventivo", "preventivi")
    key_letters: str = "sx"
    # whether a plural in a goals sentence takes an article (not in German: "Erstellt
    # Angebote.")
    plural_takes_article: bool = True
    # verbs that say only that something is made ("faire", "hacer", "fare"): of verbs
    # requests use equally often, another names the work better
    weak_verbs: frozenset[str] = frozenset()
    # whether the weak verb is also the language's usual verb for making a document
    # ("een offerte maken", "lave et tilbud", "lage et tilbud"): then a goals sentence may
    # open with it when no request names another ("Lager tilbud."); where it is not
    # ("faire", "hacer", "machen"), the sentence takes ``default_verb`` ("Prépare les devis.")
    weak_verb_makes: bool = False
    # plural endings the frame's spelling changes the singular's last letters by, undone
    # to group a noun's two numbers (Portuguese "publicações" with "publicação",
    # "mensagens" with "mensagem"): (plural ending, singular ending)
    plural_spellings: tuple[tuple[str, str], ...] = ()
    # whether a plural the spelling does not settle is taken from the words the messages
    # write (German "Beiträge"; Portuguese "-ão": "publicações", "pães", "mãos")
    plurals_seen: bool = False
    # the endings of a noun made definite by a suffix (Danish, Norwegian: "bureauet",
    # "ejeren", "gæsterne"): after the purpose word such a noun names whom the work goes to
    # ("rapport til bureauet"), not a kind of work ("tjekliste til slutrengøring")
    definite_endings: tuple[str, ...] = ()
    # the words after which a noun is written in the plural ("alle tilbud", "alla förslag"):
    # a plural the spelling does not settle is seen there even when it is the singular's
    # spelling (a neuter noun that takes no ending: "et tilbud", "alle tilbud")
    plural_quantifiers: frozenset[str] = frozenset()
    # a language that writes a compound noun as one word ("kursbekreftelse",
    # "reserveringsbevestiging"): a compound is a kind of the noun it ends in
    compounds: bool = False
    # the words that join two things asked for with one verb ("lag bekreftelse og
    # faktura", "prépare le devis et la facture")
    and_words: frozenset[str] = frozenset()
    # the endings of an adjective written before its noun where the language puts it there
    # and inflects it (Dutch, Danish, Norwegian "-e", Swedish "-a": "een vriendelijke
    # betalingsherinnering", "openstaande facturen"): such a word before another noun is
    # no noun of its own
    adjective_endings: tuple[str, ...] = ()
    # a long vowel written double in a closed syllable and single in an open one (Dutch
    # "factuur", "facturen"; "afspraak", "afspraken"): one noun in either number
    long_vowels_doubled: bool = False
    # the endings of a noun's diminutive, longest first (Dutch "verslagje", "briefje"):
    # the same thing as the noun
    diminutives: tuple[str, ...] = ()
    # nouns that say only that a text is written, not which ("mensagem", "Nachricht",
    # "bericht"), as English ``GENERIC_HEADS``: a theme of one needs what it is for
    generic_nouns: frozenset[str] = frozenset()
    # the short forms people type on a phone for words of the frame, -> the words meant
    # ("pal" is "para el", "q" is "que", "x" is "por"; Portuguese "vc" is "você"): read as
    # the words they stand for, so a label "posteo pal insta" is followed by its purpose
    short_forms: dict[str, tuple[str, ...]] = field(default_factory=dict)
    # words that open a message and ask nothing themselves ("che", "oye", "bueno"): the
    # request follows them as it would open the message ("che me armás un aviso")
    fillers: frozenset[str] = frozenset()
    # a language with no articles (Polish, Croatian, Czech): a noun phrase after an asking
    # word opens with its noun or an adjective ("potrzebuję fakturę", "triba mi ponuda",
    # "potřebuju cenovou nabídku"); ``articles`` holds its demonstratives and possessives
    has_articles: bool = True
    # the endings of an infinitive, in a language without articles: after a wanting word
    # such a word is the work wanted ("chca malowac kubki", "chce opravit"), not a noun
    infinitive_endings: tuple[str, ...] = ()


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


FRAMES: dict[str, Frame] = {
    "fr": Frame(
        code="fr",
        generic_nouns=_words(
            "message messages texte textes mail mails courriel courriels e-mail e-mails"
        ),
        and_words=frozenset(["et"]),
        verbs={
            "écrire": ("écrit", "écris", "écrivez"),
            "rédiger": (),
            "préparer": (),
            "répondre": ("répond", "réponds", "répondez"),
            "faire": ("fait", "fais", "faites"),
            "traduire": ("traduit", "traduis", "traduisez"),
            "résumer": (),
            "relire": ("relit", "relis", "relisez"),
            "corriger": (),
            "créer": (),
            "calculer": (),
            "vérifier": (),
            "organiser": (),
            "planifier": (),
            "proposer": (),
            "chiffrer": (),
            "compléter": ("complète",),
        },
        to_object=_words("répondre"),
        to="à",
        verb_nouns={"réponse": "répondre"},
        asking=_words(
            "peux pourrais pouvez pourriez peux-tu pourrais-tu faut aide-moi veux besoin"
        ),
        relayed=_words("veut voudrait veulent voudraient souhaite souhaitent"),
        articles=_words(
            "le la les un une des du l' ce cet cette ces mon ma mes ton ta tes son sa ses "
            "notre nos votre vos leur leurs quelques"
        ),
        openers=_words("nouveau nouvel nouvelle nouveaux nouvelles autre encore petit petite"),
        pronouns=_words("me m' moi lui leur nous vous te t'"),
        of=_words("de d'"),
        purpose=_words("pour"),
        elided=_words("l d m t s n j c qu"),
        enclitics=("-moi", "-lui", "-leur", "-nous", "-les", "-le", "-la"),
        default_verb="préparer",
        weak_verbs=_words("faire"),
        label_next=_words("pour de d' du des au aux à sur en"),
        contracted_to=_words("au aux"),
    ),
    "es": Frame(
        code="es",
        generic_nouns=_words(
            "mensaje mensajes texto textos correo correos mail mails e-mail e-mails email emails"
        ),
        and_words=frozenset(["y", "e"]),
        verbs={
            "escribir": (),
            "redactar": (),
            "preparar": (),
            "responder": (),
            "contestar": (),
            "hacer": ("hace", "haz", "haga"),
            "traducir": ("traduce",),
            "resumir": (),
            "revisar": (),
            "corregir": ("corrige",),
            "crear": (),
            "calcular": (),
            "comprobar": ("comprueba",),
            "organizar": (),
            "planificar": (),
            "proponer": ("propone", "propón"),
            "armar": (),
        },
        to_object=_words("responder contestar"),
        to="a",
        verb_nouns={"respuesta": "responder"},
        # "podés": the voseo of Argentina, Uruguay and Central America ("me podés armar …")
        asking=_words("puedes podés podrías puede podría ayúdame hay necesito quiero tengo"),
        relayed=_words("quiere quieren querría pide piden necesita necesitan"),
        articles=_words(
            "el la los las un una unos unas del al este esta estos estas ese esa esos esas "
            "mi mis tu tus su sus nuestro nuestra nuestros nuestras algunos algunas"
        ),
        openers=_words("nuevo nueva nuevos nuevas otro otra otros otras pequeño pequeña"),
        pronouns=_words("me te le les nos os se lo"),
        # "del" is "de el": "info del retiro" as "el texto de la tarjeta"
        of=_words("de del"),
        purpose=_words("para"),
        elided=frozenset(),
        enclitics=("melo", "noslo", "me", "nos", "le", "les", "lo", "la", "los", "las"),
        short_forms={
            "pa": ("para",),
            "pal": ("para", "el"),
            "pala": ("para", "la"),
            "q": ("que",),
            "x": ("por",),
            "xq": ("porque",),
        },
        fillers=_words("che oye mirá mira bueno dale hola ey ok okey buenas"),
        # "porfa", "xfa": "por favor" as typed in haste, which may stand where German "bitte" does
        subjects=_words("yo tú vos usted porfa xfa"),
        default_verb="preparar",
        weak_verbs=_words("hacer"),
        platform_before="de",
        label_next=_words("para de del al a sobre en con porfa xfa"),
        contracted_to=_words("al"),
    ),
    "de": Frame(
        code="de",
        generic_nouns=_words(
            "nachricht nachrichten text texte mail mails e-mail e-mails mitteilung mitteilungen"
        ),
        compounds=True,
        and_words=frozenset(["und"]),
        verbs={
            "schreiben": ("schreibt", "schreib", "schreibe"),
            "erstellen": (),
            "formulieren": (),
            "entwerfen": ("entwirft", "entwirf"),
            "beantworten": (),
            "übersetzen": (),
            "prüfen": (),
            "planen": (),
            "berechnen": (),
            "machen": ("macht", "mach"),
            "antworten": ("antwortet", "antworte"),
        },
        to_object=frozenset(),
        to="",
        verb_nouns={},
        asking=_words("kannst könntest kannste können könnten bitte brauche brauch"),
        relayed=_words("will möchte braucht brauchen wollen hätte hätten"),
        # "ne", "nen": "eine", "einen" as people say and write them ("brauch ne rechnung")
        articles=_words(
            "der die das den dem des ein eine einen einem einer eines mein meine meinen "
            "meinem unser unsere unseren deine dein ne nen"
        ),
        openers=_words("neue neuen neues neuer noch weitere weiteren weiteres"),
        pronouns=_words("mir uns ihm ihr ihnen dir mich"),
        of=frozenset(),
        purpose=_words("für"),
        elided=frozenset(),
        default_verb="erstellen",
        weak_verbs=_words("machen"),
        subjects=_words("du mir uns dir ihm ihr ihnen bitte mal"),
        titles=_words("herr herrn frau familie mr mrs ms dr"),
        name_before=_words("für an bei von mit zu nach aus"),
        platform_before="für",
        capitalises_nouns=True,
        label_next=_words("für an zu zum zur mit bei von über bitte"),
        plural_takes_article=False,
        verb_last=True,
        plurals_seen=True,
    ),
    "it": Frame(
        code="it",
        generic_nouns=_words("messaggio messaggi testo testi mail e-mail email"),
        and_words=frozenset(["e", "ed"]),
        verbs={
            "scrivere": (),
            "preparare": (),
            "redigere": (),
            "rispondere": (),
            "fare": ("fa", "fai", "fate", "faccia", "fammi", "facci"),
            "tradurre": ("traduce", "traduci", "traducete", "traduca"),
            "riassumere": (),
            "correggere": (),
            "rivedere": (),
            "creare": (),
            "calcolare": (),
            "controllare": (),
            "organizzare": (),
            "aggiornare": (),
            "compilare": (),
            "proporre": ("propone", "proponi", "proponete", "proponga"),
        },
        to_object=_words("rispondere"),
        to="a",
        verb_nouns={"risposta": "rispondere"},
        asking=_words(
            "puoi potresti può potrebbe potete potreste serve servirebbe servono bisogno "
            "aiutami aiutaci vorrei voglio devi dovresti"
        ),
        relayed=_words("vuole vogliono vorrebbe vorrebbero chiede chiedono"),
        articles=_words(
            "il lo la i gli le un uno una l' un' questo questa questi queste quest' quel "
            "quello quella quei quelle mio mia miei mie tuo tua suo sua suoi sue nostro "
            "nostra nostri nostre vostro vostra qualche alcuni alcune"
        ),
        openers=_words(
            "nuovo nuova nuovi nuove altro altra altri altre piccolo piccola breve ancora"
        ),
        pronouns=_words("mi ti ci vi gli le lo la ne m' t' c'"),
        of=_words("di d' del dello della dei degli delle dell'"),
        purpose=_words("per"),
        elided=_words("l d un dell all nell sull dall quest m t s c n"),
        enclitics=("mela", "melo", "mi", "ci", "gli", "le", "lo", "la", "li", "ne"),
        subjects=_words("tu voi lei"),
        titles=_words("sig signor signora signore dott dottor dottore dottoressa ing avv prof"),
        name_before=_words("per da di a con"),
        default_verb="preparare",
        weak_verbs=_words("fare"),
        platform_before="per",
        asked_endings={
            "are": ("a", "i", "ate"),
            "ere": ("e", "i", "ete", "a"),
            "ire": ("e", "i", "ite", "a"),
        },
        third_endings={"are": "a", "ere": "e", "ire": "e"},
        label_next=_words(
            "per di d' del della dei degli delle dell' a al alla ai agli alle all' su sul "
            "sulla in con da"
        ),
        contracted_to=_words("al allo alla ai agli alle all'"),
        joined={
            f"{prep} {art}": f"{joined}{tail}"
            for prep, joined in (("a", "a"), ("di", "de"))
            for art, tail in (("il", "l"), ("lo", "llo"), ("la", "lla"), ("i", "i"))
            + (("gli", "gli"), ("le", "lle"))
        },
        complement_of="di",
        key_letters="aeio",
        # "x" is "per" as typed on a phone (the sign of multiplication, read "per": "fattura
        # x una studentessa", "post x insta"), as Spanish "x" is "por"
        short_forms={"x": ("per",)},
    ),
    "pt": Frame(
        code="pt",
        generic_nouns=_words(
            "mensagem mensagens texto textos mail mails e-mail e-mails email emails"
        ),
        and_words=frozenset(["e"]),
        # European and Brazilian spelling alike: "fazer", "atualizar"/"actualizar",
        # "planear"/"planejar"
        verbs={
            "escrever": (),
            "redigir": ("redige", "redija", "rediges"),
            "preparar": (),
            "responder": (),
            "fazer": ("faz", "faça", "fazes", "façam", "faze"),
            "traduzir": ("traduz", "traduza", "traduzes"),
            "resumir": (),
            "rever": ("revê", "reveja", "revês"),
            "revisar": (),
            "corrigir": ("corrige", "corrija", "corriges"),
            "criar": (),
            "calcular": (),
            "verificar": (),
            "organizar": (),
            "planear": (),
            "planejar": (),
            "atualizar": (),
            "actualizar": (),
            "preencher": (),
            "propor": ("propõe", "proponha", "propões"),
            "elaborar": (),
        },
        to_object=_words("responder"),
        to="a",
        verb_nouns={"resposta": "responder"},
        # "podes/pode/consegues me fazer …", "preciso de …", "queria …", "tens como …"
        asking=_words(
            "podes pode podia podias poderia poderias podem consegues consegue conseguias "
            "conseguia preciso precisava queria quero gostaria ajuda-me ajuda-nos favor dá"
        ),
        relayed=_words("quer querem queria pede pedem precisa precisam gostaria pediu"),
        articles=_words(
            "o a os as um uma uns umas este esta estes estas esse essa esses essas aquele "
            "aquela meu minha meus minhas teu tua teus tuas seu sua seus suas nosso nossa "
            "nossos nossas dum duma num numa pro pra pros pras alguns algumas"
        ),
        openers=_words("novo nova novos novas outro outra outros outras pequeno pequena mais"),
        pronouns=_words("me te lhe lhes nos vos se"),
        of=_words("de do da dos das dum duma"),
        purpose=_words("para pra pro p/"),
        elided=frozenset(),
        # "escreve-me", "faz-me", "prepara-nos" (European Portuguese writes the pronoun after
        # the verb with a hyphen; Brazilian before it: "me faz")
        enclitics=("-me", "-nos", "-lhe", "-lhes", "-mo", "-ma"),
        subjects=_words("tu você vocês"),
        titles=_words("sr sra srª sr.ª dona dom dr dra drª doutor doutora senhor senhora eng"),
        name_before=_words("para de do da com a ao à"),
        default_verb="preparar",
        weak_verbs=_words("fazer"),
        platform_before="do",
        asked_endings={
            "ar": ("a", "e", "as", "em"),
            "er": ("e", "a", "es", "am"),
            "ir": ("e", "a", "es", "am"),
        },
        third_endings={"ar": "a", "er": "e", "ir": "e"},
        label_next=_words("para pra pro de do da dos das a ao à aos às sobre em no na nos nas com"),
        contracted_to=_words("ao aos à às"),
        joined={"a os": "aos", "a as": "às", "de os": "dos", "de as": "das"},
        complement_of="de",
        key_letters="s",
        plural_spellings=(
            ("ões", "ão"),
            ("ães", "ão"),
            ("ns", "m"),
            ("ais", "al"),
            ("éis", "el"),
            ("eis", "el"),
            ("óis", "ol"),
            ("uis", "ul"),
        ),
        plurals_seen=True,
    ),
    # Dutch and Swedish list every form of their verbs: the third person first, then the
    # imperative ("schrijven": "schrijft", "schrijf"; "skriva": "skriver", "skriv")
    "nl": Frame(
        code="nl",
        generic_nouns=_words(
            "bericht berichten tekst teksten mail mails e-mail e-mails mailtje mailtjes"
        ),
        compounds=True,
        and_words=frozenset(["en"]),
        verbs={
            "schrijven": ("schrijft", "schrijf"),
            "maken": ("maakt", "maak"),
            "beantwoorden": ("beantwoordt", "beantwoord"),
            "vertalen": ("vertaalt", "vertaal"),
            "controleren": ("controleert", "controleer"),
            "plannen": ("plant", "plan"),
            "berekenen": ("berekent", "bereken"),
            "reageren": ("reageert", "reageer"),
            "bedenken": ("bedenkt", "bedenk"),
            "bevestigen": ("bevestigt", "bevestig"),
            "sturen": ("stuurt", "stuur"),
        },
        to_object=_words("reageren"),
        to="op",
        verb_nouns={"reactie": "reageren"},
        asking=_words("kun kunt kan zou zouden wil wilt graag moet help nodig"),
        relayed=_words("wil wilt willen vraagt vragen wilde"),
        articles=_words("de het een deze dit die dat mijn onze ons jouw haar zijn hun"),
        openers=_words("nieuwe nieuw nog andere extra korte kort"),
        pronouns=_words("me mij ons hem haar hen"),
        of=frozenset(),
        purpose=_words("voor"),
        elided=frozenset(),
        # "er" stands between a verb and its object as a pronoun would ("Maak er een kort
        # verslag van")
        subjects=_words("je jij u ik we wij even er"),
        titles=_words("meneer mevrouw mevr dhr familie fam"),
        default_verb="schrijven",
        weak_verbs=_words("maken"),
        weak_verb_makes=True,
        platform_before="voor",
        label_next=_words("voor op aan over met van bij naar graag aub alsjeblieft"),
        plural_takes_article=False,
        verb_last=True,
        plural_spellings=(("ingen", "ing"),),
        plurals_seen=True,
        adjective_endings=("e",),
        long_vowels_doubled=True,
        diminutives=("etje", "tje", "pje", "je"),
    ),
    "sv": Frame(
        code="sv",
        plural_quantifiers=_words("alla många flera"),
        generic_nouns=_words("meddelande meddelanden text texter mejl mail"),
        compounds=True,
        and_words=frozenset(["och"]),
        verbs={
            "skriva": ("skriver", "skriv"),
            "göra": ("gör",),
            "förbereda": ("förbereder", "förbered"),
            "svara": ("svarar",),
            "översätta": ("översätter", "översätt"),
            "formulera": ("formulerar",),
            "jämföra": ("jämför",),
            "sammanfatta": ("sammanfattar",),
            "planera": ("planerar",),
            "räkna": ("räknar",),
        },
        to_object=_words("svara"),
        to="på",
        verb_nouns={"svar": "svara"},
        asking=_words("kan kunde skulle behöver vill hjälp ska"),
        relayed=_words("vill undrar behöver önskar"),
        articles=_words(
            "en ett den det de min mitt mina din ditt dina vår vårt våra någon något några"
        ),
        openers=_words("ny nytt nya annan annat andra kort kortare"),
        pronouns=_words("mig mej oss henne honom dem dig"),
        of=frozenset(),
        purpose=_words("till för"),
        elided=frozenset(),
        subjects=_words("du ni jag vi"),
        titles=_words("herr fru"),
        default_verb="skriva",
        weak_verbs=_words("göra"),
        platform_before="för",
        label_next=_words("till för om på åt med från"),
        plural_takes_article=False,
        plural_spellings=(("or", "a"), ("ningar", "ning"), ("er", "")),
        plurals_seen=True,
        adjective_endings=("a",),
    ),
    # Danish and Norwegian Bokmål, like Swedish: the present first, then the imperative (the
    # infinitive without its "-e"; "svar" is left out, a noun as often as a verb). A goals
    # sentence names the work in the indefinite plural, as a role does ("Hjælper med tilbud,
    # fakturaer"): "Skriver fakturaer.", "Svarer på henvendelser."
    "da": Frame(
        code="da",
        plural_quantifiers=_words("alle mange flere"),
        generic_nouns=_words("besked beskeder tekst tekster mail mails e-mail e-mails"),
        compounds=True,
        and_words=frozenset(["og"]),
        verbs={
            "skrive": ("skriver", "skriv"),
            "lave": ("laver", "lav"),
            "forberede": ("forbereder", "forbered"),
            "udarbejde": ("udarbejder", "udarbejd"),
            "svare": ("svarer",),
            "besvare": ("besvarer", "besvar"),
            "oversætte": ("oversætter", "oversæt"),
            "formulere": ("formulerer", "formuler"),
            "sammenligne": ("sammenligner", "sammenlign"),
            "opsummere": ("opsummerer", "opsummer"),
            "planlægge": ("planlægger", "planlæg"),
            "beregne": ("beregner", "beregn"),
        },
        to_object=_words("svare"),
        to="på",
        verb_nouns={"svar": "svare"},
        asking=_words("kan kunne vil ville skal skulle behøver mangler hjælp hjælpe"),
        relayed=_words("vil ønsker spørger beder mangler behøver"),
        articles=_words(
            "en et den det de min mit mine din dit dine vores jeres hans hendes deres nogle"
        ),
        openers=_words("ny nyt nye anden andet andre kort kortere lille"),
        pronouns=_words("mig os hende ham dem dig jer"),
        of=frozenset(),
        purpose=_words("til for"),
        elided=frozenset(),
        subjects=_words("du jeg vi lige"),
        titles=_words("hr fru"),
        default_verb="skrive",
        weak_verbs=_words("lave"),
        weak_verb_makes=True,
        platform_before="til",
        label_next=_words("til for om på med fra efter ved"),
        plural_takes_article=False,
        key_letters="e",
        plural_spellings=(("aer", "a"), ("inger", "ing"), ("er", "")),
        plurals_seen=True,
        definite_endings=("en", "et", "ne"),
        adjective_endings=("e",),
    ),
    "no": Frame(
        code="no",
        plural_quantifiers=_words("alle mange flere"),
        generic_nouns=_words("melding meldinger tekst tekster mail e-post"),
        compounds=True,
        and_words=frozenset(["og"]),
        verbs={
            "skrive": ("skriver", "skriv"),
            "lage": ("lager", "lag"),
            "forberede": ("forbereder", "forbered"),
            "utarbeide": ("utarbeider", "utarbeid"),
            "svare": ("svarer",),
            "besvare": ("besvarer", "besvar"),
            "oversette": ("oversetter", "oversett"),
            "formulere": ("formulerer", "formuler"),
            "sammenligne": ("sammenligner", "sammenlign"),
            "oppsummere": ("oppsummerer", "oppsummer"),
            "planlegge": ("planlegger", "planlegg"),
            "beregne": ("beregner", "beregn"),
        },
        to_object=_words("svare"),
        to="på",
        verb_nouns={"svar": "svare"},
        asking=_words("kan kunne vil ville skal skulle trenger mangler hjelp hjelpe"),
        relayed=_words("vil ønsker spør ber trenger lurer"),
        articles=_words(
            "en ei et den det de min mi mitt mine din di ditt dine vår vårt våre deres hans "
            "hennes noen"
        ),
        openers=_words("ny nytt nye annen annet andre kort kortere liten lite"),
        pronouns=_words("meg oss henne ham dem deg dere"),
        of=frozenset(),
        purpose=_words("til for"),
        elided=frozenset(),
        subjects=_words("du jeg vi bare"),
        titles=_words("herr fru"),
        default_verb="skrive",
        weak_verbs=_words("lage"),
        weak_verb_makes=True,
        platform_before="til",
        label_next=_words("til for om på med fra etter ved"),
        plural_takes_article=False,
        key_letters="e",
        plural_spellings=(("aer", "a"), ("inger", "ing"), ("er", "")),
        plurals_seen=True,
        definite_endings=("en", "et", "ne"),
        adjective_endings=("e",),
    ),
}

# Polish, Croatian and Czech: no articles, nouns in cases. A request asks with the imperative
# (mostly of the perfective verb: "napisz", "napravi", "napiš") or with an asking word and
# the infinitive or the noun ("potrzebuję fakturę", "triba mi ponuda", "potřebuju nabídku");
# a goals sentence opens with the third person of the imperfective verb, the work done again
# and again ("Pisze oferty.", "Priprema ponude.", "Píše nabídky."). Each verb is listed as
# Dutch and Swedish ones are: the imperfective infinitive -> its third person first, then the
# forms people ask with (imperatives, both infinitives; Croatian also the infinitive without
# its "-i" as spoken: "pomozi mi napisat"). Every word is read typed without its diacritics
# too (``_with_plain``, ``typed_plain``). The sentence names the work in the accusative plural
# (no article), taken from the forms the messages write (``_slavic_plural``).
_SLAVIC_FRAMES: dict[str, Frame] = {
    "pl": Frame(
        code="pl",
        has_articles=False,
        generic_nouns=_with_plain(
            "wiadomość wiadomości tekst teksty tekstu mail maila maile e-mail email sms"
        ),
        and_words=_words("i oraz"),
        verbs={
            "pisać": ("pisze", "napisz", "napiszcie", "napisać", "pisz", "piszcie"),
            "przygotowywać": (
                "przygotowuje",
                "przygotuj",
                "przygotujcie",
                "przygotować",
                "przygotowuj",
            ),
            "robić": ("robi", "zrób", "zróbcie", "zrobić", "rób"),
            "wysyłać": ("wysyła", "wyślij", "wyślijcie", "wysłać", "wysyłaj"),
            "odpowiadać": ("odpowiada", "odpowiedz", "odpowiedzcie", "odpowiedzieć"),
            "opisywać": ("opisuje", "opisz", "opiszcie", "opisać"),
            "tłumaczyć": ("tłumaczy", "przetłumacz", "przetłumaczyć", "tłumacz"),
            "redagować": ("redaguje", "zredaguj", "zredagować", "redaguj"),
            "tworzyć": ("tworzy", "stwórz", "stworzyć", "twórz"),
            "sprawdzać": ("sprawdza", "sprawdź", "sprawdzić", "sprawdzaj"),
            "planować": ("planuje", "zaplanuj", "zaplanować", "planuj"),
            "układać": ("układa", "ułóż", "ułożyć"),
        },
        to_object=_words("odpowiadać"),
        to="na",
        verb_nouns={},
        asking=_with_plain(
            "możesz możecie mógłbyś mogłabyś może potrzebuję potrzebuje potrzeba trzeba "
            "proszę chcę chciałabym chciałbym pomóż daj"
        ),
        relayed=_with_plain("chce chcą prosi proszą potrzebują potrzebuje pyta pytają"),
        articles=_with_plain(
            "ten ta to te tę tego tej tych mój moja moje moją mojego nasz nasza nasze naszą "
            "naszego twój twoja twoje jakiś jakąś jakieś każdy każdą każde kilka parę"
        ),
        openers=_with_plain(
            "nowy nowa nowe nową nowego nowych kolejny kolejna kolejne kolejną kolejnego "
            "krótki krótka krótkie krótką krótkiego inny inna inne inną innego jeszcze"
        ),
        pronouns=_with_plain("mi mnie nam im jej mu go ją ci wam je"),
        of=frozenset(),
        purpose=_with_plain("dla do na"),
        elided=frozenset(),
        # dative pronouns and "please" between the verb and its object ("napisz mi proszę …")
        subjects=_with_plain("mi mnie nam im jej mu ci wam ty wy proszę"),
        titles=_with_plain("pan pani pana panu panią panem państwo państwa"),
        default_verb="przygotowywać",
        weak_verbs=_words("robić"),
        platform_before="na",
        label_next=_with_plain("dla do na o od z ze za w po proszę"),
        fillers=_with_plain("hej cześć ok okej dobra słuchaj witam"),
        infinitive_endings=("ać", "ić", "yć", "eć", "ąć", "uć", "ac", "ic", "yc", "ec", "ąc"),
        plural_takes_article=False,
        plurals_seen=True,
        key_letters="aeiouyąęó",
    ),
    "hr": Frame(
        code="hr",
        has_articles=False,
        generic_nouns=_with_plain("poruka poruku poruke tekst teksta mail maila e-mail sms"),
        and_words=_words("i te"),
        verbs={
            "pisati": ("piše", "napiši", "napišite", "napisati", "napisat", "piši", "pišite"),
            "pripremati": (
                "priprema",
                "pripremi",
                "pripremite",
                "pripremiti",
                "pripremit",
                "pripremaj",
            ),
            # "napraviti" (make) of a text is "izrađivati" in the third person of work done
            # again and again ("Izrađuje ponude.")
            "izrađivati": (
                "izrađuje",
                "napravi",
                "napravite",
                "napraviti",
                "napravit",
                "izradi",
                "izradite",
                "izraditi",
            ),
            "slati": ("šalje", "pošalji", "pošaljite", "poslati", "poslat"),
            "odgovarati": ("odgovara", "odgovori", "odgovorite", "odgovoriti", "odgovorit"),
            "prevoditi": ("prevodi", "prevedi", "prevedite", "prevesti"),
            "sastavljati": ("sastavlja", "sastavi", "sastavite", "sastaviti", "sastavit"),
            "provjeravati": ("provjerava", "provjeri", "provjerite", "provjeriti"),
        },
        to_object=_words("odgovarati"),
        to="na",
        verb_nouns={},
        # "triba", "tribam": the ikavian "treba" of Dalmatia; "moreš": "možeš" there
        asking=_with_plain(
            "možeš možete moreš morete treba trebam triba tribam trebao trebala molim "
            "pomozi pomozite daj dajte"
        ),
        relayed=_with_plain("hoće želi traži pita treba triba trebaju tribaju"),
        articles=_with_plain(
            "taj ta to ti te tu tog toga toj ovaj ova ovo ove ovu ovog moj moja moju moje "
            "naš naša našu naše svaki svaka svaku neki neka neku par"
        ),
        openers=_with_plain(
            "novi nova novu novo nove novog novoj još jedan jednu jedna kratak kratku kratka "
            "kratko drugi drugu druga"
        ),
        pronouns=_with_plain("mi mu joj im nam ga ih ju je ti vam"),
        of=frozenset(),
        purpose=_with_plain("za na"),
        elided=frozenset(),
        subjects=_with_plain("mi mu joj im nam ti vam molim"),
        titles=_with_plain(
            "g gosp gospodin gospodina gospodinu gospođa gospođu gospođi gđa gđu gđi gđo gđica"
        ),
        default_verb="pripremati",
        weak_verbs=_words("izrađivati"),
        platform_before="za",
        label_next=_with_plain("za na od do o u s sa iz po kod molim"),
        fillers=_with_plain("bok hej ej e evo ajde ok pozdrav"),
        infinitive_endings=("ati", "iti", "eti", "uti", "ći"),
        plural_takes_article=False,
        plurals_seen=True,
        key_letters="aeiou",
    ),
    "cs": Frame(
        code="cs",
        has_articles=False,
        generic_nouns=_with_plain("zpráva zprávu zprávy text texty textu mail mailu e-mail sms"),
        and_words=_words("a i"),
        verbs={
            "psát": ("píše", "napiš", "napište", "napsat", "piš", "pište"),
            "připravovat": ("připravuje", "připrav", "připravte", "připravit"),
            "dělat": ("dělá", "udělej", "udělejte", "udělat", "dělej"),
            "posílat": ("posílá", "pošli", "pošlete", "poslat", "posílej"),
            "odpovídat": ("odpovídá", "odpověz", "odpovězte", "odpovědět"),
            "překládat": ("překládá", "přelož", "přeložte", "přeložit"),
            "vytvářet": ("vytváří", "vytvoř", "vytvořte", "vytvořit"),
            "kontrolovat": ("kontroluje", "zkontroluj", "zkontrolujte", "zkontrolovat"),
            "sestavovat": ("sestavuje", "sestav", "sestavte", "sestavit"),
        },
        to_object=_words("odpovídat"),
        to="na",
        verb_nouns={},
        asking=_with_plain(
            "můžeš můžete mohla mohl potřebuju potřebuji potřeba prosím chci chtěla chtěl "
            "pomoz pomozte"
        ),
        relayed=_with_plain("chce chtějí potřebuje potřebují prosí ptá ptají"),
        articles=_with_plain(
            "ten ta to ty tu toho té tom tu ten tento tato toto tuto tyto můj moje moji mou "
            "naše náš naši naši každý každou nějaký nějakou nějaké pár"
        ),
        openers=_with_plain(
            "nový nová novou nové nového další krátký krátkou krátké jiný jinou jiné ještě"
        ),
        pronouns=_with_plain("mi mně nám jim jí mu ho ji ti vám je"),
        of=frozenset(),
        purpose=_with_plain("pro na do"),
        elided=frozenset(),
        subjects=_with_plain("mi mně nám jim jí mu ti vám prosím"),
        titles=_with_plain("pan pana panu panem paní slečna slečnu ing mudr"),
        default_verb="připravovat",
        weak_verbs=_words("dělat"),
        platform_before="na",
        label_next=_with_plain("pro na do o od z ze za v ve po k ke prosím"),
        fillers=_with_plain("ahoj čau hele ok dobrý zdravím"),
        infinitive_endings=("ovat", "at", "át", "it", "ít", "ět", "out", "nout"),
        plural_takes_article=False,
        plurals_seen=True,
        # adjectives before their noun in the endings no noun takes ("cenovou nabídku",
        # "slušnou upomínku", "nového zákazníka")
        adjective_endings=("ou", "ého", "ých", "ým", "ému", "eho", "ych"),
        key_letters="aeiouyáéíóúýě",
    ),
}
FRAMES.update(_SLAVIC_FRAMES)


def _plain(word: str) -> str:
    """``word`` without accents, lower case: how verb forms are looked up."""
    return typed_plain(word.lower())


@functools.lru_cache(maxsize=8)
def _verb_forms(code: str) -> dict[str, str]:
    """Every form of the frame's verbs people ask with -> the infinitive: the
    infinitive, its regular imperatives and present ("rédige", "rédigez"; "redacta",
    "redactad"), and the irregular forms the frame lists, looked up without accents."""
    frame = FRAMES[code]
    out: dict[str, str] = {}
    for inf, irregular in frame.verbs.items():
        forms = [inf, *irregular]
        stem, end = inf[:-2], inf[-2:]
        if code == "fr" and end == "er":
            forms += [stem + "e", stem + "ez", stem + "es"]
        if code == "de":
            forms += [stem + "e", stem + "t", stem + "st"]
            if stem not in german_nouns():  # "Antwort" is a noun, "schreib" a verb
                forms.append(stem)
        for ending, suffixes in frame.asked_endings.items():
            if inf.endswith(ending):
                forms += [inf[: -len(ending)] + x for x in suffixes]
        if code == "es":
            vowel = {"ar": "a", "er": "e", "ir": "e"}[end]
            forms += [stem + vowel, stem + end[0] + "d", stem + vowel + "s"]
            # the subjunctive a passed-on request takes: "me pide que le escriba …"
            forms += [stem + {"ar": "e", "er": "a", "ir": "a"}[end]]
            # the voseo, looked up without accents: its imperative and present of "-ar" and
            # "-er" verbs are written as the tú forms are ("armá"/"arma", "hacés"/"haces"),
            # of "-ir" verbs with an "i": "escribís" (its imperative "escribí" is the past
            # "I wrote" too, so it is read only with a pronoun after it: ``_enclitic_forms``)
            if end == "ir":
                forms.append(stem + "is")
        for form in forms:
            out.setdefault(_plain(form), inf)
    return out


@functools.lru_cache(maxsize=8)
def _enclitic_forms(code: str) -> dict[str, str]:
    """The forms of the frame's verbs read only with a pronoun written after them, ->
    the infinitive: the Spanish voseo imperative of an "-ir" verb ("escribime",
    "resumile"), which without one is the past "escribí" ("I wrote")."""
    if code != "es":
        return {}
    return {_plain(inf[:-2] + "i"): inf for inf in FRAMES[code].verbs if inf.endswith("ir")}


def work_verb(word: str, code: str) -> str:
    """The infinitive of the frame's verb ``word`` is a form of ("Écris" -> "écrire",
    "prepárame" -> "preparar", "écris-moi" -> "écrire", the voseo "armame",
    "escribime"), or ""."""
    frame = FRAMES[code]
    low = _plain(word)
    forms = _verb_forms(code)
    if low in forms:
        return forms[low]
    for clitic in frame.enclitics:
        plain = _plain(clitic)
        stem = low[: -len(plain)]
        if low.endswith(plain) and (stem in forms or stem in _enclitic_forms(code)):
            return forms.get(stem) or _enclitic_forms(code)[stem]
    return ""


def third_person_in(infinitive: str, code: str) -> str:
    """The verb as a goals sentence opens with it, like English "Drafts": "rédiger" ->
    "rédige", "écrire" -> "écrit"; "redactar" -> "redacta", "escribir" -> "escribe"."""
    frame = FRAMES[code]
    irregular = frame.verbs.get(infinitive) or ()
    if irregular:
        return irregular[0]
    for ending, third in frame.third_endings.items():
        if infinitive.endswith(ending):
            return infinitive[: -len(ending)] + third
    stem, end = infinitive[:-2], infinitive[-2:]
    if code == "de":
        return stem + ("et" if stem.endswith(("t", "d")) else "t")
    if code == "es":
        return stem + ("a" if end == "ar" else "e")
    return stem + "e" if end == "er" else infinitive


# German plural endings, and the noun endings whose plural is always "-en"
_GERMAN_PLURAL_ENDINGS = ("e", "en", "n", "er", "s")
_GERMAN_EN_ENDINGS = ("ung", "heit", "keit", "schaft", "ion", "tät")
_UMLAUT = str.maketrans({"a": "ä", "o": "ö", "u": "ü"})


# what the German lexicon lists that is no common noun: names, abbreviations, letters, affixes
_NOT_COMMON_NOUNS = frozenset(
    [
        "Toponym",
        "Vorname",
        "Nachname",
        "Familienname",
        "Eigenname",
        "Straßenname",
        "Abkürzung",
        "Buchstabe",
        "Symbol",
        "Affix",
        "Suffix",
        "Gebundenes Lexem",
        "Wortverbindung",
        "Redewendung",
    ]
)


def german_nouns() -> dict[str, str]:
    """German common nouns (lower case) -> their nominative plural as the lexicon writes it
    ("angebot" -> "Angebote", "kostenvoranschlag" absent, "voranschlag" -> "Voranschläge";
    "" for a noun with no plural)."""
    return _german_lexicon()[0]


@functools.lru_cache(maxsize=1)
def _german_lexicon() -> tuple[dict[str, str], dict[str, str]]:
    """(noun -> plural as written, plural -> noun), lower-case keys. Read once per process,
    on first use, from the Wiktionary table the ``german-nouns`` package ships (offline;
    about a second)."""
    import csv
    from importlib import resources

    out: dict[str, str] = {}
    of_plural: dict[str, str] = {}
    with (resources.files("german_nouns") / "nouns.csv").open(encoding="utf-8") as f:
        rows = csv.reader(f)
        header = next(rows)
        plurals = [i for i, col in enumerate(header) if col.startswith("nominativ plural")]
        for row in rows:
            lemma, kinds = row[0], set(row[1].split(","))
            if not lemma[:1].isupper() or "Substantiv" not in kinds or kinds & _NOT_COMMON_NOUNS:
                continue
            plural = next((row[i] for i in plurals if row[i]), "")
            if plural in ("-", "—", "–"):
                plural = ""
            low = lemma.lower()
            if not out.get(low):  # a homograph with a plural wins over one without
                out[low] = plural
            if plural:
                of_plural.setdefault(plural.lower(), low)
    return out, of_plural


def german_last_noun(word: str) -> str:
    """The noun (lower case) a German word is a kind of: the word itself when the lexicon
    lists it ("Anfrage" -> "anfrage"), else the longest noun of the lexicon it ends in
    ("Kursanfrage" -> "anfrage", "Abholnachricht" -> "nachricht", "Kostenvoranschlag" ->
    "voranschlag"), the part after a hyphen first ("Instagram-Beitrag" -> "beitrag"); ""
    when it ends in no noun the lexicon lists, or is a word of grammar ("Die" opening a
    sentence is the article, whatever noun the lexicon spells alike)."""
    low = word.lower().rpartition("-")[2]
    if low in FUNCTION_WORDS["de"] or low in FRAMES["de"].articles:
        return ""
    nouns, plurals = _german_lexicon()
    for i in [0, *range(COMPOUND_PART, len(low) - COMPOUND_PART + 1)]:
        if low[i:] in nouns:
            return low[i:]
        if low[i:] in plurals:  # written in the plural: "Pflegehinweise" -> "hinweise"
            return low[i:]
    return ""


def german_kind(noun: str) -> str:
    """What a German noun is a kind of, in the singular (lower case): the lexicon's noun it
    is or ends in ("Angebote" -> "angebot", "Kursanfrage" -> "anfrage", "Pflegehinweise" ->
    "hinweis"); "" when it ends in no noun the lexicon lists."""
    last = german_last_noun(noun)
    nouns, plurals = _german_lexicon()
    if last and last not in nouns:
        return plurals[last]
    return last


def _lexicon_plural(noun: str) -> str:
    """The plural of ``noun`` from the lexicon, written as ``noun`` is: its own, or the
    plural of the noun it ends in after the parts before it ("Kostenvoranschlag" ->
    "Kostenvoranschläge", "Instagram-Beitrag" -> "Instagram-Beiträge"); "" when unknown."""
    last = german_last_noun(noun)
    nouns, plurals = _german_lexicon()
    if last in plurals and last not in nouns:
        return noun  # written in the plural already ("Pflegehinweise")
    plural = nouns.get(last, "") if last else ""
    if not plural:
        return ""
    before = noun[: len(noun) - len(last)]
    if not before:
        return noun[:1] + plural[1:]
    return before + (plural if before.endswith("-") else plural.lower())


def german_plural(noun: str, seen: frozenset[str] | set[str]) -> str:
    """The plural of a German noun as written, or "" when it cannot be told: the lexicon's
    (``german_nouns``: "Angebot" -> "Angebote"; a compound takes the plural of the noun it
    ends in, "Kostenvoranschlag" -> "Kostenvoranschläge"), else a plural form the messages
    write (``seen``, lower case: "angebote", "beiträge" for "Beitrag", also for the last
    part of a compound, "Instagram-Beitrag" -> "Instagram-Beiträge"), else the "-en" of
    "-ung", "-heit", "-keit", "-schaft", "-ion", "-tät" ("Terminbestätigung" ->
    "Terminbestätigungen"). German plurals are irregular: what neither the lexicon nor a
    message shows nor an ending settles is not guessed."""
    lexical = _lexicon_plural(noun)
    if lexical:
        return lexical
    head, sep, last = noun.rpartition("-")
    for word in (last, noun) if sep else (noun,):
        low = word.lower()
        vowels = [k for k, ch in enumerate(low) if ch in "aou"]
        stems = [low]
        if vowels:
            k = vowels[-1]
            if not (k > 0 and low[k - 1] in "aeiou"):
                stems.append(low[:k] + low[k].translate(_UMLAUT) + low[k + 1 :])
        for stem in stems:
            for ending in _GERMAN_PLURAL_ENDINGS:
                form = stem + ending
                if form in seen or any(w.endswith(form) and len(form) >= 5 for w in seen):
                    written = word[:1] + form[1:]
                    return f"{head}{sep}{written}" if word is last and sep else written
    if noun.lower().endswith(_GERMAN_EN_ENDINGS):
        return noun + "en"
    return ""


# Italian nouns whose plural is the singular: shortened words ("foto" of "fotografia")
_ITALIAN_INVARIABLE = frozenset(["foto", "moto", "auto", "radio", "video", "euro", "cinema"])
_ITALIAN_FEMININE = _words(
    "la una un' le questa queste quella quelle della delle alla alle nella nelle sulla "
    "dalla mia mie tua tue sua sue nostra nostre vostra nuova nuove altra altre"
)
_ITALIAN_MASCULINE = _words(
    "il lo un uno i gli questo questi quel quello quei del dello dei degli al allo ai "
    "agli nel nello sul dal mio miei tuo tuoi suo suoi nostro nostri vostro nuovo nuovi "
    "altro altri"
)
_ITALIAN_VOWELS = re.compile(r"[aeiouàèéìíòóùú]+")


def italian_gender(noun: str, article_seen: str = "") -> str:
    """ "m" or "f", by the article the person wrote the noun with ("la mail", "un post"),
    else by an ending that settles it ("-a" but "-ma" and "-ista", "-zione", "-sione",
    "-gione", "-tà", "-tù": feminine; "-o" but the shortened "foto", "moto", "auto",
    "radio": masculine); "" when neither tells ("ordine", "post", "programma")."""
    seen = article_seen.lower()
    if seen in _ITALIAN_FEMININE:
        return "f"
    if seen in _ITALIAN_MASCULINE:
        return "m"
    low = noun.lower()
    if low.endswith(("zione", "sione", "gione", "tà", "tù")):
        return "f"
    if low.endswith("a") and not low.endswith(("ma", "ista")):
        return "f"
    if low.endswith("o"):
        return "f" if low in {"foto", "moto", "auto", "radio"} else "m"
    return ""


def _italian_plural(noun: str, gender: str) -> str:
    """The Italian plural, or "" when the spelling does not settle it: "-co" and "-go"
    after more than two syllables ("medico" -> "medici" but "incarico" -> "incarichi":
    the stress decides, and Italian does not write it), a stressed "-io" ("zio" ->
    "zii", "invio" -> "invii") against an unstressed one, a "-a" whose gender is not
    known ("programma" -> "programmi" but "forma" -> "forme")."""
    low = noun.lower()
    syllables = len(_ITALIAN_VOWELS.findall(low))
    if low.endswith("io") and low not in _ITALIAN_INVARIABLE:
        # the "i" of "-cio", "-gio", "-glio" only softens the consonant ("messaggio" ->
        # "messaggi"); "-ario", "-orio", "-zio" after two syllables are unstressed
        # ("orario" -> "orari", "negozio" -> "negozi"); "zio", "invio": "-ii"
        if low.endswith(("cio", "gio", "glio")) or (
            syllables >= 3 and low.endswith(("ario", "orio", "zio"))
        ):
            return noun[:-1]
        return ""
    if (
        low in _ITALIAN_INVARIABLE
        or syllables <= 1  # "re", "bar", "tè"
        or low[-1] not in "aeiou"  # an accented last vowel ("città", "caffè") or a consonant
        or low.endswith(("i", "u", "ie"))  # "crisi", "serie"
    ):
        return noun
    if low.endswith("a"):
        if gender == "m":  # "il programma" -> "i programmi"
            return noun[:-1] + ("hi" if low.endswith(("ca", "ga")) else "i")
        if gender != "f":
            return ""
        if low.endswith(("ca", "ga")):
            return noun[:-1] + "he"  # "bottega" -> "botteghe"
        if low.endswith(("cia", "gia")):  # "camicia" -> "camicie", "arancia" -> "arance"
            return noun[:-2] + ("ie" if low[-4:-3] in "aeiou" else "e")
        return noun[:-1] + "e"
    if low.endswith("e"):
        return noun[:-1] + "i"  # "recensione" -> "recensioni", "ordine" -> "ordini"
    # "-o"
    if low.endswith(("co", "go")):
        if syllables == 2 and low not in {"greco", "porco"}:
            return noun[:-1] + "hi"  # two syllables, stressed on the first: "parco" -> "parchi"
        return ""
    return noun[:-1] + "i"  # "preventivo" -> "preventivi"


def plural_noun(
    noun: str, code: str, *, article_seen: str = "", seen: frozenset[str] | set[str] = frozenset()
) -> str:
    """'fiche' -> 'fiches', 'devis' -> 'devis', 'journal' -> 'journaux', 'bateau' ->
    'bateaux'; 'ficha' -> 'fichas', 'inscripción' -> 'inscripciones', 'luz' -> 'luces';
    'conferma' -> 'conferme', 'post' -> 'post' (Italian), 'posts' (Spanish), "" where Italian spelling does not settle
    it (``_italian_plural``); Portuguese by ``_portuguese_plural`` (``seen``: the words
    the messages write, for "-ão"). (German: ``german_plural``.)"""
    if code == "it":
        return _italian_plural(noun, italian_gender(noun, article_seen))
    if code == "pt":
        return _portuguese_plural(noun, seen)
    if code in _SLAVIC_PLURALS:
        return _slavic_plural(noun, code, seen)
    if code in _PLURAL_ENDINGS:
        return _seen_plural(noun, code, seen, article_seen)
    low = noun.lower()
    if low.endswith(("s", "x", "z")) and not (code == "es" and low.endswith("z")):
        return noun
    if code == "fr":
        if low.endswith("al"):
            return noun[:-2] + "aux"
        if low.endswith(("eau", "eu")):
            return noun + "x"
        return noun + "s"
    if low.endswith("z"):
        return noun[:-1] + "ces"
    for accented, plain in (("ión", "iones"), ("ín", "ines"), ("án", "anes"), ("és", "eses")):
        if low.endswith(accented):
            return noun[: -len(accented)] + plain
    if low[-1:] in "aeiouáéó":
        return noun + "s"
    if low[-1:] not in _SPANISH_FINAL_CONSONANTS and not low.endswith("ch"):
        # a word no Spanish word ends like is a loanword, which keeps its own plural:
        # "post" -> "posts" ("postes" are poles), "chat" -> "chats", "blog" -> "blogs"
        return noun + "s"
    return noun + "es"


# Dutch, Swedish, Danish and Norwegian: the endings whose plural the spelling settles (singular ending,
# plural ending), and the plural endings one of which the messages must write for any
# other noun: "bevestiging" -> "bevestigingen", "offerte" -> "offertes"; "factuur" ->
# "facturen" only when a message writes it. Swedish: "faktura" -> "fakturor", "bokning"
# -> "bokningar"; "offert" -> "offerter", "förslag" -> "förslag" when written so.
_PLURAL_ENDINGS: dict[str, tuple[tuple[tuple[str, str], ...], tuple[str, ...]]] = {
    "nl": (
        (("ing", "ingen"), ("tie", "ties"), ("te", "tes"), ("el", "els"), ("er", "ers")),
        ("en", "s", "'s"),
    ),
    "sv": (
        (("ning", "ningar"), ("else", "elser"), ("tion", "tioner"), ("het", "heter")),
        ("er", "ar", "or", "r"),
    ),
    # Danish and Norwegian: "-a" and "-ing" take "-er" ("fakturaer", "bestillinger"), an
    # unstressed "-e" takes "-r" ("tjeklister", "billeder"); any other noun ("rapport",
    # "tilbud", "hus": "rapporter", "tilbud", "huse" in Danish, "hus" in Norwegian) takes
    # the plural the messages write
    "da": (
        (
            ("ing", "inger"),
            ("else", "elser"),
            ("tion", "tioner"),
            ("hed", "heder"),
            ("a", "aer"),
            ("e", "er"),
        ),
        ("er", "e"),
    ),
    "no": (
        (
            ("ing", "inger"),
            ("else", "elser"),
            ("sjon", "sjoner"),
            ("het", "heter"),
            ("a", "aer"),
            ("e", "er"),
        ),
        ("er", "e"),
    ),
}
# the ending Danish adds to an indefinite plural in "-er" to make it definite ("rapporter"
# -> "rapporterne"): a plural the messages write so is seen too. Not after "-e": "husene"
# is "huse" made definite, "opslagene" the unchanged plural "opslag" with "-ene"
_DEFINITE_PLURAL = "ne"
_SWEDISH_NEUTER = frozenset(["ett", "mitt", "ditt", "vårt", "något", "det"])
_SWEDISH_COMMON = frozenset(["en", "min", "din", "vår", "någon", "den"])
_DUTCH_LONG_VOWEL = re.compile(r"(aa|ee|oo|uu)([^aeiou])$")


def _seen_plural(
    noun: str, code: str, seen: frozenset[str] | set[str], article_seen: str = ""
) -> str:
    """The plural of a Dutch, Swedish, Danish or Norwegian noun: by its ending where that settles it
    (``_PLURAL_ENDINGS``), else the form of it the messages write (``seen``; a word after a
    plural quantifier is seen as "alle tilbud", ``Frame.plural_quantifiers``), else "". A
    Swedish neuter noun ending in a consonant (written with "ett") is its own plural, a
    common one ending in "-a" (written with "en") takes "-or"."""
    low = noun.lower()
    if code == "sv" and article_seen in _SWEDISH_NEUTER and low[-1:] not in "aeiouyåäö":
        return noun  # "ett förslag" -> "förslag"
    if code == "sv" and article_seen in _SWEDISH_COMMON and low.endswith("a"):
        return noun[:-1] + "or"  # "en faktura" -> "fakturor"
    settled, endings = _PLURAL_ENDINGS[code]
    for single, plural in settled:
        if low.endswith(single) and len(low) > len(single) + 1:
            return noun[: len(noun) - len(single)] + plural
    stems = [noun]
    if code == "nl":
        # "factuur" -> "factur-en", "boot" -> "bot-en"; "bus" -> "buss-en"; "brief" -> "briev-en"
        stems += [
            _DUTCH_LONG_VOWEL.sub(lambda m: m.group(1)[0] + m.group(2), noun),
            noun + noun[-1],
        ]
        stems += [noun[:-1] + {"f": "v", "s": "z"}.get(noun[-1], noun[-1])]
    if code == "sv" and low.endswith(("a", "e")):
        stems.append(noun[:-1])  # "faktura" -> "faktur-or", "pojke" -> "pojk-ar"
    if any(f"{q} {low}" in seen for q in FRAMES[code].plural_quantifiers):
        return noun  # "alle tilbud": the plural written as the singular is
    for stem in dict.fromkeys(stems):
        for ending in endings:
            if (stem + ending).lower() in seen:
                return stem + ending
            if code == "da" and ending == "er" and f"{stem}er{_DEFINITE_PLURAL}".lower() in seen:
                return stem + ending  # "rapporterne" -> "rapporter"
    return ""


# Polish, Croatian, Czech: the endings of the accusative plural a goals sentence names the
# work in ("Pisze oferty.", "Priprema račune.", "Píše nabídky."), added to the noun's stem
# (the noun without its last vowel). For a noun of a masculine or neuter class they are
# looked for among the words the messages write, never guessed: a Polish and Czech
# inanimate plural ("opisy", "kurzy") is written as its nominative, a Croatian masculine
# takes "-e" ("račune", not the nominative "računi"), a neuter "-a". The genitive singular
# of a feminine noun is spelt as its plural ("do každé nabídky", "svake ponude"), so seen
# there too. Only a feminine noun in "-a", written so, has a plural its spelling settles:
# Croatian "-e" ("ponuda" -> "ponude", "objava" -> "objave"); Polish "-y", "-i" after "k" and
# "g", "-e" after a soft consonant ("oferta" -> "oferty", "ulotka" -> "ulotki"); Czech "-y",
# "-e" after a soft one ("faktura" -> "faktury"); and a Polish verbal noun in "-nie" or
# "-cie" takes "-a" ("ogłoszenie" -> "ogłoszenia").
_SLAVIC_PLURALS: dict[str, tuple[str, ...]] = {
    "pl": ("y", "i", "e"),
    "hr": ("e",),
    "cs": ("y", "e"),
}
_SLAVIC_VOWELS = "aeiouyąęóáéíúůýě"
# the consonants after which a feminine "-a" takes "-e" (Polish "c", "cz", "sz", "rz", "ż",
# "dz", "l", "j"; Czech "c", "č", "ř", "š", "ž", "j", "ď", "ť", "ň"): its other plural ending
_SOFT_BEFORE_A = {
    "pl": ("c", "z", "ż", "l", "j", "i"),
    "cs": ("c", "č", "ř", "š", "ž", "j", "ď", "ť", "ň"),
}


def _slavic_plural(noun: str, code: str, seen: frozenset[str] | set[str]) -> str:
    """The accusative plural of a Polish, Croatian or Czech noun for a goals sentence
    (``_SLAVIC_PLURALS``), spelt with the diacritics ``noun`` is written with; "" when
    neither its spelling settles it nor the messages (``seen``, compared without
    diacritics) write it."""
    low = noun.lower()
    if len(low) < 3:
        return ""
    stem = noun[:-1] if low[-1] in _SLAVIC_VOWELS else noun
    if low.endswith("a") and low[-2] not in _SLAVIC_VOWELS:
        if code == "hr":
            return stem + "e"
        soft = low[:-1].endswith(_SOFT_BEFORE_A[code])
        if code == "pl" and low.endswith(("ka", "ga")):
            return stem + "i"
        return stem + ("e" if soft else "y")
    if code == "pl" and low.endswith(("nie", "cie")):
        return stem + "a"
    plain_seen = {typed_plain(w) for w in seen}
    endings = _SLAVIC_PLURALS[code]
    if code != "hr" and not stem.lower().endswith(_SOFT_BEFORE_A[code]):
        # a Polish or Czech "-e" after a hard consonant is no plural: the accusative
        # "ofertę" typed "oferte", the Czech locative "faktuře" typed "fakture"
        endings = tuple(e for e in endings if e != "e")
    if low.endswith("o"):  # a neuter noun: Croatian "pismo" -> "pisma"
        endings = ("a",)
    for ending in endings:
        if typed_plain(stem + ending).lower() in plain_seen:
            return stem + ending
    return ""


# the consonants a Spanish word of its own ends in ("papel", "pan", "flor", "red", "luz",
# "reloj", "rey"; "s" and "x" are left as they are above)
_SPANISH_FINAL_CONSONANTS = frozenset("lnrdzjy")


FEMININE_ARTICLES = frozenset(["una", "la", "esta", "esa", "las", "unas", "estas", "esas"])
MASCULINE_ARTICLES = frozenset(
    ["un", "el", "este", "ese", "los", "unos", "estos", "esos", "del", "al"]
)


def plural_article(noun: str, code: str, *, article_seen: str = "", after_to: bool = False) -> str:
    """The definite article before the plural of ``noun``, joined to the frame's ``to``
    when it follows it: French "les" ("aux" after "à"); Spanish "los" or "las" by the
    article the person wrote the noun with ("una ficha" -> "las"), else by its ending."""
    if code == "fr":
        return "aux" if after_to else "les"
    frame = FRAMES.get(code)
    if frame is not None and not frame.plural_takes_article:
        # "Schreibt Angebote.", "Schrijft offertes.": no article, "to" alone after the verb
        # that takes it ("Reageert op reviews.", "Svarar på recensioner.")
        return frame.to if after_to else ""
    if code == "it":
        return _italian_plural_article(noun, article_seen, after_to)
    if code == "pt":
        return _portuguese_plural_article(noun, article_seen, after_to)
    seen = article_seen.lower()
    if seen in FEMININE_ARTICLES:
        art = "las"
    elif seen in MASCULINE_ARTICLES:
        art = "los"
    else:
        low = noun.lower()
        art = "las" if low.endswith(("a", "ión", "dad", "tad", "tud", "umbre")) else "los"
    return f"a {art}" if after_to else art


def _italian_plural_article(noun: str, article_seen: str, after_to: bool) -> str:
    """ "le" (feminine), "gli" (masculine before a vowel, "s" and a consonant, "z", "gn",
    "ps", "x", "y") or "i", joined to "a" after it ("alle", "agli", "ai"); "" when the
    gender cannot be told."""
    gender = italian_gender(noun, article_seen)
    if not gender:
        return ""
    low = noun.lower()
    if gender == "f":
        art = "le"
    elif (
        low[:1] in "aeiouhxyz"
        or low.startswith(("gn", "ps", "pn"))
        or (low.startswith("s") and low[1:2] not in "aeiou")
    ):
        art = "gli"
    else:
        art = "i"
    frame = FRAMES["it"]
    return frame.joined[f"{frame.to} {art}"] if after_to else art


_PORTUGUESE_FEMININE = _words(
    "a as uma umas esta estas essa essas aquela aquelas minha minhas tua tuas sua suas "
    "nossa nossas da das na nas à às duma numa pra pras nova novas outra outras"
)
_PORTUGUESE_MASCULINE = _words(
    "o os um uns este estes esse esses aquele aqueles meu meus teu teus seu seus nosso "
    "nossos do dos no nos ao aos dum num pro pros novo novos outro outros"
)
# letters Portuguese words do not end in: a word ending so is borrowed ("post", "reel")
_PORTUGUESE_FINALS = "aeiouáéíóúâêôãõlrzmsx"
_PORTUGUESE_ACCENTS = re.compile(r"[áéíóúâêô]")


def portuguese_gender(noun: str, article_seen: str = "") -> str:
    """ "m" or "f", by the article the person wrote the noun with ("a mensagem", "um
    post"), else by an ending that settles it ("-ção", "-são", "-dade", "-agem", "-tude":
    feminine; "-a" but "-ma" and "-ista": feminine; "-o": masculine); "" when neither tells
    ("cliente", "cartão" against "mão", "programa")."""
    seen = article_seen.lower()
    if seen in _PORTUGUESE_FEMININE:
        return "f"
    if seen in _PORTUGUESE_MASCULINE:
        return "m"
    low = noun.lower()
    if low.endswith(("ção", "são", "dade", "agem", "tude", "ções", "sões", "dades", "agens")):
        return "f"
    if low.endswith(("a", "as")) and not low.endswith(("ma", "mas", "ista", "istas")):
        return "f"
    if low.endswith(("o", "os")) and not low.endswith(("ão", "ãos")):
        return "m"
    return ""


def _portuguese_plural(noun: str, seen: frozenset[str] | set[str]) -> str:
    """The Portuguese plural (European and Brazilian spelling alike), or "" when the
    spelling does not settle it and the messages do not write it: a vowel takes "-s"
    ("orçamento" -> "orçamentos", "maçã" -> "maçãs"), "-m" "-ns" ("mensagem" ->
    "mensagens"), "-r" and "-z" "-es" ("flor" -> "flores"), "-al", "-ol", "-ul" "-ais",
    "-óis", "-uis", "-el" "-éis" ("papel" -> "papéis") or "-eis" after an accent
    ("nível" -> "níveis"), "-il" "-is" or "-eis" after an accent ("fóssil" -> "fósseis");
    "-s" and "-x" stay (a plural already, "lápis", "tórax"). "-ão" takes "-ões", "-ães"
    or "-ãos" ("pão", "mão"), which the spelling does not tell (but "-ção" always takes
    "-ções": "publicação" -> "publicações"): only the
    plural the messages write (``seen``, lower case) is taken; so for a borrowed word
    ("post", "e-mail", "story": "-s" for one, "-ies" for another)."""
    low = noun.lower()
    if low.endswith("ção"):
        return noun[:-3] + "ções"  # the one "-ão" the spelling settles: "publicação"
    if low.endswith("ão"):
        for ending in ("ões", "ães", "ãos"):
            if low[:-2] + ending in seen:
                return noun[:-2] + ending
        return ""
    borrowed = (
        any(ch in low for ch in "kwy")
        or low[-1:] not in _PORTUGUESE_FINALS
        or (low.endswith("l") and low[-3:-2] in "aeiou")  # "e-mail", "reel"
    )
    if borrowed:
        return noun if low.endswith("s") else (noun + "s" if low + "s" in seen else "")
    if low.endswith(("s", "x")):
        return noun
    if low.endswith("m"):
        return noun[:-1] + "ns"
    if low.endswith(("r", "z")):
        return noun + "es"
    accented = bool(_PORTUGUESE_ACCENTS.search(low[:-2]))
    if low.endswith(("al", "ol", "ul")):
        return noun[:-2] + {"a": "ais", "o": "óis", "u": "uis"}[low[-2]]
    if low.endswith("el"):
        return noun[:-2] + ("eis" if accented else "éis")
    if low.endswith("il"):
        return noun[:-2] + ("eis" if accented else "is")
    return noun + "s"


def _portuguese_plural_article(noun: str, article_seen: str, after_to: bool) -> str:
    """ "os" or "as" by gender (``portuguese_gender``), joined to "a" after it ("aos",
    "às"); "" when the gender cannot be told."""
    gender = portuguese_gender(noun, article_seen)
    if not gender:
        return ""
    art = "as" if gender == "f" else "os"
    frame = FRAMES["pt"]
    return frame.joined[f"{frame.to} {art}"] if after_to else art


# --- a small frame per language for standing rules outside English ------------------------------

# What the local proposer needs to tell that a correction in French, Spanish, Italian,
# Portuguese, German, Danish or Norwegian is an instruction it may keep as written ("pon siempre los precios
# con el IVA incluido", "Lieferzeit immer in Kalenderwochen angeben"): the
# verbs instructions open with (infinitive -> irregular forms: imperatives, and the forms
# a prohibition takes, "nunca pongas"), the words that may stand before that verb
# ("siempre", "nunca", "ne … jamais") and the courtesy words that close one ("por favor").
# Nothing here names a domain.


@dataclass(frozen=True)
class RuleFrame:
    code: str
    verbs: dict[str, tuple[str, ...]]
    before_verb: frozenset[str]
    courtesy: frozenset[str]
    # the endings of the regular forms an instruction opens with, by the ending of the
    # infinitive ("aggiungi", "metti"); for a frame that lists them (French and Spanish
    # forms are derived in ``_instruction_forms``)
    asked_endings: dict[str, tuple[str, ...]] = field(default_factory=dict)
    # the particles of separable verbs (German "angeben", "hinzufügen"): an instruction
    # opens with the verb's imperative and closes with its particle ("Gib die Lieferzeit
    # immer in KW an", "Füge … hinzu")
    particles: frozenset[str] = frozenset()
    # an instruction may also end in its verb's infinitive, the object and "immer", "nie"
    # before it (German "Lieferzeiten bitte immer in Kalenderwochen angeben", "Bitte die
    # Kunden siezen") ...
    infinitive_last: bool = False
    # ... unless the clause has a subject of its own or is a subordinate clause ("auch wenn
    # die uns duzen", "was wir schreiben"), whose verb stands last too
    own_clause: frozenset[str] = frozenset()


RULE_FRAMES: dict[str, RuleFrame] = {
    "es": RuleFrame(
        code="es",
        verbs={
            "poner": ("pon", "ponga", "pongas", "poned"),
            "decir": ("di", "diga", "digas", "decid"),
            "dar": ("da", "dé", "des", "dad"),
            "hacer": ("haz", "haga", "hagas"),
            "incluir": ("incluye", "incluya", "incluyas"),
            "usar": (),
            "utilizar": (),
            "añadir": (),
            "indicar": (),
            "escribir": (),
            "llamar": (),
            "mencionar": (),
            "tratar": (),
            "firmar": (),
        },
        before_verb=frozenset(["siempre", "nunca", "jamás", "no", "también"]),
        courtesy=frozenset(["por", "favor", "porfa", "gracias"]),
    ),
    "fr": RuleFrame(
        code="fr",
        verbs={
            "mettre": ("mets", "mettez", "mette"),
            "dire": ("dis", "dites"),
            "donner": (),
            "utiliser": (),
            "ajouter": (),
            "indiquer": (),
            "préciser": (),
            "écrire": ("écris", "écrivez"),
            "inclure": ("inclus", "incluez"),
            "appeler": ("appelle", "appelez"),
            "signer": (),
            "vouvoyer": (),
            "tutoyer": (),
        },
        before_verb=frozenset(["toujours", "jamais", "ne", "n'", "pas"]),
        courtesy=frozenset(["s'il", "te", "plaît", "vous", "plaît", "stp", "svp", "merci"]),
    ),
    "it": RuleFrame(
        code="it",
        verbs={
            "mettere": (),
            "scrivere": (),
            "aggiungere": (),
            "indicare": (),
            "usare": (),
            "utilizzare": (),
            "dire": ("di'", "dì", "dica"),
            "chiamare": (),
            "citare": (),
            "firmare": (),
            "specificare": (),
            "includere": (),
            "togliere": ("togli", "tolga"),
            "dare": ("da'", "dai", "dia"),
        },
        before_verb=frozenset(["sempre", "mai", "non", "anche"]),
        courtesy=frozenset(["per", "favore", "piacere", "grazie"]),
        asked_endings={
            "are": ("a", "i", "ate"),
            "ere": ("i", "ete", "a"),
            "ire": ("i", "ite", "a"),
        },
    ),
    "pt": RuleFrame(
        code="pt",
        # European and Brazilian spelling alike; the imperative of "tu" and of "você"
        # ("usa", "use") and the prohibition after "não", "nunca" ("não uses", "nunca
        # ponhas")
        verbs={
            "pôr": ("põe", "ponha", "ponhas", "ponham", "ponde"),
            "dizer": ("diz", "diga", "digas", "dize"),
            "dar": ("dá", "dê", "dês", "deem"),
            "fazer": ("faz", "faça", "faças", "façam"),
            "incluir": ("inclui", "inclua", "incluas", "incluam"),
            "indicar": ("indique", "indiques"),
            "colocar": ("coloque", "coloques"),
            "especificar": ("especifique", "especifiques"),
            "trocar": ("troque", "troques"),
            "usar": (),
            "utilizar": (),
            "acrescentar": (),
            "adicionar": (),
            "escrever": (),
            "mencionar": (),
            "tratar": (),
            "assinar": (),
            "chamar": (),
            "tirar": (),
            "deixar": (),
            "evitar": (),
            "responder": (),
            "mandar": (),
        },
        before_verb=frozenset(["sempre", "nunca", "jamais", "não", "também", "nem"]),
        courtesy=frozenset(["por", "favor", "pf", "pfv", "obrigado", "obrigada"]),
        asked_endings={
            "ar": ("a", "e", "as", "es", "em"),
            "er": ("e", "a", "es", "as", "am"),
            "ir": ("e", "a", "es", "as", "am"),
        },
    ),
    "de": RuleFrame(
        code="de",
        # infinitive -> irregular imperatives ("gib", "nimm"); a separable verb is written
        # with its particle first ("angeben") and takes the forms of the verb after it
        verbs={
            "schreiben": (),
            "setzen": (),
            "geben": ("gib", "gebt"),
            "nehmen": ("nimm", "nehmt"),
            "nennen": (),
            "verwenden": (),
            "benutzen": (),
            "nutzen": (),
            "schicken": (),
            "lassen": ("lass", "lasst"),
            "siezen": (),
            "duzen": (),
            "anreden": (),
            "ansprechen": ("sprich", "sprecht"),
            "angeben": (),
            "hinzufügen": (),
            "dazuschreiben": (),
            "weglassen": (),
            "erwähnen": (),
            "unterschreiben": (),
            "ändern": (),
        },
        before_verb=frozenset(
            ["bitte", "immer", "nie", "niemals", "nicht", "kein", "keine", "keinen", "auch"]
        ),
        courtesy=frozenset(["bitte", "danke"]),
        # "schreib", "schreibe", "schreibt", "Schreiben Sie" (the infinitive); "verwendet";
        # "ändere", "ändert"
        asked_endings={
            "en": ("", "e", "t", "et"),
            "ern": ("er", "ere", "ert"),
            "eln": ("el", "le", "elt"),
        },
        particles=frozenset(["an", "ab", "auf", "aus", "ein", "mit", "weg", "hinzu", "dazu", "zu"]),
        infinitive_last=True,
        own_clause=_words(
            "ich du er es wir ihr sie man dass wenn weil ob obwohl als da damit bevor "
            "nachdem während was wer wie wo"
        ),
    ),
    # Danish and Norwegian: the imperative is the infinitive without its "-e" ("skriv",
    # "brug", "husk"); listed are the imperatives that differ ("sæt", "læg": Danish writes
    # no double consonant at the end) and verbs not in "-e" ("gi", "ta"). The adverb follows
    # the imperative ("Skriv altid ugedagen med …", "Skriv aldri …")
    "da": RuleFrame(
        code="da",
        verbs={
            "skrive": (),
            "bruge": (),
            "sætte": ("sæt",),
            "lægge": ("læg",),
            "stille": ("stil",),
            "give": (),
            "tage": (),
            "nævne": (),
            "huske": (),
            "tilføje": (),
            "angive": (),
            "kalde": (),
            "undgå": (),
            "holde": (),
            "fjerne": (),
            "tiltale": (),
            "underskrive": (),
            "sige": (),
            "starte": (),
            "slutte": (),
        },
        before_verb=frozenset(["altid", "aldrig", "også"]),
        courtesy=frozenset(["tak", "venligst"]),
        asked_endings={"e": ("",)},
    ),
    "no": RuleFrame(
        code="no",
        verbs={
            "skrive": (),
            "bruke": (),
            "sette": (),
            "legge": (),
            "stille": (),
            "gi": (),
            "ta": (),
            "nevne": (),
            "huske": (),
            "tilføye": (),
            "oppgi": (),
            "kalle": (),
            "unngå": (),
            "holde": (),
            "fjerne": (),
            "tiltale": (),
            "signere": (),
            "si": (),
            "starte": (),
            "avslutte": (),
        },
        before_verb=frozenset(["alltid", "aldri", "også"]),
        courtesy=frozenset(["takk", "vennligst"]),
        asked_endings={"e": ("",)},
    ),
}


def _regular_forms(frame: RuleFrame, inf: str) -> list[str]:
    """The infinitive and the forms an instruction opens with that the frame's endings
    derive from it, by the longest ending it has ("ändern": "änder", "ändere", "ändert",
    not the "-en" forms)."""
    endings = [e for e in frame.asked_endings if inf.endswith(e)]
    if not endings:
        return [inf]
    ending = max(endings, key=len)
    return [inf, *(inf[: -len(ending)] + x for x in frame.asked_endings[ending])]


def _separated(frame: RuleFrame, inf: str) -> tuple[str, str] | None:
    """A separable verb's particle and the verb it goes with ("angeben" -> ("an",
    "geben"), "hinzufügen" -> ("hinzu", "fügen")), or None."""
    for particle in sorted(frame.particles, key=len, reverse=True):
        rest = inf[len(particle) :]
        if inf.startswith(particle) and len(rest) > 3 and rest[-1] == "n":
            return particle, rest
    return None


@functools.lru_cache(maxsize=8)
def _instruction_forms(code: str) -> frozenset[str]:
    """The forms an instruction may open with, without accents: the infinitive, the
    regular imperatives and prohibitions ("usa", "usad", "uses", "use"; "utilise",
    "utilisez") and the irregular forms the frame lists; a separable verb's opening forms
    are those of ``_separable_forms``."""
    frame = RULE_FRAMES[code]
    out: set[str] = set()
    for inf, irregular in frame.verbs.items():
        stem, end = inf[:-2], inf[-2:]
        forms = [*_regular_forms(frame, inf), *irregular]
        if code == "es":
            vowel, other = {"ar": ("a", "e"), "er": ("e", "a"), "ir": ("e", "a")}[end]
            forms += [stem + vowel, stem + end[0] + "d", stem + other, stem + other + "s"]
        elif code == "fr" and end == "er":
            forms += [stem + "e", stem + "ez"]
        if _separated(frame, inf):
            forms = [inf]  # "angeben" stands last; "gib … an" is a separable form
        out.update(_plain(f) for f in forms)
    return frozenset(out)


@functools.lru_cache(maxsize=8)
def _separable_forms(code: str) -> dict[str, frozenset[str]]:
    """The forms a separable verb's instruction opens with, and the particles one of them
    may close with: "gib" -> {"an"} ("Gib die Lieferzeit in KW an"), "fuge" -> {"hinzu"}.
    The verb after the particle takes its own irregular forms when the frame lists it."""
    frame = RULE_FRAMES[code]
    out: dict[str, set[str]] = {}
    for inf in frame.verbs:
        split = _separated(frame, inf)
        if split is None:
            continue
        particle, verb = split
        forms = [*_regular_forms(frame, verb), *frame.verbs.get(verb, ())]
        for form in forms:
            out.setdefault(_plain(form), set()).add(particle)
    return {form: frozenset(ps) for form, ps in out.items()}


def instruction_in(words: list[str], code: str) -> bool:
    """Whether ``words`` (a correction clause as written) is an instruction of the
    frame: past the words that may stand before it ("siempre", "nunca", "ne"), its
    first word is a form of one of the frame's verbs ("pon siempre los precios …",
    "nunca pongas una hora exacta"); or a separable verb's form with its particle last
    ("Gib die Lieferzeit immer in KW an"); or, in a frame that puts it there, the
    infinitive last after what it acts on ("Lieferzeit bitte immer in KW angeben"), in a
    clause with no subject of its own and no subordinating word ("auch wenn die uns
    duzen" is none)."""
    frame = RULE_FRAMES.get(code)
    if frame is None:
        return False
    k = 0
    while k < len(words) and words[k].lower() in frame.before_verb:
        k += 1
    if k >= len(words) - 1 or words[k].lower().strip(".,;:!?") in frame.courtesy:
        return False  # "por favor" is no "pôr" (Portuguese)
    first, last = _plain(words[k]), _plain(words[-1].strip(".,;:!?"))
    if first in _instruction_forms(code):
        return True
    if last in _separable_forms(code).get(first, ()):
        return True
    if not frame.infinitive_last or last not in frame_infinitives(code):
        return False
    before = [w for w in words[:-1] if w.lower() not in frame.before_verb | frame.courtesy]
    own = [w for w in words[:-1] if w.lower() in frame.own_clause and w != "Sie"]
    return bool(before) and not own


@functools.lru_cache(maxsize=8)
def frame_infinitives(code: str) -> frozenset[str]:
    """The infinitives of a rule frame's verbs, without accents."""
    return frozenset(_plain(inf) for inf in RULE_FRAMES[code].verbs)
