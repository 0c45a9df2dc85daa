""" "Start", "begin", "stop" or "end" before a verb ("if she starts wheezing") is an aspect of
that verb, not the date something starts: the question asks no time for it."""

from __future__ import annotations

import pytest

import memory.time_facet
from memory.time_facet import read_time
from tests.memory.beliefs_helpers import NOW


@pytest.mark.parametrize(
    "question",
    [
        "What should I do if she starts wheezing on a cold walk?",
        "Why did he begin to limp?",
        "What helps when the baby stops crying and starts hiccuping?",
    ],
)
def test_a_verb_after_start_or_stop_asks_no_time(question):
    assert not read_time(question, NOW).about_time


def test_a_verb_after_start_names_no_date_to_match():
    assert read_time("What should I do if she starts wheezing on a cold walk?", NOW).field is None


@pytest.mark.parametrize(
    "question",
    [
        "When does her new job start?",
        "What time does his shift start?",
        "Does her lease end soon?",
        "When did she start something new?",
    ],
)
def test_the_start_or_end_of_a_thing_is_still_a_date_asked(question):
    assert read_time(question, NOW).about_time


def test_a_relation_to_what_starts_is_still_read_as_time():
    ask = read_time("What must he do before the lambs start arriving?", NOW)

    assert ask.about_time and ask.relation == "before"


def test_without_the_rule_a_verb_after_start_reads_as_the_start_date(monkeypatch):
    monkeypatch.setattr(memory.time_facet, "ASPECT_IS_NO_DATE", False)
    read_time.cache_clear()
    try:
        ask = read_time("What should I do if she starts wheezing on a cold walk?", NOW)
    finally:
        read_time.cache_clear()

    assert ask.about_time and ask.field == "start"
