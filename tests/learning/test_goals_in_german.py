"""A German persona gets goals sentences in German from the labels people write
("Terminbestätigung für …"); names are told from nouns without the capital (after a title
or a preposition with no article), and a plural no lexicon lists is never guessed."""

from __future__ import annotations

from learning import language
from learning.proposers.local.hygiene import proper_words, quote_for
from learning.proposers.local.other_languages import find_foreign_themes, foreign_sentence
from tests.learning.corpora import corpus_of

GERMAN = [
    (1, "Terminbestätigung für die Montage bei Yilmaz, Montag 14 Uhr.", False),
    (1, "Terminbestätigung für das Aufmaß im Flur, Donnerstag.", False),
    (1, "Terminbestätigung für die Lieferung der Stühle, Freitag früh.", False),
    (1, "Instagram-Beitrag bitte: Sideboard aus Nussbaum fertig.", False),
    (1, "Instagram-Beitrag: ein Blick in die Werkstatt, wieder kurz.", False),
    (1, "Instagram-Beitrag über den neuen Tisch, keine Namen in Beiträge.", False),
    (1, "Angebot für Herrn Krüger: Garderobe.", False),
    (1, "Angebot für die Reparatur eines Stuhls.", False),
    (1, "Angebot für ein Bücherregal, Kiefer massiv.", False),
]


def test_a_german_plural_is_the_lexicons_the_messages_or_settled_by_its_ending():
    assert language.german_plural("Instagram-Beitrag", {"beiträge"}) == "Instagram-Beiträge"
    assert language.german_plural("Terminbestätigung", set()) == "Terminbestätigungen"
    assert language.german_plural("Angebot", set()) == "Angebote"  # the lexicon's
    assert language.german_plural("Blorft", set()) == ""  # in no lexicon: never guessed


def test_german_names_follow_a_title_or_a_bare_preposition_nouns_an_article():
    corpus = corpus_of(GERMAN)
    names = proper_words(corpus.messages, english=False, code="de")
    assert {"yilmaz", "krüger"} <= names
    assert not {"montage", "angebot", "terminbestätigung", "reparatur"} & names


def test_a_german_quote_keeps_nouns_and_stops_before_a_name():
    corpus = corpus_of(GERMAN)
    message = corpus.messages[0]
    names = proper_words(corpus.messages, english=False, code="de")
    quote = quote_for(
        message,
        0,
        len(message.text),
        names,
        keep=frozenset(["terminbestätigung"]),
        frame=language.FRAMES["de"],
    )
    assert quote == "Terminbestätigung für die Montage"


def test_german_labels_make_themes_worded_in_german():
    corpus = corpus_of(GERMAN)
    names = proper_words(corpus.messages, english=False, code="de")
    themes = find_foreign_themes(corpus.messages, "de", names, min_conversations=3, min_users=None)
    assert sorted(foreign_sentence(t, "de") for t in themes) == [
        "Erstellt Angebote.",
        "Erstellt Instagram-Beiträge.",
        "Erstellt Terminbestätigungen.",
    ]
