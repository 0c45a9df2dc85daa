"""A rule is what the corrections ask for every time: not an example named while stating it
("Fetch isn't a standard prefix"), not one choice taken again and again ("the weekly plan it
is"); a last "only" restricts the thing before it; a filler before "not" sets nothing
against the rule; and the assistant's own business name is no brand to refuse."""

from __future__ import annotations

from learning.policy import rule_refusal, sentence_refusal
from learning.proposers.local import rule_for
from tests.learning.corpora import correction_hits

# --- an example given while stating a rule is not the rule ---------------------------------------


def test_an_example_named_as_the_subject_of_is_not_is_not_the_rule():
    got = rule_for(
        correction_hits(
            "Fetch isn't a standard prefix, the linter complains. Standard prefixes for every name",
            "standard prefixes only, like I said",
            "Make isn't a standard prefix either. standard prefixes only",
        )
    )
    assert got == "Use standard prefixes only."


def test_a_last_only_restricts_the_thing_it_follows():
    assert rule_for(correction_hits("metric units only", "metric units only please")) == (
        "Use metric units only."
    )


# --- a choice taken is no standing rule ------------------------------------------------------------


def test_one_choice_taken_again_and_again_is_no_standing_rule_but_one_asked_every_time_is():
    taken = correction_hits(
        "the weekly plan, perfect, thanks",
        "fine. ok weekly plan it is",
        "ok fair, weekly plan again",
    )
    assert rule_for(taken) is None
    asked = correction_hits(
        "great, the weekly plan every time from now on",
        "the weekly plan always please",
        "the weekly plan always",
    )
    assert rule_for(asked) == "Use the weekly plan."


def test_a_closing_though_points_back_at_the_draft_and_is_left_out():
    got = rule_for(
        correction_hits("good. prices in pounds though", "prices in pounds though, as always")
    )
    assert got == "Show prices in pounds."


# --- a filler before "not" is nothing set against the rule -----------------------------------------


def test_a_filler_before_not_sets_nothing_against_the_rule():
    got = rule_for(
        correction_hits(
            "Sign it off from the whole office please, not blank",
            "sign off as the whole office like always",
            "Sign it from the whole office, every letter we send has that",
        )
    )
    assert got == "Sign off as the whole office."


# --- the assistant's own business name is no brand -------------------------------------------------

PERSONA = {
    "name": "Kestrel Joinery office helper",
    "role": "Helps the joinery's team with its writing",
    "goals": "Drafts letters for a joinery workshop.",
    "background": "",
    "guardrails": [],
    "standing_rules": [],
}


def test_the_assistants_own_business_name_is_no_brand_to_refuse_but_another_still_is():
    assert (
        rule_refusal(rule="Sign off as the Kestrel team.", persona=PERSONA, known_names=set())
        is None
    )
    assert (
        sentence_refusal(
            sentence="Writes the Kestrel newsletter.",
            field="goals",
            persona=PERSONA,
            known_names=set(),
        )
        is None
    )
    for rule in ("Sign off as the Marlow team.", "Recommend Halford hinges on every quote."):
        refusal = rule_refusal(rule=rule, persona=PERSONA, known_names=set())
        assert refusal and "seems to name a person" in refusal, rule
