"""The English lexicon of ``safety.text``: the one wrapper of lemminflect, read by memory
(the tense of a recall question) and learning (parts of speech, lemmas, inflection)."""

from __future__ import annotations

from safety.text import can_be, inflections, is_english_word, lemmas, strip_accents


def test_a_word_is_looked_up_in_lower_case_whatever_its_capitals():
    assert lemmas("Replies") == lemmas("replies")
    assert lemmas("replies")["NOUN"] == ("reply",)
    assert can_be("Happen", "VERB")
    assert is_english_word("Rose")
    assert not is_english_word("Priya")


def test_inflections_are_the_lexicon_forms_of_the_word_as_written():
    assert inflections("draft", "VBZ") == ("drafts",)
    assert inflections("reply", "NNS")[0] == "replies"
    assert inflections("Draft", "VBZ") == ("Drafts",)


def test_accents_are_stripped_and_case_is_kept():
    assert strip_accents("Rédigez") == "Redigez"
    assert strip_accents("publicación") == "publicacion"
    assert strip_accents("plain") == "plain"
