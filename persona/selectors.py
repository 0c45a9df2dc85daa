from __future__ import annotations

from persona.models import AgentPersonaVersion
from tenancy.models import Agent


def persona_head(*, agent: Agent) -> AgentPersonaVersion | None:
    if not agent.persona_version:
        return None
    return AgentPersonaVersion.objects.filter(agent=agent, version=agent.persona_version).first()


def agent_get_by_slug(slug: str) -> Agent | None:
    return Agent.objects.select_related("tenant").filter(slug=slug).first()


def owner_doc_figures(*, tenant_ids: list[int] | None) -> dict[str, int]:
    """The review log's owner-document figures for people of ``tenant_ids`` (None: all):
    nominations by state (``nominated`` = still open) and ``stale``, the head entries
    flagged stale that wait for their owner. Two queries."""
    from django.db.models import Count, F, Q

    from persona.models import OwnerEntry, OwnerNomination

    nominations = OwnerNomination.objects.all()
    stale = OwnerEntry.objects.filter(stale=True, version__version=F("version__document__version"))
    if tenant_ids is not None:
        nominations = nominations.filter(tenant_id__in=tenant_ids)
        stale = stale.filter(version__document__tenant_id__in=tenant_ids)
    figures = nominations.aggregate(
        **{state: Count("id", filter=Q(state=state)) for state in OwnerNomination.State.values}
    )
    figures["stale"] = stale.count()
    return figures
