from __future__ import annotations

import logging

from celery import shared_task
from django.conf import settings

logger = logging.getLogger(__name__)


@shared_task(name="persona.tasks.warm_persona_scan", ignore_result=True)
def warm_persona_scan(version_id: int) -> int:
    """Run the injection scan over a new persona version in the worker, so the
    embeddings its semantic layer needs are stored before a page or a host renders it
    (the web process then never loads the model for known text). Returns texts scanned."""
    from persona.models import AgentPersonaVersion
    from persona.render import render_report

    version = AgentPersonaVersion.objects.filter(pk=version_id).first()
    if version is None:
        return 0
    return len(render_report(version).sections)


def schedule_scan_warmup(version_id: int) -> None:
    """``transaction.on_commit`` hook of persona writes; a broker that is down is logged,
    the render computes what it needs itself."""
    if settings.CELERY_TASK_ALWAYS_EAGER:
        return
    try:
        warm_persona_scan.apply_async((version_id,), retry=False)
    except Exception:
        logger.warning("could not enqueue the persona scan warm-up", exc_info=True)


@shared_task(name="persona.tasks.mark_dormant_entries", ignore_result=True)
def mark_dormant_entries() -> int:
    """Beat: flag ``working`` owner-document entries not reinforced for a while."""
    from persona.owner import mark_dormant

    flagged = mark_dormant()
    if flagged:
        logger.info("flagged %d owner-document entries dormant", flagged)
    return flagged
