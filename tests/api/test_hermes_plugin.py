"""The Hermes provider's work (``hermes_plugin/personaweb/client.py``, standard library
only) against this project's /v1: its tools are host operations, the prefix is re-used
on 304 and kept when personaweb goes away, and a personaweb that is down or too slow
gives "no memory" quickly, logged without the conversation's words.

Hermes itself loading the provider is ``tests/hermes/test_provider_live.py``."""

from __future__ import annotations

import dataclasses
import importlib.util
import logging
import socket
import sys

import pytest

from api.hermes_provider import plugin_source
from api.operations import BY_NAME
from memory.models import Conversation, Message
from memory.models_beliefs import SENSITIVITY_BY_NAME, BeliefCategory

WORDS = "I am allergic to sesame, please remember"


def _load_client():
    spec = importlib.util.spec_from_file_location(
        "personaweb_hermes_client", plugin_source() / "client.py"
    )
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


client = _load_client()


def closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def memory_for(url, token_file, **settings):
    values = {"url": url, "token_file": str(token_file), "agent": "helper", "principal": "ana"}
    return client.Memory(client.Settings.from_dict({**values, **settings}), session="s-1")


@pytest.fixture
def token_file(tmp_path):
    def write(raw):
        path = tmp_path / "token"
        path.write_text(raw + "\n")
        return path

    return write


def test_every_tool_is_a_host_operation_of_the_v1_api():
    for tool in client.TOOLS:
        op = BY_NAME[tool.operation]
        assert op.http == f"{tool.method} {tool.path}", tool.name
        assert tool.name.startswith("personaweb_")
    assert {t.operation for t in client.TOOLS} >= {
        "beliefs_search",
        "memory_write",
        "build_context",
    }


def test_the_tools_offer_the_categories_and_sensitivities_personaweb_takes():
    assert list(BeliefCategory.values) == client.CATEGORIES
    assert list(SENSITIVITY_BY_NAME) == client.SENSITIVITIES


def test_settings_without_a_person_or_token_file_are_not_settings():
    full = {"url": "http://x", "token_file": "/t", "agent": "helper", "principal": "ana"}
    assert client.Settings.from_dict(full) is not None
    for key in full:
        assert client.Settings.from_dict({**full, key: " "}) is None


@pytest.mark.django_db(transaction=True)
def test_the_prefix_is_read_once_then_reused_on_304_and_kept_when_personaweb_goes_away(
    live_server, host, make_token, token_file
):
    _, raw = make_token(name="hermes", scopes="host,memory.read,memory.write")
    memory = memory_for(live_server.url, token_file(raw))
    statuses = []
    call = memory.client.call

    def recording(method, path, **kw):
        answer = call(method, path, **kw)
        statuses.append(answer.status)
        return answer

    memory.client.call = recording
    first = memory.prefix()
    assert first.strip()  # the agent's pinned prefix
    assert memory.prefix() == first
    assert statuses == [200, 304]
    refused = memory.tool("personaweb_beliefs_search", {"category": "gossip"})
    assert "gossip" in refused and "categor" in refused  # personaweb's own sentence
    memory.client.settings = dataclasses.replace(
        memory.client.settings, url=f"http://127.0.0.1:{closed_port()}"
    )
    assert memory.prefix() == first  # the prompt keeps its bytes while personaweb is away


@pytest.mark.django_db(transaction=True)
def test_turns_are_recorded_in_order_from_the_background(
    live_server, host, make_token, token_file, agent
):
    _, raw = make_token(name="hermes", scopes="host,memory.read,memory.write")
    memory = memory_for(live_server.url, token_file(raw))
    assert memory.record_turn("First question", "First answer")
    assert memory.record_turn("Second question", "")
    assert memory.flush(timeout=20)
    conversation = Conversation.objects.get(agent=agent, external_id="s-1")
    texts = list(
        Message.objects.filter(conversation=conversation)
        .order_by("seq")
        .values_list("role", "text")
    )
    assert texts == [
        ("user", "First question"),
        ("assistant", "First answer"),
        ("user", "Second question"),
    ]


