"""A sentence says what its requests agree on: a complement another request contradicts
("de octubre" beside "de septiembre") says which one, not the kind of work; a modifier
one request writes before the head and others after "for" is the kind ("contract
renewals"); a loanword keeps its English plural in Spanish ("posts"); what follows a
label's colon is that thing's details, no request of its own; work over pastes the
messages report as failing is fixed, not written."""

from __future__ import annotations

from learning import language
from learning.proposers.local.other_languages import find_foreign_themes, foreign_sentence
from tests.learning.corpora import corpus_of, read


def test_a_spanish_loanword_keeps_its_english_plural():
    assert language.plural_noun("post", "es") == "posts"
    assert language.plural_noun("chat", "es") == "chats"
    assert language.plural_noun("papel", "es") == "papeles"
    assert language.plural_noun("flor", "es") == "flores"
    assert language.plural_noun("reloj", "es") == "relojes"


def test_a_complement_another_request_contradicts_is_left_out():
    corpus = corpus_of(
        [
            (1, "Recibo de marzo para la familia Ortega, 4 clases.", False),
            (1, "Hazme el recibo de marzo con la nueva dirección.", False),
            (1, "Recibo de abril para los padres de Luis, 6 clases.", False),
        ]
    )
    themes = find_foreign_themes(corpus.messages, "es", set(), min_conversations=3, min_users=None)
    assert [foreign_sentence(t, "es") for t in themes][:1] == ["Hace los recibos."]


def test_a_complement_no_request_contradicts_is_kept():
    corpus = corpus_of(
        [
            (1, "Recibo de matrícula para la familia Ortega.", False),
            (1, "Hazme el recibo de matrícula con la nueva dirección.", False),
            (1, "Recibo para los padres de Luis, 6 clases.", False),
        ]
    )
    themes = find_foreign_themes(corpus.messages, "es", set(), min_conversations=3, min_users=None)
    assert [foreign_sentence(t, "es") for t in themes][:1] == ["Hace los recibos de matrícula."]


def test_what_follows_a_labels_colon_is_no_request_of_its_own():
    assert read("Cron job please: run the backup every night at 3am, then email me.") == [
        (None, "job", ["cron"])
    ]


def test_a_verb_in_a_sentence_after_the_label_still_asks():
    heads = [h for _, h, _ in read("Cron job please: nightly. Also write a short readme.")]
    assert heads == ["job", "readme"]


def _propose(rows):
    from learning.proposers.local import LocalProposer
    from tests.learning.corpora import settings

    return LocalProposer().propose_sentence(corpus_of(rows), {"goals": ""}, settings(min_users=1))


def test_work_over_pastes_reported_as_failing_is_fixed(bag_of_words):
    rows = [
        (
            1,
            "gradle build error in CI only:\n```\nCompilation Error in task lint (app/x.gradle)\n```",
            False,
        ),
        (
            1,
            "gradle sync in prod fails now:\n```\nResolution Error in module core (app/x.gradle)\n```",
            False,
        ),
        (1, "gradle plugin test (we're on 8.2) for the lint task", False),
    ]
    result = _propose(rows)
    assert result.data["sentence"].startswith("Fixes "), result.data


def test_a_modifier_written_after_for_names_the_kind_of_work(bag_of_words):
    rows = [
        (1, "Renewal letter for the annual contract with the bakery. 8 visits a year.", False),
        (1, "Contract renewal for the Rose and Crown please, same terms, 12 visits.", False),
        (1, "can you draft the renewal for the Leisure Village contract, 4 visits a year.", False),
    ]
    result = _propose(rows)
    assert result.data["sentence"] == "Drafts contract renewals.", result.data


def test_a_verb_on_what_the_label_named_after_its_colon_still_asks():
    verbs = [v for v, _, _ in read("Another incident to write up: summarise it for the board.")]
    assert verbs == [None, "summarise"]
