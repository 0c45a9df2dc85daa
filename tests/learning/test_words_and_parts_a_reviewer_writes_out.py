"""A proposal says what a reviewer would write: a platform's short form and a texting form in
full ("fb posts" -> "Facebook posts", "pon q va" -> "Pon que va"), a rule that asks for a
part of a text says to include it and in which text ("Include the deposit line in every
quote."), and a verb only one request of a group names, written as the first word of a
compound, is not the work's verb ("work sheet for friday" beside "job sheet for monday": no
one *works* job sheets)."""

from __future__ import annotations

from learning.proposers.local import rule_for
from learning.proposers.local.foreign_rules import foreign_rule, written_out
from learning.proposers.local.wording import _sentence
from tests.learning.corpora import correction_hits, theme_sentences


def test_a_platforms_short_form_is_written_in_full():
    assert _sentence("writes fb posts") == "Writes Facebook posts."
    assert _sentence("writes insta posts") == "Writes Instagram posts."


def test_a_texting_form_in_a_rule_is_written_out_in_its_language():
    hits = correction_hits(
        "pon q va galvanizada en caliente. todo lo de exterior lo galvanizo antes",
        "pon q va galvanizada en caliente, q se te olvido otra vez",
    )
    assert foreign_rule(hits, "es") == "Pon que va galvanizada en caliente."


def test_an_acronym_is_never_taken_for_a_texting_form():
    assert written_out("q", "es") == "que"
    assert written_out("Pq,", "es") == "Porque,"
    assert written_out("TB", "es") == "TB"  # terabytes, not "también"
    assert written_out("PR", "fr") == "PR"  # a developer's pull request
    assert written_out("pr", "fr") == "pr"  # "pour" too, but "la pr" is the same request


def test_a_rule_asking_for_a_part_of_a_text_says_to_include_it_where():
    hits = correction_hits(
        "and the deposit line, as always",
        "the deposit line again. Every quote: 50% deposit before we order the fabric.",
    )
    assert rule_for(hits) == "Include the deposit line in every quote."
    # a thing that is no part of a text is still used
    assert rule_for(correction_hits("no. British spelling", "British spelling pls")) == (
        "Use British spelling."
    )


_sentences = theme_sentences


def test_a_verb_only_one_request_names_does_not_name_the_work():
    found = _sentences(
        [
            "can u do me a job sheet for tmrw. Harraby, misted units in the lounge bay",
            "work sheet for friday: routledge in morton, 4 units",
            "job sheet for Hetherington, wed. 6 units and the patio door",
        ]
    )
    assert found == ["Prepares job sheets."], found
    # a verb with its object after it names the work, however few requests write one
    found = _sentences(
        [
            "can u write me a job sheet for tmrw. Harraby, misted units in the lounge bay",
            "job sheet for friday: routledge in morton, 4 units",
            "job sheet for Hetherington, wed. 6 units and the patio door",
        ]
    )
    assert found == ["Writes job sheets."], found


def test_verbs_named_once_each_do_not_name_the_work():
    # three requests, three verbs, none agreeing: not the first met ("Skips the tests.")
    found = _sentences(
        [
            "rewrite it and the tests",
            "skip the flaky test for now",
            "qcheck property test for the due date function",
            "test for the notice text formatter pls",
            "can you write alcotest tests",
        ]
    )
    assert found == ["Writes the tests."], found
