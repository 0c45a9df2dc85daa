"""A rule holds an instruction: a label before one ("Commit message: …") is no rule of
its own, a fact about how texts start is the order it gives, a word put in place of
another is a rule about wording, and a place keeps the words most corrections write."""

from __future__ import annotations

from learning.proposers.local import rule_for
from tests.learning.corpora import correction_hits


def test_a_label_before_the_instruction_gives_no_use_rule():
    hits = correction_hits(
        "Commit message: prefix with the recipe, and imperative",
        "Commit message: prefix with the recipe please",
    )
    assert rule_for(hits) is None


def test_how_plural_texts_start_becomes_the_order_verb_first():
    hits = correction_hits(
        "Commit messages start with the recipe name and a colon",
        "Commit messages start with the recipe name and a colon, like last time",
    )
    assert rule_for(hits) == "Start commit messages with the recipe name and a colon."


def test_one_draft_that_starts_somewhere_gives_no_order():
    hits = correction_hits(
        "The invoice starts with a greeting", "The invoice starts with a greeting"
    )
    assert rule_for(hits) != "Start the invoice with a greeting."


def test_a_word_put_in_place_of_another_is_a_rule_about_wording():
    hits = correction_hits(
        "Can you change log burner to wood-burning stove?",
        "Wood-burning stove! Never log burner",
    )
    assert rule_for(hits) == 'Say "wood-burning stove", not "log burner".'


def test_changing_a_part_of_the_draft_is_no_rule_about_wording():
    hits = correction_hits("change the intro to a question", "Change the intro to a question")
    assert not (rule_for(hits) or "").startswith("Say")


def test_a_place_keeps_the_words_most_corrections_write():
    hits = correction_hits(
        "And the job reference at the top",
        "Job reference at the start please",
        "the job reference at the top, as always",
    )
    assert rule_for(hits) == "Show the job reference at the top."


def test_a_name_after_the_keeps_its_capital_out_of_a_use_rule():
    hits = correction_hits(
        "Always The Lantern team as the sign-off, even when it's me asking.",
        "The Lantern team as the sign-off please",
    )
    assert "lantern" not in (rule_for(hits) or "")
