"""Requests read where they were missed: a qualified name before the thing made ("write
Test::More tests") is a name, not the end of the noun phrase; a fault reported by its
code and number ("getting SQLCODE -811 …") or by a thing that times out or runs out of
something, over a paste, is a problem to debug; and the second thing asked for with the
same verb ("an invoice and a receipt") is a request of its own."""

from __future__ import annotations

from tests.learning.corpora import read

PASTE = "\n```\n  EXEC SQL SELECT BRANCH INTO :HV-BRANCH FROM MEMBER\n```"


def test_a_qualified_name_before_the_thing_made_is_a_name_of_it():
    assert read("can you write Test::More tests for this?") == [("write", "test", [])]
    assert read("can you write System.Text.Json converters for this?") == [
        ("write", "converter", [])
    ]
    # a qualified name alone ends no clause: one request, not three pieces
    assert read("test for Acme::Billing::Suspend that doesn't need a real db") == [
        (None, "test", [])
    ]
    # an e-mail address is no qualified name
    assert [h for _, h, _ in read("Can you write it up as an email to s.ahmed@example.com")] == [""]


def test_a_fault_reported_by_its_code_over_a_paste_is_a_problem_to_debug():
    for clause in (
        "getting SQLCODE -811 in the lookup on the select by email",
        "the worker stops with exit code 137, no idea",
        "this query takes 9s and the portal times out.",
        "the output dataset ran out of space last night.",
    ):
        assert [(v, h) for v, h, _ in read(clause + PASTE)][:1] == [("debug", "error")], clause
    # a code with a number said over no paste, or an account's number, is no fault
    assert read("getting SQLCODE -811 in the lookup on the select by email") == []
    assert all(v != "debug" for v, _, _ in read("the sort code 20-00-00 is on it:" + PASTE))


def test_the_second_thing_asked_for_with_the_same_verb_is_a_request():
    assert read("can you do an invoice and a receipt for Mrs Hale") == [
        (None, "invoice", []),
        (None, "receipt", []),
    ]
    assert read("Can you write a short bio and a package summary") == [
        ("write", "bio", ["short"]),
        ("write", "summary", ["package"]),
    ]
    # "and" joining an instruction, a name or what is only said is no second request
    assert len(read("make the reminder messages and stick them in a table")) == 1
    assert len(read("Hugo needs the rate card and the fuel surcharge")) <= 1
    assert len(read("Bring the family and the dog")) <= 1


def test_write_these_up_asks_for_what_the_label_after_it_names():
    text = (
        "Can you write these up for the spring catalogue please, usual style. "
        "Item 14: a brass carriage clock, 1890s. Item 15: an oak stool."
    )
    assert read(text)[:1] == [("write", "item", [])]
    # with no label after it, the request keeps its phrases and names no thing
    assert read("can you write this up for the board") == [("write", "", [])]


def test_a_vague_word_with_its_number_names_one_thing_of_its_kind():
    assert read("Write up lot 520 for the specialist sale.") == [("write", "lot", [])]
    assert read("Write up a lot for the specialist sale.") == []
