"""Wordings a reviewer keeps as written: a wording to say ends where the phrase saying what
it is said for begins ('Say "week commencing" for the start.'), a clause that says what the
draft needs is the instruction to include it ("needs the hazard log reference" ->
"Include the hazard log reference."), and a German theme names what its work is for only
when that is not the work itself, with the capital its messages write ("für die
Inschrift" is no purpose of inscriptions; "für die Firmenkurse" keeps its capital)."""

from __future__ import annotations

from learning.proposers.local import rule_for
from learning.proposers.local.other_languages import find_foreign_themes, foreign_sentence
from tests.learning.corpora import corpus_of, correction_hits


def test_a_wording_to_say_ends_before_what_it_is_said_for():
    rule = rule_for(
        correction_hits(
            "just say week commencing for the start, that's how we do it",
            "say week commencing for the start, we never know with the weather",
        )
    )
    assert rule == 'Say "week commencing" for the start.', rule
    # a wording that speaks to someone stays whole
    rule = rule_for(
        correction_hits(
            "just say thank you for the order, nothing more",
            "say thank you for the order, it is enough",
        )
    )
    assert rule == 'Say "thank you for the order".', rule


def test_what_the_draft_needs_is_an_instruction_to_include_it():
    rule = rule_for(
        correction_hits(
            "needs the hazard log reference. every merge request says which entry",
            "it needs the hazard log reference, the assessor reads them",
        )
    )
    assert rule == "Include the hazard log reference.", rule
    # "needs" before a verb or a pronoun says nothing to include
    assert rule_for(correction_hits("needs to go out today", "needs to go out by noon")) is None


def _first_sentence(lines: list[str], code: str = "de") -> str:
    corpus = corpus_of([(1, line, False) for line in lines])
    themes = find_foreign_themes(corpus.messages, code, set(), min_conversations=3, min_users=None)
    return foreign_sentence(themes[0], code)


def test_a_purpose_that_names_the_work_itself_is_left_out():
    sentence = _first_sentence(
        [
            "Kannst du mir einen Vorschlag für die Inschrift machen? Schlicht bitte.",
            "Inschrift für ein Kindergrab, nur den Vornamen. Mach mir einen Vorschlag.",
            "Kannst du mir drei Varianten für die Inschrift machen?",
        ]
    )
    assert "für die" not in sentence and sentence.startswith("Erstellt Inschriften"), sentence


def test_a_german_noun_after_the_work_keeps_its_capital():
    sentence = _first_sentence(
        [
            "Schreib mir einen Aushang für die Firmenkurse im Oktober.",
            "Aushang für die Firmenkurse, bitte kurz.",
            "Kannst du einen Aushang für die Firmenkurse schreiben?",
        ]
    )
    assert "für die Firmenkurse" in sentence, sentence
