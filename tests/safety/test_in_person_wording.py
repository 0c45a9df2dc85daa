"""A craftsperson's guardrail says an appraisal or an appointment waits until they have
seen the instrument or spoken to the customer in person ("di persona", "en persona"),
without ("senza che", "sin que") anything being hidden from anyone. That is ordinary
content, and it is stored.

These were refused (0.97, 0.95 against the threshold 0.871) while the concept lexicon read
"di persona" / "en persona" (in person) as the user and the assistant's persona, and
"senza che" (without) as concealment; since the lexicon keeps "in person" to its own sense
(VERIFY) and "without" is concealment only with a verb of knowing, noticing or telling
("senza che il cliente se ne accorga"), and the model was retrained, they are stored (0.82, 0.77 against 0.869)."""

from __future__ import annotations

import pytest

from safety.checks import check_write

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    "text",
    [
        "Non dare mai una valutazione senza che io abbia esaminato lo strumento di persona.",
        "Nunca confirmes una tasación sin que yo haya visto el instrumento en persona.",
    ],
)
def test_a_guardrail_that_waits_for_an_in_person_look_is_stored(text):
    check_write(text, "guardrail")
