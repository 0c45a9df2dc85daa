"""What a request names after its colon without a verb ("Facture pour l'école : sortie
scolaire du 1er octobre") is a detail of that request, not another one: it makes no
theme of its own that would swallow the real work (the confirmations, the invoices)."""

from __future__ import annotations

from learning.proposers.local.other_languages import (
    asks_of,
    find_foreign_themes,
    foreign_sentence,
)
from tests.learning.corpora import corpus_of


def test_a_label_after_a_requests_colon_is_no_request():
    corpus = corpus_of(
        [(1, "Facture pour l'école : sortie scolaire du 1er octobre, 520 €.", False)]
    )
    assert [a.noun for a in asks_of(corpus.messages[0], "fr", set())] == ["facture"]


def test_a_verb_after_a_colon_still_asks():
    corpus = corpus_of([(1, "Facture pour l'école : prépare un devis pour juin.", False)])
    assert [a.noun for a in asks_of(corpus.messages[0], "fr", set())] == ["facture", "devis"]


def test_a_label_after_a_colon_that_closes_no_request_still_asks():
    corpus = corpus_of(
        [(1, "Comme prévu avec toi hier : confirmation pour la sortie du 2 janvier.", False)]
    )
    assert [a.noun for a in asks_of(corpus.messages[0], "fr", set())] == ["confirmation"]


def test_the_work_is_not_swallowed_by_what_its_details_name():
    corpus = corpus_of(
        [
            (1, "Confirmation pour la sortie raquettes du 27 décembre, 8 inscrits.", False),
            (1, "Confirmation pour le club de randonnée : sortie au col samedi.", False),
            (1, "Confirmation pour la sortie raquettes du 2 janvier, 350 m.", False),
            (1, "Facture pour l'école : sortie scolaire du 1er octobre.", False),
            (1, "Devis pour le comité : sortie raquettes au clair de lune.", False),
        ]
    )
    themes = find_foreign_themes(corpus.messages, "fr", set(), min_conversations=3, min_users=None)
    assert foreign_sentence(themes[0], "fr").startswith("Prépare les confirmations")
    assert all(theme.noun != "sortie" for theme in themes)
