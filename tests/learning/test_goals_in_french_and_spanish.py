"""The local proposer words goals sentences for a French or Spanish persona from the
person's own words (``other_languages``), and declines only what it cannot judge."""

from __future__ import annotations

import pytest

from learning import language
from learning.proposers.local import LocalProposer
from learning.proposers.local.other_languages import (
    asks_of,
    find_foreign_themes,
    foreign_sentence,
)
from tests.learning.corpora import corpus_of, sentence_check, settings

FRENCH_PERSONA = {
    "role": "Aide Lucie dans la gestion de sa librairie",
    "goals": "Faire gagner du temps à Lucie sur les tâches de la boutique.",
    "background": "Une librairie de quartier avec un rayon jeunesse et des ateliers de lecture.",
    "guardrails": ["Ne jamais donner l'adresse d'un client."],
    "standing_rules": [],
}
SPANISH_PERSONA = {
    "role": "Ayuda a Pablo con la gestión de su taller de bicicletas",
    "goals": "Ahorrar tiempo a Pablo en las tareas de la tienda y con los clientes.",
    "background": "Un taller de reparación de bicicletas en el barrio, con venta de piezas.",
    "guardrails": ["No prometer nunca una fecha de entrega que Pablo no haya confirmado."],
    "standing_rules": [],
}
FRENCH = [
    (
        1,
        "Tu peux rédiger la fiche de lecture pour le club du jeudi ? Un roman de 300 pages.",
        False,
    ),
    (1, "Nouvelle fiche de lecture pour le club du jeudi : un recueil de nouvelles.", False),
    (1, "Fiche de lecture pour le club du jeudi, le roman policier de ce mois.", False),
    (1, "Réponds à cette demande de commande spéciale, un livre épuisé.", False),
    (1, "Une dame m'a écrit hier pour un livre, elle demande s'il est arrivé.", False),
    (1, "merci, parfait", True),
]
SPANISH = [
    (1, "¿Puedes preparar el presupuesto para la revisión completa? Cambio de cadena.", False),
    (1, "Prepárame un presupuesto para la revisión completa de una bici de carretera.", False),
    (1, "Presupuesto para la revisión completa de dos bicis de montaña.", False),
    (1, "Escribe un mensaje a la proveedora sobre el pedido de ruedas.", False),
]


def test_a_french_request_gives_its_verb_noun_complement_and_purpose():
    corpus = corpus_of(FRENCH)
    first = asks_of(corpus.messages[0], "fr", set())[0]
    assert (first.verb, first.noun, first.complement, first.purpose) == (
        "rédiger",
        "fiche",
        "de lecture",
        "pour le club du jeudi",
    )
    # a label opening the sentence asks too; a subject followed by its verb does not
    assert asks_of(corpus.messages[2], "fr", set())[0].noun == "fiche"
    assert asks_of(corpus.messages[4], "fr", set()) == []


def test_a_reply_noun_stands_for_its_verb():
    corpus = corpus_of([(1, "Tu peux rédiger la réponse à cette demande d'inscription ?", False)])
    ask = asks_of(corpus.messages[0], "fr", set())[0]
    assert (ask.verb, ask.noun, ask.complement, ask.to) == (
        "répondre",
        "demande",
        "d'inscription",
        True,
    )


def test_a_french_theme_is_worded_in_french_from_the_persons_words():
    corpus = corpus_of(FRENCH)
    themes = find_foreign_themes(corpus.messages, "fr", set(), min_conversations=3, min_users=None)
    assert [foreign_sentence(t, "fr") for t in themes] == [
        "Rédige les fiches de lecture pour le club du jeudi."
    ]


def test_a_french_persona_gets_a_french_proposal_with_verified_quotes():
    corpus = corpus_of(FRENCH)
    result = LocalProposer().propose_sentence(corpus, FRENCH_PERSONA, settings())
    assert result.declined == ""
    assert result.data["sentence"] == "Rédige les fiches de lecture pour le club du jeudi."
    assert sentence_check(corpus, result.data).ok
    assert {e["conversation"] for e in result.data["evidence"]} == {"c0", "c1", "c2"}


def test_a_spanish_persona_gets_a_spanish_proposal():
    corpus = corpus_of(SPANISH)
    result = LocalProposer().propose_sentence(corpus, SPANISH_PERSONA, settings())
    assert result.data["sentence"] == "Prepara los presupuestos para la revisión completa."
    assert sentence_check(corpus, result.data).ok


def test_a_name_is_never_part_of_a_french_theme():
    from learning.proposers.local import proper_words

    rows = [
        (1, "Écris une légende Gazette pour la photo de la vitrine, avec les nouveautés.", False),
        (1, "Une légende Gazette pour la vidéo de la rencontre avec l'autrice.", False),
        (1, "Légende Gazette pour les photos du salon, merci à tous.", False),
    ]
    corpus = corpus_of(rows)
    banned = proper_words(corpus.messages, english=False)
    assert "gazette" in banned and "légende" not in banned
    themes = find_foreign_themes(corpus.messages, "fr", banned, min_conversations=3, min_users=None)
    assert [foreign_sentence(t, "fr") for t in themes] == ["Écrit les légendes."]


