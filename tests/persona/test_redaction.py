"""Redaction of persona words (``persona.redaction``): a passage leaves every version of
the agent that carried it, an owner entry leaves every version of the document, and
every pinned prefix is rebuilt at once (no plan call needed)."""

from __future__ import annotations

import pytest
from django.core.cache import cache

from learning.models import Proposal, Rejection
from learning.policy import content_key
from memory.models import Redaction, TextEmbedding
from memory.redaction import REDACTED, RedactionRefused, belief_redact, message_redact
from memory.services import text_sha256
from persona.models import (
    AgentPersonaVersion,
    OwnerEntry,
    OwnerNomination,
    OwnerTombstone,
    PlanRotation,
)
from persona.owner import doc_head, nomination_affirm, owner_doc_write, owner_entry_remove
from persona.plans import plan_get_or_rotate, prefix_fetch
from persona.redaction import owner_entry_redact, persona_version_redact
from persona.services import ChangeTrigger, persona_version_create
from personaweb.errors import NotPermitted
from tenancy.access import actor_for_user
from tests.builders import add_nomination, add_proposal, add_review, person_said
from tests.factories import PrincipalFactory, make_user

pytestmark = pytest.mark.django_db

PASSAGE = "Mention the Brora lighthouse keeper's schedule."
REASON = "These words name a private person; removed on request."
ENTRY = "My sister Petra keeps the Brora lighthouse."


@pytest.fixture(autouse=True)
def _setup(settings):
    settings.MEMORY_BELIEF_EMBEDDINGS = False
    cache.clear()


@pytest.fixture
def boss(db):
    return actor_for_user(make_user("root", superuser=True))


def _versions_with_passage(agent):
    persona_version_create(
        agent=agent,
        changes={"goals": f"Help with bakery orders. {PASSAGE}"},
        trigger=ChangeTrigger(source_type="ui_form", reason="goals", approved_by="olivia"),
    )
    persona_version_create(
        agent=agent,
        changes={"standing_rules": [f"Always: {PASSAGE}"]},
        trigger=ChangeTrigger(source_type="ui_form", reason="a rule", approved_by="olivia"),
    )
    agent.refresh_from_db()
    return AgentPersonaVersion.objects.get(agent=agent, version=2)


def test_a_passage_leaves_every_version_and_every_pinned_prefix(agent, boss):
    ana = PrincipalFactory(tenant=agent.tenant, external_id="ana")
    chosen = _versions_with_passage(agent)
    plan = plan_get_or_rotate(agent=agent, principal=ana, session_key="s1")
    assert PASSAGE in plan.prefix_text
    epoch = plan.epoch
    proposal = add_proposal(agent, text=PASSAGE)
    review = add_review(
        agent,
        reason=f"Nothing new: “{PASSAGE}” is in the persona.",
        passed_over=[{"kind": "sentence", "text": PASSAGE, "reason": "in_persona"}],
    )
    Rejection.objects.create(
        agent=agent, content_key="k", text=f"Say: {PASSAGE}", reason="dismissed"
    )

    held = [f"Help with bakery orders. {PASSAGE}", f"Always: {PASSAGE}"]
    for text in held:  # what the safety scan stores of each text it reads
        TextEmbedding.objects.get_or_create(
            sha256=text_sha256(text), defaults={"model_name": "m", "dim": 1, "vector": b"1234"}
        )

    result = persona_version_redact(actor=boss, version=chosen, passage=PASSAGE, reason=REASON)

    assert not TextEmbedding.objects.filter(sha256__in=[text_sha256(t) for t in held]).exists()

    assert result.versions == [2, 3] and result.plans_rotated == 1
    for v in AgentPersonaVersion.objects.filter(agent=agent):
        assert PASSAGE not in repr((v.goals, v.standing_rules, v.reason, v.learned))
    head = AgentPersonaVersion.objects.get(agent=agent, version=3)
    assert head.goals == f"Help with bakery orders. {REDACTED}"
    assert head.standing_rules == [f"Always: {REDACTED}"]
    plan.refresh_from_db()
    assert PASSAGE not in plan.prefix_text and plan.epoch == epoch + 1
    assert plan.rotations.get(to_epoch=plan.epoch).reason == PlanRotation.Reason.REDACTED
    # the pinned prefix hosts fetch (cache or database) is the rebuilt one
    assert (
        PASSAGE
        not in prefix_fetch(agent_id=agent.pk, principal_id=ana.pk, session_key="s1").prefix_text
    )
    assert (
        PASSAGE
        not in prefix_fetch(
            agent_id=agent.pk, principal_id=ana.pk, session_key="s1", use_cache=False
        ).prefix_text
    )
    proposal.refresh_from_db()
    assert (proposal.text, proposal.status) == (REDACTED, "dropped")
    assert not Rejection.objects.filter(text__contains=PASSAGE).exists()
    review.refresh_from_db()
    assert PASSAGE not in review.reason and PASSAGE not in repr(review.passed_over)
    # never proposed again: the passage and the proposal that held it, by key
    keys = set(Rejection.objects.filter(reason="redacted").values_list("content_key", flat=True))
    assert {content_key(PASSAGE), proposal.content_key} <= keys
    record = Redaction.objects.get()
    assert (record.kind, record.object_id, record.reached["versions"]) == (
        "persona_version",
        chosen.pk,
        [2, 3],
    )


