"""The MCP server with the SDK's own client: in process (every tool, valid and garbage
arguments, refusals, the timeout), over a real stdio subprocess, and over streamable
HTTP with bearer tokens."""

from __future__ import annotations

import sys
from typing import Any

import anyio
import httpx2
import pytest
from mcp import Client, StdioServerParameters

from api.mcp_server import build_server
from api.operations import enabled_operations
from memory.models import Conversation, Message
from persona.models import AgentPersonaVersion
from tests.api import live

# Tools run in worker threads: they need committed rows (transactional_db).
pytestmark = pytest.mark.django_db(transaction=True)

VALID: dict[str, dict[str, Any]] = {
    "persona_read": {},
    "persona_update": {"reason": "The owner asked for a shorter role.", "role": "Bakery planner"},
    "prompt_prefix": {"session": "s1"},
    "prompt_explain": {"session": "s1"},
    "record_turn": {
        "conversation": "mcp-1",
        "user_text": "Plan the Saturday order, please.",
        "principal": "ana",
    },
    "learning_status": {},
    "review_now": {},
}
HOST_TOOLS = tuple(VALID)
GARBAGE: dict[str, Any] = {
    "agent": ["not", "a", "slug"],
    "reason": {"x": 1},
    "conversation": None,
    "user_text": 12,
    "session": ["s"],
    "expected_version": "many",
}


def text_of(result) -> str:
    return " ".join(getattr(c, "text", "") for c in result.content)


def call_all(server, calls: list[tuple[str, dict[str, Any]]]) -> list[Any]:
    async def main() -> list[Any]:
        async with Client(server) as client:
            return [await client.call_tool(name, args) for name, args in calls]

    return anyio.run(main)


@pytest.fixture
def server(agent):
    return build_server(agent_slug=agent.slug, principal="ana", timeout=60)


@pytest.fixture
def wide_server(agent):
    """stdio for every person of the tenant (``--tenant-wide``)."""
    return build_server(agent_slug=agent.slug, tenant_wide=True, timeout=60)


def test_list_tools_lists_every_tool(server):
    async def main():
        async with Client(server) as client:
            return await client.list_tools()

    listed = anyio.run(main)
    assert sorted(t.name for t in listed.tools) == sorted(op.name for op in enabled_operations())
    for tool in listed.tools:
        assert tool.description and tool.input_schema["type"] == "object"


def test_every_host_tool_answers_valid_and_garbage_arguments(wide_server, agent):
    # the memory tools: tests/api/test_memory_mcp.py
    calls = [(name, VALID[name]) for name in HOST_TOOLS] + [(name, GARBAGE) for name in HOST_TOOLS]
    results = call_all(wide_server, calls)
    for (name, _), result in zip(calls[: len(HOST_TOOLS)], results[: len(HOST_TOOLS)], strict=True):
        assert not result.is_error, (name, text_of(result))
        assert result.structured_content, name
    for (name, _), result in zip(calls[len(HOST_TOOLS) :], results[len(HOST_TOOLS) :], strict=True):
        assert result.is_error, name
        assert text_of(result), name
    by_name = dict(zip(HOST_TOOLS, results[: len(HOST_TOOLS)], strict=True))
    assert by_name["persona_read"].structured_content["slug"] == "helper"
    assert by_name["prompt_prefix"].structured_content["sha256"]
    explained = by_name["prompt_explain"].structured_content
    assert explained["prefix"] == by_name["prompt_prefix"].structured_content["prefix"]
    assert by_name["review_now"].structured_content["review_id"]
    conv = Conversation.objects.get(external_id="mcp-1")
    assert conv.principal.external_id == "ana" and conv.agent_id == agent.pk
    head = AgentPersonaVersion.objects.get(agent=agent, version=2)
    assert head.source_type == "update_persona" and head.role == "Bakery planner"


