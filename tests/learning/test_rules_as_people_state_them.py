"""Standing rules from corrections as people really state them: a word set against
another in several conversations ("players, not customers"), an instruction passed on
("add that they should arrive …"), and corrections in Spanish or French kept as written;
and a goals sentence names a topic only when its quotes do."""

from __future__ import annotations

from learning import language
from learning.proposers.local import LocalProposer
from learning.proposers.local.corrections import preferred_rule, preferred_words
from learning.proposers.local.foreign_rules import foreign_rule
from learning.proposers.local.rules import rule_for
from safety.text import content_words
from tests.learning.corpora import corpus_of, correction_hits, settings

SPANISH = {
    "name": "Asistente de la floristería",
    "role": "Ayuda a Lucía con su floristería",
    "goals": "Quitarle trabajo de oficina a Lucía y preparar los pedidos de la semana.",
    "background": "Una floristería en Valencia: ramos, flores para bodas y plantas.",
    "guardrails": ["No dar nunca los datos de contacto de un cliente a terceros."],
    "standing_rules": [],
}


def _corrections(rows):
    from learning.proposers.local import corrections_of

    corpus = corpus_of(rows)
    return [c for m in corpus.messages if m.after_assistant for c in corrections_of(m)]


# --- a word said instead of another ------------------------------------------------------------


def test_a_word_set_against_others_in_several_conversations_is_a_rule():
    rows = [
        (1, "call them players, not customers. nobody thinks of themselves as one", True),
        (2, "good. in anything we send they're players, not participants", True),
        (3, "write players not teams, it's players in all our notes", True),
    ]
    found = preferred_words(_corrections(rows), min_conversations=2, min_users=2)
    assert [(w, i) for w, i, _ in found] == [("players", ["customers", "participants", "teams"])]
    word, instead, _ = found[0]
    assert preferred_rule(word, instead) == (
        'Say "players", not "customers", "participants" or "teams".'
    )


def test_a_word_set_against_another_once_or_by_one_person_in_a_team_is_no_rule():
    once = [(1, "call them players, not customers", True), (1, "that works, thanks", True)]
    assert preferred_words(_corrections(once), min_conversations=2, min_users=None) == []
    one_person = [(1, "players, not customers", True), (1, "it's players, not teams", True)]
    assert preferred_words(_corrections(one_person), min_conversations=2, min_users=2) == []


def test_numbers_and_names_set_against_each_other_are_no_preferred_word():
    rows = [
        (1, "but note the max is 6 not 8, it's crowded", True),
        (2, "the max is 6 not 8 now", True),
        (1, "Tuesday, not Monday", True),
        (2, "Tuesday not Monday please", True),
    ]
    assert preferred_words(_corrections(rows), min_conversations=2, min_users=None) == []


# --- an instruction passed on ---------------------------------------------------------------------


def test_add_that_they_should_is_an_instruction_not_an_edit_of_the_draft():
    hits = correction_hits(
        "add that they should arrive 15 minutes before their slot",
        "add that they should arrive 15 minutes before their slot. we brief them",
    )
    assert rule_for(hits) == "Add that they should arrive 15 minutes before their slot."


def test_add_that_pointing_at_the_draft_is_still_no_rule():
    assert rule_for(correction_hits("add that to the intro", "add that to the intro too")) is None


# --- corrections in Spanish and French ----------------------------------------------------------


def test_a_spanish_instruction_is_kept_as_written_and_a_bare_reminder_is_not():
    hits = correction_hits(
        "pon siempre los precios con el IVA incluido, que luego se enfadan",
        "IVA incluido, que ya te lo dije",
    )
    assert foreign_rule(hits, "es") == "Pon siempre los precios con el IVA incluido."
    bare = correction_hits("IVA incluido, que ya te lo dije", "IVA incluido siempre por favor")
    assert foreign_rule(bare, "es") is None


def test_a_prohibition_keeps_what_to_do_instead_after_its_comma():
    hits = correction_hits(
        "nunca pongas una hora exacta, pon una franja: entre las 10 y las 12",
        "otra vez una hora exacta",
    )
    assert foreign_rule(hits, "es") == "Nunca pongas una hora exacta, pon una franja."


