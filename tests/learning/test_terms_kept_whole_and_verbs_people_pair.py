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


def _propose(rows):
    from learning.proposers.local import LocalProposer
    from tests.learning.corpora import settings

    corpus = corpus_of(rows)
    return LocalProposer().propose_sentence(corpus, {"goals": ""}, settings(min_users=1))


def test_work_no_request_names_is_written_when_its_requests_paste_code(bag_of_words):
    rows = [
        (
            1,
            "Migration for the orders table please:\n```sql\nalter table orders add x int;\n```",
            False,
        ),
        (1, "Migration for the stock table:\n```sql\nalter table stock add y int;\n```", False),
        (
            1,
            "Another migration for the users table\n```sql\nalter table users add z int;\n```",
            False,
        ),
    ]
    sentence = _propose(rows).data["sentence"]
    assert sentence.startswith("Writes "), sentence


def test_work_no_request_names_is_a_fix_when_the_pastes_say_the_head_happened(bag_of_words):
    rows = [
        (1, "Leak on the route card again\n```\nThe panel leaked by 38 px.\n```", False),
        (
            1,
            "Another leak on the filter sheet\n```\nThe panel leaked by 212 px.\n```",
            False,
        ),
        (
            1,
            "Leak in the badge grid on phones\n```\nThe grid leaked by 9 px.\n```",
            False,
        ),
    ]
    result = _propose(rows)
    sentence = result.data["sentence"]
    assert sentence.startswith("Fixes "), result.notes


def test_work_no_request_names_without_pastes_keeps_the_default_verb(bag_of_words):
    rows = [
        (1, "Quote please: winter hedge reduction, two days.", False),
        (1, "Quote for a client, small back garden, new turf.", False),
        (1, "Quote please: small back garden, patio and two beds.", False),
    ]
    result = _propose(rows)
    sentence = result.data["sentence"]
    assert sentence.startswith("Prepares "), result.notes
