"""Danish and Norwegian (Bokmål) are languages of the local proposer: requests ("kan du
skrive …", "lav en …", labels) are grouped and worded in the persona's language, a plural
is the one the spelling settles or the messages write and is never guessed, a recipient
("til bureauet") makes no theme, a correction that is an instruction ("skriv altid …",
"brug …") is a rule, and a sentence the identifier tells the sibling language is no
sentence in "another language"."""

from __future__ import annotations

import pytest

from learning import language
from learning.policy import sentence_refusal
from learning.proposers.local import LocalProposer
from learning.proposers.local.hygiene import proper_words
from learning.proposers.local.other_languages import (
    asks_of,
    find_foreign_themes,
    foreign_sentence,
)
from tests.learning.corpora import corpus_of, sentence_check, settings

DANISH_PERSONA = {
    "role": "Hjælper Søren med kunderne i hans cykelværksted",
    "goals": "Spare Søren tid ved skrivebordet, så han kan stå ved arbejdsbænken.",
    "background": "Et lille cykelværksted i Odense, der reparerer og sælger brugte cykler.",
    "guardrails": ["Giv aldrig kunders adresser eller telefonnumre videre."],
    "standing_rules": [],
}
# invoices asked for with a modal, an imperative and a label, in three conversations
DANISH = [
    (1, "Kan du skrive en faktura til en kunde for et nyt baghjul?", False),
    (1, "Lav en faktura for eftersynet af to cykler.", False),
    (1, "Faktura for en reparation af en ladcykel, betaling om otte dage.", False),
    (1, "tak, fint", True),
]
NORWEGIAN_PERSONA = {
    "role": "Hjelper Kari med e-post til gjestene på campingplassen",
    "goals": "Spare Kari tid på kontoret, slik at hun kan være ute på plassen.",
    "background": "En liten campingplass ved fjorden med hytter og teltplasser.",
    "guardrails": ["Gi aldri ut gjestenes adresser eller telefonnumre."],
    "standing_rules": [],
}
NORWEGIAN = [
    (1, "Kan du lage en sjekkliste til vask av hyttene?", False),
    (1, "Lag en sjekkliste for gjestene før avreise.", False),
    (1, "Sjekkliste til åpningen av sesongen i mai.", False),
    (1, "takk", True),
]


@pytest.mark.parametrize(
    ("text", "code", "verb", "noun"),
    [
        ("Kan du skrive et tilbud til en ny kunde?", "da", "skrive", "tilbud"),
        ("Lav en tjekliste til rengøringen.", "da", "lave", "tjekliste"),
        ("Rapport til ejeren efter weekenden: alt er fint.", "da", "", "rapport"),
        ("Kan du lage en faktura til kunden?", "no", "lage", "faktura"),
        ("Skriv en rapport om skaden på taket.", "no", "skrive", "rapport"),
    ],
)
def test_a_danish_or_norwegian_request_gives_its_verb_and_noun(text, code, verb, noun):
    [ask] = asks_of(corpus_of([(1, text, False)]).messages[0], code, set())
    assert (ask.verb, ask.noun) == (verb, noun)


@pytest.mark.parametrize(
    ("noun", "code", "article", "seen", "plural"),
    [
        ("faktura", "da", "en", set(), "fakturaer"),
        ("tjekliste", "da", "en", set(), "tjeklister"),
        ("bestilling", "no", "en", set(), "bestillinger"),
        ("sjekkliste", "no", "en", set(), "sjekklister"),
        ("rapport", "da", "en", {"rapporterne"}, "rapporter"),  # written definite
        ("rapport", "no", "en", {"rapporter"}, "rapporter"),
        ("rapport", "da", "en", set(), ""),  # not guessed
        ("tilbud", "da", "et", set(), ""),  # "tilbud" or "tilbude": not guessed
        ("opslag", "da", "et", {"opslagene"}, ""),  # "opslag" made definite, not "opslage"
    ],
)
def test_a_danish_or_norwegian_plural_is_the_one_the_spelling_settles_or_the_messages_write(
    noun, code, article, seen, plural
):
    assert language.plural_noun(noun, code, article_seen=article, seen=seen) == plural


