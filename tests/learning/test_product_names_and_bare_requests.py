"""A product's name written the way its makers write it ("xUnit", "iOS", "pgAdmin") names
no person or company: it is no name a quote must leave out, a sentence may say it and
keeps its form; an identifier ("getUser") and a brand in camel case ("TripAdvisor") are
still what they were. After "can you", "do" with a bare plural asks for the work."""

from __future__ import annotations

from learning import policy
from learning.proposers.local.hygiene import proper_words, quote_for
from tests.learning.corpora import corpus_of, read


def test_a_small_first_letter_and_a_capital_inside_is_a_products_name():
    for word in ("xUnit", "iOS", "pgAdmin", "eBay"):
        assert policy.product_name(word), word
    for word in ("getUser", "setState", "TripAdvisor", "Nina", "xunit", "x_unit"):
        assert not policy.product_name(word), word


def test_a_products_name_is_no_name_and_a_quote_may_hold_it():
    corpus = corpus_of([(1, "Write xUnit tests for the paging on the repairs list", False)])
    assert "xunit" not in proper_words(corpus.messages)
    message = corpus.messages[0]
    quote = quote_for(message, 0, len(message.text), set(), keep=frozenset(["test"]))
    assert quote is not None and quote.startswith("Write xUnit tests")
    corpus = corpus_of([(1, "Write the Hartwell reply and one for Nina", False)])
    assert {"hartwell", "nina"} <= proper_words(corpus.messages)


def test_a_sentence_may_name_a_product_as_its_makers_write_it():
    persona = {"name": "Dev helper", "role": "assistant"}
    assert not policy.sentence_refusal(
        sentence="Writes xUnit tests.", field="goals", persona=persona, known_names=set()
    )
    assert policy.sentence_refusal(
        sentence="Writes Bronwen tests.", field="goals", persona=persona, known_names=set()
    )


def test_a_request_names_the_products_work_in_its_makers_form():
    from learning.proposers.local.requests import _surface
    from learning.proposers.local.tokens import tokens

    (tok,) = tokens("xUnit")
    assert _surface(tok) == "xUnit"
    (tok,) = tokens("Tests")
    assert _surface(tok) == "tests"


def test_can_you_do_with_a_bare_plural_is_a_request():
    assert [head for _, head, _ in read("can u do reminder texts for tomorrows dogs?")] == ["text"]
    assert [head for _, head, _ in read("Can you do quotes for these jobs?")] == ["quote"]
    assert [head for _, head, _ in read("can u do a reminder text for tomorrows dogs?")] == ["text"]
