"""German requests read by German grammar: a noun's plural comes from a lexicon of German
nouns (``german-nouns``, Wiktionary), a compound the lexicon does not list is the kind of
the noun it ends in, a title before a name is never what is asked for, the words written
small between an article and a noun are its adjectives, a modal question with the
infinitive at its end is a request, and an imperative is no noun."""

from __future__ import annotations

from learning import language
from learning.proposers.local.hygiene import proper_words
from learning.proposers.local.other_languages import (
    asks_of,
    find_foreign_themes,
    foreign_sentence,
)
from tests.learning.corpora import corpus_of


def _asks(*texts: str) -> list[tuple[str, str]]:
    """(verb, noun) of each request the messages make, one conversation each."""
    corpus = corpus_of([(1, t, False) for t in texts])
    names = proper_words(corpus.messages, english=False, code="de") | {"yilmaz", "krüger"}
    return [(a.verb, a.noun) for m in corpus.messages for a in asks_of(m, "de", names)]


def test_a_german_nouns_plural_comes_from_the_lexicon():
    assert language.german_plural("Angebot", set()) == "Angebote"
    assert language.german_plural("Beitrag", set()) == "Beiträge"
    assert language.german_plural("Bildunterschrift", set()) == "Bildunterschriften"


def test_a_compound_takes_the_plural_of_the_noun_it_ends_in():
    assert language.german_plural("Kostenvoranschlag", set()) == "Kostenvoranschläge"
    assert language.german_plural("Abholnachricht", set()) == "Abholnachrichten"
    assert language.german_plural("Instagram-Text", set()) == "Instagram-Texte"
    assert language.german_plural("Pflegehinweise", set()) == "Pflegehinweise"  # plural already


def test_the_lexicon_is_read_once_per_process():
    assert language.german_nouns() is language.german_nouns()
    assert language.german_nouns()["angebot"] == "Angebote"


def test_a_compound_is_the_kind_of_its_last_noun():
    assert language.german_kind("Kursanfrage") == language.german_kind("Anfrage") == "anfrage"
    assert language.german_kind("Pflegehinweise") == language.german_kind("Pflegehinweis")
    assert language.german_kind("Blorft") == ""


def test_requests_for_compounds_of_one_noun_make_one_theme():
    corpus = corpus_of(
        [
            (1, "Schreib eine Abholnachricht für Herrn Krüger.", False),
            (1, "Schreib bitte eine Nachricht an Frau Vogl, der Ring ist fertig.", False),
            (1, "Schreib eine Abholnachricht, die Kette ist repariert.", False),
        ]
    )
    names = proper_words(corpus.messages, english=False, code="de")
    themes = find_foreign_themes(corpus.messages, "de", names, min_conversations=3, min_users=None)
    assert [foreign_sentence(t, "de") for t in themes] == ["Schreibt Abholnachrichten."]


def test_a_title_before_a_name_is_never_the_noun_of_a_request():
    assert _asks("Schreib bitte Herrn Yilmaz, dass seine Kette fertig ist.") == []
    assert _asks("Schreib Herrn Krüger ein Angebot für den Schrank.") == [("schreiben", "angebot")]


def test_small_words_between_article_and_noun_are_its_adjectives():
    assert _asks("Schreib eine kurze Anleitung für die Aushilfe.") == [("schreiben", "anleitung")]
    assert _asks("Schreib mir einen kurzen freundlichen Text.") == [("schreiben", "text")]


def test_a_modal_question_with_the_infinitive_at_its_end_is_a_request():
    assert _asks("Kannst du mir einen Kostenvoranschlag für die Familie schreiben?") == [
        ("schreiben", "kostenvoranschlag")
    ]


def test_an_imperative_is_no_noun_and_a_noun_no_imperative():
    assert _asks("Antworte bitte: samstags zehn bis fünf.") == []
    assert _asks("Schreib eine Antwort auf die Mail.") == [("schreiben", "antwort")]


def test_german_requests_for_one_thing_are_worded_by_what_they_are_for():
    # German writes no preposition before a complement: requests for different work for
    # one kind of course are named "für die …", never fail for want of one
    corpus = corpus_of(
        [
            (1, "Schreib bitte eine Rechnung für den Firmenkurs bei den Stadtwerken.", False),
            (1, "Kannst du einen Instagram-Post für den Winter-Schrauberkurs machen?", False),
            (1, "Ich brauche einen Aushang für den Schrauberkurs im Oktober.", False),
        ]
    )
    names = proper_words(corpus.messages, english=False, code="de")
    themes = find_foreign_themes(corpus.messages, "de", names, min_conversations=3, min_users=None)
    assert [foreign_sentence(t, "de") for t in themes] == [
        "Schreibt Rechnungen für die Firmenkurse."
    ]
