"""A refused wording is quoted whole even with an apostrophe inside it ("not 'we'll text
you'"), and a remark with its own verb ("trading standards would have me") is no wording
to write."""

from __future__ import annotations

from learning.proposers.local import rule_for
from tests.learning.corpora import correction_hits

# --- 1. an apostrophe inside a word closes no quote -------------------------------------------


def test_a_refused_wording_with_an_apostrophe_is_kept_whole():
    hits = correction_hits(
        "give the collection time in the text, not 'we'll text you', same as always.",
        "give the collection time in the text please.",
    )
    rule = rule_for(hits)
    assert rule is not None
    assert '"we"' not in rule, rule
    assert rule in (
        "Give the collection time in the text.",
        'Give the collection time in the text, not "we\'ll text you".',
    ), rule


# --- 2. a clause with its own verb is no wording to write --------------------------------------


def test_a_remark_with_its_own_verb_is_no_wording():
    hits = correction_hits(
        "trading standards would have me.",
        "trading standards go round that market.",
    )
    rule = rule_for(hits)
    assert rule is None or "trading standards" not in rule, rule
