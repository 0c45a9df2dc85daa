"""A French, Spanish or German sentence names what the work is for only when most of its
requests write it, and one of them writes it whole: "para casa" of the homework, never
one group of two ("para el grupo de cachorros") or a beginning no request stops at."""

from __future__ import annotations

from learning.proposers.local.other_languages import find_foreign_themes, foreign_sentence
from tests.learning.corpora import corpus_of


def _first_sentence(lines: list[str], code: str = "es") -> str:
    corpus = corpus_of([(1, line, False) for line in lines])
    themes = find_foreign_themes(corpus.messages, code, set(), min_conversations=3, min_users=None)
    return foreign_sentence(themes[0], code)


def test_a_purpose_of_one_word_most_requests_write_is_kept():
    assert (
        _first_sentence(
            [
                "Escríbeme los ejercicios para casa de esta semana.",
                "Ejercicios para casa para el lunes.",
                "Ejercicios para casa, por favor.",
                "Ejercicios para casa del grupo de adolescentes.",
            ]
        )
        == "Escribe los ejercicios para casa."
    )


def test_a_purpose_only_half_the_requests_write_is_left_out():
    assert (
        _first_sentence(
            [
                "Recordatorio para el grupo de cachorros del sábado.",
                "Recordatorio para el grupo de adolescentes.",
                "Recordatorio para el grupo de cachorros.",
                "Recordatorio para los adolescentes.",
            ]
        )
        == "Prepara los recordatorios."
    )


def test_a_beginning_no_request_stops_at_is_no_purpose():
    sentence = _first_sentence(
        [
            "Prépare la liste de matériel pour la sortie raquettes.",
            "Liste de matériel pour la sortie trappeur des enfants.",
            "Liste de matériel pour la sortie au col.",
        ],
        "fr",
    )
    assert sentence == "Prépare les listes de matériel."
