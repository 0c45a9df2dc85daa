"""A review records the recurring patterns it saw and did not propose, with a reason."""

from __future__ import annotations

import pytest

from learning import candidates
from learning.models import Rejection, Review
from learning.proposers.local import LocalProposer
from learning.services import review_run
from tests.learning.helpers import WORK, learning_on, turn

pytestmark = pytest.mark.django_db

OTHER = [
    "What time does the kiln supplier open on Saturdays?",
    "Is the studio heating on a timer this winter?",
    "Where did we store the spare shelving brackets?",
    "Remind me which courier collects on Thursdays.",
    "How long does the glaze need to cure in cold weather?",
    "Who has the key for the back gate?",
]


def run(agent) -> Review:
    return review_run(agent=agent, trigger=Review.Trigger.MANUAL, proposer=LocalProposer())


def reasons(review: Review) -> dict[str, dict]:
    return {c["reason"]: c for c in review.passed_over}


def test_a_pattern_of_one_person_is_recorded_as_too_few_people(agent):
    learning_on(agent, across_users=True, min_users=2, min_conversations=3)
    for i in range(4):
        turn(agent, "maya", f"order-{i}", WORK[i], i)
    turn(agent, "tom", "misc-tom-0", OTHER[0], 5)
    turn(agent, "tom", "misc-tom-1", OTHER[1], 6)
    review = run(agent)
    assert review.proposal is None
    item = reasons(review)[candidates.TOO_FEW_PEOPLE]
    assert item["kind"] == "sentence"
    assert item["people"] == 1 and item["conversations"] == 4
    assert "price" in item["text"].lower()
    settings = agent.learning
    assert candidates.explain(item, settings=settings) == (
        "Said by 1 person in 4 conversations; team mode needs 2 people (min users)."
    )


def test_a_pattern_in_too_few_conversations_is_recorded(agent):
    learning_on(agent, min_conversations=4)
    for i in range(3):
        turn(agent, "maya", f"order-{i}", WORK[i], i)
    turn(agent, "maya", "misc-0", OTHER[0], 4)
    review = run(agent)
    item = reasons(review)[candidates.TOO_FEW_CONVERSATIONS]
    assert item["conversations"] == 3
    assert "a proposal needs 4 (min conversations)" in candidates.explain(
        item, settings=agent.learning
    )


def test_a_pattern_only_in_older_conversations_is_recorded_as_outside_the_window(agent):
    learning_on(agent, across_users=True, min_users=2, min_conversations=3, max_threads=4)
    for i in range(4):
        turn(agent, ("maya", "tom")[i % 2], f"order-{i}", WORK[i], i)
    for i in range(5):
        turn(agent, ("maya", "tom")[i % 2], f"misc-{i}", OTHER[i], 10 + i)
    review = run(agent)
    assert review.proposal is None
    item = reasons(review)[candidates.OUTSIDE_WINDOW]
    assert item["conversations"] == 4 and item["people"] == 2
    assert "4 most recent conversations" in candidates.explain(item, settings=agent.learning)
    assert "look_back_ms" in review.details["timings"]


def test_a_turned_down_pattern_is_recorded_as_turned_down(agent):
    learning_on(agent, min_conversations=3)
    for i in range(4):
        turn(agent, "maya", f"order-{i}", WORK[i], i)
    first = run(agent)
    assert first.proposal is not None
    from learning.services import proposal_dismiss

    proposal_dismiss(proposal=first.proposal, by="ana")
    turn(agent, "maya", "misc-0", OTHER[0], 9)
    again = run(agent)
    assert again.proposal is None
    item = reasons(again)[candidates.TURNED_DOWN]
    assert Rejection.objects.filter(agent=agent).exists()
    assert item["text"] == first.proposal.text


def test_what_a_review_records_is_bounded(agent):
    learning_on(agent, min_conversations=3)
    items = [
        candidates.candidate(
            kind="sentence", text=f"Writes note {i}.", reason="refused", key=str(i)
        )
        for i in range(40)
    ] + [candidates.candidate(kind="sentence", text="x" * 1000, reason="refused", key="long")]
    kept = candidates.resolve(items, rejected=frozenset())
    assert len(kept) == candidates.MAX_RECORDED
    assert all("key" not in c for c in kept)
    long = candidates.resolve(items[-1:], rejected=frozenset())[0]
    assert len(long["text"]) == candidates.MAX_TEXT_CHARS


def test_the_same_pattern_is_recorded_once_and_avoided_ones_are_told_apart():
    items = [
        candidates.candidate(kind="sentence", text="A.", reason=candidates.AVOIDED, key="a"),
        candidates.candidate(kind="sentence", text="A.", reason=candidates.REFUSED, key="a"),
        candidates.candidate(kind="sentence", text="B.", reason=candidates.AVOIDED, key="b"),
    ]
    kept = candidates.resolve(items, rejected=frozenset({"a"}))
    assert [(c["text"], c["reason"]) for c in kept] == [
        ("A.", candidates.TURNED_DOWN),
        ("B.", candidates.IN_PERSONA),
    ]


def test_review_reasons_are_a_list_and_a_reason_both_parts_give_is_said_once():
    details = {
        "parts": {
            "sentence": {"reason": "Nothing new since the last review."},
            "rule": {"reason": "Nothing new since the last review."},
        }
    }
    assert candidates.review_reasons(reason="", details=details) == [
        "Nothing new since the last review."
    ]
    details["parts"]["rule"]["reason"] = "Too few corrections."
    assert candidates.review_reasons(reason="", details=details) == [
        "Goals/background: Nothing new since the last review.",
        "Standing rule: Too few corrections.",
    ]
    # an older record without parts is split at its labels
    assert candidates.review_reasons(
        reason="Goals/background: A. Standing rule: B.", details={}
    ) == ["Goals/background: A.", "Standing rule: B."]
