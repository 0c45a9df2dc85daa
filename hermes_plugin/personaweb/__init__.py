"""personaweb as a Hermes memory provider (a MemoryProvider plugin).

Installed into ``$HERMES_HOME/plugins/personaweb/`` by ``manage.py hermes
install-provider`` and chosen with ``memory.provider: personaweb`` in config.yaml.
Hermes loads it with ``plugins.memory.load_memory_provider``; the work is in
``client.py`` (standard library only, no Django): the pinned prefix as the system prompt
block, ``build_context`` as the recall of each turn, each turn recorded in the
background, and the memory operations of /v1 as tools. When personaweb is down the
conversation goes on with no memory (logged at warning).
"""

from __future__ import annotations

import json
from typing import Any

from agent.memory_provider import MemoryProvider

from .client import CONFIG_FILE, Memory, Settings, load_settings, save_settings, tool_schemas

#: Hermes's agent contexts that may record turns (cron, subagents and flushes may not)
_WRITING_CONTEXTS = ("", "primary")


class PersonawebMemoryProvider(MemoryProvider):
    def __init__(self) -> None:
        self._settings: Settings | None = None
        self._memory: Memory | None = None

    @property
    def name(self) -> str:
        return "personaweb"

    def is_available(self) -> bool:
        from hermes_constants import get_hermes_home

        self._settings = load_settings(get_hermes_home())
        return self._settings is not None

    def initialize(self, session_id: str, **kwargs: Any) -> None:
        settings = load_settings(kwargs.get("hermes_home") or _home()) or self._settings
        self._settings = settings
        if settings is None:
            return
        writes = str(kwargs.get("agent_context") or "") in _WRITING_CONTEXTS
        self._memory = Memory(settings, session=session_id or "", writes=writes)

    def system_prompt_block(self) -> str:
        return self._memory.prefix() if self._memory else ""

    def prefetch(self, query: str, *, session_id: str = "") -> str:
        return self._memory.context(query) if self._memory else ""

    def sync_turn(
        self,
        user_content: str,
        assistant_content: str,
        *,
        session_id: str = "",
        messages: list[dict[str, Any]] | None = None,
    ) -> None:
        if self._memory:
            self._memory.record_turn(user_content, assistant_content, session=session_id)

    def on_session_switch(self, new_session_id: str, **kwargs: Any) -> None:
        if self._memory and new_session_id:
            self._memory.session = new_session_id

    def get_tool_schemas(self) -> list[dict[str, Any]]:
        return tool_schemas()

    def handle_tool_call(self, tool_name: str, args: dict[str, Any], **kwargs: Any) -> str:
        if self._memory is None:
            return json.dumps({"error": "personaweb is not configured; memory is unavailable."})
        return self._memory.tool(tool_name, args)

    def shutdown(self) -> None:
        if self._memory:
            self._memory.close()

    def get_config_schema(self) -> list[dict[str, Any]]:
        return [
            {"key": "url", "description": "personaweb's address", "required": True},
            {
                "key": "token_file",
                "description": "a file holding the API token (scopes host, memory.read, "
                "memory.write); keep it readable by you only",
                "required": True,
            },
            {"key": "agent", "description": "the agent's slug in personaweb", "required": True},
            {"key": "principal", "description": "your id as a person there", "required": True},
        ]

    def save_config(self, values: dict[str, Any], hermes_home: str) -> None:
        save_settings(hermes_home, values)


def _home() -> str:
    from hermes_constants import get_hermes_home

    return str(get_hermes_home())


def register(ctx: Any) -> None:
    ctx.register_memory_provider(PersonawebMemoryProvider())


__all__ = ["CONFIG_FILE", "PersonawebMemoryProvider", "register"]