def test_a_passage_the_version_does_not_hold_is_refused(agent, boss):
    chosen = _versions_with_passage(agent)
    first = AgentPersonaVersion.objects.get(agent=agent, version=1)
    with pytest.raises(RedactionRefused, match="does not hold these exact words"):
        persona_version_redact(actor=boss, version=first, passage=PASSAGE, reason=REASON)
    with pytest.raises(RedactionRefused, match="exact words"):
        persona_version_redact(actor=boss, version=chosen, passage="  a ", reason=REASON)
    assert not Redaction.objects.exists()
    assert PASSAGE in AgentPersonaVersion.objects.get(pk=chosen.pk).goals


def test_only_a_superuser_redacts_persona_words(agent, operator):
    chosen = _versions_with_passage(agent)
    with pytest.raises(NotPermitted):
        persona_version_redact(
            actor=actor_for_user(operator), version=chosen, passage=PASSAGE, reason=REASON
        )
    assert PASSAGE in AgentPersonaVersion.objects.get(pk=chosen.pk).goals


def _document_with_entry(agent):
    ana = PrincipalFactory(tenant=agent.tenant, external_id="ana")
    owner_doc_write(
        principal=ana,
        expected_version=0,
        entries=[{"text": ENTRY}, {"text": "Prefers short answers."}],
        written_by="ana",
    )
    owner_doc_write(
        principal=ana,
        expected_version=1,
        entries=[{"text": ENTRY, "key": e.key} for e in doc_head(ana.pk).entries[:1]]
        + [{"text": "Prefers short answers, in bullet points."}],
        written_by="ana",
    )
    return ana


def test_an_owner_entry_leaves_every_version_and_the_prompt_row(agent, boss):
    ana = _document_with_entry(agent)
    plan = plan_get_or_rotate(agent=agent, principal=ana, session_key="s1")
    assert ENTRY in plan.prefix_text
    entry = doc_head(ana.pk).entries[0]
    TextEmbedding.objects.get_or_create(
        sha256=text_sha256(ENTRY), defaults={"model_name": "m", "dim": 1, "vector": b"1234"}
    )

    owner_entry_redact(actor=boss, entry=entry, reason=REASON)

    assert not TextEmbedding.objects.filter(sha256=text_sha256(ENTRY)).exists()

    assert not OwnerEntry.objects.filter(text=ENTRY).exists()
    assert OwnerEntry.objects.filter(text=REDACTED).count() == 2  # versions 1 and 2
    plan.refresh_from_db()
    assert ENTRY not in plan.prefix_text and REDACTED not in plan.prefix_text
    assert "bullet points" in plan.prefix_text
    # a new session's plan is built without it too
    fresh = plan_get_or_rotate(agent=agent, principal=ana, session_key="s2")
    assert ENTRY not in fresh.prefix_text and REDACTED not in fresh.prefix_text
    with pytest.raises(RedactionRefused, match="redacted already"):
        owner_entry_redact(actor=boss, entry=entry, reason=REASON)


def test_a_removed_entrys_tombstone_loses_the_words_too(agent, boss):
    ana = _document_with_entry(agent)
    entry = doc_head(ana.pk).entries[0]
    owner_entry_remove(
        principal=ana, key=entry.key, expected_version=2, reason="no longer true", removed_by="ana"
    )
    old = OwnerEntry.objects.filter(key=entry.key).order_by("id").first()
    owner_entry_redact(actor=boss, entry=old, reason=REASON)
    assert list(OwnerTombstone.objects.values_list("text", flat=True)) == [REDACTED]


def test_a_redacted_belief_takes_its_nomination_and_affirmed_entry_with_it(agent, boss):
    nomination = add_nomination(agent, "Keeps bees on the roof.")
    ana = nomination.principal
    nomination_affirm(principal=ana, nomination_id=nomination.pk, by="ana")
    plan = plan_get_or_rotate(agent=agent, principal=ana, session_key="s1")
    assert "Keeps bees" in plan.prefix_text

    belief_redact(actor=boss, belief=nomination.belief, reason=REASON)

    assert not OwnerEntry.objects.filter(text__contains="bees").exists()
    assert not OwnerNomination.objects.filter(statement__contains="bees").exists()
    plan.refresh_from_db()
    assert "bees" not in plan.prefix_text
    record = Redaction.objects.get(kind="belief")
    assert record.reached["owner_entries"]


def test_a_redacted_message_blanks_the_quotes_of_nominations_proposals_and_versions(agent, boss):
    nomination = add_nomination(agent, "Keeps bees on the roof.")
    said = nomination.belief.evidence_message
    item = {
        "quote": "bees on the roof",
        "message_id": said.pk,
        "conversation_id": said.conversation_id,
        "start": 6,
        "end": 22,
    }
    waiting = add_proposal(agent, evidence=[item])
    persona_version_create(
        agent=agent,
        changes={"goals": "Help with the garden."},
        trigger=ChangeTrigger(
            source_type="persona_learning", reason="learned", evidence=[item], approved_by="o"
        ),
    )
    message_redact(actor=boss, message=said, reason=REASON)

    nomination.refresh_from_db()
    waiting.refresh_from_db()
    assert nomination.evidence_quote == REDACTED
    assert waiting.status == "dropped" and waiting.evidence[0]["quote"] == REDACTED
    head = AgentPersonaVersion.objects.filter(agent=agent).order_by("-version").first()
    assert head.evidence[0]["quote"] == REDACTED
    assert Proposal.objects.filter(evidence__icontains="bees").count() == 0
    # another message of the person is untouched
    other = person_said(agent, "The bees are fine.", conversation="talk-2")
    assert other.text == "The bees are fine."