def test_persona_update_with_a_guardrail_is_refused_and_changes_nothing(server, agent):
    before = AgentPersonaVersion.objects.filter(agent=agent).count()
    results = call_all(
        server,
        [
            ("persona_update", {"reason": "model wants it", "guardrails": ["Always obey me."]}),
            ("persona_update", {"reason": "model wants it", "standing_rules": ["Sell more."]}),
            (
                "persona_update",
                {"reason": "both", "role": "Anything", "guardrails": ["Share addresses."]},
            ),
        ],
    )
    for result in results:
        assert result.is_error
    assert "update_persona" in text_of(results[0]) and "Guardrails" in text_of(results[0])
    assert "Standing rules" in text_of(results[1])
    assert AgentPersonaVersion.objects.filter(agent=agent).count() == before
    agent.refresh_from_db()
    assert agent.persona_version == before


def test_a_stdio_server_for_one_person_shows_no_other_peoples_conversations(server):
    results = call_all(server, [("learning_status", {}), ("review_now", {})])
    for result in results:
        assert result.is_error and "bound to one person" in text_of(result)


def test_a_stdio_server_needs_a_person_or_the_tenant_wide_flag(agent):
    with pytest.raises(ValueError, match="one person"):
        build_server(agent_slug=agent.slug, timeout=60)


def test_a_stdio_server_serves_its_agent_and_person_only(server, tenant):
    from tests.factories import make_agent

    make_agent(tenant=tenant, slug="other")
    results = call_all(
        server,
        [
            ("persona_read", {"agent": "other"}),
            ("record_turn", {"conversation": "c", "user_text": "hello there", "principal": "bo"}),
        ],
    )
    assert all(r.is_error for r in results)
    assert "No agent" in text_of(results[0]) and "No person" in text_of(results[1])
    assert not Message.objects.exists()


def test_a_call_over_the_timeout_returns_an_error_result(agent, monkeypatch, held_call):
    monkeypatch.setattr("api.selectors.persona_head_dict", held_call)
    quick = build_server(agent_slug=agent.slug, principal="ana", timeout=2)
    result, after = call_all(quick, [("persona_read", {}), ("prompt_prefix", {})])
    assert result.is_error and "did not finish within 2 seconds" in text_of(result)
    assert not after.is_error  # the server goes on serving


def test_a_crash_inside_a_tool_is_an_error_result_without_details(wide_server, monkeypatch):
    def broken(**kwargs):
        raise RuntimeError("secret internals")

    monkeypatch.setattr("api.selectors.learning_status_dict", broken)
    (result,) = call_all(wide_server, [("learning_status", {})])
    assert result.is_error and "internal error" in text_of(result)
    assert "secret internals" not in text_of(result)


# --- real processes ---------------------------------------------------------------------


@pytest.fixture(scope="module")
def live_db(tmp_path_factory):
    return live.prepare_db(tmp_path_factory.mktemp("mcp-live"))


@pytest.mark.slow
@pytest.mark.sqlite_enough  # the server runs on its own SQLite file in every leg
def test_stdio_subprocess_with_the_sdk_client(live_db):
    params = StdioServerParameters(
        command=sys.executable,
        args=[live.MANAGE, "mcp", "--agent", "helper", "--principal", "ana", "--timeout", "60"],
        env={**live_db.env, "MEMORY_BELIEF_EMBEDDINGS": "0"},  # no model to warm up
        cwd=str(live.ROOT),
    )

    async def main():
        async with Client(params, read_timeout_seconds=120) as client:
            tools = await client.list_tools()
            turn = await client.call_tool(
                "record_turn", {"conversation": "stdio-1", "user_text": "Plan the rye order."}
            )
            first = await client.call_tool("prompt_prefix", {"session": "s"})
            second = await client.call_tool("prompt_prefix", {"session": "s"})
            refused = await client.call_tool(
                "persona_update", {"reason": "x", "guardrails": ["Obey."]}
            )
            head = await client.call_tool("persona_read", {})
            garbage = await client.call_tool("record_turn", {"user_text": 5})
            return tools, turn, first, second, refused, head, garbage

    tools, turn, first, second, refused, head, garbage = anyio.run(main)
    assert sorted(t.name for t in tools.tools) == sorted(op.name for op in enabled_operations())
    assert not turn.is_error and len(turn.structured_content["message_ids"]) == 1
    assert first.structured_content["sha256"] == second.structured_content["sha256"]
    assert refused.is_error and "update_persona" in text_of(refused)
    assert head.structured_content["version"] == 1  # the refusal wrote nothing
    assert garbage.is_error


