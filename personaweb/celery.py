from __future__ import annotations

import os
from typing import Any

from celery import Celery
from celery.signals import worker_process_init, worker_ready

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
        "memory-health-audit": {
            "task": "memory.tasks.audit_memory",
            "schedule": settings.CELERY_AUDIT_SECONDS,
        },
        "memory-prune-context-packs": {
            "task": "memory.tasks.prune_context_packs",
            "schedule": settings.CELERY_PACK_PRUNE_SECONDS,
        },
        "memory-prune-scan-verdicts": {
            "task": "memory.tasks.prune_scan_verdicts",
            "schedule": settings.CELERY_PACK_PRUNE_SECONDS,
        },
        "persona-dormant-entries": {
            "task": "persona.tasks.mark_dormant_entries",
            "schedule": 3600.0,
        },
        "learning-review-digests": {
            "task": "learning.tasks.send_review_digests",
            "schedule": settings.CELERY_DIGEST_SECONDS,
        },
        "personaweb-heartbeat": {
            "task": "personaweb.tasks.heartbeat",
            "schedule": settings.CELERY_HEARTBEAT_SECONDS,
        },
    }


@worker_process_init.connect
def _warm_up_in_child(**_: object) -> None:
    """A prefork child loads the embedding model in the background as it starts (loading
    it in the parent before the fork would put a thread's half-held locks in every child)."""
    from safety.injection import warm_up_at_start

    warm_up_at_start()


@worker_ready.connect
def _warm_up_in_worker(sender: Any = None, **_: object) -> None:
    """A worker whose tasks run in its own process (``--pool=solo`` or ``threads``) loads
    it there."""
    from safety.injection import warm_up_at_start

    pool = type(getattr(sender, "pool", None)).__module__
    if not pool.startswith("celery.concurrency.prefork"):
        warm_up_at_start()
