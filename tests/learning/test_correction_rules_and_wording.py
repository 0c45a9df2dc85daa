"""How corrections become rules: a negative correction becomes a prohibition (never
'Use never deploy floating tags.'), a hyphenated word stays whole, a rule's quote ends
with its sentence and carries no one-off edit, and a rule about wording quotes the
phrase it replaces."""

from __future__ import annotations

import pytest

from learning.policy import one_off_edit, rule_refusal
from learning.proposers.local import (
    LocalProposer,
    find_themes,
    quote_for,
    requests_of,
    rule_for,
    sentence_for,
    tokens,
)
from learning.proposers.local.rules import _contrast
from tests.learning.corpora import corpus_of, correction_hits, same_vectors, settings

# --- a negative correction is a prohibition, never "Use never …" ------------------------------


@pytest.mark.parametrize(
    ("texts", "rule"),
    [
        (
            ("we never deploy floating tags, you can't tell", "Never deploy floating tags again."),
            "Never deploy floating tags.",
        ),
        (("don't use the latest tag, pin it", "Don't use the latest tag please."), None),
        (("do not use the latest tag.", "please do not use the latest tag"), None),
        (
            ("please don't write euthanasia to owners", "don't write euthanasia to owners"),
            "Do not write euthanasia to owners.",
        ),
    ],
)
def test_a_negative_correction_becomes_a_prohibition(texts, rule):
    got = rule_for(correction_hits(*texts))
    assert got == (rule or "Do not use the latest tag.")
    assert rule_refusal(rule=got, persona={}, known_names=set()) is None


def test_a_negated_noun_phrase_gives_no_rule():
    assert rule_for(correction_hits("no floating tags", "no floating tags please")) is None


@pytest.mark.parametrize(
    "texts",
    [
        ("No end dates to customers, ever", "no end dates to customers please"),
        ("no use clauses please, we write names in full", "no use clauses in the packages"),
    ],
)
def test_a_noun_after_no_is_never_read_as_an_imperative_verb(texts):
    """ "no end dates", "no use clauses": a noun phrase ("end", "use" can be verbs), so
    never "Do not end dates …" or "Do not use clauses." (the refused thing loses a word)."""
    assert rule_for(correction_hits(*texts)) is None


def test_the_items_of_a_refused_list_never_become_a_use_rule():
    """ "never miles, feet or acres" refuses feet and acres too: no "Use feet or acres"."""
    texts = (
        "Metric only, please: metres, kilometres and hectares, never miles, feet or acres. "
        "Clients and planners read hectares.",
        "Never feet or acres in a report.",
    )
    from learning.proposers.local import corrections_of
    from tests.learning.corpora import corpus_of

    corpus = corpus_of([(1, t, True) for t in texts])
    every = [c for m in corpus.messages for c in corrections_of(m)]
    got = rule_for({k: (c, 0) for k, c in enumerate(every)})
    assert got is None or "feet" not in got.lower()
    # a verbless instruction with no negation before it is still a rule, also after a
    # negated sentence
    assert (
        rule_for(
            correction_hits(
                "No. British spelling please.", "Never mind. British spelling again please."
            )
        )
        == "Use British spelling."
    )


# --- a rule about wording quotes the wording --------------------------------------------------


@pytest.mark.parametrize(
    ("texts", "rule"),
    [
        (
            ("we say put to sleep. it reads", "We always say put to sleep, it's gentler."),
            'Say "put to sleep".',
        ),
        (
            ("never say 'euthanasia' to owners", "Never say 'euthanasia' to owners, please."),
            'Never say "euthanasia" to owners.',
        ),
        # unquoted, a prohibition may go on past the phrase: left as written
        (
            ("never say euthanasia to owners", "never say euthanasia to owners"),
            "Never say euthanasia to owners.",
        ),
    ],
)
def test_a_rule_about_wording_quotes_the_phrase(texts, rule):
    got = rule_for(correction_hits(*texts))
    assert got == rule
    assert rule_refusal(rule=got, persona={}, known_names=set()) is None


# --- a hyphenated word stays whole ----------------------------------------------------------

PRE_OP = [
    (1, "Write the pre-op note for the spay tomorrow", False),
    (2, "can you write the pre-op text for cat neuters", False),
    (1, "Can you write her a pre-op note, she's in on friday", False),
    (2, "Can you do the standard pre-op sheet for dog spays", False),
]


def test_a_hyphenated_word_stays_whole_in_a_sentence():
    corpus = corpus_of(PRE_OP)
    requests = [r for m in corpus.messages for r in requests_of(m)]
    themes = find_themes(requests, same_vectors(corpus), min_conversations=3, min_users=None)
    sentences = [sentence_for(t) for t in themes]
    assert sentences and "Writes pre-op notes." in sentences, sentences
    for sentence in sentences:
        assert not {"pre", "post", "op"} & {w.strip(".").lower() for w in sentence.split()}