def test_a_french_instruction_is_recognised_by_its_frame():
    assert language.instruction_in(["mets", "toujours", "le", "prix", "TTC"], "fr")
    assert language.instruction_in(["ne", "mets", "jamais", "le", "prix", "HT"], "fr")
    assert not language.instruction_in(["le", "prix", "TTC"], "fr")


def test_a_spanish_persona_gets_a_spanish_rule_from_recurring_corrections(bag_of_words):
    rows = [
        (1, "Confirmación de pedido para el viernes, por favor.", False),
        (1, "pon siempre los precios con el IVA incluido, que luego se enfadan", True),
        (1, "IVA incluido, que ya te lo dije. siempre con IVA", True),
        (1, "IVA incluido siempre en los presupuestos, por favor", True),
    ]
    result = LocalProposer().propose_rule(corpus_of(rows), SPANISH, settings())
    assert result.data["rule"] == "Pon siempre los precios con el IVA incluido."
    assert not result.declined
    assert len(result.data["evidence"]) >= 2


def test_a_persona_in_a_language_without_a_rule_frame_still_gets_no_rule():
    dutch = {
        "role": "Assistent van de kliniek",
        "goals": "Schrijft de herinneringen voor de patiënten en de afspraken.",
        "standing_rules": [],
    }
    rows = [(1, "altijd met de btw erbij", True), (1, "altijd met de btw erbij", True)]
    result = LocalProposer().propose_rule(corpus_of(rows), dutch, settings())
    assert result.declined and result.data["rule"] is None
    # Portuguese has a rule frame: a bare reminder is read, and gives no rule
    portuguese = {
        "role": "Assistente da clínica",
        "goals": "Escreve os lembretes para os pacientes e as consultas.",
        "standing_rules": [],
    }
    rows = [(1, "sempre com o IVA incluído", True), (1, "sempre com o IVA incluído", True)]
    result = LocalProposer().propose_rule(corpus_of(rows), portuguese, settings())
    assert not result.declined and result.data["rule"] is None


# --- accents ----------------------------------------------------------------------------------------


def test_a_spanish_plural_shares_its_root_with_the_singular():
    assert content_words("Escríbeme una publicación") & content_words("Escribe las publicaciones.")


# --- a topic the quotes never say ----------------------------------------------------------------


def _topic_theme(texts):
    """A topic theme over one request per text: the request is the span in brackets."""
    from learning.proposers.local.requests import Request
    from learning.proposers.local.themes import Theme

    plain = [t.replace("[", "").replace("]", "") for t in texts]
    corpus = corpus_of([(1, t, False) for t in plain])
    reqs = {}
    for m, t in zip(corpus.messages, texts, strict=True):
        start, end = t.index("["), t.index("]") - 1
        reqs[m.conversation_id] = Request(
            message=m, start=start, end=end, verb="prepare", head="quote"
        )
    return Theme(head="quote", qualifier="drink", kind="topic", requests=reqs)


def test_a_topic_only_a_detail_after_the_request_names_no_sentence():
    from learning.proposers.local.wording import topic_unquoted, without_topic

    theme = _topic_theme(
        [
            "[I need a quote for a team-building afternoon]. Then drinks in the lobby.",
            "[Quote for a software company], 16 people. Corporate rate, no drinks.",
            "[Quote for a Christmas party], 30 people, drinks after.",
        ]
    )
    quotes = [
        "I need a quote for a team-building afternoon",
        "Quote for a software company",
        "Quote for a Christmas party",
    ]
    assert topic_unquoted(theme, quotes)
    assert without_topic(theme) == "Prepares the quotes."


def test_a_topic_said_before_the_request_twice_stays():
    from learning.proposers.local.wording import topic_unquoted

    theme = _topic_theme(
        [
            "The bar wants drinks for 20 people, [can you do a quote]?",
            "Another drinks order came in: [quote please].",
            "[Quote for a Christmas party]. Drinks after.",
        ]
    )
    assert not topic_unquoted(theme, ["can you do a quote", "quote please", "Quote for a party"])
