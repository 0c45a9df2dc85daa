"""Requests in other languages as people type them in haste: a word with a letter dropped
("kanst", "faktra"), the spoken article ("ne rechnung"), a label its details follow after
a comma ("bestilling mai, 40 kopper …"), a compound written in two words or after a name, a
label whose sentence wants something later ("…, die brauchen das"), a plural written
after "alle", and a name written small after a title."""

from __future__ import annotations

from learning import language
from learning.proposers.local.hygiene import proper_words
from learning.proposers.local.other_languages import asks_of, find_foreign_themes, slip_of
from tests.learning.corpora import corpus_of


def _asks(text: str, code: str, banned: frozenset[str] = frozenset()) -> list[tuple[str, str]]:
    [message] = corpus_of([(1, text, False)]).messages
    return [(a.verb, a.noun) for a in asks_of(message, code, set(banned))]


def _themes(texts: list[str], code: str, banned: frozenset[str] = frozenset()) -> list[str]:
    corpus = corpus_of([(1, t, False) for t in texts])
    themes = find_foreign_themes(
        corpus.messages, code, set(banned), min_conversations=3, min_users=None
    )
    return [t.noun for t in themes]


def test_a_word_with_one_letter_dropped_is_the_word_meant_a_letter_changed_is_not():
    assert slip_of("kanst", {"kannst"}) == "kannst"
    assert slip_of("faktra", {"faktura"}) == "faktura"
    assert slip_of("kunde", {"kunne"}) == ""  # a letter changed: another word
    assert slip_of("post", {"poste"}) == ""  # too short to tell


def test_an_asking_word_typed_with_a_letter_dropped_and_the_spoken_article_ask_for_work():
    assert _asks("kanst du mir ne quittung schreiben für den verein?", "de") == [
        ("schreiben", "quittung")
    ]


def test_a_noun_typed_with_a_letter_dropped_counts_for_the_noun_asked_for_more_often():
    texts = [
        "Kan du lage en faktura til båtlaget?",
        "Lag en faktura til skolen, takk.",
        "faktra til kommunen for kurset i mai",
    ]
    assert _themes(texts, "no") == ["faktura"]


def test_a_label_its_details_follow_counts_only_for_work_asked_for_otherwise():
    texts = [
        "Kan du skrive en bestilling til grossisten?",
        "Skriv en bestilling for verkstedet i byen.",
        "bestilling mai, 40 kopper og 12 fat, levering i juni",
    ]
    assert _themes(texts, "no") == ["bestilling"]
    # a list of things written the same way is no work when nothing else asks for it
    lists = [
        "støvler, hansker og lue til turen",
        "støvler, jakke og sekk til hytta",
        "støvler, sokker og votter til barna",
    ]
    assert _themes(lists, "no") == []
    # a sentence that opens with an article is no label, whatever its comma
    assert _asks("De bestillingene kom fram i går, takk.", "no") == []


def test_a_compound_written_in_two_words_is_the_noun_other_requests_make():
    texts = [
        "Kan du skrive en annonse for sykkelen?",
        "Skriv en annonse til avisa om loppemarkedet.",
        "ny sommer annonse, to sykler og en henger",
    ]
    assert _themes(texts, "no") == ["annonse"]


def test_a_name_before_a_noun_in_a_compounding_language_says_where_the_noun_follows():
    assert _asks("ny blocket annons, en cykel från 1980", "sv", frozenset({"blocket"})) == [
        ("", "annons")
    ]


def test_a_label_is_read_though_the_sentence_wants_something_later():
    assert _asks("preisliste für den markt, die leute brauchen das für samstag", "de") == [
        ("", "preisliste")
    ]


def test_a_noun_after_a_plural_quantifier_is_written_in_the_plural():
    seen = {"tilbud", "alle tilbud"}
    assert language.plural_noun("tilbud", "no", seen=seen) == "tilbud"
    assert language.plural_noun("tilbud", "no", seen={"tilbud"}) == ""


def test_a_name_written_small_after_a_title_is_a_name_a_noun_after_an_article_is_not():
    corpus = corpus_of(
        [
            (1, "quittung für herrn olbrich, zwei stunden", False),
            (1, "die frau vom verein hat angerufen", False),
        ]
    )
    names = proper_words(corpus.messages, english=False, code="de")
    assert "olbrich" in names
    assert "vom" not in names
