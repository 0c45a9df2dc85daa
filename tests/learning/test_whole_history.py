"""Issue 13, item 4: a person's decision counts as something new, and a review can read
the whole history (bounded) instead of the most recent ``max_threads`` conversations."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import call_command

from learning import selection
from learning.models import LearningSettings, Proposal, Review
from learning.services import (
    change_undo,
    proposal_apply,
    proposal_dismiss,
    review_enqueue,
    review_run,
)
from learning.services.errors import DecisionRefused
from tests.learning.helpers import WORK, learning_on, seed_work, turn
from tests.learning.scripted import GOOD_SENTENCE, ScriptedProposer

pytestmark = pytest.mark.django_db

NOTHING = {"field": None, "sentence": "", "evidence": []}
NOTHING_NEW = "Nothing new since the last review."


def run(agent, proposer, **kw):
    return review_run(agent=agent, trigger=Review.Trigger.MANUAL, proposer=proposer, **kw)


# --- a decision is something new -------------------------------------------------------


@pytest.mark.parametrize("decide", ["approve", "turn down"])
def test_a_decision_lets_the_next_review_read_the_same_conversations(agent, decide):
    learning_on(agent)
    seed_work(agent, n=4)
    proposer = ScriptedProposer(GOOD_SENTENCE)
    first = run(agent, proposer)
    assert first.outcome == Review.Outcome.PROPOSED
    proposal = Proposal.objects.get(agent=agent)
    proposer.sentence = NOTHING
    # before the decision: waiting, then nothing new
    assert LearningSettings.objects.get(agent=agent).last_seen_message_id > 0
    if decide == "approve":
        proposal_apply(proposal=proposal, by="rita")
    else:
        proposal_dismiss(proposal=proposal, by="rita")
    assert LearningSettings.objects.get(agent=agent).last_seen_message_id == 0
    calls = proposer.calls
    second = run(agent, proposer)
    assert second.reason != NOTHING_NEW
    assert proposer.calls == calls + 1  # the same conversations were read again
    third = run(agent, proposer)  # and after that, nothing new until the next decision
    assert third.reason == NOTHING_NEW
    assert proposer.calls == calls + 1


def test_an_undo_is_something_new_too(agent):
    learning_on(agent)
    seed_work(agent, n=4)
    proposer = ScriptedProposer(GOOD_SENTENCE)
    run(agent, proposer)
    proposal_apply(proposal=Proposal.objects.get(agent=agent), by="rita")
    proposer.sentence = NOTHING
    run(agent, proposer)
    assert run(agent, proposer).reason == NOTHING_NEW
    change_undo(agent=agent, by="rita")
    calls = proposer.calls
    assert run(agent, proposer).reason != NOTHING_NEW
    assert proposer.calls == calls + 1


def test_a_refused_decision_is_not_something_new(agent):
    learning_on(agent)
    seed_work(agent, n=4)
    proposer = ScriptedProposer(GOOD_SENTENCE)
    run(agent, proposer)
    proposal = Proposal.objects.get(agent=agent)
    seen = LearningSettings.objects.get(agent=agent).last_seen_message_id
    with pytest.raises(DecisionRefused):
        proposal_dismiss(proposal=proposal, by="")  # nobody named: refused, rolled back
    assert LearningSettings.objects.get(agent=agent).last_seen_message_id == seen


def test_a_turned_down_theme_is_not_proposed_again_after_the_decision(agent):
    learning_on(agent)
    seed_work(agent, n=4)
    proposer = ScriptedProposer(GOOD_SENTENCE)
    run(agent, proposer)
    proposal_dismiss(proposal=Proposal.objects.get(agent=agent), by="rita")
    again = run(agent, proposer)
    assert again.outcome == Review.Outcome.REFUSED
    assert "turned down or undone before" in again.reason
    assert Proposal.objects.filter(agent=agent).count() == 1


# --- the whole history -----------------------------------------------------------------


def _old_theme_then_recent_chatter(agent, *, recent: int = 6) -> None:
    """Four old conversations asking for the same work, then ``recent`` unrelated ones."""
    for i in range(4):
        turn(agent, "maya", f"order-maya-{i}", WORK[i], i)
    chatter = [
        "What time does the kiln supplier open on Saturdays?",
        "Is the parking behind the studio free on Sundays?",
        "Remind me which courier collected the parcel last week.",
        "Did the electrician say when he would come back?",
        "How warm was it in the drying room this morning?",
        "Which day is the market stall booked for in spring?",
    ]
    for i in range(recent):
        turn(agent, "maya", f"misc-{i}", chatter[i % len(chatter)], 100 + i)


def test_whole_history_reads_past_max_threads_and_finds_the_older_theme(agent):
    learning_on(agent, max_threads=4, min_conversations=3)
    _old_theme_then_recent_chatter(agent)
    recent = review_run(agent=agent, trigger=Review.Trigger.MANUAL)
    assert recent.threads_read == 4
    assert recent.outcome != Review.Outcome.PROPOSED
    whole = review_run(agent=agent, trigger=Review.Trigger.MANUAL, whole_history=True)
    assert whole.threads_read == 10
    assert whole.details.get("whole_history") is True
    assert whole.outcome == Review.Outcome.PROPOSED, whole.reason
    proposal = Proposal.objects.get(agent=agent)
    quoted = {e["conversation"] for e in proposal.evidence}
    assert quoted <= {f"order-maya-{i}" for i in range(4)}
    assert len(quoted) >= 3


def test_whole_history_runs_even_when_nothing_is_new(agent):
    learning_on(agent)
    seed_work(agent, n=4)
    proposer = ScriptedProposer(NOTHING)
    run(agent, proposer)
    assert run(agent, proposer).reason == NOTHING_NEW
    calls = proposer.calls
    review = run(agent, proposer, whole_history=True)
    assert review.reason != NOTHING_NEW
    assert proposer.calls == calls + 1


def test_whole_history_never_proposes_what_was_turned_down(agent):
    learning_on(agent)
    seed_work(agent, n=4)
    proposer = ScriptedProposer(GOOD_SENTENCE)
    run(agent, proposer)
    proposal_dismiss(proposal=Proposal.objects.get(agent=agent), by="rita")
    review = run(agent, proposer, whole_history=True)
    assert review.outcome == Review.Outcome.REFUSED
    assert Proposal.objects.filter(agent=agent, status=Proposal.Status.WAITING).count() == 0


def test_whole_history_is_bounded(agent, monkeypatch):
    learning_on(agent, max_threads=2, max_messages_per_thread=1)
    for i in range(7):
        turn(agent, "maya", f"c-{i}", f"First question number {i} about the glaze order.", i)
        turn(agent, "maya", f"c-{i}", f"Second question number {i} about the kiln.", i + 0.5)
    monkeypatch.setattr(selection, "WHOLE_HISTORY_MAX_CONVERSATIONS", 5)
    review = run(agent, ScriptedProposer(NOTHING), whole_history=True)
    assert review.threads_read == 5
    assert review.messages_read == 5  # the same per-conversation cap
    assert (
        selection.select_corpus(
            agent=agent, settings=LearningSettings.objects.get(agent=agent)
        ).threads_read
        == 2
    )


def test_cli_review_whole_history(agent):
    learning_on(agent, max_threads=4, min_conversations=3)
    _old_theme_then_recent_chatter(agent)
    out = StringIO()
    call_command("learning", "review", agent.slug, "--whole-history", stdout=out)
    assert "10 conversations" in out.getvalue()
    assert Review.objects.get(agent=agent).details.get("whole_history") is True


def test_review_enqueue_carries_whole_history_to_the_task(
    agent, monkeypatch, django_capture_on_commit_callbacks
):
    from learning import tasks

    learning_on(agent, max_threads=4, min_conversations=3)
    _old_theme_then_recent_chatter(agent)
    sent: list[tuple] = []
    monkeypatch.setattr(tasks.review_agent, "delay", lambda *args: sent.append(args))
    with django_capture_on_commit_callbacks(execute=True):
        review = review_enqueue(agent=agent, by="rita", whole_history=True)
    assert sent == [(agent.pk, review.pk, Review.Trigger.MANUAL, True)]
    assert tasks.review_agent(*sent[0]) == Review.Outcome.PROPOSED
    review.refresh_from_db()
    assert review.threads_read == 10


def test_settings_page_review_whole_history_button(
    reviewer_client, agent, monkeypatch, django_capture_on_commit_callbacks
):
    from django.urls import reverse

    from learning import tasks

    learning_on(agent)
    sent: list[tuple] = []
    monkeypatch.setattr(tasks.review_agent, "delay", lambda *args: sent.append(args))
    page = reviewer_client.get(reverse("learning:settings", args=[agent.slug]))
    assert b"Review the whole history" in page.content
    with django_capture_on_commit_callbacks(execute=True):
        response = reviewer_client.post(
            reverse("learning:review_now", args=[agent.slug]),
            {"origin": "settings", "whole_history": "1"},
            HTTP_HX_REQUEST="true",
            HTTP_HX_TARGET="review-status",
        )
    assert response.status_code == 200
    review = Review.objects.get(agent=agent)
    assert review.details == {"whole_history": True}
    assert sent == [(agent.pk, review.pk, Review.Trigger.MANUAL, True)]
    body = response.content.decode()
    assert 'id="review-status"' in body and "every 1s" in body  # the live panel polls
    assert "whole history" in body


def test_settings_panel_updates_when_the_review_finishes(reviewer_client, agent):
    from django.urls import reverse

    learning_on(agent)
    seed_work(agent, n=4)
    review = run(agent, ScriptedProposer(NOTHING))
    url = reverse("learning:review_status", args=[agent.slug, review.pk]) + "?origin=settings"
    body = reviewer_client.get(
        url, HTTP_HX_REQUEST="true", HTTP_HX_TARGET="review-status"
    ).content.decode()
    # the counters and the recent reviews come along out of band
    assert 'id="learning-facts" hx-swap-oob="true"' in body
    assert 'id="learning-recent" hx-swap-oob="true"' in body
    assert "Turns since last review" in body and "0 of" in body
    page = reviewer_client.get(url).content.decode()  # a whole page: no out-of-band parts
    assert "hx-swap-oob" not in page
