"""Requests outside English read where they were missed: the second thing asked for with
the same verb ("lag bekreftelse og faktura"), and a new request after a reply, when it
asks with a verb for a noun with its article or is a label a short lead-in announces
("da: instagram-innlegg om …"), for work opening messages ask for too; a verb and a bare
noun after a reply ("Scrivi olio extravergine") is the wording to use, no request."""

from __future__ import annotations

from learning.proposers.local.other_languages import asks_of, find_foreign_themes
from tests.learning.corpora import corpus_of


def _asks(text: str, code: str, *, after: bool = False) -> list[tuple[str, str]]:
    [message] = corpus_of([(1, text, after)]).messages
    return [(a.verb, a.noun) for a in asks_of(message, code, set())]


def test_the_second_noun_joined_by_and_is_asked_for_with_the_same_verb():
    assert _asks("Ny påmelding til kurset, lag bekreftelse og faktura.", "no") == [
        ("lage", "bekreftelse"),
        ("lage", "faktura"),
    ]
    assert _asks("Prépare le devis et la facture pour la mairie.", "fr") == [
        ("préparer", "devis"),
        ("préparer", "facture"),
    ]


def test_a_new_request_after_a_reply_is_read_a_correction_is_not():
    assert _asks("haha ok. da: instagram-innlegg om at kalenderen kommer", "no", after=True) == [
        ("", "instagram-innlegg")
    ]
    assert _asks("bon ok, propose l'expertise alors", "fr", after=True) == [
        ("proposer", "expertise")
    ]
    assert _asks("Scrivi olio extravergine", "it", after=True) == []
    assert _asks("Facture : toujours en HT.", "fr", after=True) == []


def test_a_request_after_a_reply_counts_only_for_work_opening_messages_ask_for():
    rows = [
        (1, "Écris une facture pour la mairie.", False),
        (1, "Écris une facture pour le club de foot.", False),
        (1, "Merci. Écris la facture pour l'école aussi.", True),
        (1, "Écris le programme de la sortie.", False),
        (1, "Parfait. Écris le menu du soir.", True),
        (1, "Merci. Écris le menu du gîte.", True),
        (1, "Super. Écris le menu de dimanche.", True),
    ]
    corpus = corpus_of(rows)
    themes = find_foreign_themes(corpus.messages, "fr", set(), min_conversations=3, min_users=None)
    assert [t.noun for t in themes] == ["facture"]
