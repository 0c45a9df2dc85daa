"""A standing rule said as what the people do ("We always give prices inc VAT") is the
instruction itself, verb first: the word after its subject is the verb even where it could
be a noun too ("give"), never a thing to use ("Use give prices …")."""

from __future__ import annotations

from learning.proposers.local import rule_for
from tests.learning.corpora import correction_hits


def test_what_we_always_do_is_worded_as_the_instruction():
    rule = rule_for(
        correction_hits(
            "We always give prices inc VAT, every line.",
            "We always give prices inc VAT on quotes, how many times.",
        )
    )
    assert rule is not None and rule.startswith("Give prices inc VAT"), rule


def test_a_noun_phrase_after_we_is_still_a_thing_to_use():
    rule = rule_for(
        correction_hits(
            "we want the short version on the invoice.",
            "the short version on the invoice please.",
        )
    )
    assert rule is None or not rule.startswith("Want"), rule


def test_a_language_written_small_in_a_rule_gets_its_capital():
    rule = rule_for(
        correction_hits(
            "plain english please, no jargon.",
            "Plain english for householders, they don't know what a ledger is.",
        )
    )
    assert rule is not None and "English" in rule and "english" not in rule, rule


def test_a_wording_in_quotes_keeps_the_persons_spelling():
    from learning.proposers.local.wording import names_with_capitals

    assert names_with_capitals('say "english breakfast", not plain english') == (
        'say "english breakfast", not plain English'
    )
