"""Issue 9, finding 1: the admin by tenant. An operator of tenant A reaches none of
tenant B's rows (404 or 403), edits no history, sees no sealed text; a superuser sees
everything."""

from __future__ import annotations

import io

import pytest
from django.urls import reverse

from memory.models import Conversation, Message
from memory.sealing import conversation_seal
from memory.services import record_turn
from tenancy.models import Membership
from tests.factories import make_agent, make_user

pytestmark = pytest.mark.django_db

SECRET_TEXT = "My private note about the kiln insurance claim"


@pytest.fixture
def other_agent(other_tenant):
    return make_agent(tenant=other_tenant, slug="globex-desk", name="Globex desk")


@pytest.fixture
def foreign_turn(other_agent):
    return record_turn(
        agent=other_agent,
        principal_external_id="gina",
        conversation="globex-1",
        user_text=SECRET_TEXT,
        assistant_text="Noted.",
    )


@pytest.fixture
def op_client(client, tenant):
    from django.core.management import call_command

    call_command("ensure_operator", "--username", "olga", stdout=io.StringIO())
    user = make_user("ann", role="operator", tenants=[tenant])
    user.is_staff = True
    user.save()
    client.force_login(user)
    return client


def _url(name: str, *args: object) -> str:
    return reverse(f"admin:{name}", args=args)


def test_another_tenants_rows_are_404_for_an_operator(op_client, foreign_turn, other_agent):
    conv = foreign_turn.conversation
    msg = foreign_turn.messages[0]
    for url in (
        _url("memory_message_change", msg.pk),
        _url("memory_conversation_change", conv.pk),
        _url("memory_conversation_delete", conv.pk),
        _url("memory_principal_change", conv.principal_id),
        _url("tenancy_agent_change", other_agent.pk),
        _url("learning_learningsettings_change", other_agent.learning.pk),
    ):
        response = op_client.get(url)
        assert response.status_code in (403, 404), url
        assert SECRET_TEXT not in response.content.decode()
    listing = op_client.get(_url("memory_message_changelist")).content.decode()
    assert f"/admin/memory/message/{msg.pk}/" not in listing


def test_operator_cannot_touch_memberships_tenants_or_unseal(op_client, agent, other_tenant):
    assert op_client.get(_url("tenancy_membership_add")).status_code == 403
    assert op_client.get(_url("tenancy_tenant_changelist")).status_code == 403
    before = Membership.objects.count()
    op_client.post(_url("tenancy_membership_add"), {"user": 1, "tenant": other_tenant.pk})
    assert Membership.objects.count() == before
    turn = record_turn(
        agent=agent, principal_external_id="p", conversation="c1", user_text="Hello there friend"
    )
    conversation_seal(conversation=turn.conversation)
    response = op_client.post(
        _url("memory_conversation_change", turn.conversation.pk),
        {"sealed": "", "external_id": "c1"},
    )
    assert response.status_code == 403
    assert Conversation.objects.get(pk=turn.conversation.pk).sealed
    response = op_client.post(
        _url("memory_conversation_delete", turn.conversation.pk), {"post": "yes"}
    )
    assert response.status_code == 403
    assert Conversation.objects.filter(pk=turn.conversation.pk).exists()
    response = op_client.post(
        _url("memory_message_change", turn.messages[0].pk), {"text": "edited"}
    )
    assert response.status_code == 403
    assert Message.objects.get(pk=turn.messages[0].pk).text == "Hello there friend"


def test_sealed_text_never_shows_in_the_admin(op_client, client, agent):
    turn = record_turn(
        agent=agent, principal_external_id="p", conversation="c2", user_text=SECRET_TEXT
    )
    conversation_seal(conversation=turn.conversation)
    page = op_client.get(_url("memory_message_change", turn.messages[0].pk)).content.decode()
    assert SECRET_TEXT not in page and "sealed conversation" in page
    client.force_login(make_user("root", superuser=True))
    page = client.get(_url("memory_message_change", turn.messages[0].pk)).content.decode()
    assert SECRET_TEXT not in page


def test_a_superuser_sees_every_tenant(client, foreign_turn):
    client.force_login(make_user("root", superuser=True))
    page = client.get(_url("memory_conversation_change", foreign_turn.conversation.pk))
    assert page.status_code == 200
    assert client.get(_url("tenancy_tenant_changelist")).status_code == 200


def test_seal_action_in_the_admin_is_one_way(op_client, agent):
    turn = record_turn(
        agent=agent,
        principal_external_id="p",
        conversation="c3",
        user_text="Please price this order",
    )
    response = op_client.post(
        _url("memory_conversation_changelist"),
        {"action": "seal", "_selected_action": [turn.conversation.pk]},
    )
    assert response.status_code == 302
    assert Conversation.objects.get(pk=turn.conversation.pk).sealed


def test_every_admin_of_a_tenant_row_hides_other_tenants(op_client, other_agent, foreign_turn):
    """Walk every registered ModelAdmin: each row that belongs to the other tenant is a
    403 or 404 on its change page for this operator."""
    from django.contrib import admin as django_admin

    from learning.services import review_run
    from tests.learning.helpers import learning_on, seed_work
    from tests.learning.scripted import GOOD_SENTENCE, ScriptedProposer

    learning_on(other_agent)
    seed_work(other_agent, n=4)
    review_run(agent=other_agent, proposer=ScriptedProposer(GOOD_SENTENCE))
    from persona.plans import plan_get_or_rotate

    plan_get_or_rotate(agent=other_agent, session_key="s1")
    checked = 0
    for model, model_admin in django_admin.site._registry.items():
        path = getattr(model_admin, "tenant_path", None)
        if path is None:
            continue
        for obj in model._default_manager.filter(**{path: other_agent.tenant_id})[:3]:
            url = reverse(
                f"admin:{model._meta.app_label}_{model._meta.model_name}_change", args=[obj.pk]
            )
            assert op_client.get(url).status_code in (403, 404), url
            checked += 1
    assert checked >= 10


def _add_fact(op_client, tenant, **fields):
    from memory.models import EntityFact

    data = {"tenant": tenant.pk, "entity": "Ana", "kind": "person", "fact": "Likes tea."}
    data.update({k: v for k, v in fields.items() if v is not None})
    response = op_client.post(_url("memory_entityfact_add"), data)
    return response, EntityFact.objects.count()


def test_an_entity_fact_in_the_admin_may_not_cite_another_tenants_message(
    op_client, tenant, foreign_turn
):
    response, stored = _add_fact(op_client, tenant, source_message=foreign_turn.messages[0].pk)
    assert response.status_code == 200  # the form again, with the error
    assert stored == 0
    assert SECRET_TEXT not in response.content.decode()


def test_an_entity_fact_in_the_admin_holding_a_secret_is_refused(op_client, tenant):
    response, stored = _add_fact(op_client, tenant, fact="Her key is AKIAZ7Q3L5M2N8P4R6T1")
    assert response.status_code == 200
    assert stored == 0
    assert "looks like it holds a secret" in response.content.decode()


def test_an_entity_fact_in_the_admin_is_stored_when_it_passes(op_client, tenant, agent):
    own = record_turn(
        agent=agent,
        principal_external_id="ana",
        conversation="acme-1",
        user_text="I take my tea green.",
        assistant_text="Noted.",
    ).messages[0]
    response, stored = _add_fact(op_client, tenant, source_message=own.pk)
    assert response.status_code == 302, response.content.decode()[:2000]
    assert stored == 1
