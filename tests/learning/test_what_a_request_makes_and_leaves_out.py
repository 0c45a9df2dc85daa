"""What a request makes, worded as a reviewer keeps it: a thing the message says is absent
("no scaffold needed") is never what the work is for or about; turning a thing into
another ("turn the survey notes into a report") makes the other; a thing written up ("write
up the survey") is made into the text the other requests make of it ("survey reports")."""

from __future__ import annotations

from learning.proposers.local import find_themes, requests_of, sentence_for
from tests.learning.corpora import corpus_of, read, same_vectors


def _sentences(texts: list[str]) -> list[str]:
    corpus = corpus_of([(1, t, False) for t in texts])
    requests = [r for m in corpus.messages for r in requests_of(m)]
    themes = find_themes(requests, same_vectors(corpus), min_conversations=3, min_users=None)
    return [sentence_for(t) for t in themes]


QUOTES = [
    "Quote for the Dunstone house please: ten panels and an inverter, £6,200 inc scaffold.",
    "quote for a battery retrofit pls, it's a bungalow, no scaffold needed",
    "Quote for the Whiteley house, two storey so scaffold.",
    "quote for the Carew house: scaffold £720, total £9,900",
    "Quote for the ground mount at the farm, no scaffold obviously.",
]


def test_a_thing_the_messages_say_is_absent_is_no_topic_of_the_work():
    sentences = _sentences(QUOTES)
    assert not any("scaffold" in s for s in sentences)
    assert any(s.endswith("quotes.") for s in sentences)
    # named as there by every message, it stays the topic
    there = [*QUOTES[:1], QUOTES[2], QUOTES[3], "quote for the barn: scaffold too"]
    assert any("scaffold" in s for s in _sentences(there))


def test_a_thing_named_without_or_as_not_needed_is_no_topic_either():
    sentences = _sentences(
        [
            "Quote for the Dunstone house please, with scaffold on both sides.",
            "quote for a battery retrofit pls, scaffold not needed",
            "Quote for the Whiteley house, two storey so scaffold.",
            "quote for the Carew bungalow without a scaffold",
            "Quote for the ground mount at the farm, no scaffold obviously.",
        ]
    )
    assert not any("scaffold" in s for s in sentences)


def test_turning_a_thing_into_another_makes_the_other():
    assert read("Can you turn the survey notes into a proper survey report for the job?") == [
        (None, "report", ["proper", "survey"])
    ]
    # a bare thing made is of the kind of what it is made from
    assert read("turn my survey notes into a report please") == [(None, "report", ["survey"])]


def test_turn_into_after_a_label_makes_the_label_into_the_other():
    assert read("survey notes from this morning, turn into report: 'slate roof, 2 faces'") == [
        (None, "report", ["survey"])
    ]


def test_a_thing_written_up_is_made_into_the_text_the_others_make_of_it():
    sentences = _sentences(
        [
            "Can you turn the survey notes into a proper survey report for the job?",
            "survey notes from this morning, turn into report: 'slate roof, 2 faces'",
            "write up the survey for the Exminster job, notes: 'tiles ok, 2 storey'",
            "another survey, notes: 'bungalow, hipped roof'. write it up",
        ]
    )
    assert "Writes survey reports." in sentences
    assert "Writes the surveys." not in sentences


def _foreign(lines: list[str], code: str) -> list[str]:
    from learning.proposers.local.other_languages import find_foreign_themes, foreign_sentence

    corpus = corpus_of([(1, line, False) for line in lines])
    themes = find_foreign_themes(corpus.messages, code, set(), min_conversations=3, min_users=None)
    return [foreign_sentence(t, code) for t in themes]


def test_the_verb_of_making_names_no_work_where_the_language_has_a_verb_for_it():
    # "faire", "hacer": the work is prepared, as "do the quote" is in English
    french = [
        "fais moi un devis pour la cuisine de Mme Roy",
        "salut, fais moi un devis pour le chalet",
        "peux-tu faire un devis pour la terrasse ?",
    ]
    assert _foreign(french, "fr") == ["Prépare les devis."]
    spanish = [
        "hazme la ficha de los verbos para el lunes",
        "¿me haces una ficha de vocabulario para los pequeños?",
        "haz una ficha de repaso para el examen",
    ]
    assert _foreign(spanish, "es")[0].startswith("Prepara las fichas")
    # Norwegian writes documents with "lage", and keeps it: "Lager sjekklister." (see
    # test_goals_and_rules_in_danish_and_norwegian)