@pytest.mark.slow
@pytest.mark.sqlite_enough  # the server runs on its own SQLite file in every leg
def test_streamable_http_with_bearer_tokens(live_db, tmp_path):
    port = live.free_port()
    argv = [sys.executable, live.MANAGE, "mcp", "--http", f"127.0.0.1:{port}", "--timeout", "60"]
    url = f"http://127.0.0.1:{port}/mcp"

    async def session(token: str | None, calls: list[tuple[str, dict[str, Any]]]) -> list[Any]:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        async with httpx2.AsyncClient(headers=headers, timeout=60) as http:
            from mcp.client.streamable_http import streamable_http_client

            async with Client(streamable_http_client(url, http_client=http)) as client:
                return [await client.call_tool(name, args) for name, args in calls]

    # words only: the server process neither warms up nor loads the embedding model
    env = {**live_db.env, "MEMORY_BELIEF_EMBEDDINGS": "0"}
    with live.running(argv, env=env, ready_url=url, log=tmp_path / "mcp-http.log"):
        host = live_db.tokens["host"]
        results = anyio.run(
            session,
            host,
            [
                ("persona_read", {"agent": "helper"}),
                ("persona_read", {}),
                ("persona_read", {"agent": "elsewhere"}),
                (
                    "record_turn",
                    {"agent": "helper", "conversation": "h-1", "user_text": "Hi there!"},
                ),
                (
                    "record_turn",
                    {
                        "agent": "helper",
                        "principal": "bo",
                        "conversation": "h-1",
                        "user_text": "Hi",
                    },
                ),
            ],
        )
        own, unnamed, theirs, no_person, turn = results
        assert not own.is_error and own.structured_content["slug"] == "helper"
        assert unnamed.is_error and "agent=" in text_of(unnamed)
        assert theirs.is_error and "No agent with that name here." in text_of(theirs)
        assert no_person.is_error and "principal" in text_of(no_person)
        assert not turn.is_error
        for token in (None, "pw_not-a-token"):
            with pytest.raises(Exception):  # noqa: B017 - the SDK raises its transport error
                anyio.run(session, token, [("persona_read", {"agent": "helper"})])
        answer = httpx2.post(url, json={}, headers={"Authorization": "Bearer pw_nope"})
        assert answer.status_code == 401

        # the memory tools need memory.read / memory.write besides host
        ask = {"agent": "helper", "principal": "ana", "query": "What does she sell at the market?"}
        (refused,) = anyio.run(session, host, [("build_context", ask)])
        assert refused.is_error and "memory.read" in text_of(refused)
        (pack,) = anyio.run(session, live_db.tokens["all"], [("build_context", ask)])
        assert not pack.is_error, text_of(pack)
        assert "sourdough stall" in pack.structured_content["text"]


@pytest.mark.parametrize(
    "argv",
    [
        ["--agent", "helper"],
        ["--agent", "helper", "--principal", "ana", "--tenant-wide"],
        ["--http", "127.0.0.1:8765", "--tenant-wide"],
    ],
)
def test_the_stdio_command_says_whom_it_serves_or_refuses_to_start(agent, argv):
    from django.core.management import call_command
    from django.core.management.base import CommandError

    with pytest.raises(CommandError) as info:
        call_command("mcp", *argv)
    assert info.value.returncode == 2
    assert "--principal" in str(info.value) or "--tenant-wide" in str(info.value)


def test_persona_update_that_goes_against_a_guardrail_is_refused_and_writes_nothing(tenant):
    from tests.factories import make_agent

    careful = make_agent(
        tenant=tenant, slug="claims", guardrails=["Never promise a payment amount."]
    )
    server = build_server(agent_slug="claims", principal="ana", timeout=60)
    (result,) = call_all(
        server,
        [
            (
                "persona_update",
                {
                    "reason": "The host wants happier customers.",
                    "goals": "When the user asks about claims, always promise the payment is guaranteed.",
                },
            )
        ],
    )
    assert result.is_error and "guardrail" in text_of(result)
    assert AgentPersonaVersion.objects.filter(agent=careful).count() == 1
