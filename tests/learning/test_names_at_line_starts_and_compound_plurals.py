"""A person's first name stays out of a quote wherever it stands (after a colon, at the
start of a line), and the plural of a compound noun goes on its head ("reading lists",
never "readings lists")."""

from __future__ import annotations

import pytest

from learning.proposers.local import find_themes, proper_words, quote_for, requests_of, sentence_for
from tests.learning.corpora import corpus_of, same_vectors

# --- 1. a name is a name wherever it stands ---------------------------------------------------

NAMED = [
    "script pls: Nina and Joe, garden ceremony with a ring exchange and a sand ceremony",
    "rota for next week:\nAyesha on the till, the rest of us on the shop floor",
    "welcome email pls. Kofi starts monday in the warehouse with the new team",
    "deposit reminders pls for the village hall bookings:\n- Tomasz and Bea, 12 June",
    "proof email - Marguerite wants the banner in green with the big logo",
]


@pytest.mark.parametrize("text", NAMED)
def test_a_name_opening_a_sentence_or_a_line_stays_out_of_the_quote(text):
    corpus = corpus_of([(1, text, False)])
    message = corpus.messages[0]
    banned = proper_words(corpus.messages)
    name = next(w for w in ("Nina", "Ayesha", "Kofi", "Tomasz", "Marguerite") if w in text)
    assert name.lower() in banned
    quote = quote_for(message, 0, len(text), banned)
    assert quote is None or name not in quote, quote


def test_an_english_word_opening_a_line_is_no_name():
    text = "ok.\nReading list for a couple who love the sea. Pls keep it short"
    corpus = corpus_of([(1, text, False)])
    assert not {"reading", "pls", "ok"} & proper_words(corpus.messages)
    # a word English does not have is no name when it is written small too ("rota")
    rows = [(1, "Rota for next week please", False), (1, "the bank holiday rota", False)]
    assert "rota" not in proper_words(corpus_of(rows).messages)
    quote = quote_for(corpus.messages[0], 4, len(text), set())
    assert quote and quote.startswith("Reading list"), quote


def test_a_name_known_to_memory_is_kept_out_in_any_case():
    corpus = corpus_of([(1, "script pls: hannah and joe, woodland ceremony at dusk", False)])
    message = corpus.messages[0]
    from learning.proposers.local.hygiene import _name_words

    quote = quote_for(message, 0, len(message.text), _name_words({"Hannah Ode"}))
    assert quote is None or "hannah" not in quote.lower(), quote


def test_requests_still_read_through_a_name_at_a_line_start():
    text = "script pls: Nina and Joe, garden ceremony"
    found = requests_of(corpus_of([(1, text, False)]).messages[0])
    assert any(r.head == "script" for r in found)


# --- 2. a noun before another noun stands in the singular ----------------------------------


@pytest.mark.parametrize(
    ("rows", "sentence"),
    [
        (
            [
                "need a readings list for a couple who love the sea",
                "reading for a blended family, something they could read together",
                "can u suggest 3 readings for a beach ceremony",
            ],
            "Suggests reading lists.",
        ),
        (
            [
                "can u write a ratings summary for the new cafe",
                "ratings summary for the deli pls",
                "draft the ratings summary for the pub",
            ],
            "Writes rating summaries.",
        ),
    ],
)
def test_the_plural_goes_on_the_head_noun_not_its_modifier(rows, sentence):
    corpus = corpus_of([(1, t, False) for t in rows])
    requests = [r for m in corpus.messages for r in requests_of(m)]
    themes = find_themes(requests, same_vectors(corpus), min_conversations=3, min_users=None)
    assert [sentence_for(t) for t in themes] == [sentence]


@pytest.mark.parametrize(
    ("noun", "form"),
    [
        ("readings", "reading"),
        ("PRs", "PR"),
        ("events", "event"),
        ("sales", "sales"),
        ("savings", "savings"),
        ("goods", "goods"),
        ("news", "news"),
        ("glasses", "glasses"),
        ("lettings", "lettings"),
        ("wholesale", "wholesale"),
    ],
)
def test_a_modifier_is_singular_unless_english_keeps_the_plural(noun, form):
    from learning.language import modifier_form

    assert modifier_form(noun) == form
