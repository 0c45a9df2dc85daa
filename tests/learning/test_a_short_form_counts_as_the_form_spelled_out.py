"""A request that names its work by a short form counts with the requests that spell the
form out in other conversations of the same assistant: initials written in capitals ("RA
for the loft job" with "a risk assessment") and a clipped word ("TPO app" with "the TPO
application"). A short form nothing spells out stays as read."""

from __future__ import annotations

from learning.proposers.local.themes import short_forms_spelled_out
from tests.learning.corpora import corpus_and_requests


def _read(rows):
    _, requests = corpus_and_requests(rows)
    return [(r.head, tuple(r.mods)) for r in short_forms_spelled_out(requests)]


def test_initials_read_as_the_noun_phrase_they_stand_for():
    rows = [
        (1, "Can you write a risk assessment for the scaffold job?", False),
        (2, "Risk assessment for the roof repair please.", False),
        (1, "Need an RA for the loft job.", False),
    ]
    assert _read(rows)[-1] == ("assessment", ("risk",))


def test_a_clipped_word_reads_as_the_word_it_begins():
    rows = [
        (1, "Can you draft the TPO application for the oak?", False),
        (2, "Draft a TPO app for the beech please.", False),
    ]
    assert _read(rows)[-1][0] == "application"


def test_a_short_form_nothing_spells_out_stays_as_read():
    rows = [
        (1, "Need an RA for the loft job.", False),
        (2, "Can you write a report for the insurer?", False),
        (1, "Draft a post for the website please.", False),
        (2, "Draft a poster for the fete please.", False),
    ]
    _, requests = corpus_and_requests(rows)
    before = [(r.head, tuple(r.mods)) for r in requests]
    assert _read(rows) == before
