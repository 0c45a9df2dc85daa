from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from datetime import timedelta
from pathlib import Path
from urllib.parse import quote

import pytest
from django.conf import settings as django_settings
from django.utils import timezone

from learning import tasks
from learning.models import LearningSettings, Review
from learning.services import due_agents_claim, review_enqueue, sweep_due_agents_run
from learning.services.schedule import CLAIM_RETRY
from tests.factories import make_agent
from tests.learning.helpers import learning_on, seed_work
from tests.learning.scripted import GOOD_SENTENCE


@pytest.fixture
def sent(monkeypatch):
    """Capture review tasks instead of sending them to a broker."""
    calls: list[tuple] = []
    monkeypatch.setattr(tasks.review_agent, "delay", lambda *args: calls.append(args))
    monkeypatch.setattr(
        tasks.review_agent, "apply_async", lambda args, **kw: calls.append(tuple(args))
    )
    return calls


def make_agents(tenant, n: int, *, due: int, mode: str = "on") -> list[int]:
    from tenancy.models import Agent

    now = timezone.now()
    agents = Agent.objects.bulk_create(
        [Agent(tenant=tenant, name=f"A{i}", slug=f"a-{i}") for i in range(n)]
    )
    LearningSettings.objects.bulk_create(
        [
            LearningSettings(
                agent=a,
                mode=mode,
                due_at=now - timedelta(minutes=1) if i < due else now + timedelta(hours=5),
            )
            for i, a in enumerate(agents)
        ]
    )
    return [a.id for a in agents[:due]]


@pytest.mark.django_db
def test_sweep_claims_due_agents_once_and_enqueues_after_commit(
    tenant, sent, django_capture_on_commit_callbacks
):
    due = make_agents(tenant, 12, due=4)
    off = make_agent(tenant=tenant, slug="off")
    LearningSettings.objects.filter(agent=off).update(
        mode="off", due_at=timezone.now() - timedelta(hours=1)
    )
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        assert sweep_due_agents_run() == 4
        assert sent == []  # nothing is sent before the commit
    for callback in callbacks:
        callback()
    assert sorted(args[0] for args in sent) == sorted(due)
    assert all(args[2] == Review.Trigger.SCHEDULE for args in sent)
    # claimed agents are pushed forward: the next sweep does not enqueue them again
    claimed = LearningSettings.objects.filter(agent_id__in=due)
    assert all(s.due_at > timezone.now() + CLAIM_RETRY - timedelta(minutes=1) for s in claimed)
    assert due_agents_claim() == []


