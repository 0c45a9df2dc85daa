"""A request that names a person in a trailing phrase ("… for the Hendersons", "… pour M. et
Mme Lambert") is quoted up to that phrase when what is left still holds the work; a name is
never quoted. A theme whose requests leave no clean quote holding its work once the names are
cut (a label that is a room's name, "Chambre Lavande, …") hides no other theme over the same
conversations: the work they ask for (the reservation confirmations) is still proposed."""

from __future__ import annotations

from learning.proposers.local.hygiene import proper_words, quote_for
from learning.proposers.local.other_languages import (
    _one_per_work,
    find_foreign_themes,
    foreign_evidence,
    foreign_sentence,
)
from tests.learning.corpora import corpus_of

BOOKINGS = [
    (
        1,
        "Tu peux rédiger la confirmation de réservation pour M. et Mme Lambert ? "
        "Chambre Lavande, du vendredi 2 au dimanche 4 octobre, 95 € la nuit.",
        False,
    ),
    (
        1,
        "Confirmation de réservation pour Mr et Mrs Pemberton, des Anglais. "
        "Chambre Lavande, du 15 au 18 octobre, 105 € la nuit.",
        False,
    ),
    (1, "Confirmation de réservation pour la famille Girard, chambre Noyer, 2 nuits.", False),
    (1, "Nouvelle annonce pour la chambre Lavande, avec la vue sur le jardin.", False),
]

NAMES = ("Lambert", "Pemberton", "Girard", "Lavande", "Noyer", "Mme", "Mrs")


def _themes(rows):
    corpus = corpus_of(rows)
    banned = proper_words(corpus.messages, english=False, code="fr")
    themes = find_foreign_themes(corpus.messages, "fr", banned, min_conversations=3, min_users=None)
    return themes, banned


def test_a_request_naming_a_person_after_for_is_quoted_up_to_the_name():
    corpus = corpus_of(
        [(1, "Can you write a confirmation for the Hendersons? Two lessons.", False)]
    )
    message = corpus.messages[0]
    banned = proper_words(corpus.messages)
    end = message.text.index("?")
    quote = quote_for(message, 0, end, banned, keep=frozenset(["confirmation"]))
    assert quote == "Can you write a confirmation"
    assert quote in message.text


def test_a_name_is_never_quoted_when_too_little_is_left_before_it():
    corpus = corpus_of([(1, "Party confirmation for Gemma Rudd please: 10 children.", False)])
    message = corpus.messages[0]
    banned = proper_words(corpus.messages)
    quote = quote_for(message, 0, len(message.text), banned, keep=frozenset(["confirmation"]))
    assert quote is None or not any(n in quote for n in ("Gemma", "Rudd"))


def test_a_label_that_is_a_name_hides_no_work_over_the_same_conversations():
    themes, _banned = _themes(BOOKINGS)
    sentences = [foreign_sentence(t, "fr") for t in themes]
    assert "Rédige les confirmations de réservation." in sentences


def test_the_confirmations_are_quoted_without_a_name():
    themes, banned = _themes(BOOKINGS)
    (theme,) = [t for t in themes if t.noun == "confirmation"]
    evidence, _people = foreign_evidence(theme, banned, "fr")
    quotes = [e["quote"] for e in evidence]
    assert len(quotes) == 3
    assert all("réservation" in q for q in quotes)
    assert not any(name in q for q in quotes for name in NAMES)


def test_the_names_are_still_words_no_quote_holds():
    _themes_, banned = _themes(BOOKINGS)
    assert {"lambert", "pemberton", "girard", "lavande"} <= banned


def test_a_theme_with_clean_quotes_still_hides_the_same_work_named_again():
    themes, _banned = _themes(BOOKINGS)
    (theme,) = [t for t in themes if t.noun == "confirmation"]
    again = type(theme)(**{**theme.__dict__, "key": "réservation", "noun": "réservation"})
    assert _one_per_work([theme, again], {theme.key: 3, again.key: 3}, 3) == [theme]


def test_without_counts_one_kind_of_work_is_still_one_theme():
    themes, _banned = _themes(BOOKINGS)
    (theme,) = [t for t in themes if t.noun == "confirmation"]
    again = type(theme)(**{**theme.__dict__, "key": "réservation", "noun": "réservation"})
    assert _one_per_work([theme, again]) == [theme]