@pytest.mark.parametrize("prefix", ["pre", "post", "non", "re", "co", "self", "anti"])
def test_a_prefix_is_never_a_word_of_its_own(prefix):
    toks = tokens(f"the {prefix}-op note and a {prefix}-booked slot")
    assert [t.low for t in toks] == [
        "the",
        f"{prefix}-op",
        "note",
        "and",
        "a",
        f"{prefix}-booked",
        "slot",
    ]


# --- a rule's quote stays in its own sentence ------------------------------------------------


def test_a_correction_quote_never_runs_on_into_the_next_sentence():
    text = "It's Pepper, not 'your dog', same as always, use the name. And can you make it shorter."
    m = corpus_of([(1, text, True)]).messages[0]
    a = text.index("use the name")
    quote = quote_for(m, a, a + len("use the name"), {"pepper"}, own_sentence=True)
    assert quote == "not 'your dog', same as always, use the name"


def test_a_rule_whose_quotes_carry_a_one_off_edit_is_not_proposed_with_them():
    rows = [
        (1, "It's Pepper, not 'your dog', use the name. And can you make it shorter.", True),
        (
            2,
            "Say Dash, not 'your dog', please, we always use the name. And add the estimate.",
            True,
        ),
    ]
    corpus = corpus_of(rows, names=("Pepper", "Dash"))
    result = LocalProposer().propose_rule(corpus, {}, settings(min_users=None))
    quotes = [e["quote"] for e in result.data["evidence"]]
    assert quotes and not any(one_off_edit(q) or "shorter" in q or "estimate" in q for q in quotes)


# --- a positive rule names the wording it replaces ------------------------------------------


@pytest.mark.parametrize(
    ("rows", "names", "rule"),
    [
        (
            [
                (1, "It's Pepper, not 'your dog', same as always, use the name.", True),
                (2, "Say Dash, not 'your dog', please, we always use the name.", True),
            ],
            ("Pepper", "Dash"),
            'Use the name, not "your dog".',
        ),
        (
            [
                (1, "Not 'euthanasia' please, even on Facebook. We always say put to sleep.", True),
                (
                    2,
                    "please don't write euthanasia to owners, we say put to sleep. so clinical",
                    True,
                ),
            ],
            (),
            'Say "put to sleep", not "euthanasia".',
        ),
    ],
)
def test_a_rule_names_the_quoted_wording_it_replaces(rows, names, rule):
    corpus = corpus_of(rows, names=names)
    result = LocalProposer().propose_rule(corpus, {}, settings(min_users=None))
    assert result.data["rule"] == rule


def test_a_refused_wording_that_reads_as_a_name_is_left_out_of_the_rule():
    rows = [
        (1, 'Greet them by their first name, not "Hi there". It\'s Tom.', True),
        (2, "Greet them by their first name please.", True),
    ]
    result = LocalProposer().propose_rule(corpus_of(rows), {}, settings(min_users=None))
    assert result.data["rule"] == "Greet them by their first name."


def test_the_refused_wording_comes_from_the_correction_s_own_sentence():
    from types import SimpleNamespace

    from learning.proposers.local import corrections_of
    from learning.proposers.local.rules import _sentence_of

    message = SimpleNamespace(
        text="Please write dates in full, like 12 March. And say 'closed', not 'finalised'."
    )
    dates = next(c for c in corrections_of(message) if "dates" in [t.low for t in c.toks])
    assert _contrast(_sentence_of(dates), "Write dates in full") is None
    closed = next(c for c in corrections_of(message) if "closed" in [t.low for t in c.toks])
    assert _contrast(_sentence_of(closed), 'Say "closed"') == "finalised"


def test_a_rule_names_one_unquoted_word_that_closes_the_correction():
    rows = [
        (1, "And change 'patients' anywhere if it comes up, I say clients.", True),
        (1, "'patient-care team' is a bit odd. and you know I say client, not patient", True),
    ]
    result = LocalProposer().propose_rule(corpus_of(rows), {"standing_rules": []}, settings())
    # the refused noun agrees in number with the one to say: "patients", not "patient"
    assert result.data["rule"] == 'Say "clients", not "patients".'
    # a number is no wording: "not 04" names nothing to avoid
    assert _contrast("Write dates in full, not 04", "Write dates in full.") is None


def test_an_unquoted_word_refused_next_to_another_instruction_stays_out_of_the_rule():
    rows = [
        (1, "Type hints please, and plain pytest functions, not classes.", True),
        (1, "And add type hints to the test helpers.", True),
    ]
    result = LocalProposer().propose_rule(corpus_of(rows), {"standing_rules": []}, settings())
    assert "classes" not in (result.data["rule"] or "")
