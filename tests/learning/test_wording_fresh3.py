"""What the never-tuned part fresh3 showed (one test per defect): a negative correction
became 'Use never deploy floating tags.', a hyphenated word was split ('Writes pre
notes.'), a rule's quote ran on into the next sentence and carried a one-off edit
('use the name. And can you make it shorter'), and a rule about wording read 'Say put
to sleep.'. Every test here failed on the code before this round."""

from __future__ import annotations

import pytest

from learning.policy import rule_refusal
from learning.proposers.local import rule_for
from tests.learning.test_wording import correction_hits

# --- a negative correction is a prohibition, never "Use never …" ------------------------------


@pytest.mark.parametrize(
    ("texts", "rule"),
    [
        (
            ("we never deploy floating tags, you can't tell", "Never deploy floating tags again."),
            "Never deploy floating tags.",
        ),
        (("don't use the latest tag, pin it", "Don't use the latest tag please."), None),
        (("do not use the latest tag.", "please do not use the latest tag"), None),
        (
            ("please don't write euthanasia to owners", "don't write euthanasia to owners"),
            "Do not write euthanasia to owners.",
        ),
    ],
)
def test_a_negative_correction_becomes_a_prohibition(texts, rule):
    got = rule_for(correction_hits(*texts))
    assert got == (rule or "Do not use the latest tag.")
    assert rule_refusal(rule=got, persona={}, known_names=set()) is None


def test_a_negated_noun_phrase_gives_no_rule():
    assert rule_for(correction_hits("no floating tags", "no floating tags please")) is None


# --- a rule about wording quotes the wording --------------------------------------------------


@pytest.mark.parametrize(
    ("texts", "rule"),
    [
        (
            ("we say put to sleep. it reads", "We always say put to sleep, it's gentler."),
            'Say "put to sleep".',
        ),
        (
            ("never say 'euthanasia' to owners", "Never say 'euthanasia' to owners, please."),
            'Never say "euthanasia" to owners.',
        ),
        # unquoted, a prohibition may go on past the phrase: left as written
        (
            ("never say euthanasia to owners", "never say euthanasia to owners"),
            "Never say euthanasia to owners.",
        ),
    ],
)
def test_a_rule_about_wording_quotes_the_phrase(texts, rule):
    got = rule_for(correction_hits(*texts))
    assert got == rule
    assert rule_refusal(rule=got, persona={}, known_names=set()) is None