def test_a_personaweb_that_refuses_connections_gives_no_memory_and_logs_no_words(
    token_file, caplog
):
    memory = memory_for(f"http://127.0.0.1:{closed_port()}", token_file("pw_secret_token"))
    caplog.set_level(logging.DEBUG, logger="personaweb.hermes")
    assert memory.prefix() == ""
    assert memory.context(WORDS) == ""
    assert memory.record_turn(WORDS, "Noted.")
    assert memory.flush(timeout=5)
    assert "not answering" in memory.tool("personaweb_beliefs_search", {"q": "sesame"})
    logged = "\n".join(r.getMessage() for r in caplog.records)
    assert "personaweb prompt_prefix failed: no connection" in logged
    assert "personaweb record_turn failed" in logged
    assert all(r.levelno == logging.WARNING for r in caplog.records)
    assert "sesame" not in logged and "pw_secret_token" not in logged


def test_a_personaweb_that_never_answers_costs_one_timeout_and_never_holds_a_turn(token_file):
    with socket.socket() as listener:  # accepts connections (the backlog), answers nothing
        listener.bind(("127.0.0.1", 0))
        listener.listen(16)
        url = f"http://127.0.0.1:{listener.getsockname()[1]}"
        memory = memory_for(url, token_file("pw_x"), timeout=0.3, context_timeout=0.3)
        assert memory.record_turn(WORDS, "Noted.")  # queued: the caller goes on at once
        assert not memory.flush(timeout=0)  # still waiting on the silent server, not on us
        assert memory.context(WORDS) == ""  # one timeout, then no memory


def test_a_missing_token_file_gives_no_memory(tmp_path, caplog):
    memory = memory_for(f"http://127.0.0.1:{closed_port()}", tmp_path / "absent")
    assert memory.context("anything") == ""
    assert "token file cannot be read" in caplog.text


def test_a_tool_with_a_bad_id_or_an_unknown_name_answers_with_a_sentence(token_file):
    memory = memory_for(f"http://127.0.0.1:{closed_port()}", token_file("pw_x"))
    answer = memory.tool("personaweb_belief_retire", {"memory_id": "seven"})
    assert "memory_id" in answer and "whole number" in answer
    assert "no tool" in memory.tool("memory", {})


@pytest.mark.django_db(transaction=True)
def test_the_reply_to_a_recalled_question_names_its_context_pack(
    live_server, host, make_token, token_file, agent, settings
):
    from memory.models import ContextPackRecord, Principal

    settings.MEMORY_BELIEF_EMBEDDINGS = False
    Principal.objects.create(tenant=agent.tenant, external_id="ana")
    _, raw = make_token(name="hermes", scopes="host,memory.read,memory.write")
    memory = memory_for(live_server.url, token_file(raw))
    memory.context("What should I cook?")
    assert memory.record_turn("What should I cook?", "Lentil soup.")
    # a question that was not recalled sends no pack
    assert memory.record_turn("Thanks!", "You are welcome.")
    # the turns go out on the client's own thread: let them land before the next request (the
    # test server shares one SQLite connection among its threads, and two requests at once on
    # it fail with "SQL statements in progress", which no deployed server does) and before the
    # packs no turn named yet are removed, or the first one's pack goes with them
    assert memory.flush(timeout=20)
    # a pack personaweb no longer keeps never costs the turn
    memory.context("And tomorrow?")
    ContextPackRecord.objects.filter(message__isnull=True).delete()
    assert memory.record_turn("And tomorrow?", "Bean stew.")
    assert memory.flush(timeout=20)
    replies = Message.objects.filter(role="assistant").order_by("seq")
    assert [m.text for m in replies] == ["Lentil soup.", "You are welcome.", "Bean stew."]
    linked = ContextPackRecord.objects.filter(message__isnull=False)
    assert [p.message.text for p in linked] == ["Lentil soup."]
