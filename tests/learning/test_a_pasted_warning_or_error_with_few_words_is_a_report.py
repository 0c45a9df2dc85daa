"""An opening message that pastes an error is a request to debug it however few words
the person writes before it ("what's this about"), and a warning as a compiler or a
logger prints it ("[WARN] …", "warning CS8618: …") is such an error; the word "warn"
as a setting in a pasted file is none."""

from __future__ import annotations

from tests.learning.corpora import read

CLASS_CAST = (
    "what's this about\n```\nExecution error (ClassCastException) at billing.db/fetch-tariff"
    " (db.clj:41).\nclass clojure.lang.PersistentVector cannot be cast to class"
    " java.lang.String\n```"
)

TF_WARNING = (
    "robot 3 drops the transform every few minutes\n```\n[WARN] [tf2_buffer]: TF_OLD_DATA"
    " ignoring data from the past for frame odom at time 1730293112.55\n```"
)

NULLABLE = (
    "more nullable fun\n```\nSite.cs(9,19): warning CS8618: Non-nullable property 'Name'"
    " must contain a non-null value when exiting constructor.\n```"
)


def test_a_short_question_over_a_pasted_error_asks_to_debug_it():
    assert [(verb, head) for verb, head, _ in read(CLASS_CAST)] == [("debug", "error")]


def test_a_printed_warning_is_an_error_reported():
    assert [(verb, head) for verb, head, _ in read(TF_WARNING)] == [("debug", "error")]
    assert [(verb, head) for verb, head, _ in read(NULLABLE)] == [("debug", "error")]


def test_a_warn_setting_in_a_pasted_file_is_no_error():
    assert read("thanks!\n```\nlog_level: warn\n```") == []
