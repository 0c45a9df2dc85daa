"""Events persona sends to the apps above it (they connect in AppConfig.ready()).

Sent inside the writer's transaction: a receiver's writes commit or roll back with it.
"""

from __future__ import annotations

from django.dispatch import Signal

#: A new persona version was written. kwargs: ``agent`` (locked row), ``version``
#: (the new number), ``trigger`` (persona.services.ChangeTrigger).
persona_changed = Signal()
