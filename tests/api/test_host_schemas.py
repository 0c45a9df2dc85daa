"""What a generated client and a host on either transport rely on (issue 23, point 4):
the prefix route's validators in the schema, typed learning settings, one time format on
/v1 and MCP, a per-token rate limit shared by both transports, and person-scoped reads
that need no agent for a token bound to a person."""

from __future__ import annotations

import re
from datetime import timedelta
from typing import Any

import anyio
import pytest
from django.utils import timezone
from mcp import Client
from mcp.server.auth.middleware.auth_context import auth_context_var
from mcp.server.auth.middleware.bearer_auth import AuthenticatedUser
from mcp.server.auth.provider import AccessToken

from api.mcp_server import build_server
from memory.models import Principal
from memory.services_beliefs import belief_write, intention_write
from tests.api.conftest import bearer

# MCP tools run in worker threads: they need committed rows
pytestmark = pytest.mark.django_db(transaction=True)

TIME = re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{3})?Z$")


@pytest.fixture(autouse=True)
def words_only(settings):
    settings.MEMORY_BELIEF_EMBEDDINGS = False  # no embedding model in these tests


def call_mcp(raw: str, calls: list[tuple[str, dict[str, Any]]]) -> list[Any]:
    """Tool calls over MCP as a streamable-HTTP caller with the token ``raw``."""
    server = build_server(http_base="http://127.0.0.1:1", timeout=60)

    async def main() -> list[Any]:
        auth_context_var.set(
            AuthenticatedUser(AccessToken(token=raw, client_id="test", scopes=["host"]))
        )
        async with Client(server) as client:
            return [await client.call_tool(name, args) for name, args in calls]

    return anyio.run(main)


def text_of(result: Any) -> str:
    return " ".join(getattr(c, "text", "") for c in result.content)


@pytest.fixture
def ana(tenant, agent):
    person = Principal.objects.create(tenant=tenant, external_id="ana")
    belief_write(
        agent=agent,
        principal_external_id="ana",
        category="likes",
        statement="Prefers green tea in the afternoon",
        confidence=0.8,
        source="direct",
        evidence={"host": "test"},
    )
    intention_write(
        agent=agent,
        principal_external_id="ana",
        action="Order rye flour",
        due=timezone.now() + timedelta(hours=6),
        source="direct",
    )
    return person


# --- the schema ---------------------------------------------------------------------------


def test_the_prefix_route_declares_etag_if_none_match_and_304(client, api_on):
    op = client.get("/v1/openapi.json").json()["paths"]["/v1/agents/{slug}/prefix"]["get"]
    headers = {p["name"]: p for p in op["parameters"] if p["in"] == "header"}
    assert headers["If-None-Match"]["required"] is False
    assert "ETag" in op["responses"]["200"]["headers"]
    assert "ETag" in op["responses"]["304"]["headers"]
    assert "content" not in op["responses"]["304"]


def test_every_route_documents_429_with_retry_after(client, api_on):
    paths = client.get("/v1/openapi.json").json()["paths"]
    for path, methods in paths.items():
        for method, op in methods.items():
            if path == "/v1/health":
                continue
            assert "Retry-After" in op["responses"]["429"]["headers"], (method, path)


def test_the_learning_settings_are_typed_in_the_schema(client, api_on):
    schemas = client.get("/v1/openapi.json").json()["components"]["schemas"]
    settings_ref = schemas["LearningOut"]["properties"]["settings"]["$ref"]
    settings_schema = schemas[settings_ref.rsplit("/", 1)[1]]
    assert settings_schema["properties"]["mode"]["enum"] == ["off", "on", "on-with-review"]
    assert settings_schema["properties"]["every_n_turns"]["type"] == "integer"
    assert settings_schema["properties"]["rule_owners"]["type"] == "array"


def test_the_learning_status_answer_fits_its_typed_settings(client, api_on, agent, make_token):
    from tests.factories import make_user

    rex = make_user("rex", role="reviewer", tenants=[agent.tenant])
    _, raw = make_token(name="desk", scopes="learning.read", user=rex)
    answer = client.get("/v1/agents/helper/learning", **bearer(raw))
    assert answer.status_code == 200, answer.content
    settings = answer.json()["settings"]
    assert settings["mode"] == "off" and isinstance(settings["every_n_turns"], int)
    assert "last_seen_message_id" not in settings and "due_at" not in settings


# --- one time format -----------------------------------------------------------------------


def test_the_same_operation_gives_the_same_time_text_on_both_transports(
    client, api_on, ana, make_token
):
    _, raw = make_token(name="mem", scopes="memory.read,memory.write")
    beliefs = client.get("/v1/memories", {"principal": "ana"}, **bearer(raw)).json()
    intentions = client.get("/v1/intentions", {"principal": "ana"}, **bearer(raw)).json()
    over_mcp = call_mcp(
        raw,
        [
            ("beliefs_search", {"principal": "ana"}),
            ("intentions_list", {"principal": "ana"}),
        ],
    )
    assert not any(r.is_error for r in over_mcp), [text_of(r) for r in over_mcp]
    mcp_beliefs, mcp_intentions = (r.structured_content for r in over_mcp)
    http_time = beliefs["items"][0]["last_reinforced_at"]
    assert TIME.match(http_time), http_time
    assert mcp_beliefs["items"][0]["last_reinforced_at"] == http_time
    assert TIME.match(intentions["items"][0]["due_at"])
    assert mcp_intentions["items"][0]["due_at"] == intentions["items"][0]["due_at"]
    # the whole answers, times included, are the same text
    assert mcp_beliefs == beliefs and mcp_intentions == intentions


