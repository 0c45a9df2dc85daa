"""Events tenancy sends to the apps above it (they connect in AppConfig.ready()).

Sent inside the writer's transaction: a receiver's writes commit or roll back with it,
and a receiver's refusal (an exception) undoes the whole creation.
"""

from __future__ import annotations

from django.dispatch import Signal

#: An agent row was created. kwargs: ``agent``, ``persona`` (dict of the first
#: persona's fields: name, role, goals, background, guardrails), ``created_by``,
#: ``source_type``.
agent_created = Signal()