def test_work_every_request_only_names_is_prepared_as_in_english():
    # "Devis pour …" three times: a label names the work, the frame's default verb says
    # what is done with it, as "Prepares the quotes." does in English
    rows = [(1, f"Devis pour la vitrine numéro {n}, trois étagères.", False) for n in range(3)]
    corpus = corpus_of(rows)
    themes = find_foreign_themes(corpus.messages, "fr", set(), min_conversations=3, min_users=None)
    assert len(themes) == 1 and foreign_sentence(themes[0], "fr").startswith("Prépare les devis")
    rows = [
        (1, "Confirmación de pedido para el viernes.", False),
        (1, "Confirmación de pedido: un ramo de rosas.", False),
        (1, "Confirmación de pedido para un cumpleaños.", False),
    ]
    themes = find_foreign_themes(
        corpus_of(rows).messages, "es", set(), min_conversations=3, min_users=None
    )
    assert [foreign_sentence(t, "es") for t in themes] == ["Prepara las confirmaciones de pedido."]


def test_what_was_turned_down_is_not_proposed_again():
    from learning.policy import content_key

    corpus = corpus_of(FRENCH)
    avoid = frozenset({content_key("Rédige les fiches de lecture pour le club du jeudi.")})
    result = LocalProposer().propose_sentence(corpus, FRENCH_PERSONA, settings(), avoid=avoid)
    assert result.data["sentence"] == ""
    assert "turned down" in " ".join(result.notes)


def test_a_persona_in_a_language_without_a_frame_is_declined_and_a_french_rule_is_read():
    german = {
        "role": "Assistentin für die Buchhandlung",
        "goals": "Beantwortet die Fragen der Kunden zu den Bestellungen und schreibt Mails.",
    }
    dutch = {
        "role": "Assistent van de winkel van de familie",
        "goals": "Beantwoordt de vragen van de klanten en schrijft de berichten aan de leveranciers.",
    }
    hungarian = {
        "role": "Segít Katának az árajánlatokkal, számlákkal és az Instagram-posztokkal",
        "goals": "Időt spórolni Katának a papírmunkán, hogy többet lehessen a műhelyben.",
    }
    result = LocalProposer().propose_sentence(corpus_of(FRENCH), hungarian, settings())
    assert "a language other than English" in result.declined
    rule = LocalProposer().propose_rule(corpus_of(FRENCH), FRENCH_PERSONA, settings())
    assert not rule.declined and rule.data["rule"] is None  # no recurring correction
    # a German rule is read now (``language.RULE_FRAMES["de"]``); Dutch has no frame
    rule = LocalProposer().propose_rule(corpus_of(FRENCH), german, settings())
    assert not rule.declined and rule.data["rule"] is None
    rule = LocalProposer().propose_rule(corpus_of(FRENCH), dutch, settings())
    assert "Dutch" in rule.declined and "standing rules" in rule.declined


@pytest.mark.parametrize(
    ("word", "code", "infinitive"),
    [
        ("Écris", "fr", "écrire"),
        ("prépare", "fr", "préparer"),
        ("écris-moi", "fr", "écrire"),
        ("Prepárame", "es", "preparar"),
        ("escribe", "es", "escribir"),
        ("haz", "es", "hacer"),
        ("fiche", "fr", ""),
    ],
)
def test_the_forms_people_ask_with_lead_to_the_infinitive(word, code, infinitive):
    assert language.work_verb(word, code) == infinitive


def test_the_frame_inflects_verb_noun_and_article():
    assert language.third_person_in("écrire", "fr") == "écrit"
    assert language.third_person_in("rédiger", "fr") == "rédige"
    assert language.third_person_in("escribir", "es") == "escribe"
    assert language.plural_noun("devis", "fr") == "devis"
    assert language.plural_noun("journal", "fr") == "journaux"
    assert language.plural_noun("inscripción", "es") == "inscripciones"
    assert language.plural_article("ficha", "es", article_seen="una") == "las"
    assert language.plural_article("demande", "fr", after_to=True) == "aux"


@pytest.mark.parametrize(
    ("text", "code", "verb", "noun"),
    [
        ("salut, fais moi un contrat de deneigement pour mme Belanger", "fr", "faire", "contrat"),
        ("ecris lui un message pour son gazon", "fr", "écrire", "message"),
        ("prepare nous la facture de mars", "fr", "préparer", "facture"),
        ("Schrijf me een offerte voor de verbouwing", "nl", "schrijven", "offerte"),
        ("Lav mig et tilbud på en renovering", "da", "lave", "tilbud"),
        ("Faz me um orçamento para a cozinha", "pt", "fazer", "orçamento"),
    ],
)
def test_an_object_pronoun_typed_after_the_imperative_without_its_hyphen_is_no_noun(
    text, code, verb, noun
):
    # "fais moi" is "fais-moi" typed on a phone: the noun asked for follows the pronoun
    ask = asks_of(corpus_of([(1, text, False)]).messages[0], code, set())[0]
    assert (ask.verb, ask.noun) == (verb, noun)


def test_a_pronoun_is_never_grouped_with_a_noun_of_its_spelling():
    # "moi" is no noun, so never the singular of "mois" ("Fait les mois.")
    corpus = corpus_of(
        [
            (1, "fais moi le calendrier des mois d'hiver", False),
            (1, "fais moi la liste des mois de la saison", False),
            (1, "fais moi un plan pour les mois qui viennent", False),
        ]
    )
    themes = find_foreign_themes(corpus.messages, "fr", set(), min_conversations=3, min_users=None)
    assert all(t.noun not in ("moi", "mois") for t in themes)
