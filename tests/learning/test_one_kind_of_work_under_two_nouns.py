"""One kind of work asked for under two nouns, each in too few conversations alone: when
one request writes both as one compound ("delivery confirmation"), the requests naming
either are one theme, named by that compound, so every quote shares a word with it. A
noun further before a specific head, or what a reply answers, joins nothing."""

from __future__ import annotations

from tests.learning.corpora import theme_sentences


def test_two_nouns_one_request_writes_as_a_compound_are_one_kind_of_work():
    themes = theme_sentences(
        [
            "Delivery confirmation for the Harlows please, two tier cake on Saturday",
            "can you write the delivery details for Friday's christening cake",
            "Confirmation email please, the birthday cake is ready at 10",
            "price list for the new loaves pls",
        ]
    )
    assert "Writes delivery confirmations." in themes
    # each noun alone is in two conversations only: no theme of either
    assert not any("confirmations." in s and "delivery" not in s for s in themes)


def test_a_noun_a_text_is_for_joins_the_kind_of_text_it_is_written_with():
    themes = theme_sentences(
        [
            "can you do the reminder texts for tomorrow's lessons pls",
            "lesson confirmation email for a new starter please, Tuesday at 6",
            "reminders for the Saturday group pls, 4 booked",
        ]
    )
    # most of them make a text ("texts", "email"): the work is written
    assert "Writes lesson reminders." in themes


def test_a_noun_further_before_a_head_or_what_a_reply_answers_joins_nothing():
    themes = theme_sentences(
        [
            "can you write the chimney stack survey for the Ellis job",
            "write the scaffold permit application for the council",
            "Chimney scaffold plan for Friday please",
            "Delivery confirmation for the Harlows please",
            "Confirmation email please, the cake is ready at 10",
            "reply to a five star review please",
            "can you reply to this delivery review, she loved it",
        ]
    )
    assert not any("scaffold" in s or "chimney" in s for s in themes)
    assert not any("review" in s and "repl" not in s for s in themes)
    # the compound is in one conversation, the reviews only answered: no joined theme
    assert "Writes delivery confirmations." not in themes
    assert "Writes delivery confirmations." in theme_sentences(
        [
            "Delivery confirmation for the Harlows please",
            "Confirmation email please, the cake is ready at 10",
            "write the delivery details for the Ellis job",
        ]
    )


def test_reminders_for_a_kind_of_appointment_are_work_not_a_note_to_self():
    from learning.policy import sentence_refusal

    def refuse(sentence: str) -> str | None:
        return sentence_refusal(sentence=sentence, field="goals", persona={}, known_names=set())

    assert refuse("Prepares appointment reminders for fittings.") is None
    assert refuse("Writes reminders for the Saturday classes.") is None
    assert refuse("Writes reminders to check the date.")
    assert refuse("Writes reminders for yourself.")
