"""A theme's sentence says what the work is for when most requests say it."""

from __future__ import annotations

from tests.learning.corpora import theme_sentences as sentences


def test_most_requests_saying_who_the_work_is_for_add_it_to_the_sentence():
    found = sentences(
        [
            "Can you summarise this escalation thread for engineering? The dock ate a card.",
            "Summarise this for engineering please, it's an escalation: a lock jammed.",
            "Escalation again. Summarise the thread for engineering, short.",
            "Write up the escalation for engineering, the app keeps logging people out.",
            "Another escalation to write up: summarise it for engineering.",
        ]
    )
    # "Summarises the escalations." says what is made, not who it is for
    assert "Summarises the escalations for engineering." in found


def test_a_purpose_only_one_request_gives_is_left_out():
    found = sentences(
        [
            "Can you draft the newsletter for volunteers? March edition.",
            "Draft the April newsletter please.",
            "Newsletter again, the May one.",
        ]
    )
    assert found[0] == "Drafts the newsletters."


def test_a_capitalised_noun_after_for_is_never_the_purpose():
    found = sentences(
        [
            "Can you draft the newsletter for Harbourview? March edition.",
            "Draft the April newsletter for Harbourview please.",
            "Newsletter for Harbourview again, the May one.",
        ]
    )
    assert all("Harbourview" not in s for s in found)
    assert "Drafts the newsletters." in found


def test_a_time_after_for_is_no_purpose():
    found = sentences(
        [
            "Can you do the rota for next week?",
            "Rota for the week please.",
            "Need the rota for next week again.",
        ]
    )
    assert found and all(" for " not in s for s in found)


def test_one_thing_after_for_is_no_purpose():
    found = sentences(
        [
            "Can you write pytest tests for the function below?",
            "Write pytest tests for the function please.",
            "pytest tests for the function again",
        ]
    )
    assert found and all(" for " not in s for s in found)


def test_a_verb_with_its_particle_keeps_it_in_the_sentence():
    found = sentences(
        [
            "Can you work out the wholesale orders for Friday?",
            "Work out the wholesale orders again please.",
            "Please work out the wholesale orders for the cafe.",
        ]
    )
    # never "Works wholesale orders.": "work" alone is other work
    assert found[0] == "Works out wholesale orders."
