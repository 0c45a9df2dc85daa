"""Requests in Spanish and Portuguese as people type them on a phone: the voseo ("me
armás", "escribime", "podés"), short forms ("pal" for "para el", "q" for "que"), a word
that opens the message and asks nothing ("che"), and nouns typed without their accents."""

from __future__ import annotations

from learning import language
from learning.proposers.local.other_languages import (
    find_foreign_themes,
    foreign_evidence,
    foreign_sentence,
)
from tests.learning.corpora import corpus_of, foreign_asks, foreign_theme_sentences


def test_the_voseo_asks_for_work_as_the_tu_forms_do():
    assert language.work_verb("armame", "es") == "armar"
    assert language.work_verb("armás", "es") == "armar"
    assert language.work_verb("escribime", "es") == "escribir"
    assert language.work_verb("escribís", "es") == "escribir"
    # "escribí" alone is the past ("I wrote") as often as the voseo imperative
    assert language.work_verb("escribí", "es") == ""
    assert foreign_asks("me podés escribir un presupuesto?", "es") == [
        ("escribir", "presupuesto", "")
    ]


def test_a_short_form_typed_on_a_phone_is_read_as_the_words_it_stands_for():
    assert foreign_asks("armame un folleto pal taller de cerámica", "es") == [
        ("armar", "folleto", "para el taller de cerámica")
    ]
    # a label followed by what it is for, written short, is a request
    assert foreign_asks("presupuesto pa la señora q llamó ayer", "es") == [
        ("", "presupuesto", "para la señora que llamó ayer")
    ]


def test_a_word_that_opens_the_message_and_asks_nothing_is_passed_over():
    assert foreign_asks("che me armás un folleto?", "es") == [("armar", "folleto", "")]
    assert foreign_asks("che, y el folleto?", "es") == []


def test_a_please_typed_short_ends_what_the_work_is_for():
    assert foreign_asks("armame un folleto pal taller porfa", "es") == [
        ("armar", "folleto", "para el taller")
    ]


def test_requests_typed_on_a_phone_make_a_sentence_in_full_words():
    texts = [
        "che me armás un folleto pal taller? el sábado arrancamos a las 10",
        "folleto pal taller: este mes hay torno y esmaltado",
        "se corre el horario. armame un folleto pal taller",
    ]
    assert foreign_theme_sentences(texts, "es") == ["Arma los folletos para el taller."]


def test_a_noun_typed_without_its_accents_is_the_noun_and_the_sentence_writes_them():
    texts = [
        "faz um orcamento pro seu Carlos, poda das arvores",
        "orçamento pra limpeza do quintal da escola",
        "faz um orcamento pra dona Rita, grama e cerca viva",
    ]
    assert foreign_theme_sentences(texts, "pt") == ["Prepara os orçamentos."]


def _themes(texts: list[str], code: str):
    corpus = corpus_of([(1, t, False) for t in texts])
    return find_foreign_themes(corpus.messages, code, set(), min_conversations=3, min_users=None)


POSTS = [
    "posteo pal insta: torta de chocolate nueva, sale el viernes a la mañana",
    "posteo pa insta: este domingo abrimos tarde porque hay una boda en el salón",
    "historia pal insta: quedan medialunas y pan casero",
]


def test_work_for_a_platform_is_named_by_both_nouns_when_one_leaves_a_request_unproved():
    assert [foreign_sentence(t, "es") for t in _themes(POSTS, "es")] == [
        "Prepara los posteos y las historias de Instagram."
    ]
    # when the first noun proves enough conversations alone, it alone names the work
    assert [foreign_sentence(t, "es") for t in _themes([*POSTS, POSTS[0]], "es")] == [
        "Prepara los posteos de Instagram."
    ]


def test_a_label_is_quoted_with_no_more_of_the_details_after_its_colon_than_a_quote_needs():
    [theme] = _themes(POSTS, "es")
    quotes = [e["quote"] for e in foreign_evidence(theme, set(), "es")[0]]
    assert quotes == [
        "posteo pal insta: torta",
        "posteo pa insta: este domingo",
        "historia pal insta: quedan",
    ]
