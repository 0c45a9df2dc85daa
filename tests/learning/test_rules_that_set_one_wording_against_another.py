"""A rule a reviewer keeps as written: a wording set against a refused one says both
('Say "hand made", not "mass produced".'), a prohibition of a wording says what to write
instead when the person said it, a describing word is never used as a thing ("Use the
hand made …"), a said clause is "Say that …", and words pointing back at the draft at hand
("as well", "again") are left out."""

from __future__ import annotations

from learning.proposers.local import rule_for
from learning.proposers.local.rules import as_prohibition
from tests.learning.corpora import correction_hits


def test_a_describing_wording_set_against_another_says_both():
    rule = rule_for(
        correction_hits(
            "it's hand made not mass produced, we've said it before.",
            "hand made in the back workshop.",
        )
    )
    assert rule == 'Say "hand made", not "mass produced".'


def test_a_thing_set_against_another_is_no_wording():
    rule = rule_for(
        correction_hits(
            "plain pytest functions, not classes.",
            "plain pytest functions please.",
        )
    )
    assert rule is not None and not rule.startswith('Say "plain'), rule


def test_a_refused_wording_names_the_wording_the_person_asked_for_instead():
    rule = rule_for(
        correction_hits(
            "don't put waterproof. it's 'water resistant', we can't promise more.",
            "water resistant, not waterproof, we keep saying this.",
        )
    )
    assert rule == 'Say "water resistant", not "waterproof".'


def test_a_word_never_said_and_a_word_put_in_its_place_make_one_wording_rule():
    rule = rule_for(
        correction_hits(
            "We never say cheap. It puts people off.",
            "Can you change cheap to affordable? She will notice.",
        )
    )
    assert rule == 'Say "affordable", not "cheap".'


def test_a_conjunction_before_not_is_no_wording_asked_for():
    rule = rule_for(
        correction_hits(
            "don't say husband and wife, ever.",
            "two things. and not husband and wife, say their names.",
        )
    )
    assert rule is not None and '"and"' not in rule, rule


def test_a_describing_word_is_never_used_as_a_thing():
    rule = rule_for(
        correction_hits(
            "hand made in the back workshop.",
            "Hand made in the back workshop please.",
        )
    )
    assert rule is None or not rule.startswith("Use the hand made"), rule


def test_a_said_clause_is_reported_not_quoted():
    rule = rule_for(
        correction_hits(
            "And say bikes have to be locked in the rack by the gate.",
            "say bikes have to be locked in the rack by the gate please.",
        )
    )
    assert rule == "Say that bikes have to be locked in the rack by the gate."


def test_words_pointing_back_at_the_draft_are_left_out_of_a_rule():
    rule = rule_for(
        correction_hits(
            "Put the room number in the subject line as well.",
            "put the room number in the subject line again.",
        )
    )
    assert rule == "Put the room number in the subject line."


def test_a_wording_set_against_another_leaves_the_refusal_alone_when_it_must():
    assert as_prohibition('Say "wood-burning stove", not "log burner".') == (
        'Never say "log burner".'
    )
    assert as_prohibition("Use type hints.") is None


def test_a_name_the_person_says_they_use_is_set_against_the_refused_one():
    rule = rule_for(
        correction_hits(
            "we say puppy class not puppy school.",
            "puppy class please, we always say that.",
        )
    )
    assert rule == 'Say "puppy class", not "puppy school".'


def test_a_thing_set_against_another_without_a_comma_is_no_wording():
    rule = rule_for(
        correction_hits(
            "plain pytest functions not classes.",
            "plain pytest functions please.",
        )
    )
    assert rule is not None and not rule.startswith('Say "plain'), rule


def test_a_rule_never_asks_for_what_another_correction_of_it_refuses():
    rule = rule_for(
        correction_hits(
            "Hard-coded table name again.",
            "never hard-code table names, use ref() or source().",
        )
    )
    assert rule is None or not rule.lower().startswith(("use", "show", "put", "add")), rule
    assert rule is None or "never" in rule.lower() or "not" in rule.lower(), rule


def test_a_wording_asked_for_names_the_wording_refused_beside_it_in_the_same_messages():
    # the refusal and the wording asked for stand in separate clauses of the same messages:
    # one rule says both, never 'Say "cork fabric".' now and "Do not say leather." later
    rule = rule_for(
        correction_hits(
            "Please don't say leather. A buyer complained. Say cork fabric, or just "
            "'made from cork'.",
            "And not leather, Tom keeps writing it, it isn't true, say cork fabric.",
        )
    )
    assert rule == 'Say "cork fabric", not "leather".'


def test_a_refused_wording_beside_a_wording_asked_for_joins_its_rule():
    rule = rule_for(
        correction_hits(
            "Say cork fabric on the tags. Please don't say leather, a buyer complained.",
            "say cork fabric on the tags. And not leather, Tom keeps writing it, it isn't true.",
        )
    )
    assert rule == 'Say "cork fabric" on the tags, not "leather".'
