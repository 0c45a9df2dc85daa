from __future__ import annotations

from persona.models import AgentPersonaVersion
from tenancy.models import Agent


def persona_head(*, agent: Agent) -> AgentPersonaVersion | None:
    if not agent.persona_version:
        return None
    return AgentPersonaVersion.objects.filter(agent=agent, version=agent.persona_version).first()


def agent_get_by_slug(slug: str) -> Agent | None:
    return Agent.objects.select_related("tenant").filter(slug=slug).first()
