"""A quote is cut from the prose the request stands in: never widened into a review, an
e-mail or a line the person pastes in quotation marks, nor out of one; a foreign request
after a statement and a comma is read, and one whose own words a name cuts short is quoted
by a later message of its conversation naming its noun."""

from __future__ import annotations

from dataclasses import replace
from types import SimpleNamespace

from learning.proposers.local import quote_for
from learning.proposers.local.hygiene import proper_words
from learning.proposers.local.other_languages import (
    asks_of,
    find_foreign_themes,
    foreign_evidence,
    foreign_sentence,
)
from safety.text import content_words, share_a_word
from tests.learning.corpora import corpus_of

BAD_REVIEW = (
    "we got a bad review. 'Mount was wonky when I got it home, very disappointed.' "
    "can you reply, I've had a look and it did slip in the frame"
)


def _quote_of(text: str, clause: str, keep: frozenset[str] = frozenset()) -> str | None:
    corpus = corpus_of([(1, text, False)])
    at = text.index(clause)
    return quote_for(corpus.messages[0], at, at + len(clause), set(), keep=keep)


def test_a_short_label_is_not_widened_into_the_review_it_pastes():
    text = "Bad review: 'The cake came late and squashed, such a shame.' reply pls"
    assert _quote_of(text, "Bad review", frozenset(["review"])) is None


def test_a_clause_inside_a_quoted_review_is_not_widened_out_of_it():
    quote = _quote_of(BAD_REVIEW, "very disappointed")
    assert quote is None or "can you" not in quote


def test_a_spanish_request_after_a_statement_and_a_comma_is_read():
    corpus = corpus_of([(1, "Me llegó este correo, hazme la factura en inglés:", False)])
    (ask,) = asks_of(corpus.messages[0], "es", set())
    assert (ask.verb, ask.noun) == ("hacer", "factura")


def test_a_foreign_request_a_name_cuts_short_is_quoted_by_a_follow_up_naming_its_noun():
    corpus = corpus_of(
        [
            (1, "Factura para La Alacena Gourmet de Oviedo: 10 quesos a 24 € el queso", False),
            (1, "pon el IVA incluido. En todas las facturas y pedidos", True),
            (2, "factura para el restaurante, 8 kg de queso curado", False),
            (2, "factura para la tienda del pueblo, 4 quesos azules", False),
        ]
    )
    first, later, *rest = corpus.messages
    # the follow-up is the second message of the first request's conversation
    later = replace(later, conversation_id=first.conversation_id, seq=2)
    messages = [first, later, *rest]
    names = proper_words(messages, english=False, code="es")
    (theme,) = find_foreign_themes([first, *rest], "es", names, min_conversations=3, min_users=None)
    words = content_words(foreign_sentence(theme, "es"))
    quotes = [e["quote"] for e in foreign_evidence(theme, names, "es", messages)[0]]
    assert "En todas las facturas y pedidos" in quotes
    assert len([q for q in quotes if share_a_word(q, words)]) == 3
    # without the messages read, the first request gives no quote of the work
    alone = [e["quote"] for e in foreign_evidence(theme, names, "es")[0]]
    assert len([q for q in alone if share_a_word(q, words)]) == 2


def test_a_label_naming_a_particular_is_not_quoted_by_a_follow_up():
    corpus = corpus_of(
        [
            (1, "Chambre Lavande, du 2 au 4 octobre, 95 € la nuit", False),
            (1, "Nous sommes des chambres d'hôtes, toujours", True),
            (2, "Chambre Lavande, du 15 au 18 octobre, 105 € la nuit", False),
        ]
    )
    first, later, other = corpus.messages
    later = replace(later, conversation_id=first.conversation_id, seq=2)
    names = {"lavande"}
    asks = [a for m in (first, other) for a in asks_of(m, "fr", names)]
    theme = SimpleNamespace(asks={a.message.conversation_label: a for a in asks}, noun="chambre")
    theme.complement, theme.verb, theme.article, theme.plural = "", "préparer", "les", ""
    theme.to, theme.purpose = False, ""
    theme.also, theme.also_noun = "", ""
    quotes = [e["quote"] for e in foreign_evidence(theme, names, "fr", [first, later, other])[0]]
    assert not any("hôtes" in q for q in quotes)
