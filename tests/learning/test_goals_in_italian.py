"""Italian is a language of the local proposer like French and Spanish: its requests
("mi prepari …", "puoi fare …", "mi serve …", "ho bisogno di …", imperatives, labels)
are grouped and worded in Italian, plurals and articles follow the spelling where it
settles them and are never guessed where it does not, and a recurring instruction is a
standing rule kept as written."""

from __future__ import annotations

import pytest

from learning import language
from learning.proposers.local import LocalProposer
from learning.proposers.local.foreign_rules import foreign_rule
from learning.proposers.local.hygiene import proper_words
from learning.proposers.local.other_languages import (
    asks_of,
    find_foreign_themes,
    foreign_sentence,
)
from tests.learning.corpora import corpus_of, correction_hits, sentence_check, settings

ITALIAN_PERSONA = {
    "role": "Aiuta Paola a scrivere ai clienti della pasticceria",
    "goals": "Far risparmiare tempo a Paola con le risposte e gli ordini.",
    "background": "Una pasticceria di quartiere a Lecce che fa torte su ordinazione.",
    "guardrails": ["Non comunicare mai i telefoni dei clienti."],
    "standing_rules": [],
}
ITALIAN = [
    (1, "Mi scrivi la conferma d'ordine per la signora Bianchi? Torta per sabato.", False),
    (1, "Fammi la conferma d'ordine per il signor Russo, due crostate per domenica.", False),
    (1, "Conferma d'ordine per la Sig.ra Greco: una torta di compleanno.", False),
    (1, "Un post per Instagram: le sfogliatelle appena sfornate.", False),
    (1, "Post per Instagram: la nuova vetrina di Natale.", False),
    (1, "Post Instagram per la torta della settimana.", False),
    (1, "grazie, perfetto", True),
]


@pytest.mark.parametrize(
    ("text", "verb", "noun"),
    [
        ("Mi prepari il preventivo per il matrimonio?", "preparare", "preventivo"),
        ("Puoi fare una locandina per la festa?", "fare", "locandina"),
        ("Mi serve un preventivo per la cena.", "", "preventivo"),
        ("Ho bisogno di una risposta alla recensione.", "rispondere", "recensione"),
        ("Scrivimi la mail ai fornitori.", "scrivere", "mail"),
        ("Rispondi a questa recensione su Google.", "rispondere", "recensione"),
        ("Rispondi alla recensione di ieri.", "rispondere", "recensione"),
        ("Preventivo per la cena aziendale del 12.", "", "preventivo"),
    ],
)
def test_an_italian_request_gives_its_verb_and_noun(text, verb, noun):
    [ask] = asks_of(corpus_of([(1, text, False)]).messages[0], "it", set())
    assert (ask.verb, ask.noun) == (verb, noun)


def test_an_italian_request_is_grouped_and_worded_in_italian():
    corpus = corpus_of(ITALIAN)
    names = proper_words(corpus.messages, english=False, code="it")
    themes = find_foreign_themes(corpus.messages, "it", names, min_conversations=3, min_users=None)
    assert sorted(foreign_sentence(t, "it") for t in themes) == [
        "Prepara i post per Instagram.",  # what every request names: the work is prepared
        "Scrive le conferme d'ordine.",  # the verb its requests use first, "d'ordine" kept
    ]


def test_an_italian_persona_gets_an_italian_proposal_with_verified_quotes():
    corpus = corpus_of(ITALIAN)
    result = LocalProposer().propose_sentence(corpus, ITALIAN_PERSONA, settings())
    assert result.declined == ""
    assert result.data["sentence"] in {
        "Scrive le conferme d'ordine.",
        "Prepara i post per Instagram.",
    }
    assert sentence_check(corpus, result.data).ok
    quotes = " ".join(e["quote"] for e in result.data["evidence"])
    assert not {"Bianchi", "Russo", "Greco"} & set(quotes.split())


def test_a_noun_whose_plural_the_spelling_does_not_settle_is_not_worded():
    # "elenco" (three syllables, "-co"): "elenchi" or "elenci" depends on the stress
    rows = [(1, f"Mi prepari l'elenco dei fornitori per {day}?", False) for day in "abc"]
    corpus = corpus_of(rows)
    assert (
        find_foreign_themes(corpus.messages, "it", set(), min_conversations=3, min_users=None) == []
    )


@pytest.mark.parametrize(
    ("noun", "article", "plural"),
    [
        ("preventivo", "", "preventivi"),
        ("conferma", "la", "conferme"),
        ("lettera", "", "lettere"),
        ("recensione", "", "recensioni"),
        ("bottega", "", "botteghe"),
        ("camicia", "", "camicie"),
        ("arancia", "", "arance"),
        ("parco", "", "parchi"),
        ("messaggio", "", "messaggi"),
        ("negozio", "", "negozi"),
        ("programma", "il", "programmi"),
        ("città", "", "città"),  # an accented last vowel
        ("post", "un", "post"),  # a consonant
        ("foto", "", "foto"),
        ("crisi", "", "crisi"),
        # not guessed: the stress ("medico" -> "medici", "incarico" -> "incarichi"; "zio" ->
        # "zii"), or the gender of an "-a" ("programma" / "forma")
        ("medico", "", ""),
        ("zio", "", ""),
        ("programma", "", ""),
    ],
)
def test_italian_plurals(noun, article, plural):
    assert language.plural_noun(noun, "it", article_seen=article) == plural


def test_the_italian_plural_article_follows_gender_and_first_letters():
    assert language.plural_article("lettera", "it") == "le"
    assert language.plural_article("conferma", "it", article_seen="la") == "le"
    assert language.plural_article("conferma", "it") == ""  # "-ma": "la forma", "il tema"
    assert language.plural_article("preventivo", "it") == "i"
    assert language.plural_article("scontrino", "it") == "gli"
    assert language.plural_article("post", "it", article_seen="un") == "i"
    assert language.plural_article("ordine", "it", article_seen="l'") == ""  # no gender
    assert language.plural_article("recensione", "it", after_to=True) == "alle"
    assert language.third_person_in("rispondere", "it") == "risponde"
    assert language.third_person_in("fare", "it") == "fa"


def test_an_italian_instruction_is_kept_as_written_and_a_bare_reminder_is_not():
    assert language.instruction_in(["aggiungi", "l'annata", "dell'olio"], "it")
    assert language.instruction_in(["non", "scrivere", "mai", "EVO"], "it")
    assert not language.instruction_in(["estratto", "a", "freddo"], "it")
    hits = correction_hits(
        "aggiungi sempre l'annata, i ristoratori la chiedono",
        "l'annata, te l'ho già detto",
    )
    assert foreign_rule(hits, "it") == "Aggiungi sempre l'annata."


def test_of_verbs_used_equally_often_the_one_that_names_the_work_words_the_sentence():
    rows = [
        (1, "Fammi la conferma d'ordine per la signora Bianchi.", False),
        (1, "Mi scrivi la conferma d'ordine per il signor Russo?", False),
        (1, "Conferma d'ordine per la Sig.ra Greco: una torta.", False),
    ]
    corpus = corpus_of(rows)
    names = proper_words(corpus.messages, english=False, code="it")
    themes = find_foreign_themes(corpus.messages, "it", names, min_conversations=3, min_users=None)
    assert [foreign_sentence(t, "it") for t in themes] == ["Scrive le conferme d'ordine."]
