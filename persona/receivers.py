"""Persona's answers to events of the apps below it (connected in PersonaConfig.ready)."""

from __future__ import annotations

from typing import Any

from tenancy.signals import agent_created


def _first_version(
    sender: Any, *, agent: Any, persona: dict, created_by: str, source_type: str, **_: Any
) -> None:
    from persona.services import persona_first_version

    persona_first_version(
        agent=agent, persona=persona, created_by=created_by, source_type=source_type
    )


def connect() -> None:
    agent_created.connect(_first_version, dispatch_uid="persona.first_version")
