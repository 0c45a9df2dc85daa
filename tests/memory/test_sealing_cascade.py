"""Issue 22, point 5: sealing reaches everything learned. A sealed message is never
readable (one queryset method), never evidence, and the beliefs that rested on it keep
only their other evidence or end with reason ``sealed``; unsealing restores nothing."""

from __future__ import annotations

import io
import json
from datetime import UTC, datetime
from typing import Any

import pytest
from django.core.management import call_command

from memory.context import build_context
from memory.importer import import_file
from memory.models import Belief, BeliefEvidence, Conversation, Message
from memory.sealing import (
    UNSEAL_RESTORES_NOTHING,
    conversation_seal,
    conversation_unseal,
)
from memory.selectors_beliefs import beliefs_of_principal
from memory.services import record_turn
from memory.services_beliefs import BeliefRefusal, belief_write
from memory.signals import belief_ended
from tests.builders import add_belief, person_said
from tests.factories import make_user

pytestmark = pytest.mark.django_db

NOW = datetime(2026, 12, 1, 9, 0, tzinfo=UTC)
TEA = "Prefers green tea in the afternoon"


@pytest.fixture(autouse=True)
def _no_embeddings(settings):
    settings.MEMORY_BELIEF_EMBEDDINGS = False


def pack_ids(agent: Any, query: str = "What tea would she like?") -> list[int]:
    pack = build_context(agent=agent, principal_external_id="ana", query=query, now=NOW)
    return [item.id for item in pack.items]


def host_ids(belief: Belief) -> list[int]:
    """What a host lists (the /v1 and MCP memory reads call this selector)."""
    return list(
        beliefs_of_principal(
            tenant_id=belief.tenant_id, principal_id=belief.principal_id
        ).values_list("pk", flat=True)
    )


@pytest.fixture
def ended(monkeypatch):
    """Every belief_ended signal sent: (belief id, reason)."""
    seen: list[tuple[int, str]] = []

    def receiver(sender: Any, *, belief: Belief, reason: str, **_: Any) -> None:
        seen.append((belief.pk, reason))

    belief_ended.connect(receiver, dispatch_uid="test.sealing.ended")
    yield seen
    belief_ended.disconnect(dispatch_uid="test.sealing.ended")


def test_readable_messages_never_include_a_sealed_conversation(agent):
    kept = person_said(agent, "I like green tea.", conversation="open")
    hidden = person_said(agent, "I see a therapist on Tuesdays.", conversation="private")
    conversation_seal(conversation=hidden.conversation)

    readable = set(Message.objects.readable().values_list("pk", flat=True))
    assert kept.pk in readable and hidden.pk not in readable
    assert set(Message.objects.sealed().values_list("pk", flat=True)) == {
        hidden.pk,
        hidden.pk + 1,  # the reply
    }
    assert list(Conversation.objects.readable()) == [kept.conversation]


def test_a_belief_resting_only_on_a_sealed_message_ends_as_sealed(agent, ended):
    said = person_said(agent, "I always drink green tea in the afternoon.", conversation="c1")
    belief = add_belief(agent, TEA, quote_from=said, quote="green tea in the afternoon")
    assert pack_ids(agent) == [belief.pk]  # the pack is cached for the person now

    result = conversation_seal(conversation=said.conversation, by="test")

    belief.refresh_from_db()
    assert belief.status == Belief.Status.SEALED
    assert (result.beliefs_ended, result.evidence_withdrawn) == (1, 0)
    assert ended == [(belief.pk, "sealed")]
    # the person's words left the row; the link says which sealed message it was
    assert belief.evidence_quote == "" and belief.evidence_start is None
    assert belief.evidence_message_id == said.pk
    assert not BeliefEvidence.objects.filter(belief=belief).exists()
    # neither the context pack (its cache was invalidated) nor a host's list has it
    assert pack_ids(agent) == []
    assert host_ids(belief) == []


def test_a_belief_with_other_evidence_keeps_only_that(agent, ended):
    first = person_said(agent, "I love green tea in the afternoon.", conversation="c1")
    later = person_said(agent, "Green tea in the afternoon, as always.", conversation="c2")
    belief = add_belief(agent, TEA, quote_from=first, quote="green tea in the afternoon")
    again = add_belief(agent, TEA, quote_from=later, quote="Green tea in the afternoon")
    assert again.pk == belief.pk and again.corroboration_count == 2

    result = conversation_seal(conversation=first.conversation)

    belief.refresh_from_db()
    assert belief.status == Belief.Status.ACTIVE
    assert (result.beliefs_ended, result.evidence_withdrawn) == (0, 1)
    assert ended == []
    assert belief.evidence_message_id == later.pk
    assert belief.evidence_quote == "Green tea in the afternoon"
    assert later.text[belief.evidence_start : belief.evidence_end] == belief.evidence_quote
    assert belief.corroboration_count == 1
    assert list(
        BeliefEvidence.objects.filter(belief=belief).values_list("message_id", flat=True)
    ) == [later.pk]
    assert pack_ids(agent) == [belief.pk]


