"""Conversations for the learning tests, written through the real record_turn."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from learning.services import learning_settings_update
from memory.services import record_turn

T0 = datetime(2026, 11, 2, 9, 0, tzinfo=UTC)

WORK = [
    "Could you price this wholesale order for the cafe: forty mugs and ten jugs?",
    "Please price this wholesale order, sixty bowls in the speckled glaze.",
    "I need you to price this wholesale order of twelve planters by Friday.",
    "Can you price this wholesale order quickly, it is thirty espresso cups.",
    "Time to price this wholesale order again: eighty side plates.",
]
REPLIES = "Here is a first draft of the pricing with the usual margins."
CORRECTIONS = [
    "Thanks, but please write dates in full, like 4 March 2026.",
    "No, write dates in full in every update please.",
    "Again: write dates in full, never 04/03.",
]


def at(hours: float) -> datetime:
    return T0 + timedelta(hours=hours)


def turn(agent, who: str, conv: str, text: str, hours: float, reply: str | None = REPLIES, **kw):
    return record_turn(
        agent=agent,
        principal_external_id=who,
        conversation=conv,
        user_text=text,
        assistant_text=reply,
        at=at(hours),
        **kw,
    )


def seed_work(
    agent, *, people=("maya",), n: int = 4, start: float = 0.0, corrections: int = 0
) -> None:
    """``n`` conversations that each ask to price a wholesale order (people take turns),
    plus an unrelated conversation; the first ``corrections`` get a correction line."""
    for i in range(n):
        who = people[i % len(people)]
        conv = f"order-{who}-{i}"
        turn(agent, who, conv, WORK[i % len(WORK)], start + i)
        if i < corrections:
            turn(agent, who, conv, CORRECTIONS[i % len(CORRECTIONS)], start + i + 0.5)
    turn(
        agent,
        people[0],
        f"misc-{people[0]}",
        "What time does the kiln supplier open on Saturdays?",
        start + n,
    )


def learning_on(agent, **values):
    base = {"mode": "on-with-review"}
    base.update(values)
    return learning_settings_update(agent=agent, values=base, by="test")
