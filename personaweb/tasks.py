from __future__ import annotations

import socket

from celery import shared_task
from django.db.models import F
from django.utils import timezone

from personaweb.models import Heartbeat


@shared_task(name="personaweb.tasks.heartbeat")
def heartbeat(name: str = "beat") -> int:
    """Beat-scheduled: records that the worker ran a scheduled task. Returns the run count."""
    now = timezone.now()
    updated = Heartbeat.objects.filter(name=name).update(
        runs=F("runs") + 1, last_run_at=now, hostname=socket.gethostname()
    )
    if not updated:
        Heartbeat.objects.get_or_create(
            name=name, defaults={"runs": 1, "last_run_at": now, "hostname": socket.gethostname()}
        )
    return Heartbeat.objects.get(name=name).runs