@pytest.mark.django_db
@pytest.mark.parametrize("count", [10, 200])
def test_sweep_query_count_does_not_depend_on_the_number_of_agents(
    tenant, sent, count, django_assert_num_queries
):
    make_agents(tenant, count, due=count // 10)
    with django_assert_num_queries(1):
        assert len(due_agents_claim()) == count // 10


@pytest.mark.django_db
def test_sweep_uses_the_partial_index(tenant):
    from django.db import connection

    make_agents(tenant, 50, due=5)
    qs = LearningSettings.objects.exclude(mode="off").filter(due_at__lte=timezone.now())
    plan = qs.explain()
    if connection.vendor == "sqlite":
        assert "learning_due" in plan
    else:  # PostgreSQL may prefer a sequential scan on a tiny table; forbid it to see the index
        with connection.cursor() as cursor:
            cursor.execute("SET LOCAL enable_seqscan = off")
        assert "learning_due" in qs.explain()


@pytest.mark.django_db
def test_review_now_queues_one_review_and_the_task_runs_it(
    agent, sent, monkeypatch, django_capture_on_commit_callbacks
):
    from tests.learning.scripted import ScriptedProposer

    learning_on(agent)
    seed_work(agent, n=4)
    with django_capture_on_commit_callbacks(execute=True):
        review = review_enqueue(agent=agent, by="rita")
    assert review.status == Review.Status.QUEUED and review.requested_by == "rita"
    assert sent == [(agent.id, review.pk, Review.Trigger.MANUAL)]
    assert review_enqueue(agent=agent, by="rita").pk == review.pk  # a double click
    proposer = ScriptedProposer(GOOD_SENTENCE)
    monkeypatch.setattr("learning.services.review.get_proposer", lambda settings: proposer)
    assert tasks.review_agent(*sent[0]) == Review.Outcome.PROPOSED
    review.refresh_from_db()
    assert review.status == Review.Status.DONE and review.proposal is not None
    assert tasks.review_agent(agent.id + 999) == "gone"


@pytest.mark.django_db
def test_review_now_with_no_broker_says_so(agent, monkeypatch, django_capture_on_commit_callbacks):
    def broken(*args):
        raise ConnectionError("refused")

    monkeypatch.setattr(tasks.review_agent, "delay", broken)
    with django_capture_on_commit_callbacks(execute=True):
        review = review_enqueue(agent=agent, by="rita")
    review.refresh_from_db()
    assert (
        review.outcome == Review.Outcome.ERROR
        and "task queue could not be reached" in review.reason
    )


# --- Redis leg: a real worker ------------------------------------------------------------------


def _database_url(sd: dict) -> str:
    user = quote(sd.get("USER") or "")
    password = sd.get("PASSWORD") or ""
    auth = f"{user}:{quote(password)}@" if password else (f"{user}@" if user else "")
    return (
        f"postgres://{auth}{sd.get('HOST') or '127.0.0.1'}:{sd.get('PORT') or '5432'}/{sd['NAME']}"
    )


@pytest.mark.redis
@pytest.mark.slow
@pytest.mark.skipif(
    not os.environ.get("REDIS_URL"), reason="needs REDIS_URL (the PostgreSQL + Redis leg)"
)
def test_twenty_review_tasks_at_once_run_the_model_once(
    transactional_db, tenant, tmp_path: Path, settings
):
    from django.db import connection

    from personaweb.celery import app
    from tests.learning.fake_openai import FakeOpenAI

    if connection.vendor != "postgresql":
        pytest.skip("needs DATABASE_URL on PostgreSQL so the worker shares the test database")
    fake = FakeOpenAI().start()
    try:
        # the model takes a while, so the other tasks arrive while the review runs
        fake.answer({"sleep": 1.5, "content": '{"field": null, "sentence": "", "evidence": []}'})
        settings.LEARNING_MODEL_ALLOWED_URLS = [fake.base_url]
        agent = make_agent(tenant=tenant, slug="busy")
        learning_on(
            agent, mode="on", proposer="openai", model_base_url=fake.base_url, model_name="m"
        )
        seed_work(agent, n=4)
        queue = f"learning-test-{os.getpid()}"
        env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "SQLITE_PATH")}
        env.update(
            DATABASE_URL=_database_url(connection.settings_dict),
            PYTHONUNBUFFERED="1",
            PERSONAWEB_VAR_DIR=str(tmp_path / "var"),
            LEARNING_MODEL_TIMEOUT="30",
            LEARNING_MODEL_ALLOWED_URLS=fake.base_url,
        )
        log = tmp_path / "worker.log"
        argv = [
            sys.executable,
            "-m",
            "celery",
            "-A",
            "personaweb",
            "worker",
            "--pool=threads",
            "--concurrency=4",
            "-Q",
            queue,
            "-l",
            "info",
        ]
        with log.open("wb") as out:
            worker = subprocess.Popen(
                argv,
                cwd=django_settings.BASE_DIR,
                env=env,
                stdout=out,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        try:
            for _ in range(20):
                tasks.review_agent.apply_async(
                    (agent.id, None, Review.Trigger.SCHEDULE), queue=queue
                )
            deadline = time.monotonic() + 120
            while time.monotonic() < deadline and worker.poll() is None:
                if Review.objects.filter(agent=agent, status=Review.Status.DONE).count() == 20:
                    break
                time.sleep(0.5)
            done = list(Review.objects.filter(agent=agent).values_list("outcome", "model_calls"))
            assert len(done) == 20, log.read_text(errors="replace")[-3000:]
        finally:
            os.killpg(worker.pid, signal.SIGTERM)
            try:
                worker.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(worker.pid, signal.SIGKILL)
        assert fake.calls == 1
        assert sum(calls for _, calls in done) == 1
        outcomes = sorted(outcome for outcome, _ in done)
        assert outcomes.count(Review.Outcome.NOTHING) >= 1
        assert Review.Outcome.SKIPPED in outcomes  # some arrived while the first one ran
        assert not Review.objects.filter(agent=agent, status=Review.Status.RUNNING).exists()
        app.control.purge()
    finally:
        fake.stop()
