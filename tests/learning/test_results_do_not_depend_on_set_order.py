"""The local proposer's output is a pure function of its input: where two candidates tie,
the one said first (or the first in a fixed order) wins, never the first a set yields,
whose order changes with Python's string hash seed from one process to the next. Both
tests failed on the code before this change (for almost every hash seed)."""

from __future__ import annotations

import pytest

from learning import policy
from learning.proposers.local.corrections import preferred_words
from tests.learning.corpora import corpus_of

# two forms of one word, each said once: a tie
TIED_FORMS = [
    ("garment not item", "garments not items"),
    ("players, not customers", "player, not customer"),
    ("clients not patients", "client not patient"),
    ("invoices, not bills", "invoice, not bill"),
    ("recipes not dishes", "recipe not dish"),
]


def _corrections(texts):
    from learning.proposers.local import corrections_of

    corpus = corpus_of([(1, t, True) for t in texts])
    return [c for m in corpus.messages for c in corrections_of(m)]


@pytest.mark.parametrize("flip", [False, True])
def test_at_a_tie_the_preferred_word_is_the_form_said_first(flip):
    for pair in TIED_FORMS:
        first, second = reversed(pair) if flip else pair
        found = preferred_words(_corrections([first, second]), min_conversations=2, min_users=None)
        assert [w for w, _, _ in found] == [first.split()[0].rstrip(",")], (first, second)


def test_of_names_of_one_length_the_first_in_alphabetical_order_is_named():
    groups = [
        ["Priya", "Tomas", "Keira", "Oscar", "Imani", "Dylan", "Freya", "Hamza"],
        ["Bea", "Cal", "Dot", "Eve", "Gus", "Ida", "Jem", "Kit"],
        ["Maris", "Nolan", "Petra", "Quinn", "Rhoda", "Soren", "Ulric", "Wanda"],
    ]
    for names in groups:
        text = "Ask " + ", ".join(reversed(names)) + " about it."
        assert policy._known_name(text, set(names)) == min(names), names


PASTE = "\n```\nsrc/Main.hs:14:15: error: Couldn't match type Int with Pence\n```"


def _problems(texts: list[str]):
    from learning.proposers.local import Theme, requests_of

    corpus = corpus_of([(1, text + PASTE, False) for text in texts])
    reports = [r for m in corpus.messages for r in requests_of(m) if r.reported]
    return Theme(
        head="error", verb="debug", requests={r.message.conversation_id: r for r in reports}
    )


@pytest.mark.parametrize(
    ("first", "second"),
    [("compile", "link"), ("link", "compile"), ("build", "run"), ("run", "build")],
)
def test_of_two_problems_every_quote_names_the_one_written_first_words_the_theme(first, second):
    from learning.proposers.local.wording import problem_named_by_quotes

    theme = _problems(
        [
            f"it won't {first} and won't {second} after the bump:",
            f"still won't {first} and won't {second} this morning:",
            f"the fixture won't {first} and won't {second} today:",
        ]
    )
    assert problem_named_by_quotes(theme, "Debugs the errors.", set()) == (
        f"Debugs {first} errors."
    )


@pytest.mark.parametrize("flip", [False, True])
def test_the_words_a_message_writes_before_a_topic_come_in_the_order_written(flip):
    from learning.proposers.local.themes import _words_before

    words = ["club", "group", "panel", "school", "team", "course", "choir", "league"]
    words = words[::-1] if flip else words
    text = "Questions for the " + ", the ".join(f"{w} questions" for w in words) + "."
    message = corpus_of([(1, text, False)]).messages[0]
    assert _words_before(message, "question") == words
