"""Which language a persona or a proposed sentence is written in is told by a language
identifier: a persona in a language the proposer names is read in it, one in any other
language is declined (``language.UNREAD``), never read with a neighbour's frames, and a
sentence in a language other than the persona's is refused."""

from __future__ import annotations

import pytest

from learning import language
from learning.policy import sentence_refusal
from learning.proposers.local import LocalProposer
from tests.learning.corpora import corpus_of, settings

CZECH = {
    "role": "Pomáhá Petře s nabídkami, kurzy keramiky, fakturami a texty na e-shop a Instagram",
    "goals": "Ušetřit Petře čas na psaní a papírování, aby mohla víc točit na kruhu.",
    "background": (
        "Petra Dvořáková vede sama malou keramickou dílnu v Olomouci: dělá hrnky, mísy a "
        "vázy, pořádá kurzy pro začátečníky a prodává na Fleru a na trzích."
    ),
    "guardrails": [
        "Nikdy neuváděj adresy ani telefonní čísla zákazníků.",
        "Neslibuj termín dodání bez Petřina souhlasu.",
    ],
}
DANISH = {
    "role": "Hjælper Mette med tilbud, fakturaer, anmeldelser og opslag på Instagram",
    "goals": "Spare Mette tid på kontorarbejde, så hun kan stå i værkstedet.",
    "background": (
        "Mette Jensen driver alene et lille keramikværksted i Aarhus: krus, skåle, vaser og "
        "kurser for begyndere."
    ),
    "guardrails": ["Giv aldrig kunders adresser eller telefonnumre videre."],
}
NORWEGIAN = {
    "role": "Hjelper Ingrid med tilbud, fakturaer, anmeldelser og innlegg på Instagram",
    "goals": "Spare Ingrid tid på kontorarbeid, slik at hun kan stå i verkstedet.",
    "background": (
        "Ingrid Berg driver alene et lite møbeltapetsereri i Bergen: stoler, sofaer og kurs "
        "for nybegynnere."
    ),
    "guardrails": ["Gi aldri ut kunders adresser eller telefonnumre."],
}
HUNGARIAN = {
    "role": (
        "Segít Katának az árajánlatokkal, számlákkal, értékelésekre adott válaszokkal és az "
        "Instagram-posztokkal"
    ),
    "goals": "Időt spórolni Katának a papírmunkán, hogy többet lehessen a műhelyben.",
    "background": (
        "Nagy Kata egyedül viszi kis kerámiaműhelyét Pécsen: bögréket, tálakat készít, és "
        "kezdő tanfolyamokat tart."
    ),
    "guardrails": ["Soha ne add ki az ügyfelek címét vagy telefonszámát."],
}
POLISH = {
    "role": "Pomaga Annie z ofertami, fakturami, opiniami klientów i postami na Instagram",
    "goals": "Oszczędzić Annie czas na pisaniu, żeby mogła więcej szyć.",
    "background": (
        "Anna Nowak sama prowadzi pracownię krawiecką w Gdańsku: szyje suknie ślubne, robi "
        "poprawki i przeróbki, prowadzi kursy szycia."
    ),
    "guardrails": ["Nigdy nie podawaj adresów ani numerów telefonów klientek."],
}
SWEDISH = {
    "role": "Hjälper Erik med offerter, fakturor, recensioner och inlägg på Instagram",
    "goals": "Spara tid åt Erik på pappersarbete så att han kan stå i snickeriet.",
    "background": (
        "Erik Lund driver ensam ett litet snickeri i Umeå: platsbyggda bokhyllor, köksluckor, "
        "renovering av gamla fönster och kurser i träarbete."
    ),
    "guardrails": ["Lämna aldrig ut kunders adresser eller telefonnummer."],
}
# requests that recur in three conversations, as a Czech owner writes them
CZECH_REQUESTS = [
    (1, "Napiš prosím nabídku na opravu staré knihy pro paní Novákovou.", False),
    (1, "Potřebuju nabídku na vazbu diplomové práce, tři výtisky.", False),
    (1, "Můžeš mi napsat nabídku na restaurování rodinné bible?", False),
]


@pytest.mark.parametrize(
    ("persona", "code"),
    [
        (CZECH, "cs"),  # not Portuguese, though it writes "a", "o", "na"
        (POLISH, "pl"),
        (DANISH, "da"),  # not Swedish, though it writes "på", "og", "er"
        (NORWEGIAN, "no"),
        (SWEDISH, "sv"),
        (HUNGARIAN, language.UNREAD),  # not German, though it writes "ü" and "ö"
    ],
)
def test_a_persona_is_told_from_the_languages_beside_it(persona, code):
    assert language.persona_language(persona) == code


@pytest.mark.parametrize("persona", [HUNGARIAN])
def test_a_persona_in_a_language_the_proposer_does_not_name_is_declined(persona):
    corpus = corpus_of(CZECH_REQUESTS)
    goals = LocalProposer().propose_sentence(corpus, persona, settings())
    assert goals.data["sentence"] == ""
    assert "written in a language other than English" in goals.declined
    rule = LocalProposer().propose_rule(corpus, persona, settings())
    assert rule.data["rule"] is None
    assert "written in a language other than English" in rule.declined


def test_a_sentence_in_a_neighbour_language_is_refused():
    danish = "Skriver tilbud på køkkener og fakturaer til kunderne."
    reason = sentence_refusal(sentence=danish, field="goals", persona=SWEDISH, known_names=set())
    assert reason and "persona is written in Swedish" in reason
    swedish = "Skriver offerter på kök och fakturor till kunderna."
    assert not sentence_refusal(sentence=swedish, field="goals", persona=SWEDISH, known_names=set())


def test_a_short_text_is_told_only_when_the_identifier_is_sure():
    assert language.detect("Schreibt Angebote.") == "de"
    assert language.detect("Angebote.") == ""
    assert language.detect("Instagram") == ""
    assert language.detect("def total(rows):\n    return sum(r.amount for r in rows)") == ""
