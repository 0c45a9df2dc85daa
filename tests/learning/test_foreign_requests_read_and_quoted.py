"""Requests outside English read where the work is named after its noun ("Mais uma
avaliação para responder"), a label that names only whom it is for before its colon
("Rechnung Familie Huber:"), Portuguese "-ção" plurals told by their spelling, and a quote
taken from another sentence of the request's message when names leave its own too short."""

from __future__ import annotations

from learning import language
from learning.proposers.local.hygiene import proper_words, quote_for
from learning.proposers.local.other_languages import (
    asks_of,
    find_foreign_themes,
    foreign_evidence,
    foreign_sentence,
)
from tests.learning.corpora import corpus_of


def _ask(text: str, code: str, names: frozenset[str] = frozenset()):
    [message] = corpus_of([(1, text, False)]).messages
    return [(a.verb, a.noun, a.complement) for a in asks_of(message, code, set(names))]


def test_the_infinitive_after_a_labels_noun_is_the_work_asked_for():
    assert _ask("Mais uma avaliação para responder, esta no Airbnb: ótimo passeio.", "pt") == [
        ("responder", "avaliação", "")
    ]
    # an infinitive with an object of its own is no verb of the label
    assert _ask("Devis à répondre à ce mail : un violon à recoller.", "fr")[0][:2] == (
        "",
        "devis",
    )


def test_a_label_naming_whom_it_is_for_before_its_colon_is_a_request():
    names = frozenset({"huber"})
    assert _ask("Rechnung Familie Huber: Abgasmessung 52 €, Anfahrt 9,80 €.", "de", names) == [
        ("", "rechnung", "")
    ]
    # a subject and its verb are no label
    assert _ask("Rechnung Familie Huber kommt morgen.", "de", names) == []


def test_portuguese_nouns_in_cao_have_their_plural_and_make_a_theme():
    rows = [
        (1, "Escreve uma publicação para o Instagram sobre o passeio novo.", False),
        (1, "Publicação para o Instagram: o passeio de São Martinho.", False),
        (1, "Publicação para o Instagram sobre o tour de inverno.", False),
    ]
    corpus = corpus_of(rows)
    [theme] = find_foreign_themes(corpus.messages, "pt", set(), min_conversations=3, min_users=None)
    assert foreign_sentence(theme, "pt") == "Escreve as publicações do Instagram."


def test_a_german_article_opening_a_sentence_is_no_noun_and_its_noun_is_quoted():
    assert language.german_last_noun("Die") == ""
    [message] = corpus_of([(1, "Die Pflegehinweise braucht sie dann auch.", False)]).messages
    quote = quote_for(
        message,
        0,
        len(message.text),
        set(),
        keep=frozenset({"pflegehinweise"}),
        frame=language.FRAMES["de"],
    )
    assert quote == "Die Pflegehinweise braucht sie dann"


def test_a_request_whose_own_quote_a_name_cuts_short_is_quoted_from_another_sentence():
    rows = [
        (1, "Pflegehinweise für Herrn Krüger, die Garderobe ist geölt.", False),
        (1, "Pflegehinweise für die Arbeitsplatte in der Küche, Eiche massiv.", False),
        (
            1,
            "Pflegehinweise für Herrn Yilmaz, der Tisch ist geölt. Die Pflegehinweise "
            "braucht seine Mutter auch.",
            False,
        ),
    ]
    corpus = corpus_of(rows)
    names = proper_words(corpus.messages, english=False, code="de")
    [theme] = find_foreign_themes(corpus.messages, "de", names, min_conversations=3, min_users=None)
    evidence, _people = foreign_evidence(theme, names, "de")
    quotes = {e["conversation"]: e["quote"] for e in evidence}
    assert quotes["c2"] == "Die Pflegehinweise braucht seine Mutter"
    assert quotes["c1"] == "Pflegehinweise für die Arbeitsplatte in der Küche"
