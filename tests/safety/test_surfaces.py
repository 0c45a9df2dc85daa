"""Every write surface refuses what ``check_write`` refuses; every render and export
withholds what ``render_safe`` withholds (issue 22, point 3)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from django.urls import reverse

from memory.context import build_context, render_context
from memory.models import Belief, EntityFact
from memory.services import MemoryInputError, entity_fact_create
from memory.services_beliefs import belief_write
from persona.hermes import export_files, persona_import, user_import
from persona.models import AgentPersonaVersion, SourceType
from persona.owner import owner_doc_write, render_row
from persona.render import render_persona
from persona.services import ChangeTrigger, persona_version_create
from safety.checks import InjectionFound, SecretFound, UnsafeText
from tests.builders import person_said
from tests.factories import PrincipalFactory, make_agent
from tests.safety.conftest import (
    FAKE_MARKER,
    HIDDEN_INSTRUCTION,
    LEARNED_HIT,
    PATTERN_HIT,
    SECRET,
    SPACED_OUT,
)

pytestmark = pytest.mark.django_db

NOW = datetime(2026, 11, 17, 9, 0, tzinfo=UTC)


def _change(agent, **changes):
    return persona_version_create(
        agent=agent,
        changes=changes,
        trigger=ChangeTrigger(source_type=SourceType.MANUAL, reason="test", approved_by="olivia"),
    )


def _store_unchecked(agent, **fields) -> AgentPersonaVersion:
    """Text stored before a check caught it (or that a later model update blocks)."""
    head = AgentPersonaVersion.objects.get(agent=agent, version=agent.persona_version)
    AgentPersonaVersion.objects.filter(pk=head.pk).update(**fields)
    head.refresh_from_db()
    return head


# --- persona fields, guardrails, rules -----------------------------------------------------


@pytest.mark.parametrize(
    "field,value",
    [
        ("guardrails", ["Never promise a payment amount.", LEARNED_HIT]),
        ("standing_rules", [PATTERN_HIT]),
        ("background", HIDDEN_INSTRUCTION),
        ("goals", SPACED_OUT),
        ("role", FAKE_MARKER),
    ],
)
def test_a_persona_field_the_scan_blocks_is_refused_at_save_with_the_reason(agent, field, value):
    before = agent.persona_version
    with pytest.raises(InjectionFound, match="matches the injection scan"):
        _change(agent, **{field: value})
    agent.refresh_from_db()
    assert agent.persona_version == before


def test_a_guardrail_holding_a_secret_is_refused(agent):
    with pytest.raises(SecretFound, match="guardrail 1"):
        _change(agent, guardrails=[SECRET])


def test_the_hidden_instruction_is_refused_at_import_and_withheld_at_render(agent):
    report = persona_import(agent=agent, text=f"Background: {HIDDEN_INSTRUCTION}")
    assert report.version is None
    assert report.blocked and "conceal.hide_action" in report.blocked[0]["pattern_ids"]
    head = _store_unchecked(agent, background=HIDDEN_INSTRUCTION)
    prefix = render_persona(head)
    assert HIDDEN_INSTRUCTION not in prefix
    assert "[BLOCKED: conceal.hide_action]" in prefix


def test_the_prefix_withholds_every_layer(agent, unsafe):
    _, text = unsafe
    head = _store_unchecked(agent, guardrails=[text], background=text)
    prefix = render_persona(head)
    assert text not in prefix
    assert prefix.count("[BLOCKED: ") == 2


def test_the_guardrail_editor_refuses_a_blocked_guardrail_with_the_reason(operator_client, agent):
    response = operator_client.post(
        reverse("persona:guardrails", args=[agent.slug]),
        {
            "item": ["Never promise a payment amount.", LEARNED_HIT],
            "pos": ["1", "2"],
            "reason": "tighten",
            "expected_version": agent.persona_version,
        },
    )
    assert response.status_code == 200
    assert "guardrail 2 matches the injection scan" in response.content.decode()
    agent.refresh_from_db()
    assert agent.persona_version == 1


def test_a_stored_guardrail_a_later_update_blocks_is_listed_marked(operator_client, agent):
    _store_unchecked(agent, guardrails=["Never promise a payment amount.", LEARNED_HIT])
    page = operator_client.get(reverse("persona:agent", args=[agent.slug])).content.decode()
    assert page.count('data-testid="blocked-guardrail"') == 1
    marked = page.split('data-testid="blocked-guardrail"')[1].split("</li>")[0]
    assert "Blocked by the safety scan (semantic." in marked
    assert "<li>Never promise a payment amount.</li>" in page


# --- owner entries -------------------------------------------------------------------------


def test_an_owner_entry_is_refused_for_every_layer(tenant, unsafe):
    _, text = unsafe
    principal = PrincipalFactory(tenant=tenant)
    with pytest.raises(UnsafeText, match="entry 2"):
        owner_doc_write(
            principal=principal,
            expected_version=0,
            entries=[{"text": "Prefers short answers."}, {"text": text}],
        )


def test_the_owner_row_withholds_every_layer(unsafe):
    _, text = unsafe
    row = render_row([{"text": "Prefers short answers.", "source": "user_edit"}, {"text": text}])
    assert text not in row and "Prefers short answers." in row
    assert "[BLOCKED: " in row


# --- beliefs and the context pack -----------------------------------------------------------


@pytest.mark.parametrize("text", [LEARNED_HIT, SPACED_OUT, FAKE_MARKER])
def test_a_belief_the_learned_layer_blocks_is_refused(agent, text):
    with pytest.raises(InjectionFound):
        belief_write(
            agent=agent,
            principal_external_id="ana",
            category="explicit_facts",
            statement=text,
            confidence=0.8,
            source="direct",
        )
    assert not Belief.objects.exists()


@pytest.mark.parametrize(
    "statement",
    [
        # an English "public" once lit a Portuguese verb stem ("publicar") read like "post
        # it publicly"
        "Is a member of the Musicians' Union, which covers her public liability insurance",
        # "allowed ... without ... after" and "paying off a credit card" share words with
        # approving payments unreviewed or with card numbers
        "Hopes to be allowed behind the wheel again after two years without a seizure",
        "Was paying off a credit card",
    ],
)
def test_an_ordinary_statement_about_the_person_is_stored_as_a_belief(agent, statement):
    """Statements that share words with instructions or secrets but say something about the
    person, not to the assistant, are stored."""
    belief_write(
        agent=agent,
        principal_external_id="ana",
        category="explicit_facts",
        statement=statement,
        confidence=0.8,
        source="direct",
    )
    assert Belief.objects.filter(statement=statement).exists()


def test_the_context_pack_withholds_stored_unsafe_beliefs_in_json_and_text(agent, settings):
    settings.MEMORY_BELIEF_EMBEDDINGS = False
    texts = [LEARNED_HIT, SPACED_OUT, FAKE_MARKER, SECRET]
    harmless = [
        "Grows tomatoes on the balcony",
        "Plays the cello on weekends",
        "Reads detective novels at night",
        "Collects vintage railway stamps",
    ]
    for statement in harmless:
        belief_write(
            agent=agent,
            principal_external_id="ana",
            category="likes",
            statement=statement,
            confidence=0.9,
            source="direct",
            now=NOW,
        )
    for belief, text in zip(Belief.objects.order_by("id"), texts, strict=True):
        Belief.objects.filter(pk=belief.pk).update(statement=text)
    from memory.context import clear_candidate_cache

    clear_candidate_cache()
    pack = build_context(
        agent=agent, principal_external_id="ana", query="claims payment", now=NOW, limit=10
    )
    shown = [*pack.items, *pack.pinned, *pack.cross_category]
    assert len({it.id for it in shown}) == 4
    statements = {it.statement for it in shown}
    assert not statements & set(texts)
    assert all(s.startswith("[BLOCKED: ") for s in statements)
    text = render_context(pack)
    assert not any(t in text for t in texts) and "AKIA" not in str(pack.as_dict())


# --- entity facts ------------------------------------------------------------------------------


def test_the_entity_fact_service_refuses_a_secret_and_another_tenants_message(tenant, other_tenant):
    principal = PrincipalFactory(tenant=tenant)
    foreign = person_said(make_agent(tenant=other_tenant), "I live near the old mill.")
    with pytest.raises(SecretFound):
        entity_fact_create(tenant_id=tenant.pk, entity="Ana", fact=SECRET, principal=principal)
    with pytest.raises(MemoryInputError, match="not in a conversation of this tenant"):
        entity_fact_create(
            tenant_id=tenant.pk, entity="Ana", fact="Lives near the mill.", source_message=foreign
        )
    with pytest.raises(InjectionFound):
        entity_fact_create(tenant_id=tenant.pk, entity="Ana", fact=LEARNED_HIT)
    assert not EntityFact.objects.exists()


def test_a_user_import_refuses_a_blocked_fact(tenant):
    principal = PrincipalFactory(tenant=tenant)
    report = user_import(principal=principal, text=f"Likes tea.\n§\n{LEARNED_HIT}\n§\n{SECRET}")
    assert len(report.imported) == 1 and len(report.blocked) == 1 and len(report.secrets) == 1


def test_the_hermes_export_withholds_every_layer(tmp_path, agent, tenant, unsafe):
    _, text = unsafe
    principal = PrincipalFactory(tenant=tenant, display_name="Ana")
    # stored before any check caught it
    EntityFact.objects.create(tenant=tenant, principal=principal, entity="Ana", fact=text)
    _store_unchecked(agent, guardrails=[text])
    paths = export_files(agent=agent, out_dir=tmp_path, principal=principal)
    for path in paths:
        written = path.read_text(encoding="utf-8")
        assert text not in written
        assert "[BLOCKED: " in written
