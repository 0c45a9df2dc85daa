"""The local proposer on labels with digits inside a request ("a Y9 lesson"), "do me a
X", irregular plurals in the shared-word check, and rules that must not come from an
edit of the draft at hand, a negated phrase or a time reference."""

from __future__ import annotations

from learning.policy import contact_spans
from learning.proposers.local import LocalProposer, requests_of
from safety.text import content_words, stem
from tests.learning.corpora import corpus_of, settings


def only_request(text: str, after: bool = False):
    found = requests_of(corpus_of([(1, text, after)]).messages[0])
    assert len(found) == 1, found
    return found[0]


def test_a_label_with_digits_inside_the_object_does_not_hide_the_request():
    req = only_request("Can you plan a B2 workshop on the tax changes?")
    assert (req.verb, req.head) == ("plan", "workshop")


def test_a_verbless_request_opening_on_a_label_is_found():
    req = only_request("K3 safety checklist for the new site please")
    assert req.head == "checklist"


def test_a_bare_number_before_a_hyphen_stays_out_of_the_theme():
    found = requests_of(
        corpus_of([(1, "2-star rating on the forum: reply to it", False)]).messages[0]
    )
    assert all("star" not in r.mods for r in found)


def test_do_me_a_x_is_a_request_not_a_question():
    req = only_request("do me a rota for the weekend shifts")
    assert req.head == "rota"


def test_irregular_plurals_share_a_stem_with_their_singular():
    assert stem("quizzes") == stem("quiz")
    assert stem("replies") == stem("reply")
    assert content_words("Prepares quizzes.") & content_words("need a pub quiz for friday")


def test_quizzes_make_a_theme_with_quotes_that_share_its_word(bag_of_words):
    rows = [
        (1, "need a pub quiz for the K2 league night", False),
        (1, "do me a quiz on film soundtracks", False),
        (1, "can you write a quiz about local history for the quiz night", False),
    ]
    result = LocalProposer().propose_sentence(corpus_of(rows), {"goals": ""}, settings())
    assert "quiz" in result.data["sentence"]
    assert len(result.data["evidence"]) == 3


def test_a_lower_case_street_with_rd_is_an_address():
    assert contact_spans("the tenant who left 9 maple rd emailed")


# --- rules ------------------------------------------------------------------------------------


def test_taking_a_part_out_of_the_draft_at_hand_is_no_rule(bag_of_words):
    rows = [
        (1, "Can you write the menu card?", False),
        (1, "Please drop the opening paragraph. Otherwise fine.", True),
        (1, "Draft the notice?", False),
        (1, "Good, but drop the opening paragraph, nobody reads it.", True),
    ]
    result = LocalProposer().propose_rule(corpus_of(rows), {"standing_rules": []}, settings())
    assert result.data["rule"] is None or not result.data["rule"].startswith("Drop")


def test_a_negated_phrase_never_becomes_use_x(bag_of_words):
    rows = [
        (1, "no opening paragraph for suppliers pls", True),
        (1, "no opening paragraph for suppliers either", True),
    ]
    result = LocalProposer().propose_rule(corpus_of(rows), {"standing_rules": []}, settings())
    assert not (result.data["rule"] or "").startswith("Use")


def test_a_time_reference_is_no_instruction(bag_of_words):
    rows = [
        (1, "ok, the numbers from last meeting", True),
        (1, "fine. put up the minutes from last meeting", True),
    ]
    result = LocalProposer().propose_rule(corpus_of(rows), {"standing_rules": []}, settings())
    assert result.data["rule"] is None


def test_a_statement_about_how_things_are_is_no_rule(bag_of_words):
    rows = [
        (1, "that's how every shift starts at our cafe", True),
        (1, "good. that's how every shift starts here", True),
    ]
    result = LocalProposer().propose_rule(corpus_of(rows), {"standing_rules": []}, settings())
    assert not (result.data["rule"] or "").startswith("Use how")


def test_an_instruction_pointing_at_what_was_said_is_no_rule(bag_of_words):
    rows = [
        (1, "good. every shift starts like that", True),
        (1, "fine, every shift starts like that here", True),
    ]
    result = LocalProposer().propose_rule(corpus_of(rows), {"standing_rules": []}, settings())
    assert result.data["rule"] is None


def test_a_name_written_small_once_is_still_a_name():
    from learning.proposers.local import proper_words

    corpus = corpus_of(
        [(1, 'Mum wrote: "Tyler says he is ill", reply pls', False), (1, "report for tyler", False)]
    )
    assert "tyler" in proper_words(corpus.messages)
    rows = [(1, "Rota for next week please.", False), (1, "rota for the bank holiday", False)]
    assert "rota" not in proper_words(corpus_of(rows).messages)
