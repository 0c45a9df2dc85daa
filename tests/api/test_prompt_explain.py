"""``GET /v1/agents/{slug}/prefix?explain=1`` and the MCP tool ``prompt_explain``: every
line of a session's prefix with where it came from (issue 26.1)."""

from __future__ import annotations

import anyio
import pytest
from mcp import Client

from api.mcp_server import build_server
from learning.services import proposal_apply
from memory.models import Principal
from persona import owner
from persona.models import ContextPlan
from tests.api.conftest import bearer
from tests.builders import add_proposal, person_said

pytestmark = pytest.mark.django_db

URL = "/v1/agents/helper/prefix"


def _learned(agent):
    said = person_said(agent, "Could you plan weekend bakery orders for our stalls?")
    evidence = [
        {
            "quote": "plan weekend bakery orders",
            "ok": True,
            "conversation_id": said.conversation_id,
            "conversation": "talk-1",
            "message_id": said.pk,
            "start": 10,
            "end": 36,
        }
    ]
    proposal = add_proposal(agent, evidence=evidence)
    proposal_apply(proposal=proposal, by="rita")
    return proposal


def test_explain_tells_each_line_of_the_pinned_prefix(client, host, agent):
    proposal = _learned(agent)
    pinned = client.get(URL, {"session": "s1"}, **host).json()
    response = client.get(URL, {"session": "s1", "explain": "1"}, **host)
    assert response.status_code == 200, response.content
    body = response.json()
    assert body["pinned"] is True and body["matches_pinned"] is True
    assert body["prefix"] == pinned["prefix"] and body["sha256"] == pinned["sha256"]
    assert response["ETag"] == f'"{pinned["sha256"]}"'
    assert "\n".join(line["text"] for line in body["lines"]) == pinned["prefix"]
    note = next(line for line in body["lines"] if line["kind"] == "learned_note")
    assert note["since"]["proposal_id"] == proposal.pk and note["since"]["by"] == "rita"
    assert note["since"]["quotes"][0]["quote"] == "plan weekend bakery orders"
    name = next(line for line in body["lines"] if line["kind"] == "name")
    assert name["since"]["version"] == 1 and name["since"]["reason"] == "Agent created"
    assert {line["kind"] for line in body["lines"]} >= {"frame", "blank", "goals_line"}


def test_explain_writes_no_plan_and_explains_what_a_plan_would_pin(client, host, agent):
    response = client.get(URL, {"principal": "nobody-yet", "explain": "true"}, **host)
    assert response.status_code == 200, response.content
    assert response.json()["pinned"] is False and response.json()["epoch"] is None
    assert not ContextPlan.objects.exists()
    assert not Principal.objects.filter(external_id="nobody-yet").exists()


def test_a_person_never_gets_the_plan_pinned_for_nobody(client, host, agent):
    from persona.services import ChangeTrigger, persona_version_create

    client.get(URL, **host)  # the plan for nobody, pinned at version 1
    persona_version_create(
        agent=agent,
        changes={"goals": "Plan orders."},
        trigger=ChangeTrigger(source_type="host", reason="goals"),
    )
    body = client.get(URL, {"principal": "zed", "explain": "1"}, **host).json()
    assert body["pinned"] is False and body["persona_version"] == 2


def test_explain_needs_host_or_learning_read(client, api_on, agent, make_token):
    _, memory_only = make_token(name="mem", scopes="memory.read")
    refused = client.get(URL, {"explain": "1"}, **bearer(memory_only))
    assert refused.status_code == 403
    assert "scope" in refused.json()["error"]["message"]
    _, reader = make_token(name="reader", scopes="learning.read")
    assert client.get(URL, {"explain": "1"}, **bearer(reader)).status_code == 200
    # the plain prefix stays host-only
    assert client.get(URL, **bearer(reader)).status_code == 403


def test_another_tenants_agent_is_a_404(client, api_on, agent, other_tenant, make_token):
    _, theirs = make_token(name="theirs", tenant_=other_tenant)
    response = client.get(URL, {"explain": "1"}, **bearer(theirs))
    assert response.status_code == 404
    assert response.json()["error"]["code"] == "not_found"


def test_a_caller_bound_to_a_person_reads_no_other_peoples_quotes(
    client, api_on, agent, tenant, make_token
):
    _learned(agent)
    ana = Principal.objects.get(external_id="ana")
    bo = Principal.objects.create(tenant=tenant, external_id="bo")
    owner.owner_doc_write(principal=ana, expected_version=0, entries=[{"text": "Bakes rye."}])
    _, bound = make_token(name="ana-host", principal=ana)
    body = client.get(URL, {"explain": "1"}, **bearer(bound)).json()
    note = next(line for line in body["lines"] if line["kind"] == "learned_note")
    assert note["since"]["proposal_id"] and note["since"]["quotes"][0]["quote"] == ""
    entry = next(line for line in body["lines"] if line["kind"] == "owner_entry")
    assert entry["text"].startswith("- Bakes rye.") and entry["entry"]["source"] == "user_edit"
    other = client.get(URL, {"explain": "1", "principal": bo.external_id}, **bearer(bound))
    assert other.status_code == 404


def test_explain_leaves_the_hot_path_as_it_was(client, host, agent):
    first = client.get(URL, {"session": "s"}, **host)
    etag = first["ETag"]
    client.get(URL, {"session": "s", "explain": "1"}, **host)
    again = client.get(URL, {"session": "s"}, HTTP_IF_NONE_MATCH=etag, **host)
    assert again.status_code == 304
    # an If-None-Match never turns an explanation into a 304
    explained = client.get(URL, {"session": "s", "explain": "1"}, HTTP_IF_NONE_MATCH=etag, **host)
    assert explained.status_code == 200 and explained.json()["lines"]


@pytest.mark.django_db(transaction=True)
def test_the_mcp_tool_answers_what_the_route_answers(client, api_on, agent, make_token):
    _learned(agent)
    _, raw = make_token()
    over_http = client.get(URL, {"explain": "1", "principal": "ana"}, **bearer(raw)).json()
    server = build_server(agent_slug=agent.slug, principal="ana", timeout=60)

    async def main():
        async with Client(server) as c:
            return await c.call_tool("prompt_explain", {})

    result = anyio.run(main)
    assert not result.is_error
    # stdio is trusted like the CLI for one person: the quotes of others are left out
    over_mcp = result.structured_content
    assert over_mcp["prefix"] == over_http["prefix"]
    assert [ln["summary"] for ln in over_mcp["lines"]] == [
        ln["summary"] for ln in over_http["lines"]
    ]
