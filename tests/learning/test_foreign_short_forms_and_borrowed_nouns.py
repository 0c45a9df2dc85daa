"""Requests as people type them in haste on a phone: Italian "x" for "per", an asking word
without its accent ("podrias") or its hyphen ("aide moi"); and a borrowed noun ("post",
"reel") whose gender no request writes: the gender the person gives it elsewhere ("questo
post") tells the plural's article."""

from __future__ import annotations

from learning.proposers.local.other_languages import (
    find_foreign_themes,
    foreign_evidence,
    foreign_sentence,
)
from tests.learning.corpora import corpus_of, foreign_asks, foreign_theme_sentences


def test_an_x_typed_for_per_in_italian_says_what_the_work_is_for():
    assert foreign_asks("ricevuta x una cliente del mercato: 2 torte, 40 €", "it") == [
        ("", "ricevuta", "per una cliente del mercato")
    ]
    assert foreign_asks("mi prepari un volantino x la fiera di maggio?", "it") == [
        ("preparare", "volantino", "per la fiera di maggio")
    ]


def test_labels_typed_with_x_for_per_make_a_sentence_in_full_words_quoted_as_written():
    texts = [
        "ricevuta x la signora del terzo piano, torta di mele 25 €",
        "ricevuta x il bar sotto casa: 30 cornetti",
        "mi fai una ricevuta x la scuola? 4 crostate",
    ]
    corpus = corpus_of([(1, t, False) for t in texts])
    [theme] = find_foreign_themes(corpus.messages, "it", set(), min_conversations=3, min_users=None)
    assert foreign_sentence(theme, "it") == "Prepara le ricevute."
    evidence, _people = foreign_evidence(theme, set(), "it", corpus.messages)
    assert all(" x " in e["quote"] for e in evidence)


def test_a_borrowed_noun_takes_the_gender_a_message_gives_it_elsewhere():
    texts = [
        "reel per Instagram: la vetrina di Natale, musica allegra",
        "reel per Instagram sul nuovo forno. Solo in questo reel metti il prezzo",
        "reel per Instagram con la ricetta del pane",
    ]
    assert foreign_theme_sentences(texts, "it") == ["Prepara i reel per Instagram."]
    # nothing says its gender: still not guessed
    texts[1] = "reel per Instagram sul nuovo forno"
    assert foreign_theme_sentences(texts, "it") == []


def test_an_asking_word_typed_without_its_accent_asks_as_the_word_does():
    assert foreign_asks("podrias prepararme un folleto para la feria?", "es") == [
        ("preparar", "folleto", "para la feria")
    ]
    # read as asking, never as the noun of a label
    assert foreign_asks("ayudame a escribir un folleto para la feria", "es") == [
        ("escribir", "folleto", "para la feria")
    ]
    # where a letter without its dots is another word, nothing is folded: "hatte" is "had"
    assert foreign_asks("der Verein hatte die Genehmigung schon", "de") == []


def test_an_asking_word_written_with_a_hyphen_and_typed_with_a_space_asks():
    assert foreign_asks("aide moi a faire un devis pour la boulangerie", "fr") == [
        ("faire", "devis", "pour la boulangerie")
    ]
