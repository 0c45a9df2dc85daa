"""Requests are read where people put the verb (in French or Spanish: after object
pronouns, after "necesito", in the subjunctive of a passed-on request) and grouped by what
they are about as well as by the noun they make; a quote is the part of a request that names
the work; names known to memory never take a language's function words out of the quotes."""

from __future__ import annotations

from learning.proposers.local.hygiene import _name_words
from learning.proposers.local.other_languages import (
    asks_of,
    find_foreign_themes,
    foreign_sentence,
)
from tests.learning.corpora import corpus_of


def test_a_known_company_name_bans_its_own_words_not_its_function_words():
    assert _name_words({"El Racó de Vicent", "Bank of England"}) == {
        "racó",
        "vicent",
        "bank",
        "england",
    }


def test_a_verb_after_object_pronouns_or_a_need_is_a_request():
    corpus = corpus_of(
        [
            (1, "¿Me preparas un presupuesto mensual? Son diez mesas.", False),
            (1, "Hola. Necesito un presupuesto para una boda en junio.", False),
            (1, "Me pide que le escriba yo el texto de la tarjeta, algo bonito.", False),
        ]
    )
    read = [
        [(a.verb, a.noun, a.complement) for a in asks_of(m, "es", set())] for m in corpus.messages
    ]
    assert ("preparar", "presupuesto", "mensual") in read[0]
    assert ("", "presupuesto", "") in read[1]
    assert ("escribir", "texto", "de la tarjeta") in read[2]


def test_requests_about_one_thing_are_one_theme_whatever_noun_they_make():
    corpus = corpus_of(
        [
            (1, "Escríbeme las instrucciones de cuidado para la orquídea.", False),
            (1, "Escríbeme la tarjetita de cuidados para las plantas de interior.", False),
            (1, "Última cosa: instrucciones de cuidado para los cactus.", False),
            (1, "Texto para la tarjeta de un ramo de cumpleaños.", False),
            (1, "Tengo que escribir la tarjeta de una corona.", False),
            (1, "Me pide que le escriba yo el texto de la tarjeta.", False),
        ]
    )
    themes = find_foreign_themes(corpus.messages, "es", set(), min_conversations=3, min_users=None)
    assert sorted(foreign_sentence(t, "es") for t in themes) == [
        "Escribe las instrucciones de cuidado.",
        "Escribe las tarjetas.",
    ]


def test_a_quote_is_the_part_of_the_request_that_names_the_work_not_the_longest():
    from learning.proposers.local import Theme, requests_of
    from learning.proposers.local.hygiene import theme_evidence

    corpus = corpus_of(
        [(1, "Write the methods section for the RNA-seq part of the organoid paper.", False)]
    )
    request = requests_of(corpus.messages[0])[0]
    theme = Theme(head=request.head, requests={request.message.conversation_id: request})
    evidence, _ = theme_evidence(theme, "Writes the methods.", set())
    assert [e["quote"] for e in evidence] == ["Write the methods section"]


def test_a_french_need_is_a_request():
    corpus = corpus_of(
        [
            (1, "J'ai besoin d'un bon de commande pour le fournisseur de bois.", False),
            (1, "J'ai besoin du planning de la semaine prochaine.", False),
        ]
    )
    read = [[(a.verb, a.noun) for a in asks_of(m, "fr", set())] for m in corpus.messages]
    assert read == [[("", "bon")], [("", "planning")]]


def test_a_noun_written_bare_after_another_is_what_the_request_is_about():
    corpus = corpus_of(
        [
            (1, "Contrat de prêt pour un vélo de course, trois mois.", False),
            (1, "Il me faut le contrat de prêt pour un tandem.", False),
            (1, "Relance prêt : deux clients n'ont pas rendu leur vélo.", False),
        ]
    )
    themes = find_foreign_themes(corpus.messages, "fr", set(), min_conversations=3, min_users=None)
    assert [foreign_sentence(t, "fr") for t in themes] == ["Prépare les contrats de prêt."]


def test_a_bare_word_no_request_writes_as_a_noun_groups_nothing():
    corpus = corpus_of(
        [
            (1, "Devis urgent pour une table en chêne", False),
            (1, "Facture urgent pour le buffet", False),
            (1, "Relance urgent : deux clients n'ont pas payé.", False),
        ]
    )
    themes = find_foreign_themes(corpus.messages, "fr", set(), min_conversations=3, min_users=None)
    assert themes == []
