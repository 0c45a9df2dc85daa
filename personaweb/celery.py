from __future__ import annotations

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "personaweb.settings")

app = Celery("personaweb")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


@app.on_after_finalize.connect
def _beat_schedule(sender: Celery, **_: object) -> None:
    """The beat schedule, declared in one place."""
    from django.conf import settings

    sender.conf.beat_schedule = {
        "learning-sweep": {
            "task": "learning.tasks.sweep_due_agents",
            "schedule": settings.CELERY_BEAT_SWEEP_SECONDS,
        },
        "memory-consolidate": {
            "task": "memory.tasks.consolidate_due",
            "schedule": settings.CELERY_CONSOLIDATE_SECONDS,
        },
        "memory-embed-pending": {
            "task": "memory.tasks.embed_pending_messages",
            "schedule": settings.CELERY_EMBED_SECONDS,
        },
        "persona-dormant-entries": {
            "task": "persona.tasks.mark_dormant_entries",
            "schedule": 3600.0,
        },
        "personaweb-heartbeat": {
            "task": "personaweb.tasks.heartbeat",
            "schedule": settings.CELERY_HEARTBEAT_SECONDS,
        },
    }
