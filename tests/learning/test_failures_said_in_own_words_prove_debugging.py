"""A report of something going wrong, in the person's own words, proves the general
sentence of debugging work; a sentence naming more needs its own words; and a sentence
that would tip its field into the write-time scan is not proposed."""

from __future__ import annotations

import pytest

from learning import policy
from safety.checks import InjectionFound
from safety.text import content_words, share_a_word

GENERAL = content_words("Debugs the errors.")


@pytest.mark.parametrize(
    "quote",
    [
        "the nightly export blows up halfway through",
        "backup job failing again since the weekend",
        "the import script breaks on the third file",
        "why does the parser throw on empty lines",
        "the plotting helper won't even run on the new laptop",
        "the invoice macro crashed when I opened it",
    ],
)
def test_a_failure_in_own_words_proves_the_general_debugging_sentence(quote):
    assert share_a_word(quote, GENERAL)
    assert share_a_word(quote, content_words("Fixes the bugs."))


@pytest.mark.parametrize(
    "quote",
    [
        "why does the planner want to replace the database",
        "it worked fine last month",
        "how do I move the bucket to another account",
    ],
)
def test_a_question_or_a_remark_naming_no_failure_does_not(quote):
    assert not share_a_word(quote, GENERAL)


def test_a_sentence_naming_more_than_the_errors_needs_its_own_words():
    quote = "the nightly export blows up halfway through"
    assert not share_a_word(quote, content_words("Debugs CI errors."))
    assert not share_a_word(quote, content_words("Debugs errors and instances."))


PERSONA = {
    "name": "Kiln helper",
    "role": "Studio assistant",
    "goals": "Answers glaze questions for a pottery studio.",
    "background": "",
    "guardrails": [],
    "standing_rules": [],
}


def test_a_sentence_that_tips_its_field_into_the_scan_is_refused(monkeypatch):
    real = policy.check_write

    def scan(text: str, kind: str, **kw):
        # the field as a whole reads as an instruction; each sentence alone does not
        if "glaze questions" in text and "firing logs" in text:
            raise InjectionFound(field=kind, kind=kind, pattern_ids=["test.whole"])
        return real(text, kind, **kw)

    monkeypatch.setattr(policy, "check_write", scan)
    refusal = policy.sentence_refusal(
        sentence="Reads the firing logs.", field="goals", persona=PERSONA, known_names=set()
    )
    assert refusal and "would be refused at write" in refusal
    assert (
        policy.sentence_refusal(
            sentence="Reads the firing logs.",
            field="background",
            persona=PERSONA,
            known_names=set(),
        )
        is None
    )
