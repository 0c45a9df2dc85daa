"""A standing rule in another language typed on a phone without its accents ("mets mes
numeros de TPS en bas") is written with the person's own spelling of the same word
elsewhere ("numéros"), never with a spelling guessed; a short word ("a", "ou") may be
another word plain, and stays as typed."""

from __future__ import annotations

from learning.proposers.local import LocalProposer
from tests.learning.corpora import corpus_of, settings

PERSONA = {
    "role": "Aide Marc avec la paperasse de son entreprise de déneigement",
    "goals": "Sauver du temps à Marc l'hiver.",
    "background": "Marc est déneigeur à son compte, avec un tracteur et une souffleuse.",
    "guardrails": ["Ne jamais donner les numéros de téléphone des clients."],
    "standing_rules": [],
}


def _rule(rows: list[tuple[int, str, bool]], persona: dict) -> str | None:
    result = LocalProposer().propose_rule(corpus_of(rows), persona, settings(min_users=None))
    return result.data["rule"]


def test_a_word_typed_without_accents_takes_the_spelling_written_elsewhere():
    rows = [
        (1, "mets mes numeros de taxes en bas de la facture stp", True),
        (1, "encore, mets mes numeros de taxes en bas", True),
        (1, "fais moi une facture pour le numéro 12 de la rue", False),
    ]
    rule = _rule(rows, PERSONA)
    assert rule is not None and rule.startswith("Mets mes numéros de taxes en bas")
    # nowhere written with its accents: kept as typed, no spelling is guessed
    plain = {**PERSONA, "guardrails": []}
    rule = _rule(rows[:2], plain)
    assert rule is not None and rule.startswith("Mets mes numeros de taxes en bas")
