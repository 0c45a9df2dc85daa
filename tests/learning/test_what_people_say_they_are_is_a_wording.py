"""What the people say they are ("we're heating engineers") is what to call them, never a
thing to use ("Use heating engineers."), and what they say they are not is the wording it
replaces."""

from __future__ import annotations

from learning.proposers.local import rule_for
from tests.learning.corpora import correction_hits


def test_what_people_say_they_are_is_said_against_what_they_are_not():
    rule = rule_for(
        correction_hits(
            "we're heating engineers, we're not plumbers, it sounds cheap.",
            "We're heating engineers, please remember that one",
            "you put plumber again. we're heating engineers",
        )
    )
    assert rule == 'Call us "heating engineers", not "plumbers".'


def test_what_people_say_they_are_alone_is_a_wording_to_say():
    rule = rule_for(
        correction_hits(
            "we're heating engineers, it sounds cheap.",
            "We're heating engineers, please remember that one",
        )
    )
    assert rule == 'Call us "heating engineers".'


def test_a_state_or_a_single_thing_people_say_they_are_is_no_wording():
    for said in ("we're closed on Mondays", "we're a family business"):
        rule = rule_for(correction_hits(f"{said}, fix it.", f"{said.capitalize()}, remember"))
        assert rule is None or not rule.startswith("Call us"), rule
