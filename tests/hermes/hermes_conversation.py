"""Runs INSIDE the Hermes virtual environment (hermes-agent, no Django): one
conversation through personaweb's memory provider, loaded and driven by Hermes's own
code (``plugins.memory.load_memory_provider``, ``agent.memory_manager.MemoryManager``),
as ``agent/agent_init.py`` and the conversation loop do. Prints one JSON line of what it
saw; ``test_provider_live.py`` checks it.

    HERMES_HOME=... python hermes_conversation.py URL HOST_TOKEN_FILE SESSION
    HERMES_HOME=... python hermes_conversation.py down   (personaweb not answering)
"""

from __future__ import annotations

import json
import sys
import time
import urllib.request
from pathlib import Path

from agent.memory_manager import MemoryManager
from hermes_cli.config import cfg_get, load_config
from plugins.memory import discover_memory_providers, load_memory_provider

TURNS = [
    ("Could you plan the rye order for Saturday's market?", "Here is a plan for the rye."),
    ("I prefer green tea in the afternoon, by the way.", "Noted: green tea after lunch."),
    ("What should I bake first on Saturday morning?", "Start with the sourdough loaves."),
]


def patch_persona(url: str, token_file: str) -> None:
    token = Path(token_file).read_text(encoding="utf-8").strip()
    request = urllib.request.Request(
        f"{url}/v1/agents/helper",
        data=json.dumps(
            {"reason": "hermes check", "goals": "Help the owner run the stall."}
        ).encode(),
        headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json"},
        method="PATCH",
    )
    with urllib.request.urlopen(request, timeout=30) as resp:
        assert resp.status == 200, resp.status


def down() -> None:
    """The provider of a HERMES_HOME whose personaweb does not answer: no memory, no error."""
    provider = load_memory_provider("personaweb")
    assert provider is not None and provider.is_available()
    manager = MemoryManager()
    manager.add_provider(provider)
    manager.initialize_all(session_id="down", platform="cli", agent_context="primary")
    started = time.monotonic()
    out = {
        "block": manager.build_system_prompt(),
        "context": manager.prefetch_all(TURNS[0][0], session_id="down"),
        "tool": json.loads(manager.handle_tool_call("personaweb_beliefs_search", {"q": "tea"})),
    }
    manager.sync_all(*TURNS[0], session_id="down")
    out["turn_s"] = round(time.monotonic() - started, 2)
    manager.shutdown_all()
    print("RESULT " + json.dumps(out))


def main() -> None:
    if sys.argv[1] == "down":
        return down()
    url, host_token_file, session = sys.argv[1:4]
    out: dict = {"active": cfg_get(load_config(), "memory", "provider"), "turns": TURNS}
    out["discovered"] = [name for name, _desc, ok in discover_memory_providers() if ok]

    provider = load_memory_provider(out["active"])
    assert provider is not None, "Hermes's loader did not load the provider"
    out["loaded_module"] = type(provider).__module__
    out["available"] = provider.is_available()

    # record what the provider asked of personaweb (method, path, status): the 304s
    client_module = sys.modules[f"{type(provider).__module__}.client"]
    calls: list[tuple[str, str, int]] = []
    original = client_module.Client.call

    def recording(self, method, path, **kw):
        answer = original(self, method, path, **kw)
        calls.append((method, path, answer.status))
        return answer

    client_module.Client.call = recording

    manager = MemoryManager()
    manager.add_provider(provider)
    manager.initialize_all(session_id=session, platform="cli", agent_context="primary")
    out["tools"] = sorted(s["name"] for s in manager.get_all_tool_schemas())

    blocks, contexts = [], []
    for user_text, assistant_text in TURNS:
        blocks.append(manager.build_system_prompt())
        contexts.append(manager.prefetch_all(user_text, session_id=session))
        manager.sync_all(user_text, assistant_text, session_id=session)
    out["blocks_before_change"] = blocks
    out["contexts"] = contexts

    patch_persona(url, host_token_file)
    out["blocks_after_change"] = [manager.build_system_prompt() for _ in range(2)]

    out["tool_write"] = json.loads(
        manager.handle_tool_call(
            "personaweb_memory_write",
            {"category": "likes", "statement": "Likes rye bread with caraway", "confidence": 0.7},
        )
    )
    out["tool_search"] = json.loads(
        manager.handle_tool_call("personaweb_beliefs_search", {"q": "caraway"})
    )
    out["tool_context"] = json.loads(
        manager.handle_tool_call("personaweb_build_context", {"query": "What bread do I like?"})
    )

    manager.flush_pending(timeout=10)
    started = time.monotonic()
    manager.shutdown_all()  # the provider's shutdown waits for its queued turns
    out["shutdown_s"] = round(time.monotonic() - started, 2)
    out["calls"] = calls
    print("RESULT " + json.dumps(out))


if __name__ == "__main__":
    main()
