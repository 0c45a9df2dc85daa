"""A quote written with a noun in the singular backs a sentence naming its plural in "-n"
or "-en", the way German writes most plurals ("Rechnung" / "Rechnungen", "Anfrage" /
"Anfragen"): the verifier and the proposers share one test of "shares a word"."""

from __future__ import annotations

import pytest

from learning.proposers.local.hygiene import proper_words, verified_evidence
from learning.proposers.local.other_languages import (
    find_foreign_themes,
    foreign_evidence,
    foreign_sentence,
)
from safety.text import content_words, share_a_word
from tests.learning.corpora import corpus_of


@pytest.mark.parametrize(
    "quote, sentence",
    [
        ("Terminankündigung für die Kehrung am Montag", "Schreibt Terminankündigungen."),
        ("Schreib mir bitte eine Rechnung für die Reparatur", "Erstellt Rechnungen."),
        ("Antwort auf eine Anfrage über die Website", "Beantwortet Anfragen."),
        ("Eine Nachricht an die Kundschaft wegen Montag", "Schreibt Nachrichten."),
    ],
)
def test_a_singular_shares_its_word_with_a_plural_in_n(quote, sentence):
    assert share_a_word(quote, content_words(sentence))


@pytest.mark.parametrize(
    "quote, sentence",
    [
        ("make a list of the guests for Friday", "Listens to the callers."),
        ("Rechnung für die Reparatur am Montag", "Schreibt Terminankündigungen."),
    ],
)
def test_a_short_word_or_another_noun_shares_none(quote, sentence):
    assert not share_a_word(quote, content_words(sentence))


def test_german_requests_in_the_singular_back_a_sentence_in_the_plural():
    corpus = corpus_of(
        [
            (1, "Schreib mir eine Terminankündigung für die Kehrung am Dienstag.", False),
            (1, "Terminankündigung für die Feuerstättenschau, Donnerstag vormittags.", False),
            (1, "Terminankündigung für die Kehrungen im Dorf am Mittwoch.", False),
        ]
    )
    names = proper_words(corpus.messages, english=False, code="de")
    (theme,) = find_foreign_themes(
        corpus.messages, "de", names, min_conversations=3, min_users=None
    )
    text = foreign_sentence(theme, "de")
    evidence, _ = foreign_evidence(theme, names, "de")
    assert text == "Schreibt Terminankündigungen."
    assert len(verified_evidence(text, evidence, corpus)) == 3
