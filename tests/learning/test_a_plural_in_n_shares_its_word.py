"""A quote shares a word with its sentence when one is written in another number or gender:
a last vowel (Italian "conferma" / "conferme"), a plural in "-n" or "-en", the way German
writes most plurals ("Rechnung" / "Rechnungen", "Anfrage" / "Anfragen"), or the last letters
a Portuguese plural changes ("publicação" / "publicações", "mensagem" / "mensagens"); the verifier and
the proposers share one test of "shares a word" (``safety.text.share_a_word``)."""

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
        ("Conferma di spedizione per la signora", "Scrive le conferme d'ordine."),
        ("Rispondi a questa recensione su Google", "Risponde alle recensioni."),
        ("Prepare the quotes for the kitchen jobs", "Prepares the quote."),
        # Portuguese plurals that change the last letters: "-ão"/"-ões", "-m"/"-ns", "-l"/"-is"
        ("Uma publicação sobre o bolo novo", "Escreve as publicações."),
        ("Preciso de uma mensagem para a cliente", "Escreve as mensagens."),
        ("O anúncio no jornal de sábado", "Prepara os anúncios dos jornais."),
    ],
)
def test_a_quote_shares_a_word_written_in_another_number_or_gender(quote, sentence):
    assert share_a_word(quote, content_words(sentence))


@pytest.mark.parametrize(
    "quote, sentence",
    [
        ("make a list of the guests for Friday", "Listens to the callers."),
        ("Rechnung für die Reparatur am Montag", "Schreibt Terminankündigungen."),
        ("see you at the market", "Writes the invoices."),
        ("Rispondi a questa recensione su Google", "Scrive le conferme d'ordine."),
        ("Uma publicação sobre o bolo novo", "Prepara os orçamentos."),
        ("Uma mensagem para a cliente", "Escreve sem menção."),
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
