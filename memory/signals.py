"""Events memory sends to the apps above it (they connect in AppConfig.ready()).

Sent inside the writer's transaction: a receiver's writes commit or roll back with it.
"""

from __future__ import annotations

from django.dispatch import Signal

#: Turns were stored for an agent. kwargs: ``agent_id``, ``turns`` (user turns added).
turns_recorded = Signal()

#: A conversation was sealed. kwargs: ``conversation``. Receivers drop what quotes it.
conversation_sealed = Signal()