def test_a_belief_the_host_also_wrote_keeps_the_host_and_drops_the_quote(agent, ended):
    belief = add_belief(agent, TEA, evidence={"host": "hermes-extractor"})
    said = person_said(agent, "Green tea in the afternoon, please.", conversation="c1")
    add_belief(agent, TEA, quote_from=said, quote="Green tea in the afternoon")
    belief.refresh_from_db()
    assert belief.evidence_message_id == said.pk

    conversation_seal(conversation=said.conversation)

    belief.refresh_from_db()
    assert belief.status == Belief.Status.ACTIVE and ended == []
    assert belief.source_host == "hermes-extractor"
    assert belief.evidence_message_id is None and belief.evidence_quote == ""
    assert host_ids(belief) == [belief.pk]


def test_a_sealed_message_cannot_be_quoted_as_evidence(agent):
    said = person_said(agent, "I like green tea.", conversation="c1", sealed=True)
    with pytest.raises(BeliefRefusal, match="sealed conversation"):
        add_belief(agent, "Likes green tea", quote_from=said, quote="green tea")
    assert not Belief.objects.exists()


def test_sealing_through_record_turn_reaches_the_beliefs_too(agent):
    said = person_said(agent, "I always drink green tea in the afternoon.", conversation="c1")
    belief = add_belief(agent, TEA, quote_from=said, quote="green tea in the afternoon")
    record_turn(
        agent=agent,
        principal_external_id="ana",
        conversation="c1",
        user_text="Please forget this conversation.",
        sealed=True,
    )
    belief.refresh_from_db()
    assert belief.status == Belief.Status.SEALED
    assert pack_ids(agent) == []


def test_sealing_through_an_import_reaches_the_beliefs_too(agent, tmp_path):
    said = person_said(agent, "I always drink green tea in the afternoon.", conversation="c1")
    belief = add_belief(agent, TEA, quote_from=said, quote="green tea in the afternoon")
    row = {
        "agent": agent.slug,
        "user": "ana",
        "conversation": "c1",
        "role": "user",
        "text": "Seal this one.",
        "at": "2026-11-05T08:00:00+00:00",
        "sealed": True,
    }
    path = tmp_path / "seal.jsonl"
    path.write_text(json.dumps(row) + "\n", encoding="utf-8")
    import_file(path=path, tenant_slug=agent.tenant.slug)
    belief.refresh_from_db()
    assert belief.status == Belief.Status.SEALED


def test_sealing_again_is_idempotent(agent, ended):
    said = person_said(agent, "I always drink green tea in the afternoon.", conversation="c1")
    add_belief(agent, TEA, quote_from=said, quote="green tea in the afternoon")
    conversation_seal(conversation=said.conversation)
    again = conversation_seal(conversation=said.conversation)
    assert (again.beliefs_ended, again.evidence_withdrawn) == (0, 0)
    assert len(ended) == 1


def test_unsealing_restores_nothing_and_says_so(agent):
    said = person_said(agent, "I always drink green tea in the afternoon.", conversation="c1")
    belief = add_belief(agent, TEA, quote_from=said, quote="green tea in the afternoon")
    conversation_seal(conversation=said.conversation)
    root = make_user("root", superuser=True)

    result = conversation_unseal(
        conversation=said.conversation, by=root, reason="sealed by mistake"
    )

    assert result.message == UNSEAL_RESTORES_NOTHING
    assert "restores nothing" in result.message and "stay withdrawn" in result.message
    assert not result.conversation.sealed
    belief.refresh_from_db()
    assert belief.status == Belief.Status.SEALED
    assert pack_ids(agent) == []


def test_the_cli_says_what_sealing_reached_and_that_unsealing_restores_nothing(agent):
    said = person_said(agent, "I always drink green tea in the afternoon.", conversation="c1")
    add_belief(agent, TEA, quote_from=said, quote="green tea in the afternoon")
    make_user("root", superuser=True)
    out = io.StringIO()
    call_command("conversation", "seal", agent.slug, "c1", stdout=out)
    assert "1 belief(s) formed from it ended" in out.getvalue()
    out = io.StringIO()
    call_command(
        "conversation",
        "unseal",
        agent.slug,
        "c1",
        "--by",
        "root",
        "--reason",
        "sealed by mistake",
        stdout=out,
    )
    assert UNSEAL_RESTORES_NOTHING in out.getvalue()


def test_an_operator_correction_rests_on_the_same_messages(agent):
    from memory.services_beliefs import belief_correct

    said = person_said(agent, "I always drink green tea in the afternoon.", conversation="c1")
    belief = add_belief(agent, TEA, quote_from=said, quote="green tea in the afternoon")
    corrected = belief_correct(belief=belief, statement="Drinks green tea after lunch").belief
    conversation_seal(conversation=said.conversation)
    corrected.refresh_from_db()
    assert corrected.status == Belief.Status.SEALED


def test_a_deleted_belief_keeps_no_evidence_rows(agent):
    from memory.services_beliefs import belief_retire

    said = person_said(agent, "I always drink green tea in the afternoon.", conversation="c1")
    belief = add_belief(agent, TEA, quote_from=said, quote="green tea in the afternoon")
    belief_retire(belief=belief, delete=True)
    assert not BeliefEvidence.objects.filter(belief=belief).exists()


def test_a_belief_written_by_the_host_alone_is_untouched(agent):
    said = person_said(agent, "Nothing to see here.", conversation="c1")
    belief = belief_write(
        agent=agent,
        principal_external_id="ana",
        category="likes",
        statement=TEA,
        confidence=0.8,
        source="direct",
        evidence={"host": "hermes-extractor"},
    ).belief
    conversation_seal(conversation=said.conversation)
    belief.refresh_from_db()
    assert belief.status == Belief.Status.ACTIVE