# --- the rate limit ------------------------------------------------------------------------


def test_a_token_over_its_rate_limit_gets_429_with_retry_after(
    client, host, agent, settings, make_token, one_rate_window
):
    settings.PERSONAWEB_API_RATE_LIMIT = 3
    for _ in range(3):
        assert client.get("/v1/agents/helper", **host).status_code == 200
    refused = client.get("/v1/agents/helper", **host)
    assert refused.status_code == 429
    assert refused.json()["error"]["code"] == "rate_limited"
    assert "at most 3 a minute" in refused.json()["error"]["message"]
    assert 1 <= int(refused["Retry-After"]) <= 60
    # the 304 path counts too: it is a call
    etag_path = client.get("/v1/agents/helper/prefix", **host)
    assert etag_path.status_code == 429
    # another token has its own count
    _, other = make_token(name="other-host")
    assert client.get("/v1/agents/helper", **bearer(other)).status_code == 200


def test_the_rate_limit_is_one_count_for_both_transports(
    client, host, agent, settings, one_rate_window
):
    settings.PERSONAWEB_API_RATE_LIMIT = 3
    raw = host["HTTP_AUTHORIZATION"].split(" ", 1)[1]
    assert client.get("/v1/agents/helper", **host).status_code == 200
    first, second, third = call_mcp(raw, [("persona_read", {"agent": "helper"})] * 3)
    assert not first.is_error and not second.is_error
    assert third.is_error and "Too many calls with this API token" in text_of(third)
    assert client.get("/v1/agents/helper", **host).status_code == 429


def test_the_rate_limit_is_counted_in_the_shared_cache(
    client, host, agent, settings, one_rate_window
):
    from django.core.cache import cache

    settings.PERSONAWEB_API_RATE_LIMIT = 2
    for _ in range(2):
        assert client.get("/v1/agents/helper", **host).status_code == 200
    assert client.get("/v1/agents/helper", **host).status_code == 429
    cache.clear()  # what every process reads: emptied, the count starts again
    assert client.get("/v1/agents/helper", **host).status_code == 200


def test_a_rate_limit_of_zero_is_no_limit(client, host, agent, settings):
    settings.PERSONAWEB_API_RATE_LIMIT = 0
    for _ in range(30):
        assert client.get("/v1/agents/helper", **host).status_code == 200


# --- person-scoped reads need no agent -------------------------------------------------------


def test_a_token_bound_to_a_person_reads_context_without_naming_an_agent(
    client, api_on, ana, make_token
):
    _, raw = make_token(name="ana-reads", scopes="memory.read", principal=ana)
    # one moment for both calls: the pack's text says "as of HH:MM", and two calls a few
    # hundred milliseconds apart can straddle a minute
    ask = {"query": "What does she drink?", "now": timezone.now().isoformat()}
    over_http = client.get("/v1/context", ask, **bearer(raw))
    assert over_http.status_code == 200, over_http.content
    assert "green tea" in over_http.json()["text"]
    (over_mcp,) = call_mcp(raw, [("build_context", ask)])
    assert not over_mcp.is_error, text_of(over_mcp)
    # the same pack given twice: each answer is kept as its own pack, with its own id
    mcp_pack, http_pack = over_mcp.structured_content, over_http.json()
    assert mcp_pack["pack_id"] != http_pack["pack_id"]
    assert mcp_pack == http_pack | {"pack_id": mcp_pack["pack_id"]}


def test_context_for_a_named_agent_out_of_reach_is_not_found(
    client, api_on, ana, make_token, other_tenant
):
    from tests.factories import make_agent

    make_agent(tenant=other_tenant, slug="elsewhere")
    _, raw = make_token(name="ana-reads", scopes="memory.read", principal=ana)
    named = client.get("/v1/context", {"query": "tea?", "agent": "elsewhere"}, **bearer(raw))
    assert named.status_code == 404
    (over_mcp,) = call_mcp(raw, [("build_context", {"query": "tea?", "agent": "elsewhere"})])
    assert over_mcp.is_error and "No agent with that name here." in text_of(over_mcp)


def test_a_tenant_wide_token_still_says_whose_context(client, api_on, ana, make_token):
    _, raw = make_token(name="wide", scopes="memory.read")
    unnamed = client.get("/v1/context", {"query": "tea?"}, **bearer(raw))
    assert unnamed.status_code == 400 and "principal" in unnamed.json()["error"]["message"]
    named = client.get("/v1/context", {"query": "tea?", "principal": "ana"}, **bearer(raw))
    assert named.status_code == 200 and "green tea" in named.json()["text"]
