"""Where a language writes a compound as one word (German, Dutch, Swedish, Danish,
Norwegian), a request for a compound is a request for the noun it ends in when another
request makes that noun: "kursbekreftelse" is a "bekreftelse". The joined group is named
by the compound when most of its messages write the compound's first part (it says what
all of them are for), and a quote asking for the bare noun shares a word with the
compound's sentence (``safety.text.share_a_word``)."""

from __future__ import annotations

from learning.proposers.local.hygiene import proper_words
from learning.proposers.local.other_languages import find_foreign_themes, foreign_sentence
from safety.text import content_words, share_a_word
from tests.learning.corpora import corpus_of

# course confirmations: twice the bare noun, once the compound, every message about a course
COURSE_CONFIRMATIONS = [
    (1, "Trenger en bekreftelse til de som har meldt seg på kurset i hekling.", False),
    (1, "Ny påmelding til strikkekurset, lag en bekreftelse til deltakeren.", False),
    (1, "Lag en kursbekreftelse som den forrige, for vottekurset i november.", False),
    (1, "takk", True),
]


def _themes(rows, code="no"):
    corpus = corpus_of(rows)
    banned = proper_words(corpus.messages, english=False, code=code)
    return find_foreign_themes(corpus.messages, code, banned, min_conversations=3, min_users=None)


def test_a_compound_joins_the_noun_it_ends_in_and_names_the_group():
    [theme] = _themes(COURSE_CONFIRMATIONS)
    assert len(theme.asks) == 3
    assert foreign_sentence(theme, "no") == "Lager kursbekreftelser."


def test_the_joined_group_keeps_the_bare_noun_when_few_messages_say_what_for():
    rows = [
        (1, "Trenger en bekreftelse til en kunde som har bestilt garn.", False),
        (1, "Lag en bekreftelse på bestillingen fra i går.", False),
        (1, "Lag en kursbekreftelse som den forrige.", False),
    ]
    [theme] = _themes(rows)
    assert foreign_sentence(theme, "no") == "Lager bekreftelser."


def test_a_quote_for_the_bare_noun_shares_a_word_with_the_compound():
    words = content_words("Lager kursbekreftelser.")
    assert share_a_word("Trenger en bekreftelse til de som har meldt", words)
    # a short noun at the end of a longer word is no compound of it
    assert not share_a_word("Et innlegg om posten", content_words("Skriver blogposter."))
