"""Sentences a reviewer keeps as written: a term of several words stays whole ("la table
d'hôtes"), and the verb of the work comes from the person's own words."""

from __future__ import annotations

from learning.proposers.local.other_languages import (
    asks_of,
    find_foreign_themes,
    foreign_sentence,
)
from tests.learning.corpora import corpus_of


def test_an_elided_complement_of_a_complement_stays_with_it():
    corpus = corpus_of([(1, "Écris le menu de la salle d'attente pour samedi.", False)])
    ask = asks_of(corpus.messages[0], "fr", set())[0]
    assert (ask.noun, ask.complement) == ("menu", "de la salle d'attente")


def test_a_french_theme_names_the_whole_term_its_requests_write():
    corpus = corpus_of(
        [
            (1, "Écris le menu de la salle d'attente de samedi : soupe, tarte.", False),
            (1, "Menu de la salle d'attente pour le groupe de jeudi.", False),
            (1, "Menu de Noël pour la salle d'attente du 24 décembre.", False),
            (1, "Écris le menu de la salle d'attente pour dimanche, sans gluten.", False),
        ]
    )
    themes = find_foreign_themes(corpus.messages, "fr", set(), min_conversations=3, min_users=None)
    assert [foreign_sentence(t, "fr") for t in themes][:1] == [
        "Écrit les menus de la salle d'attente."
    ]


def test_a_wording_put_against_another_is_a_rule_to_say_it():
    from learning.proposers.local import rule_for
    from tests.learning.corpora import correction_hits

    rule = rule_for(
        correction_hits(
            "it's free range not organic, we've been told a hundred times.",
            "free range in the back paddock.",
        )
    )
    assert rule == 'Say "free range", not "organic".'


def test_a_name_or_a_sentence_against_another_is_no_wording_rule():
    from learning.proposers.local import rule_for
    from tests.learning.corpora import correction_hits

    assert rule_for(correction_hits("it's Tuesday not Monday", "it's Tuesday not Monday")) is None
    changed = "it's the pickup time not the drop off that changed"
    rule = rule_for(correction_hits(changed, changed))
    assert rule is None or not rule.startswith("Say")
