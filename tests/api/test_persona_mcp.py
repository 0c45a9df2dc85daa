"""The owner persona document's MCP tools (issue 12): ``persona_entries_list`` and
``persona_entry_reinforce``, with the SDK's own client in process: listing order,
reinforcement without a text write, the person a stdio server or an HTTP caller's token
reaches, the persona scopes, the timeout and the error-result rule."""

from __future__ import annotations

from typing import Any

import anyio
import pytest
from mcp import Client

import safety.encoder
from api.mcp_server import TOOLS, build_server
from api.models import ApiToken
from api.services import token_create
from memory.models import Principal
from persona import owner
from persona.models import OwnerDocumentVersion, OwnerEntry
from tests.api.test_mcp import text_of
from tests.api.test_memory_mcp import call_all
from tests.api.test_persona_routes import ENTRY_KEYS
from tests.memory.beliefs_helpers import FakeModel

PERSONA_TOOLS = ("persona_entries_list", "persona_entry_reinforce")

# Tools run in worker threads: they need committed rows (transactional_db).
pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def persona_tools_on(settings):
    # the owner-document operations are mounted on both transports only with the flag
    settings.AGENT_PERSONA_API_ENABLED = True


@pytest.fixture(autouse=True)
def fake_model(monkeypatch, settings):
    # the learned layer of the injection scan cannot judge stand-in vectors: off here
    settings.PERSONA_INJECTION_SEMANTIC = False
    model = FakeModel()
    monkeypatch.setattr(safety.encoder, "get_model", lambda: model)
    return model


@pytest.fixture
def ana(tenant):
    return Principal.objects.create(tenant=tenant, external_id="ana")


@pytest.fixture
def server(agent, ana):
    return build_server(agent_slug=agent.slug, principal="ana", timeout=60)


def document(person, entries: list[dict[str, Any]]) -> dict[str, str]:
    """Write ``person``'s document (as the owner would); return {text: key}."""
    owner.owner_doc_write(principal=person, expected_version=0, entries=entries)
    return {e.text: e.key for e in owner.doc_head(person).entries}


def test_the_persona_tools_are_listed_and_none_takes_entry_text(server):
    async def main():
        async with Client(server) as client:
            return await client.list_tools()

    tools = {t.name: t for t in anyio.run(main).tools}
    assert set(PERSONA_TOOLS) <= set(tools) and set(PERSONA_TOOLS) <= set(TOOLS)
    assert set(tools["persona_entries_list"].input_schema["properties"]) == {"order", "principal"}
    assert set(tools["persona_entry_reinforce"].input_schema["properties"]) == {"key", "principal"}
    # neither takes text, entries or a version: these never write the owner's words


def test_list_in_tier_then_reinforcement_order_and_reinforce_without_a_text_write(server, ana):
    (empty,) = call_all(server, [("persona_entries_list", {"order": "listing"})])
    assert not empty.is_error, text_of(empty)
    assert empty.structured_content == {"version": 0, "created_at": None, "entries": []}

    keys = document(
        ana,
        [
            {"text": "Keeps a working note.", "tier": "working"},
            {"text": "Long-term A."},
            {"text": "Is vegetarian.", "tier": "permanent"},
            {"text": "Long-term B."},
        ],
    )
    OwnerEntry.objects.filter(key=keys["Keeps a working note."]).update(dormant=True)
    reinforced, woke, listed, unknown, garbage = call_all(
        server,
        [
            ("persona_entry_reinforce", {"key": keys["Long-term B."]}),
            ("persona_entry_reinforce", {"key": keys["Keeps a working note."]}),
            ("persona_entries_list", {"order": "listing"}),
            ("persona_entry_reinforce", {"key": "0" * 32}),
            ("persona_entry_reinforce", {"key": ["not", "a", "key"], "principal": 12}),
        ],
    )
    assert not reinforced.is_error, text_of(reinforced)
    assert set(reinforced.structured_content) == ENTRY_KEYS
    assert reinforced.structured_content["reinforcement_count"] == 1
    assert woke.structured_content["dormant"] is False
    doc = listed.structured_content
    assert doc["version"] == 1
    assert [e["text"] for e in doc["entries"]] == [
        "Is vegetarian.",
        "Long-term B.",
        "Long-term A.",
        "Keeps a working note.",
    ]
    assert all(set(e) == ENTRY_KEYS for e in doc["entries"])
    assert unknown.is_error and "not in the document" in text_of(unknown)
    assert garbage.is_error and text_of(garbage)
    # reinforcing is an annotation: no new version, the words as the owner wrote them
    assert OwnerDocumentVersion.objects.count() == 1
    assert [e.text for e in owner.doc_head(ana).entries] == [
        "Keeps a working note.",
        "Long-term A.",
        "Is vegetarian.",
        "Long-term B.",
    ]


