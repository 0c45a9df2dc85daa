"""Two real Celery workers on PostgreSQL + Redis; one is killed with SIGKILL while it runs
reviews: every due agent is still reviewed exactly once (late acks put the dead worker's
tasks back after the visibility timeout; the review's lease lets the live worker take
over the reviews the dead one left running). bench/workers.py measures the same with
1,000 agents."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from collections import Counter
from datetime import timedelta
from pathlib import Path
from urllib.parse import quote

import pytest
from django.conf import settings as django_settings
from django.utils import timezone

from learning.models import LearningSettings, Review
from tests.builders import child_env
from tests.factories import make_agent
from tests.learning.helpers import learning_on, seed_work

AGENTS = 30
# each review waits this long for the (fake) model: w2 dies mid-review. The window between
# seeing w2's second review running and killing w2; at 0.5 s a loaded machine (load 15)
# let that review finish first, and nothing was left for w1 to take over
MODEL_SECONDS = 1.5
VISIBILITY, LEASE = 3, 3  # seconds; production: 1800 and 900 (docs/deployment.md)
RESTORE_LOCK = 2  # seconds; production 300: a scan holds the lock for milliseconds
WAIT_SECONDS = 90.0  # a ceiling on a busy 2-core machine, not a timing the test asserts


def database_url(sd: dict) -> str:
    user = quote(sd.get("USER") or "")
    password = sd.get("PASSWORD") or ""
    auth = f"{user}:{quote(password)}@" if password else (f"{user}@" if user else "")
    host, port = sd.get("HOST") or "127.0.0.1", sd.get("PORT") or "5432"
    return f"postgres://{auth}{host}:{port}/{sd['NAME']}"


def start_worker(node: str, env: dict[str, str], log: Path) -> subprocess.Popen[bytes]:
    argv = [
        *(sys.executable, "-m", "celery", "-A", "personaweb", "worker"),
        *("-n", f"{node}@%h", "--pool=threads", "--concurrency=2", "-Q", "celery"),
        *("--without-gossip", "--without-mingle", "-l", "info"),
    ]
    with log.open("wb") as out:
        return subprocess.Popen(
            argv,
            cwd=django_settings.BASE_DIR,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )


def stop(proc: subprocess.Popen[bytes]) -> None:
    if proc.poll() is None:
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()


def wait_for(check, *, workers: dict, what: str) -> None:
    deadline = time.monotonic() + WAIT_SECONDS
    while time.monotonic() < deadline:
        if check():
            return
        if workers["w1"][0].poll() is not None:
            break
        time.sleep(0.05)
    tails = "\n".join(
        f"--- {node}\n{log.read_text(errors='replace')[-3000:]}"
        for node, (_, log) in workers.items()
    )
    pytest.fail(f"Timed out or w1 died waiting for {what}.\n{tails}")


@pytest.mark.redis
@pytest.mark.slow
@pytest.mark.skipif(
    not os.environ.get("REDIS_URL"), reason="needs REDIS_URL (the PostgreSQL + Redis leg)"
)
def test_a_worker_killed_mid_review_loses_no_review_and_runs_none_twice(
    transactional_db, tenant, tmp_path: Path, settings
):
    from django.db import connection

    from learning.tasks import sweep_due_agents
    from personaweb.celery import app
    from tests.learning.fake_openai import FakeOpenAI

    if connection.vendor != "postgresql":
        pytest.skip("needs DATABASE_URL on PostgreSQL so the workers share the test database")
    fake = FakeOpenAI().start()
    fake.answer(
        {"sleep": MODEL_SECONDS, "content": '{"field": null, "sentence": "", "evidence": []}'}
    )
    settings.LEARNING_MODEL_ALLOWED_URLS = [fake.base_url]
    app.control.purge()  # tasks a previous run left in this Redis database
    env = child_env(
        DATABASE_URL=database_url(connection.settings_dict),
        REDIS_URL=os.environ["REDIS_URL"],
        PERSONAWEB_VAR_DIR=str(tmp_path / "var"),
        PERSONAWEB_BROKER_VISIBILITY_SECONDS=str(VISIBILITY),
        PERSONAWEB_BROKER_RESTORE_SECONDS="1",
        # w2 may die holding the lock of its restore scan (it scans every second)
        PERSONAWEB_BROKER_RESTORE_LOCK_SECONDS=str(RESTORE_LOCK),
        LEARNING_REVIEW_STALE_SECONDS=str(LEASE),
        LEARNING_MODEL_ALLOWED_URLS=fake.base_url,
        PERSONAWEB_WARM_UP="0",
    )
    logs = {node: tmp_path / f"{node}.log" for node in ("w1", "w2")}
    # the workers boot while the agents are made; they run nothing before the sweep
    workers = {node: (start_worker(node, env, log), log) for node, log in logs.items()}
    try:
        # no persona-scan or embedding task for the workers while the agents are made
        # (those hooks enqueue nothing in eager mode; the tasks themselves stay on Redis)
        assert not app.conf.task_always_eager
        settings.CELERY_TASK_ALWAYS_EAGER = True
        agents = []
        for i in range(AGENTS):
            agent = make_agent(tenant=tenant, slug=f"killed-{i}")
            learning_on(
                agent, mode="on", proposer="openai", model_base_url=fake.base_url, model_name="m"
            )
            seed_work(agent, n=4)
            agents.append(agent.pk)
        LearningSettings.objects.filter(agent_id__in=agents).update(
            due_at=timezone.now() - timedelta(minutes=1)
        )
        settings.CELERY_TASK_ALWAYS_EAGER = False
        reviews = Review.objects.filter(agent_id__in=agents)
        wait_for(
            lambda: all(
                re.search(rf"{node}@\S+ ready\.", log.read_text(errors="replace"))
                for node, log in logs.items()
            ),
            workers=workers,
            what="both workers to be ready",
        )
        sweep_due_agents.delay()  # as beat sends it

        def w2_mid_review() -> bool:
            """w2 finished a review and runs another (waiting for the model)."""
            by_w2 = reviews.filter(details__worker__startswith="w2@")
            return (
                by_w2.filter(status=Review.Status.DONE).exists()
                and by_w2.filter(status=Review.Status.RUNNING).exists()
            )

        wait_for(w2_mid_review, workers=workers, what="w2 to be in its second review")
        os.killpg(workers["w2"][0].pid, signal.SIGKILL)
        workers["w2"][0].wait()
        left_running = set(
            reviews.filter(
                status=Review.Status.RUNNING, details__worker__startswith="w2@"
            ).values_list("pk", flat=True)
        )
        wait_for(
            lambda: reviews.filter(status=Review.Status.DONE).count() == AGENTS,
            workers=workers,
            what="every review to be done",
        )
        # a late copy of a task (the restore scan runs every second) gets its chance
        time.sleep(2)
    finally:
        for proc, _ in workers.values():
            stop(proc)
        app.control.purge()
        fake.stop()

    done = list(
        Review.objects.filter(agent_id__in=agents).values_list(
            "agent_id", "status", "outcome", "details"
        )
    )
    per_agent = Counter(agent_id for agent_id, *_ in done)
    assert sorted(per_agent) == sorted(agents)  # none lost
    assert set(per_agent.values()) == {1}  # none twice
    assert {status for _, status, _, _ in done} == {Review.Status.DONE}
    assert Review.Outcome.SKIPPED not in {outcome for _, _, outcome, _ in done}
    assert Review.Outcome.ERROR not in {outcome for _, _, outcome, _ in done}
    assert not LearningSettings.objects.filter(
        agent_id__in=agents, last_review_at__isnull=True
    ).exists()
    # the reviews w2 died in were finished by w1, which took them over after their lease
    assert left_running
    for review in Review.objects.filter(pk__in=left_running):
        assert review.details["worker"].startswith("w1@") and review.details["taken_over"]
    ran_on = Counter(details["worker"].split("@")[0] for *_, details in done)
    assert ran_on["w1"] + ran_on["w2"] == AGENTS and ran_on["w2"] >= 1
