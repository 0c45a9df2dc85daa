"""Standing rules whose object is a wording the owner wants written or avoided read as
English: the wording in quotes ('Show "including VAT" next to the total.', 'Do not write
"gluten free".'), no word pointing at the draft at hand ("here", "this time"), and a bare
countable noun after "with" gets the article the person writes before it elsewhere.
Every test here failed on the code before this change but the guard
`test_a_thing_to_use_is_no_wording`."""

from __future__ import annotations

import pytest

from learning.proposers.local import rule_for
from tests.learning.corpora import correction_hits


@pytest.mark.parametrize(
    ("texts", "rule"),
    [
        (
            (
                "including VAT next to the total, every time.",
                "including VAT next to the total please.",
            ),
            'Show "including VAT" next to the total.',
        ),
        (
            ("Including VAT on every quote please.", "including VAT on every quote again."),
            'Show "including VAT" on every quote.',
        ),
    ],
)
def test_a_verbless_wording_to_show_is_quoted(texts, rule):
    assert rule_for(correction_hits(*texts)) == rule


def test_a_wording_to_avoid_is_quoted_and_written():
    assert rule_for(correction_hits("dont put gluten free.", "dont put gluten free.")) == (
        'Do not write "gluten free".'
    )
    hits = correction_hits(
        "dont put gluten free on the menu cards.", "dont put gluten free on the menu cards again."
    )
    assert rule_for(hits) == 'Do not put "gluten free" on the menu cards.'


def test_a_thing_to_use_is_no_wording():
    hits = correction_hits("Use 24-hour times in replies please.", "Use 24-hour times, 15:00.")
    assert rule_for(hits) == "Use 24-hour times."
    hits = correction_hits("named exports. every time please", "named exports only please")
    assert rule_for(hits) == "Use named exports."
    hits = correction_hits("VAT on its own line again.", "VAT on its own line please.")
    assert rule_for(hits) == "Show VAT on its own line."


def test_a_standing_rule_drops_words_pointing_at_the_draft_at_hand():
    hits = correction_hits("Use WWW/EBI here too please, one line", "Use WWW/EBI here please.")
    assert rule_for(hits) == "Use WWW/EBI."
    hits = correction_hits(
        "use the short version this time please", "use the short version this time."
    )
    assert rule_for(hits) == "Use the short version."


def test_a_bare_countable_noun_after_with_gets_the_persons_article():
    hits = correction_hits(
        "private fields with underscore, as usual",
        "private fields with an underscore prefix please",
    )
    assert rule_for(hits) == "Use private fields with an underscore prefix."
    hits = correction_hits(
        "private fields with underscore, as usual",
        "private fields with underscore. Each starts with an underscore.",
    )
    assert rule_for(hits) == "Use private fields with an underscore."
    # no article written anywhere: no guess ("wrap the error with a context")
    hits = correction_hits(
        "wrap the error with context please", "wrap the error with context again"
    )
    assert rule_for(hits) == "Wrap the error with context."


def test_a_wording_and_the_one_it_replaces_are_quoted_apart():
    hits = correction_hits("say garments not items please", "say garments not items")
    assert rule_for(hits) == 'Say "garments", not "items".'