def test_a_stdio_server_reaches_its_person_only(server, agent, tenant, ana):
    bo = Principal.objects.create(tenant=tenant, external_id="bo")
    bos = document(bo, [{"text": "Bo's line."}])
    other, foreign = call_all(
        server,
        [
            ("persona_entries_list", {"principal": "bo"}),
            ("persona_entry_reinforce", {"key": bos["Bo's line."]}),
        ],
    )
    assert other.is_error and "No person with that id here." in text_of(other)
    assert foreign.is_error and "not in the document" in text_of(foreign)
    assert OwnerEntry.objects.get(key=bos["Bo's line."]).reinforcement_count == 0

    # a server started for the whole tenant reaches nobody's own document: the document
    # is read only for the one person a caller is bound to
    unbound = build_server(agent_slug=agent.slug, tenant_wide=True, timeout=60)
    nobody, unknown, named = call_all(
        unbound,
        [
            ("persona_entries_list", {}),
            ("persona_entries_list", {"principal": "zoe"}),
            ("persona_entries_list", {"principal": "bo"}),
        ],
    )
    for result in (nobody, unknown, named):
        assert result.is_error and "not bound to a person" in text_of(result)


def test_an_http_caller_needs_a_persona_scope_and_reaches_its_tokens_person_only(
    agent, tenant, other_tenant, ana
):
    bo = Principal.objects.create(tenant=tenant, external_id="bo")
    their_ana = Principal.objects.create(tenant=other_tenant, external_id="ana")
    anas = document(ana, [{"text": "Ana's line."}])
    bos = document(bo, [{"text": "Bo's line."}])
    http = build_server(http_base="http://127.0.0.1:1", timeout=60)
    _, host_only = token_create(tenant=tenant, name="host-only", scopes="host")
    _, reader = token_create(
        tenant=tenant, name="reader", scopes="host,persona.read", principal=ana, on_behalf=True
    )
    _, both = token_create(
        tenant=tenant,
        name="both",
        scopes="host,persona.read,persona.write",
        principal=ana,
        on_behalf=True,
    )
    unbound, unbound_raw = token_create(
        tenant=tenant, name="unbound", scopes="host,persona.read", principal=ana, on_behalf=True
    )
    ApiToken.objects.filter(pk=unbound.pk).update(principal=None)
    _, theirs = token_create(
        tenant=other_tenant,
        name="theirs",
        scopes="host,persona.read",
        principal=their_ana,
        on_behalf=True,
    )
    reinforce_ana = ("persona_entry_reinforce", {"key": anas["Ana's line."]})

    (no_scope,) = call_all(http, [("persona_entries_list", {})], token=host_only)
    assert no_scope.is_error and "persona.read" in text_of(no_scope)
    (no_person,) = call_all(http, [("persona_entries_list", {})], token=unbound_raw)
    assert no_person.is_error and "not bound to a person" in text_of(no_person)

    read, write_refused = call_all(
        http, [("persona_entries_list", {}), reinforce_ana], token=reader
    )
    assert [e["text"] for e in read.structured_content["entries"]] == ["Ana's line."]
    assert write_refused.is_error and "persona.write" in text_of(write_refused)

    done, named_self, named_other, foreign = call_all(
        http,
        [
            reinforce_ana,
            ("persona_entries_list", {"principal": "ana"}),
            ("persona_entries_list", {"principal": "bo"}),
            ("persona_entry_reinforce", {"key": bos["Bo's line."]}),
        ],
        token=both,
    )
    assert not done.is_error and done.structured_content["reinforcement_count"] == 1
    assert named_self.structured_content["entries"][0]["reinforcement_count"] == 1
    assert named_other.is_error and "No person with that id here." in text_of(named_other)
    assert foreign.is_error and "not in the document" in text_of(foreign)
    assert OwnerEntry.objects.get(key=bos["Bo's line."]).reinforcement_count == 0

    # another tenant's "ana" is another person: her own (empty) document
    (elsewhere,) = call_all(http, [("persona_entries_list", {})], token=theirs)
    assert elsewhere.structured_content == {"version": 0, "created_at": None, "entries": []}


def test_a_slow_persona_call_is_stopped_and_the_server_goes_on(agent, ana, monkeypatch, held_call):
    keys = document(ana, [{"text": "Ana's line."}])
    monkeypatch.setattr("api.selectors.owner_doc_dict", held_call)
    # a limit a loaded CI machine keeps for the quick call after the held one (0.3 s did not)
    quick = build_server(agent_slug=agent.slug, principal="ana", timeout=2)
    result, after = call_all(
        quick,
        [
            ("persona_entries_list", {}),
            ("persona_entry_reinforce", {"key": keys["Ana's line."]}),
        ],
    )
    assert result.is_error and "did not finish within 2 seconds" in text_of(result)
    assert not after.is_error, text_of(after)
    assert after.structured_content["reinforcement_count"] == 1


def test_a_crash_inside_a_persona_tool_is_an_error_result_without_details(server, ana, monkeypatch):
    def broken(**kwargs):
        raise RuntimeError("secret internals")

    monkeypatch.setattr("persona.owner.owner_entry_reinforce", broken)
    (result,) = call_all(server, [("persona_entry_reinforce", {"key": "0" * 32})])
    assert result.is_error and "internal error" in text_of(result)
    assert "secret internals" not in text_of(result)