def test_danish_and_norwegian_requests_are_grouped_and_worded_in_their_language():
    for rows, code, sentence in (
        (DANISH, "da", "Skriver fakturaer."),
        (NORWEGIAN, "no", "Lager sjekklister."),
    ):
        corpus = corpus_of(rows)
        names = proper_words(corpus.messages, english=False, code=code)
        themes = find_foreign_themes(
            corpus.messages, code, names, min_conversations=3, min_users=None
        )
        assert [foreign_sentence(t, code) for t in themes] == [sentence]


def test_a_danish_persona_gets_a_danish_proposal_with_verified_quotes():
    corpus = corpus_of(DANISH)
    result = LocalProposer().propose_sentence(corpus, DANISH_PERSONA, settings())
    assert result.declined == ""
    assert result.data["sentence"] == "Skriver fakturaer."
    assert sentence_check(corpus, result.data).ok


def test_whom_the_work_goes_to_makes_no_theme():
    # reports in three conversations; "til bureauet" names whom three kinds of work go to,
    # not a fourth kind ("Skriver rapporter til bureauet." would be the reports again)
    rows = [
        (1, "Rapport til ejeren om hus 12: alt i orden.", False),
        (1, "Rapport om hus 40 efter i dag, bureauet sender rapporterne videre.", False),
        (1, "Rapport til bureauet om hus 7: knust glas.", False),
        (1, "Kan du skrive en besked til bureauet.", False),
        (1, "Faktura til bureauet for september.", False),
    ]
    corpus = corpus_of(rows)
    themes = find_foreign_themes(corpus.messages, "da", set(), min_conversations=3, min_users=None)
    assert [t.key for t in themes] == ["rapport"]


@pytest.mark.parametrize(
    ("words", "code", "instruction"),
    [
        ("brug husnummeret, ikke ejerens navn", "da", True),
        ("skriv altid ugedagen med på datoerne", "da", True),
        ("sæt altid prisen inkl. moms", "da", True),
        ("husnummer øverst, ikke ejerens navn", "da", False),
        ("priserne skal altid stå inkl. moms", "da", False),
        ("skriv alltid ukedagen foran datoen", "no", True),
        ("bruk husnummeret, ikke navnet til eieren", "no", True),
        ("ukedagen skal være med", "no", False),
    ],
)
def test_a_danish_or_norwegian_correction_is_an_instruction_when_it_opens_with_an_imperative(
    words, code, instruction
):
    assert language.instruction_in(words.split(), code) is instruction


def test_a_danish_standing_rule_is_kept_as_written():
    rows = [
        (1, "skriv altid ugedagen med på datoerne, ellers kan han ikke finde dem", True),
        (1, "skriv altid ugedagen med på datoerne tak", True),
        (1, "skriv altid ugedagen med på datoerne", True),
    ]
    corpus = corpus_of(rows)
    result = LocalProposer().propose_rule(corpus, DANISH_PERSONA, settings())
    assert result.declined == ""
    assert result.data["rule"] == "Skriv altid ugedagen med på datoerne."


def test_a_sentence_the_identifier_tells_the_sibling_language_is_not_refused():
    told_danish = "Skriver fakturaer og rykkere til husejerne hver måned."
    assert language.detect(told_danish) == "da"
    assert not sentence_refusal(
        sentence=told_danish, field="goals", persona=NORWEGIAN_PERSONA, known_names=set()
    )
    swedish = {**NORWEGIAN_PERSONA, "role": "Hjälper Kari med mejl till gästerna på campingen"}
    swedish["goals"] = "Spara tid åt Kari så att hon kan vara ute på campingen."
    swedish["background"] = "En liten camping vid sjön med stugor och tältplatser."
    swedish["guardrails"] = ["Lämna aldrig ut gästernas adresser."]
    assert language.persona_language(swedish) == "sv"
    reason = sentence_refusal(
        sentence=told_danish, field="goals", persona=swedish, known_names=set()
    )
    assert reason and "written in Danish" in reason
