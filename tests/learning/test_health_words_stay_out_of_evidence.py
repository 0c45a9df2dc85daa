"""What a message says about someone's health is never evidence, but the work the same
message asks for is: the clauses that hold a health word are not read, and no quote ever
holds one."""

from __future__ import annotations

from learning.proposers.local.hygiene import quote_for
from tests.learning.corpora import corpus_of, read


def test_a_request_beside_a_clause_about_health_is_read():
    heads = [
        h
        for _, h, _ in read(
            "Collect Mr Hale from the hospital tomorrow, and can you draft the notice"
        )
    ]
    assert heads == ["notice"]


def test_the_clause_about_health_gives_no_request():
    assert read("Can you write the letter about her chemo appointments") == []
    assert read("Draft a note to the hospice about Friday") == []


def test_no_quote_holds_a_word_about_health():
    text = "Write the notice for Friday please, he was in the hospice for a month"
    message = corpus_of([(1, text, False)]).messages[0]
    quote = quote_for(message, 0, len(text), set(), keep=frozenset({"notice"}))
    assert quote is None or "hospice" not in quote.lower()
    whole = "Draft the notice for Friday: hospice staff asked for it"
    message = corpus_of([(1, whole, False)]).messages[0]
    assert quote_for(message, 0, len(whole), set(), keep=frozenset({"hospice"})) is None
