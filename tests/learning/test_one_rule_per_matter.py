"""One matter, one rule: a rule whose object names what a rule the persona holds names
already is that rule in other words and is not proposed again; a rule about another
matter still is."""

from __future__ import annotations

import pytest

from learning.proposers.local import LocalProposer
from learning.proposers.local.rules import rule_matter, same_matter
from tests.learning.corpora import corpus_of, settings

ROWS = [
    (1, "Add the parking line: they park by the barn.", True),
    (2, "You forgot the parking line, it goes on every booking.", True),
    (1, "And the parking line please.", True),
]


def test_a_rule_about_the_matter_of_a_held_rule_is_not_proposed_again():
    held = {"standing_rules": ['Put "parking by the barn" first on the email.']}
    result = LocalProposer().propose_rule(corpus_of(ROWS), held, settings())
    assert result.data["rule"] is None
    assert LocalProposer().propose_rule(corpus_of(ROWS), {}, settings()).data["rule"]
    assert any("holds this rule already" in note for note in result.notes)


def test_a_rule_about_another_matter_is_still_proposed():
    held = {"standing_rules": ["Show VAT on its own line."]}
    result = LocalProposer().propose_rule(corpus_of(ROWS), held, settings())
    assert result.data["rule"] == "Add the parking line."


@pytest.mark.parametrize(
    ("rule", "matter"),
    [
        ('Put "riding hat first" on the list.', {"riding", "hat", "first"}),
        ("Show VAT on its own line.", {"vat"}),  # where it goes is no part of the matter
        ("Never deploy floating tags.", {"floating", "tag"}),
    ],
)
def test_the_matter_of_a_rule_is_the_nouns_of_its_object(rule, matter):
    assert rule_matter(rule) == matter


def test_rules_sharing_only_where_things_go_are_different_matters():
    assert not same_matter("Show VAT on its own line.", "Put the job number on its own line.")
    assert same_matter("Add the hat line.", 'Put "riding hat first" on the list.')


def test_a_fragment_after_a_preposition_is_no_rule_of_its_own():
    """ "…, to the current standard, …" modifies something its clause left behind: never
    "Use the current standard."."""
    from learning.proposers.local import rule_for
    from tests.learning.corpora import correction_hits

    rule = rule_for(
        correction_hits(
            "Put safety goggles first on the list, to the current standard, or we lend one.",
            "Add that the children need goggles to the current standard, we have spares.",
        )
    )
    assert rule != "Use the current standard."
    assert rule is None or "goggles" in rule


def test_a_wording_said_of_an_unnamed_they_gives_way_to_one_that_names_them():
    from learning.proposers.local import rule_for
    from tests.learning.corpora import correction_hits

    rule = rule_for(
        correction_hits(
            "Bikes in the rack though. Say they must be locked in the rack by the gate.",
            "And say bikes have to be locked in the rack by the gate.",
        )
    )
    assert rule == "Say that bikes have to be locked in the rack by the gate."
