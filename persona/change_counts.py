"""Persona versions counted per tenant, UTC hour, trigger and changed field
(``PersonaChangeCount``), for the weekly chart of the evolution page.

Kept exact by the one writer of versions (``persona.services``) in the same transaction
as the version row, with one ``INSERT ... ON CONFLICT DO UPDATE SET n = n + excluded.n``:
two writers adding to the same row both count (the database serialises the two
updates of that row; rows are written in key order, so two writers never wait on each
other crosswise). A deleted version is taken off: an agent's whole history with one
statement when the agent is deleted, a single version otherwise; a deleted tenant takes
its rows with it. ``rebuild`` counts everything again from the versions (the migration
that made the table, and data written around the service, such as the bench's COPY).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from datetime import UTC, datetime
from typing import Any

from django.db import connection, transaction

from persona.models import AgentPersonaVersion, PersonaChangeCount

#: (tenant id, UTC hour, source type, field) -> how many versions ("" field: all of them)
Key = tuple[int, datetime, str, str]


def hour_of(moment: datetime) -> datetime:
    """The UTC hour ``moment`` falls in."""
    return moment.astimezone(UTC).replace(minute=0, second=0, microsecond=0)


def keys_of(tenant_id: int, created_at: datetime, source_type: str, fields: Any) -> list[Key]:
    """The rows one version counts in: once overall, once per field it changed."""
    hour = hour_of(created_at)
    names = sorted({str(f) for f in fields or [] if f})
    return [(tenant_id, hour, source_type, name) for name in ["", *names]]


def add(counts: Counter[Key]) -> None:
    """Add ``counts`` (negative to take off) to the table, in one statement per 500 rows."""
    items = sorted((k, n) for k, n in counts.items() if n)
    if not items:
        return
    table = connection.ops.quote_name(PersonaChangeCount._meta.db_table)
    adapt = connection.ops.adapt_datetimefield_value
    for start in range(0, len(items), 500):
        part = items[start : start + 500]
        values = ", ".join(["(%s, %s, %s, %s, %s)"] * len(part))
        params: list[Any] = []
        for (tenant_id, hour, source_type, name), n in part:
            params += [tenant_id, adapt(hour), source_type, name, n]
        with connection.cursor() as cursor:
            cursor.execute(
                f"INSERT INTO {table} (tenant_id, hour, source_type, field, n) VALUES {values} "
                f"ON CONFLICT (tenant_id, field, hour, source_type) "
                f"DO UPDATE SET n = {table}.n + excluded.n",
                params,
            )


def count_version(version: AgentPersonaVersion, *, tenant_id: int, delta: int = 1) -> None:
    """Count a version just written (``delta`` 1) or deleted (-1)."""
    counts: Counter[Key] = Counter()
    for key in keys_of(tenant_id, version.created_at, version.source_type, version.fields_changed):
        counts[key] += delta
    add(counts)


def _counted(rows: Iterable[tuple[int, datetime, str, Any]]) -> Counter[Key]:
    counts: Counter[Key] = Counter()
    for tenant_id, created_at, source_type, fields in rows:
        for key in keys_of(tenant_id, created_at, source_type, fields):
            counts[key] += 1
    return counts


def forget_agent(agent_id: int) -> None:
    """Take every version of an agent off the counts (before the agent is deleted)."""
    rows = AgentPersonaVersion.objects.filter(agent_id=agent_id).values_list(
        "agent__tenant_id", "created_at", "source_type", "fields_changed"
    )
    counts = _counted(rows)
    add(Counter({k: -n for k, n in counts.items()}))


def forget_version(version: AgentPersonaVersion) -> None:
    """Take one deleted version off the counts (its agent still exists)."""
    from tenancy.models import Agent

    tenant_id = (
        Agent.objects.filter(pk=version.agent_id).values_list("tenant_id", flat=True).first()
    )
    if tenant_id is not None:
        count_version(version, tenant_id=tenant_id, delta=-1)


def counted_from_versions() -> Counter[Key]:
    """What the table should hold, counted from the versions themselves."""
    rows = (
        AgentPersonaVersion.objects.order_by()
        .values_list("agent__tenant_id", "created_at", "source_type", "fields_changed")
        .iterator(chunk_size=5_000)
    )
    return _counted(rows)


def stored() -> Counter[Key]:
    """What the table holds (rows at zero left out)."""
    return Counter(
        {
            (t, hour_of(h), s, f): n
            for t, h, s, f, n in PersonaChangeCount.objects.values_list(
                "tenant_id", "hour", "source_type", "field", "n"
            )
            if n
        }
    )


def rebuild() -> int:
    """Count every version again (the table emptied first); returns the rows written."""
    counts = counted_from_versions()
    with transaction.atomic():
        PersonaChangeCount.objects.all().delete()
        PersonaChangeCount.objects.bulk_create(
            [
                PersonaChangeCount(tenant_id=t, hour=h, source_type=s, field=f, n=n)
                for (t, h, s, f), n in sorted(counts.items())
            ],
            batch_size=2_000,
        )
    return len(counts)
