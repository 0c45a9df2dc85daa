"""What a rule or its evidence may not be: corrections that disagree on a fee, a rule
that sets what customers pay, a message about someone's health as evidence, code or test
terms read as wording, and a noun read as a verb."""

from __future__ import annotations

import pytest

from learning.policy import health_word, rule_refusal
from learning.proposers.local import (
    LocalProposer,
    Theme,
    corrections_of,
    requests_of,
    rule_for,
    sentence_for,
)
from learning.proposers.local.corrections import _subject_values_refusal
from tests.learning.corpora import corpus_of, settings


def propose_rule(rows):
    return LocalProposer().propose_rule(corpus_of(rows), {"standing_rules": []}, settings())


# --- 1. corrections that disagree on a value; a rule that sets a price -----------------------


def test_corrections_that_disagree_on_a_fee_are_no_rule():
    rows = [
        (1, "7 working days, not 7 days. and add a rush fee, £15 for 48 hour", True),
        (2, "its a garment. rush fee is £20 now btw", True),
        (1, "ok. rush fee is £10 for under a week in the price list, fix that", True),
    ]
    corrections = [c for i, (_, t, a) in enumerate(rows) for c in corrections_of(_msg(i, t))]
    refusal = _subject_values_refusal("Add a rush fee.", corrections)
    assert refusal and "disagree" in refusal
    assert _subject_values_refusal("Give an arrival window.", corrections) is None
    assert propose_rule(rows).data["rule"] is None


def _msg(i, text):
    return corpus_of([(1, text, True)]).messages[0]


@pytest.mark.parametrize("rule", ["Add a rush fee.", "Charge a call-out fee.", "Add a deposit."])
def test_a_rule_that_sets_what_customers_pay_is_refused(rule):
    assert "customers pay" in (rule_refusal(rule=rule, persona={}, known_names=set()) or "")


@pytest.mark.parametrize("rule", ["Give quote prices per head.", "Show VAT on its own line."])
def test_a_rule_about_how_prices_read_is_not_refused(rule):
    assert rule_refusal(rule=rule, persona={}, known_names=set()) is None


# --- 2. a message about someone's health is never evidence ----------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "fitting msg for a customer who's had a mastectomy",
        "she had a tracheotomy last year",
        "he is off with tendonitis",
        "move for a customer on chemo next week",
        "her op: she had an operation on her hip",
        "she was diagnosed in May",
        "she's pregnant so no heavy lifting",
        "he had knee surgery in June",
    ],
)
def test_health_words_are_found_by_shape_and_list(text):
    assert health_word(text)


@pytest.mark.parametrize(
    "text",
    [
        "tests for the operation",
        "the terminal output",
        "fee proposal for the dentist's surgery fit-out",
        "I'm a physio not a massage therapist",
    ],
)
def test_ordinary_words_are_no_health_words(text):
    assert health_word(text) is None


def test_a_message_about_surgery_is_never_evidence():
    health = "fitting msg for a customer who's had a mastectomy, be gentle"
    assert not requests_of(_msg(0, health))
    assert requests_of(_msg(0, "write a fitting msg for a customer, be gentle"))
    assert not corrections_of(_msg(0, "no, and she had a mastectomy, be gentle with it"))


# --- 3. code terms are no rule wording --------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "one test func with a cases slice",
        "return nil not an empty struct",
        "def main with no args",
    ],
)
def test_a_correction_clause_holding_code_is_no_correction(text):
    assert not corrections_of(_msg(0, "no. " + text))


def test_an_identifier_is_cut_out_of_a_correction():
    found = corrections_of(_msg(0, "no. and in svc.Refund wrap the error with context"))
    assert "wrap the error with context" in [c.message.text[c.start : c.end] for c in found]
    for c in corrections_of(_msg(0, "no. cases slice + t.Run every time, getUser not fetch_user")):
        assert not {"t", "run", "getuser", "fetch"} & {t.low for t in c.toks}


def test_go_test_terms_make_no_rule():
    rows = [
        (1, "make them table driven, one test func with a cases slice", True),
        (1, "table driven again pls, cases slice + t.Run. every time", True),
        (2, "table driven!! one func, cases slice. and fix the comment", True),
    ]
    rule = propose_rule(rows).data["rule"]
    assert rule is None or not any(w in rule.lower() for w in ("func", "slice"))


# --- 4. ungrammatical wordings ------------------------------------------------------------------


def _hits(texts, phrase):
    out = {}
    for i, text in enumerate(texts):
        msg = corpus_of([(1, text, True)]).messages[0]
        found = [c for c in corrections_of(msg) if phrase in msg.text[c.start : c.end]]
        out[i] = (found[0], 0)
    return out


def test_a_plain_verb_wording_beats_a_noun_read_as_a_verb():
    hits = _hits(
        [
            "good. put the quote ref in the subject line too",
            "quote ref in the subject line please. every time",
        ],
        "quote ref",
    )
    assert rule_for(hits) == "Put the quote ref in the subject line."


def test_a_thing_and_how_it_is_is_no_thing_to_use():
    hits = _hits(["no. table driven again pls", "table driven!! every time"], "table")
    assert rule_for(hits) is None
    assert rule_for(_hits(["no. British spelling", "British spelling pls"], "spelling"))


# --- 5. a noun read as a verb makes no sentence ------------------------------------------------


def test_a_noun_read_as_a_verb_makes_no_sentence():
    rows = [
        "review reply pls, 4 stars",
        "reply to a 3 star review",
        "reply to this review pls",
        "can u draft a reply",
    ]
    reqs = {}
    for i, text in enumerate(rows):
        msg = corpus_of([(1, text, False)]).messages[0]
        reqs[i] = next(r for r in requests_of(msg) if r.head == "reply")
    theme = Theme(head="reply", qualifier="star", kind="topic", requests=reqs, compound=True)
    assert sentence_for(theme) == "Drafts replies to star reviews."
