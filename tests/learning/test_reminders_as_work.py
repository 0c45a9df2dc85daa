"""Reminders the work makes are work; a reminder addressed to the assistant is not."""

from __future__ import annotations

import pytest

from learning.policy import rule_refusal, sentence_refusal

PERSONA = {"name": "Office helper", "role": "Helps a small firm", "goals": "", "background": ""}


@pytest.mark.parametrize(
    "sentence",
    ["Writes reminder letters.", "Sends reminder texts.", "Writes payment reminders."],
)
def test_reminders_the_work_makes_are_a_kind_of_work(sentence: str) -> None:
    assert (
        sentence_refusal(sentence=sentence, field="goals", persona=PERSONA, known_names=set())
        is None
    )


@pytest.mark.parametrize(
    "sentence",
    [
        "Remember to check the diary every morning.",
        "Reminds you to check the diary.",
        "Writes a reminder that the diary matters.",
        "Keeps reminder notes to self.",
    ],
)
def test_a_reminder_addressed_to_the_assistant_is_refused(sentence: str) -> None:
    reason = sentence_refusal(sentence=sentence, field="goals", persona=PERSONA, known_names=set())
    assert reason is not None


def test_a_rule_that_is_a_reminder_is_refused_and_reminder_work_is_not_one() -> None:
    reminder = rule_refusal(
        rule="Remember to use British spelling.", persona=PERSONA, known_names=set()
    )
    assert reminder is not None and reminder.startswith("The rule is a reminder")
    work = rule_refusal(rule="Sends reminder texts.", persona=PERSONA, known_names=set())
    assert work is None or not work.startswith("The rule is a reminder")
