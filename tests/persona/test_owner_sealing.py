"""Issue 22, point 5, on the owner document's side: sealing withdraws the nominations
left with no unsealed evidence, flags (never rewrites) an entry affirmed from a belief
sealing ended, and a nomination whose evidence is all sealed is never affirmed, so it
never reaches the prompt's owner row."""

from __future__ import annotations

import io
import json
from datetime import UTC, datetime, timedelta

import pytest
from django.core.cache import cache
from django.core.management import call_command

from memory.consolidation import consolidate
from memory.models import Belief, Conversation
from memory.sealing import conversation_seal
from memory.services import record_turn
from persona.models import OwnerEntry, OwnerNomination
from persona.owner import (
    OwnerDocConflict,
    OwnerDocRefusal,
    doc_head,
    nomination_affirm,
)
from persona.plans import plan_get_or_rotate
from tests.factories import PrincipalFactory

pytestmark = pytest.mark.django_db

NOW = datetime(2026, 11, 20, 9, 0, tzinfo=UTC)
PREFERENCE = "I prefer short answers with bullet points."


@pytest.fixture(autouse=True)
def _setup(settings):
    settings.MEMORY_BELIEF_EMBEDDINGS = False
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def person(tenant):
    return PrincipalFactory(tenant=tenant, external_id="pat")


def said_three_times(agent) -> tuple[Belief, OwnerNomination, list[Conversation]]:
    """The person says the same in three conversations; consolidation forms one belief
    from the first, corroborates it with the other two, and nominates it."""
    conversations = []
    belief_id = None
    for n in range(3):
        turn = record_turn(
            agent=agent,
            principal_external_id="pat",
            conversation=f"pat-{n}",
            user_text=PREFERENCE,
            assistant_text="Noted.",
            at=NOW + timedelta(minutes=n),
        )
        conversations.append(turn.conversation)
        report = consolidate(agent=agent, now=NOW + timedelta(minutes=n))
        belief_id = report.belief_ids[-1] if report.belief_ids else belief_id
    belief = Belief.objects.get(pk=belief_id)
    nomination = OwnerNomination.objects.get(belief=belief)
    assert nomination.state == OwnerNomination.State.NOMINATED
    return belief, nomination, conversations


def test_a_nomination_keeps_waiting_while_unsealed_words_back_it(agent, person):
    belief, nomination, conversations = said_three_times(agent)
    assert nomination.evidence_message_id is not None
    first = Conversation.objects.get(messages__pk=nomination.evidence_message_id)

    conversation_seal(conversation=first)

    nomination.refresh_from_db()
    belief.refresh_from_db()
    assert nomination.state == OwnerNomination.State.NOMINATED
    # it now shows the words it still rests on, never the sealed ones
    assert nomination.evidence_message_id == belief.evidence_message_id
    assert Conversation.objects.get(messages__pk=nomination.evidence_message_id) != first
    assert nomination.corroboration_count == belief.corroboration_count == 2


def test_sealing_every_conversation_withdraws_the_nomination(agent, person):
    belief, nomination, conversations = said_three_times(agent)
    for conversation in conversations:
        conversation_seal(conversation=conversation)

    belief.refresh_from_db()
    nomination.refresh_from_db()
    assert belief.status == Belief.Status.SEALED
    assert nomination.state == OwnerNomination.State.WITHDRAWN
    with pytest.raises(OwnerDocConflict, match="withdrawn"):
        nomination_affirm(principal=person, nomination_id=nomination.pk, by="pat")
    assert doc_head(person.pk).version == 0


def test_a_nomination_whose_evidence_is_all_sealed_is_never_affirmed(agent, person):
    belief, nomination, conversations = said_three_times(agent)
    # sealed behind the services' back (a row written before sealing reached nominations)
    Conversation.objects.filter(pk__in=[c.pk for c in conversations]).update(sealed=True)

    with pytest.raises(OwnerDocRefusal, match="sealed conversation") as refused:
        nomination_affirm(principal=person, nomination_id=nomination.pk, by="pat")
    assert "nothing was changed" in str(refused.value)

    nomination.refresh_from_db()
    assert nomination.state == OwnerNomination.State.NOMINATED
    assert doc_head(person.pk).version == 0
    plan = plan_get_or_rotate(agent=agent, principal=person, session_key="s1")
    assert "short answers with bullet points" not in plan.prefix_text


def test_an_entry_affirmed_from_a_belief_sealing_ended_is_flagged_not_rewritten(agent, person):
    belief, nomination, conversations = said_three_times(agent)
    version = nomination_affirm(principal=person, nomination_id=nomination.pk, by="pat")
    (entry,) = doc_head(person.pk).entries
    text = entry.text

    for conversation in conversations:
        conversation_seal(conversation=conversation)

    head = doc_head(person.pk)
    assert head.version == version.version  # no new version: nothing was rewritten
    (entry,) = head.entries
    assert entry.text == text and entry.source == "affirmation"
    assert entry.stale is True
    assert entry.stale_reason == "the conversation the belief came from was sealed"
    assert OwnerEntry.objects.filter(source_belief=belief).count() == 1


def test_the_cli_never_prints_the_words_of_a_sealed_nomination(agent, person):
    belief, nomination, conversations = said_three_times(agent)
    Conversation.objects.filter(pk__in=[c.pk for c in conversations]).update(sealed=True)
    out = io.StringIO()
    call_command(
        "persona",
        "doc",
        "nominations",
        "--tenant",
        person.tenant.slug,
        "--principal",
        "pat",
        "--json",
        stdout=out,
    )
    (listed,) = json.loads(out.getvalue())["nominations"]
    assert listed["sealed"] is True and listed["evidence_quote"] is None
    assert "bullet points" in listed["statement"]
