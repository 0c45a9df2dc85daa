"""Issue 9, finding 3: sealed wins. Sealing drops waiting proposals that quote the
conversation, blocks their approval, and hides their quotes in history; only a
superuser with a reason unseals."""

from __future__ import annotations

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from learning.models import Proposal
from learning.services import DecisionRefused, proposal_apply, review_run
from memory.models import Conversation
from memory.sealing import SealRefused, conversation_seal, conversation_unseal
from personaweb.marks import quote_groups_for
from tests.factories import make_user
from tests.learning.helpers import learning_on, seed_work
from tests.learning.scripted import GOOD_SENTENCE, ScriptedProposer

pytestmark = pytest.mark.django_db


@pytest.fixture
def waiting(agent):
    learning_on(agent)
    seed_work(agent, n=4)
    review_run(agent=agent, proposer=ScriptedProposer(GOOD_SENTENCE))
    return Proposal.objects.get(agent=agent, status=Proposal.Status.WAITING)


def test_sealing_a_quoted_conversation_drops_the_waiting_proposal(waiting):
    cid = waiting.evidence[0]["conversation_id"]
    conversation_seal(conversation=Conversation.objects.get(pk=cid))
    waiting.refresh_from_db()
    assert waiting.status == Proposal.Status.DROPPED
    assert "sealed" in waiting.status_reason


def test_approval_is_blocked_when_a_quoted_conversation_is_sealed(waiting):
    cid = waiting.evidence[0]["conversation_id"]
    Conversation.objects.filter(pk=cid).update(sealed=True)  # sealed behind the service's back
    with pytest.raises(DecisionRefused, match="sealed"):
        proposal_apply(proposal=waiting, by="rita")
    waiting.refresh_from_db()
    assert waiting.status == Proposal.Status.WAITING


def test_quotes_from_a_sealed_conversation_show_no_text(waiting):
    cid = waiting.evidence[0]["conversation_id"]
    groups = quote_groups_for(waiting.evidence, sealed={cid})
    hidden = [g for g in groups if g["conversation_id"] == cid]
    assert hidden and all(q["sealed"] and q["quote"] == "" for q in hidden[0]["quotes"])


def test_only_a_superuser_with_a_reason_unseals(agent):
    from memory.services import record_turn

    turn = record_turn(
        agent=agent, principal_external_id="p", conversation="c9", user_text="Hello friend here"
    )
    conv = conversation_seal(conversation=turn.conversation).conversation
    with pytest.raises(SealRefused, match="superuser"):
        conversation_unseal(
            conversation=conv, by=make_user("op", role="operator"), reason="because I can"
        )
    root = make_user("root", superuser=True)
    with pytest.raises(SealRefused, match="Say why"):
        conversation_unseal(conversation=conv, by=root, reason="x")
    with pytest.raises(CommandError, match="superuser"):
        call_command(
            "conversation",
            "unseal",
            agent.slug,
            "c9",
            "--by",
            "op",
            "--reason",
            "sealed by mistake",
        )
    call_command(
        "conversation", "unseal", agent.slug, "c9", "--by", "root", "--reason", "sealed by mistake"
    )
    assert not Conversation.objects.get(pk=conv.pk).sealed


def test_cli_refuses_a_model_url_off_the_allow_list(agent):
    with pytest.raises(CommandError) as exc:
        call_command(
            "learning", "settings", agent.slug, "--set", "model_base_url=http://127.0.0.1:9/v1"
        )
    assert exc.value.returncode == 2
    assert "LEARNING_MODEL_ALLOWED_URLS" in str(exc.value)


def test_cli_refuses_a_setting_above_its_limit(agent):
    with pytest.raises(CommandError) as exc:
        call_command(
            "learning", "settings", agent.slug, "--set", "every_hours=99999999999999999999999"
        )
    assert exc.value.returncode == 2


def test_settings_form_refuses_a_model_url_off_the_allow_list():
    from learning.forms import LearningSettingsForm

    data = {**LearningSettingsForm.initial_from(None), "model_base_url": "http://127.0.0.1:9/v1"}
    form = LearningSettingsForm(data)
    assert not form.is_valid()
    assert "LEARNING_MODEL_ALLOWED_URLS" in " ".join(form.errors["model_base_url"])


def test_sealing_through_record_turn_drops_quoting_proposals(waiting):
    from memory.services import record_turn

    cid = waiting.evidence[0]["conversation_id"]
    conv = Conversation.objects.get(pk=cid)
    record_turn(
        agent=conv.agent,
        principal_external_id=conv.principal.external_id,
        conversation=conv.external_id,
        user_text="One more thing about this order please",
        sealed=True,
    )
    waiting.refresh_from_db()
    assert waiting.status == Proposal.Status.DROPPED
