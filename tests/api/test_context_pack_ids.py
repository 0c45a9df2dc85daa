"""Context pack ids (issue 26.1): every pack a host is given is kept with the beliefs and
the prompt versions behind it; a turn recorded with its id links the reply to it, and a
pack of someone else, of another tenant, used already or expired is refused."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from memory.models import ContextPackRecord, Message, Principal
from memory.packs import context_packs_prune
from memory.services_beliefs import belief_write
from persona import owner
from tests.api.conftest import bearer
from tests.api.test_routes import post
from tests.factories import make_agent

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def words_only(settings):
    settings.MEMORY_BELIEF_EMBEDDINGS = False


@pytest.fixture
def host(api_on, agent, make_token):
    Principal.objects.create(tenant=agent.tenant, external_id="ana")
    _, raw = make_token(name="app", scopes="host,memory.read,memory.write")
    return bearer(raw)


def _believe(agent, statement, who="ana", category="likes"):
    return belief_write(
        agent=agent,
        principal_external_id=who,
        category=category,
        statement=statement,
        confidence=0.8,
        source="direct",
    ).belief


def _pack(client, host, who="ana", agent="helper"):
    response = client.get(
        "/v1/context", {"principal": who, "query": "what to cook", "agent": agent}, **host
    )
    assert response.status_code == 200, response.content
    return response.json()


def _turn(client, host, pack_id, who="ana", conversation="c1", **extra):
    body = {
        "principal": who,
        "conversation": conversation,
        "user_text": "What should I cook tonight?",
        "assistant_text": "A lentil soup, since you like lentils.",
        "context_pack": pack_id,
        **extra,
    }
    return post(client, "/v1/agents/helper/turns", body, **host)


def test_a_pack_id_goes_back_with_the_turn_and_links_the_reply(client, host, agent):
    likes = _believe(agent, "Likes lentil soup")
    owner.owner_doc_write(
        principal=Principal.objects.get(external_id="ana"),
        expected_version=0,
        entries=[{"text": "Cooks on weekdays."}],
    )
    pack = _pack(client, host)
    assert likes.pk in [item["id"] for item in pack["items"]]
    record = ContextPackRecord.objects.get(pk=pack["pack_id"])
    assert record.belief_ids == [likes.pk] and record.message_id is None
    assert (record.agent_id, record.persona_version, record.owner_doc_version) == (agent.pk, 1, 1)
    response = _turn(client, host, pack["pack_id"])
    assert response.status_code == 201, response.content
    reply = Message.objects.get(pk=response.json()["message_ids"][1])
    assert reply.role == "assistant" and reply.context_pack.pk == pack["pack_id"]


def test_a_pack_built_without_an_agent_takes_the_turns(client, host, agent):
    _believe(agent, "Likes lentil soup")
    response = client.get("/v1/context", {"principal": "ana", "query": "cook"}, **host)
    pack_id = response.json()["pack_id"]
    assert ContextPackRecord.objects.get(pk=pack_id).agent_id is None
    assert _turn(client, host, pack_id).status_code == 201
    record = ContextPackRecord.objects.get(pk=pack_id)
    assert (record.agent_id, record.persona_version) == (agent.pk, 1)


def test_a_pack_goes_with_one_reply_only(client, host, agent):
    pack_id = _pack(client, host)["pack_id"]
    assert _turn(client, host, pack_id).status_code == 201
    again = _turn(client, host, pack_id, conversation="c2")
    assert again.status_code == 409
    assert "another turn already" in again.json()["error"]["message"]


def test_a_pack_needs_the_reply_it_shaped(client, host, agent):
    pack_id = _pack(client, host)["pack_id"]
    response = _turn(client, host, pack_id, assistant_text=None)
    assert response.status_code == 400
    assert "assistant_text" in response.json()["error"]["message"]
    assert not Message.objects.exists()


def test_another_persons_pack_is_refused_and_nothing_is_written(client, host, agent):
    _believe(agent, "Likes rye bread", who="bo")
    bos = _pack(client, host, who="bo")["pack_id"]
    response = _turn(client, host, bos)
    assert response.status_code == 400
    assert f"No context pack {bos} for this person" in response.json()["error"]["message"]
    assert not Message.objects.exists()


def test_another_tenants_pack_is_the_same_refusal(
    client, api_on, agent, other_tenant, make_token, host
):
    make_agent(tenant=other_tenant, slug="theirs")
    _, raw = make_token(name="them", scopes="host,memory.read", tenant_=other_tenant)
    Principal.objects.create(tenant=other_tenant, external_id="ana")
    theirs = _pack(client, bearer(raw), agent="theirs")["pack_id"]
    response = _turn(client, host, theirs)
    assert response.status_code == 400
    assert f"No context pack {theirs} for this person" in response.json()["error"]["message"]


def test_a_pack_for_another_agent_is_refused(client, host, agent, tenant):
    make_agent(tenant=tenant, slug="baker")
    _believe(agent, "Likes lentil soup")
    pack_id = _pack(client, host, agent="baker")["pack_id"]
    response = _turn(client, host, pack_id)
    assert response.status_code == 400 and "another agent" in response.json()["error"]["message"]


def test_an_expired_pack_is_refused_and_swept_while_a_linked_one_stays(
    client, host, agent, settings
):
    settings.CONTEXT_PACK_HOURS = 2
    old = _pack(client, host)["pack_id"]
    linked = _pack(client, host)["pack_id"]
    assert _turn(client, host, linked).status_code == 201
    ContextPackRecord.objects.update(created_at=timezone.now() - timedelta(hours=3))
    response = _turn(client, host, old, conversation="c2")
    assert response.status_code == 400 and "kept 2 hours" in response.json()["error"]["message"]
    assert context_packs_prune() == 1
    assert list(ContextPackRecord.objects.values_list("pk", flat=True)) == [linked]


@pytest.mark.django_db(transaction=True)
def test_the_mcp_tools_carry_the_pack_id_too(agent):
    import anyio
    from mcp import Client

    from api.mcp_server import build_server

    _believe(agent, "Likes lentil soup")
    server = build_server(agent_slug=agent.slug, principal="ana", timeout=60)

    async def main():
        async with Client(server) as c:
            pack = await c.call_tool("build_context", {"query": "cook"})
            pack_id = pack.structured_content["pack_id"]
            turn = await c.call_tool(
                "record_turn",
                {
                    "conversation": "m1",
                    "user_text": "Cook?",
                    "assistant_text": "Soup.",
                    "context_pack": pack_id,
                },
            )
            return pack_id, turn

    pack_id, turn = anyio.run(main)
    assert not turn.is_error
    reply_id = turn.structured_content["message_ids"][1]
    assert ContextPackRecord.objects.get(pk=pack_id).message_id == reply_id
