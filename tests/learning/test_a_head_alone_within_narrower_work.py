"""A theme of a noun alone ("Writes the reminders.") is not proposed beside a narrower
theme that already covers its work: they share a conversation and most of its messages
write the narrower theme's word ("swept", "Sweep reminder")."""

from __future__ import annotations

from types import SimpleNamespace

from learning.proposers.local.themes import Theme, _one_per_work


def _requests(texts):
    return {
        c: SimpleNamespace(message=SimpleNamespace(id=c, conversation_id=c, principal_id=1, text=t))
        for c, t in texts.items()
    }


SWEEPS = Theme(
    head="",
    kind="modonly",
    qualifier="sweep",
    requests=_requests(
        {
            1: "Sweep booking confirmation for Mrs Hill",
            2: "Sweep confirmation for the Fellside cottages",
            3: "Sweep reminder email for the Fellside cottages, they're due in December.",
        }
    ),
)


def test_a_noun_alone_whose_messages_write_the_narrower_work_is_dropped():
    reminders = Theme(
        head="",
        kind="key",
        qualifier="reminder",
        requests=_requests(
            {
                3: "Sweep reminder email for the Fellside cottages, they're due in December.",
                4: "Write a reminder for the folk we swept last November.",
                5: "Autumn reminder to go on Facebook and out to the customer list.",
            }
        ),
    )
    assert _one_per_work([SWEEPS, reminders]) == [SWEEPS]


def test_a_noun_alone_about_other_work_is_kept():
    reminders = Theme(
        head="",
        kind="key",
        qualifier="reminder",
        requests=_requests(
            {
                3: "Sweep reminder email for the Fellside cottages, they're due in December.",
                4: "Write a reminder about the stove service plan.",
                5: "Autumn reminder about the carbon monoxide alarm.",
            }
        ),
    )
    assert _one_per_work([SWEEPS, reminders]) == [SWEEPS, reminders]
