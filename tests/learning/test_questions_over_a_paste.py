"""A question the person asks over what they paste about what goes wrong in it ("why so
many queries", "how do i fix the migration", "borrow checker hates me. why") is a request
to debug what their words name, though the paste names no error; so is a paste under a
clause saying something does not do what it should ("celery beat isn't firing") or keeps
doing what it should not, and a log line pasted without a fence. A question that asks
for no fix, a paste under plain words and an opinion of people stay what they were."""

from __future__ import annotations

from tests.learning.corpora import read


def test_a_why_question_over_a_paste_is_a_request_to_debug_what_it_names():
    read_ = read("the report page takes 9s. log:\n```\nSELECT 1\n```\nwhy so many queries")
    assert ("debug", "query") in [(v, h) for v, h, _ in read_]
    ((verb, head, _),) = [
        r for r in read("how do i fix the migration\n```\nrun makemigrations\n```") if r[0]
    ]
    assert (verb, head) == ("debug", "migration")


def test_a_paste_under_a_clause_saying_it_keeps_misbehaving_is_a_request_to_debug():
    read_ = read("celery task keeps retrying forever on a 500. config:\n```\nretries = 0\n```")
    assert ("debug", "error") in [(v, h) for v, h, _ in read_]
    read_ = read("the queue won't connect in staging:\n```\nQUEUE = redis\n```")
    assert ("debug", "error") in [(v, h) for v, h, _ in read_]


def test_a_log_line_pasted_without_a_fence_names_an_error_to_debug():
    text = "celery worker killed overnight:\n\nWorkerLostError: Worker exited prematurely"
    assert any(v == "debug" for v, _, _ in read(text))


def test_questions_and_statements_that_ask_for_no_fix_stay_no_debug_request():
    for text in (
        # a question about what a paste is for, not what goes wrong in it
        "The vendor's layer came with this README. What do I actually need from it?\n```\nx\n```",
        # the person says what people will not notice, not what fails
        "apparently the beekeepers won't notice. new timings:\n```\nuplink = 20\n```",
        # plain words over a paste
        "here is the config we use now:\n```\nretries: 3\n```",
        # a why-question with no paste at all
        "why do customers always book on Fridays?",
    ):
        assert all(v != "debug" for v, _, _ in read(text)), text
