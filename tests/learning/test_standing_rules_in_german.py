"""Standing rules in German: a correction people repeat after replies, kept as written
when it is an instruction by German grammar (an imperative first, "Schreiben Sie", a
separable verb's particle last, or an infinitive last: "Lieferzeit immer in KW
angeben"), with its negation; and a word refused in two forms is named once."""

from __future__ import annotations

from learning import language
from learning.proposers.local import LocalProposer, corrections_of
from learning.proposers.local.corrections import preferred_rule, preferred_words
from learning.proposers.local.foreign_rules import foreign_rule
from tests.learning.corpora import corpus_of, correction_hits, settings

GERMAN = {
    "role": "Assistentin für die Goldschmiede",
    "goals": "Schreibt die Antworten an die Kundinnen und die Beiträge für Instagram.",
    "guardrails": ["Nie die Adresse einer Kundin weitergeben."],
    "standing_rules": [],
}


def _is_instruction(text: str) -> bool:
    return language.instruction_in(text.split(), "de")


def test_a_german_imperative_in_each_form_is_an_instruction():
    assert _is_instruction("Schreib den Feingehalt als Zahl")
    assert _is_instruction("Schreibe den Feingehalt als Zahl")
    assert _is_instruction("Schreiben Sie den Feingehalt als Zahl")
    assert _is_instruction("Bitte immer den Feingehalt nennen")
    assert _is_instruction("Verwende nie Ausrufezeichen")
    assert _is_instruction("Gib nie Preise mit Karat an")


def test_a_separable_verb_is_an_instruction_with_its_particle_last():
    assert _is_instruction("Gib die Lieferzeit immer in Kalenderwochen an")
    assert _is_instruction("Füge immer die Anfahrtspauschale hinzu")
    assert _is_instruction("Geben Sie die Lieferzeit in Kalenderwochen an")
    # the verb alone, without its particle, is another verb ("geben" is not "angeben"),
    # and a particle last after a verb of no instruction is no instruction
    assert not _is_instruction("Füge die Anfahrtspauschale")
    assert not _is_instruction("Komm morgen früh an")


def test_an_infinitive_last_is_an_instruction_unless_its_clause_has_a_subject():
    assert _is_instruction("Lieferzeit bitte immer in Kalenderwochen angeben")
    assert _is_instruction("Bitte die Kunden siezen")
    assert _is_instruction("Bitte grundsätzlich ohne Ausrufezeichen schreiben")
    # a subordinate clause or one with its own subject puts its verb last too
    assert not _is_instruction("auch wenn die uns duzen")
    assert not _is_instruction("Wir duzen keine Kunden")
    assert not _is_instruction("was wir den Kunden schreiben")
    # a bare verb or a noun phrase is a reminder: the proposer makes up no verb for it
    assert not _is_instruction("Bitte siezen")
    assert not _is_instruction("Den Feingehalt immer als Zahl")


def test_a_german_negation_is_kept_in_the_rule():
    hits = correction_hits(
        "Bitte nie Karat schreiben, das verwirrt die Leute.",
        "Schon wieder Karat, das hatten wir doch.",
    )
    assert foreign_rule(hits, "de") == "Bitte nie Karat schreiben."
    hits = correction_hits(
        "Verwende keine Ausrufezeichen, das wirkt marktschreierisch.",
        "Keine Ausrufezeichen, bitte.",
    )
    assert foreign_rule(hits, "de") == "Verwende keine Ausrufezeichen."
    hits = correction_hits(
        "Schreiben Sie nie Karat, sondern den Feingehalt.",
        "Karat versteht hier keiner.",
    )
    assert foreign_rule(hits, "de") == "Schreiben Sie nie Karat."


def test_a_german_correction_repeated_across_conversations_becomes_a_german_rule():
    rows = [
        (1, "Bitte grundsätzlich ohne Ausrufezeichen schreiben, in allem, was rausgeht.", True),
        (1, "Ohne Ausrufezeichen bitte, auch auf Instagram. Hab ich schon gesagt.", True),
        (1, "Schon wieder: ohne Ausrufezeichen, das wirkt so laut.", True),
    ]
    result = LocalProposer().propose_rule(corpus_of(rows), GERMAN, settings())
    assert not result.declined
    assert result.data["rule"] == "Bitte grundsätzlich ohne Ausrufezeichen schreiben."
    quotes = [e["quote"] for e in result.data["evidence"]]
    # a German noun's capital is no name's: the quotes keep "Ausrufezeichen"
    assert len(quotes) >= 2 and all("Ausrufezeichen" in q for q in quotes), quotes


def test_a_german_rule_that_names_a_customer_is_not_proposed():
    rows = [
        (1, "Bitte Herrn Krüger immer siezen, auch wenn er nett ist.", True),
        (1, "Bitte Herrn Krüger immer siezen, das hatten wir schon.", True),
    ]
    corpus = corpus_of(rows, names=("Krüger",))
    result = LocalProposer().propose_rule(corpus, GERMAN, settings())
    assert not result.declined
    assert result.data["rule"] is None
    assert any("Krüger" in note for note in result.notes), result.notes


def test_a_refused_word_said_in_two_forms_is_named_once():
    corpus = corpus_of(
        [(1, "garment not item, please", True), (1, "it's garments not items", True)]
    )
    corrections = [c for m in corpus.messages if m.after_assistant for c in corrections_of(m)]
    found = preferred_words(corrections, min_conversations=2, min_users=None)
    assert [(w, instead) for w, instead, _ in found] == [("garment", ["item"])]
    assert preferred_rule("garment", ["item"]) == 'Say "garment", not "item".'


def test_a_name_after_a_greeting_that_opens_the_sentence_stays_out_of_a_quote():
    from learning.proposers.local.hygiene import quote_for

    message = corpus_of([(1, "Liebe Anna hat wieder Ausrufezeichen bekommen, bitte nicht.", True)])
    m = message.messages[0]
    quote = quote_for(m, 0, len(m.text), set(), frame=language.FRAMES["de"])
    assert quote is None or "Anna" not in quote, quote
    m = corpus_of([(1, "Ohne Ausrufezeichen bitte, auch auf Instagram.", True)]).messages[0]
    quote = quote_for(m, 0, len(m.text), set(), frame=language.FRAMES["de"])
    assert quote is not None and "Ausrufezeichen" in quote, quote
