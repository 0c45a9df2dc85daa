"""Redaction of a message or a belief (``memory.redaction``): only a superuser, with a
reason, once; the row, its hash, who and why stay; every copy of the words memory holds
goes in the same transaction."""

from __future__ import annotations

import hashlib

import pytest

from memory.models import (
    Belief,
    BeliefEvidence,
    ConversationSummary,
    EntityFact,
    Message,
    Redaction,
    TextEmbedding,
)
from memory.redaction import REDACTED, RedactionRefused, belief_redact, message_redact
from memory.services_beliefs import belief_write
from personaweb.errors import NotPermitted, NotReachable
from tenancy.access import actor_for_user
from tests.builders import add_belief, person_said
from tests.factories import make_agent, make_user

SAID = "My sister Petra lives at the lighthouse in Brora."
REASON = "The person asked for these words to be removed."


@pytest.fixture
def boss(db):
    return actor_for_user(make_user("root", superuser=True))


def _sha(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def test_a_redacted_message_keeps_its_row_and_loses_every_copy_of_its_words(agent, boss):
    message = person_said(agent, SAID)
    belief = add_belief(
        agent, "Has a sister called Petra.", quote_from=message, quote="sister Petra"
    )
    ConversationSummary.objects.create(
        conversation=message.conversation, text=f"Ana said: {SAID}", upto_seq=2
    )
    EntityFact.objects.create(
        tenant=agent.tenant, entity="Petra", fact="lives at the lighthouse", source_message=message
    )
    TextEmbedding.objects.create(sha256=_sha(SAID), model_name="m", dim=1, vector=b"1234")

    result = message_redact(actor=boss, message=message, reason=f"  {REASON}  ")

    message.refresh_from_db()
    assert message.text == REDACTED and message.embedding_id is None
    record = Redaction.objects.get()
    assert (record.kind, record.object_id, record.text_sha256, record.redacted_by) == (
        "message",
        message.pk,
        _sha(SAID),
        "root",
    )
    assert record.reason == REASON and result.beliefs_reached == 1
    belief.refresh_from_db()
    assert belief.evidence_quote == REDACTED and belief.status == "active"
    assert set(BeliefEvidence.objects.values_list("quote", flat=True)) == {REDACTED}
    assert not ConversationSummary.objects.exists() and not EntityFact.objects.exists()
    assert not TextEmbedding.objects.filter(sha256=_sha(SAID)).exists()


def test_a_vector_shared_with_a_text_not_redacted_stays(agent, boss):
    first = person_said(agent, SAID, conversation="a")
    person_said(agent, SAID, conversation="b")
    TextEmbedding.objects.create(sha256=_sha(SAID), model_name="m", dim=1, vector=b"1234")
    message_redact(actor=boss, message=first, reason=REASON)
    assert TextEmbedding.objects.filter(sha256=_sha(SAID)).exists()


def test_a_redacted_belief_ends_with_its_words_gone(agent, boss):
    message = person_said(agent, SAID)
    belief = add_belief(
        agent, "Has a sister called Petra.", quote_from=message, quote="sister Petra"
    )
    belief_redact(actor=boss, belief=belief, reason=REASON)
    belief.refresh_from_db()
    assert (belief.status, belief.statement, belief.evidence_quote) == (
        "redacted",
        REDACTED,
        REDACTED,
    )
    assert set(BeliefEvidence.objects.values_list("quote", flat=True)) == {REDACTED}
    record = Redaction.objects.get(kind="belief")
    assert record.text_sha256 == _sha("Has a sister called Petra.")
    # the same words are never stored for the person again (a host, consolidation)
    again = belief_write(
        agent=agent,
        principal_external_id="ana",
        category="likes",
        statement="Has a sister called Petra.",
        confidence=0.9,
        source="direct",
    )
    assert again.outcome == "muted" and again.belief.pk == belief.pk
    assert Belief.objects.count() == 1
    assert record.reached == {"status_before": "active"}
    # the message itself is untouched: only the belief was redacted
    assert Message.objects.get(pk=message.pk).text == SAID


def test_only_a_superuser_may_redact(agent, operator):
    message = person_said(agent, SAID)
    with pytest.raises(NotPermitted, match="Only a superuser"):
        message_redact(actor=actor_for_user(operator), message=message, reason=REASON)
    assert Message.objects.get(pk=message.pk).text == SAID
    assert not Redaction.objects.exists()


def test_a_redaction_needs_a_reason(agent, boss):
    belief = add_belief(agent, "Has a sister called Petra.")
    with pytest.raises(RedactionRefused, match="Say why"):
        belief_redact(actor=boss, belief=belief, reason="   because ")
    assert Belief.objects.get(pk=belief.pk).statement == "Has a sister called Petra."


def test_redacting_twice_is_refused(agent, boss):
    message = person_said(agent, SAID)
    message_redact(actor=boss, message=message, reason=REASON)
    with pytest.raises(RedactionRefused, match="redacted already"):
        message_redact(actor=boss, message=message, reason=REASON)
    belief = add_belief(agent, "Has a sister called Petra.")
    belief_redact(actor=boss, belief=belief, reason=REASON)
    with pytest.raises(RedactionRefused, match="redacted already"):
        belief_redact(actor=boss, belief=belief, reason=REASON)
    assert Redaction.objects.count() == 2


def test_another_tenants_row_is_not_found(agent, other_tenant, tenant):
    # an operator of one tenant flagged superuser elsewhere is not the point: reach is
    # checked first, so an actor bound to another tenant gets a 404, never a 403
    stranger = make_agent(tenant=other_tenant, slug="elsewhere", name="Elsewhere")
    message = person_said(stranger, SAID)
    user = make_user("boss2", superuser=True)
    actor = actor_for_user(user)
    bound = type(actor)(kind="user", name="boss2", tenant_ids=frozenset({tenant.pk}), user=user)
    with pytest.raises(NotReachable):
        message_redact(actor=bound, message=message, reason=REASON)
    assert Message.objects.get(pk=message.pk).text == SAID


def test_consolidation_and_learning_never_read_a_redacted_message(agent, boss):
    from learning.models import LearningSettings
    from learning.selection import select_corpus
    from memory.consolidation import consolidate

    kept = person_said(agent, "Thanks! I prefer short answers with bullet points.")
    gone = person_said(agent, "I'm working on a mobile app for my bakery.", conversation="c2")
    message_redact(actor=boss, message=gone, reason=REASON)

    report = consolidate(agent=agent)
    assert report.messages_read == 1
    assert list(Belief.objects.values_list("evidence_message_id", flat=True)) == [kept.pk]
    settings = LearningSettings.objects.get(agent=agent)
    corpus = select_corpus(agent=agent, settings=settings)
    assert [m.id for m in corpus.messages] == [kept.pk]
