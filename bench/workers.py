"""Several worker machines: two real Celery workers, one PostgreSQL, one Redis, one
worker killed with SIGKILL in the middle; every due review runs exactly once.

    .venv/bin/python bench/workers.py            # 1,000 agents
    .venv/bin/python bench/workers.py --smoke    # 20 agents (CI)

What it does (docs/deployment.md describes the set-up it stands for):
1. PostgreSQL at ``--database-url`` (default ``postgres://postgres@127.0.0.1:5432/
   bench_workers``; created when missing, migrated, emptied) and Redis at ``--redis-url``
   (default database 11, emptied);
2. ``--agents`` agents with learning on (the "openai" proposer, pointed at a fake
   OpenAI-compatible endpoint on 127.0.0.1 that answers "no change" after
   ``--model-seconds``: the one part a worker here cannot reach), each with a few
   conversations to review, all due for a review;
3. two workers, ``w1@%h`` and ``w2@%h`` (``--pool=threads --concurrency=2``, queue
   ``celery``), as two machines would run them, with a short broker visibility timeout,
   restore scan and review lease so a dead worker's reviews come back in seconds, not
   the production half hour;
4. the beat's sweep task, sent through Redis as beat sends it: a worker claims every due
   agent, queues one review each and sends one task each;
5. when ``--kill-at`` (default 40 %) of the reviews are done and ``w2`` is in the middle
   of a review, ``w2`` is killed with SIGKILL (no warm shutdown: its reserved and running tasks stay unacknowledged in Redis)
   and ``w1`` drains the rest, including what ``w2`` held once the visibility timeout
   puts it back.

Prints the agents due, reviews run, duplicates (an agent reviewed more than once, or a
second review that met the first running), lost (an agent with no finished review), the
time to drain, how many reviews each worker ran, the reviews ``w2`` left running when it
died and who finished them, and whether a redelivery happened. Exits non-zero when a
review was lost or ran twice.
"""

from __future__ import annotations

import argparse
import os
import re
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

DEFAULT_DATABASE_URL = "postgres://postgres@127.0.0.1:5432/bench_workers"
DEFAULT_REDIS_URL = "redis://127.0.0.1:6379/11"
#: seconds: how soon a dead worker's reviews come back here (production: docs/deployment.md)
VISIBILITY, RESTORE_EVERY, LEASE = 3, 1, 3
READY_SECONDS, DRAIN_SECONDS = 120.0, 600.0


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--smoke", action="store_true", help="20 agents (CI)")
    parser.add_argument("--agents", type=int, default=None, help="agents due (default 1000)")
    parser.add_argument("--kill-at", type=float, default=0.4, help="share done when w2 dies")
    parser.add_argument(
        "--model-seconds",
        type=float,
        default=0.2,
        help="how long the fake model takes to answer (a review waits that long: w2 dies mid-review)",
    )
    parser.add_argument(
        "--database-url",
        default=os.environ.get("BENCH_WORKERS_DATABASE_URL", DEFAULT_DATABASE_URL),
    )
    parser.add_argument(
        "--redis-url", default=os.environ.get("BENCH_WORKERS_REDIS_URL", DEFAULT_REDIS_URL)
    )
    parser.add_argument("--fresh", action="store_true", help="drop and re-create the database")
    args = parser.parse_args()
    if args.agents is None:
        args.agents = 20 if args.smoke else 1000
    return args


def prepare_database(url: str, *, fresh: bool) -> None:
    """Create the bench's own database when it is missing (or ``--fresh``)."""
    import psycopg
    from psycopg import sql

    parts = urlsplit(url)
    name = parts.path.lstrip("/")
    admin = urlunsplit(parts._replace(path="/postgres"))
    with psycopg.connect(admin, autocommit=True, connect_timeout=10) as conn:
        exists = conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name]).fetchone()
        if exists and fresh:
            conn.execute(sql.SQL("DROP DATABASE {} WITH (FORCE)").format(sql.Identifier(name)))
            exists = None
        if not exists:
            conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))


def set_environment(args: argparse.Namespace, var_dir: Path) -> dict[str, str]:
    """The environment of this process and of both workers (the same file on every
    machine in production)."""
    values = {
        "DJANGO_SETTINGS_MODULE": "personaweb.settings",
        "SECRET_KEY": os.environ.get(
            "SECRET_KEY", "bench-only-key-for-a-throwaway-database-never-for-a-server-7c2d"
        ),
        "DATABASE_URL": args.database_url,
        "REDIS_URL": args.redis_url,
        "PERSONAWEB_VAR_DIR": str(var_dir),
        "PERSONAWEB_BROKER_VISIBILITY_SECONDS": str(VISIBILITY),
        "PERSONAWEB_BROKER_RESTORE_SECONDS": str(RESTORE_EVERY),
        # a killed worker may die holding the scan's lock (kombu keeps it 300 s)
        "PERSONAWEB_BROKER_RESTORE_LOCK_SECONDS": "2",
        "LEARNING_REVIEW_STALE_SECONDS": str(LEASE),
        "LEARNING_MODEL_ALLOWED_URLS": args.model_url,
        # the reviews ask the (fake) model; no process needs the embedding model
        "PERSONAWEB_WARM_UP": "0",
        "MEMORY_BELIEF_EMBEDDINGS": "0",
        "HF_HUB_OFFLINE": "1",
        "PYTHONUNBUFFERED": "1",
        "LOG_LEVEL": "INFO",
    }
    os.environ.update(values)
    for name in ("DEBUG", "SQLITE_PATH", "CELERY_TASK_ALWAYS_EAGER"):
        os.environ.pop(name, None)
    return dict(os.environ)


def make_due_agents(n: int, model_url: str) -> list[int]:
    from datetime import timedelta

    from django.utils import timezone

    from learning.models import LearningSettings, Mode
    from learning.services import learning_settings_update
    from tenancy.models import Tenant
    from tenancy.services import agent_create
    from tests.learning.helpers import seed_work

    tenant = Tenant.objects.create(name="Workers bench", slug="workers-bench")
    ids = []
    for i in range(n):
        agent = agent_create(tenant=tenant, name=f"Agent {i}", slug=f"bench-{i}", role="Assistant")
        learning_settings_update(
            agent=agent,
            values={"proposer": "openai", "model_base_url": model_url, "model_name": "bench"},
            by="bench",
        )
        seed_work(agent, n=2)
        ids.append(agent.pk)
    LearningSettings.objects.filter(agent_id__in=ids).update(
        mode=Mode.ON, due_at=timezone.now() - timedelta(minutes=1)
    )
    return ids


def start_worker(node: str, env: dict[str, str], log: Path) -> subprocess.Popen[bytes]:
    argv = [
        *(sys.executable, "-m", "celery", "-A", "personaweb", "worker"),
        *("-n", f"{node}@%h", "--pool=threads", "--concurrency=2", "-Q", "celery"),
        *("--without-gossip", "--without-mingle", "-l", "info"),
    ]
    with log.open("wb") as out:
        return subprocess.Popen(
            argv,
            cwd=ROOT,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,  # its own process group: killpg reaches all of it
        )


def stop(proc: subprocess.Popen[bytes]) -> None:
    if proc.poll() is None:
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()


def wait_ready(workers: dict[str, tuple[subprocess.Popen[bytes], Path]]) -> None:
    deadline = time.monotonic() + READY_SECONDS
    waiting = set(workers)
    while waiting and time.monotonic() < deadline:
        for node in list(waiting):
            proc, log = workers[node]
            if proc.poll() is not None:
                raise SystemExit(
                    f"worker {node} exited:\n{log.read_text(errors='replace')[-3000:]}"
                )
            if re.search(rf"{node}@\S+ ready\.", log.read_text(errors="replace")):
                waiting.discard(node)
        time.sleep(0.2)
    if waiting:
        raise SystemExit(f"workers not ready after {READY_SECONDS:.0f} s: {sorted(waiting)}")


def main() -> int:
    args = parse_args()
    prepare_database(args.database_url, fresh=args.fresh)
    var_dir = Path(tempfile.mkdtemp(prefix="bench-workers-"))
    from tests.learning.fake_openai import FakeOpenAI

    model = FakeOpenAI().start()
    model.answer(
        {
            "sleep": args.model_seconds,
            "content": '{"field": null, "sentence": "", "evidence": []}',
        }
    )
    args.model_url = model.base_url
    env = set_environment(args, var_dir)

    import django

    django.setup()
    import redis
    from django.core.management import call_command
    from django.db.models import Count, Q

    from learning.models import LearningSettings, Review
    from learning.tasks import sweep_due_agents

    call_command("migrate", "--noinput", verbosity=0)
    call_command("flush", "--noinput", verbosity=0)
    redis.Redis.from_url(args.redis_url).flushdb()  # this bench's own Redis database

    built = time.perf_counter()
    agent_ids = make_due_agents(args.agents, args.model_url)
    print(
        f"agents due            {len(agent_ids):>7,}  (built in {time.perf_counter() - built:.1f} s)"
    )

    # creating the agents queued a persona-scan warm-up each (an optimisation: a render
    # scans what it needs itself); drop them so the workers run only the reviews
    redis.Redis.from_url(args.redis_url).flushdb()

    logs = {node: var_dir / f"{node}.log" for node in ("w1", "w2")}
    workers = {node: (start_worker(node, env, logs[node]), logs[node]) for node in logs}
    try:
        wait_ready(workers)
        started = time.perf_counter()
        sweep_due_agents.delay()  # what beat sends every PERSONAWEB_SWEEP_SECONDS
        schedule = Review.objects.filter(agent_id__in=agent_ids)
        kill_after = max(1, int(args.kill_at * len(agent_ids)))
        killed_at_done = None
        stranded: list[int] = []
        deadline = time.monotonic() + DRAIN_SECONDS
        while time.monotonic() < deadline:
            done = schedule.filter(status=Review.Status.DONE).count()
            w2_mid_review = schedule.filter(
                status=Review.Status.RUNNING, details__worker__startswith="w2@"
            )
            if killed_at_done is None and done >= kill_after and w2_mid_review.exists():
                os.killpg(workers["w2"][0].pid, signal.SIGKILL)
                workers["w2"][0].wait()
                killed_at_done = done
                stranded = list(
                    schedule.filter(
                        status=Review.Status.RUNNING, details__worker__startswith="w2@"
                    ).values_list("pk", flat=True)
                )
            if done >= len(agent_ids):
                break  # (without a kill: reported as a failure below, not waited on)
            if workers["w1"][0].poll() is not None:
                raise SystemExit(f"w1 exited:\n{logs['w1'].read_text(errors='replace')[-3000:]}")
            time.sleep(0.1)
        drained = time.perf_counter() - started
        # any late copy of a task (a redelivery after the drain) gets its chance to run
        time.sleep(VISIBILITY + RESTORE_EVERY + 2)
    finally:
        for proc, _ in workers.values():
            stop(proc)
        model.stop()

    per_agent = dict(
        schedule.values("agent_id")
        .annotate(n=Count("id", filter=Q(status=Review.Status.DONE) & ~Q(outcome="skipped")))
        .values_list("agent_id", "n")
    )
    finished = sum(per_agent.values())
    duplicates = sum(n - 1 for n in per_agent.values() if n > 1)
    duplicates += schedule.filter(outcome=Review.Outcome.SKIPPED).count()
    lost = sum(1 for agent_id in agent_ids if per_agent.get(agent_id, 0) == 0)
    unfinished = schedule.exclude(status=Review.Status.DONE).count()
    errors = schedule.filter(outcome=Review.Outcome.ERROR).count()
    by_worker = Counter(
        str(w).split("@")[0]
        for w in schedule.filter(status=Review.Status.DONE).values_list(
            "details__worker", flat=True
        )
    )
    taken_over = schedule.filter(details__taken_over=True)
    redelivered_runs = schedule.filter(details__redelivered=True).count()
    deliveries_again = sum(
        log.read_text(errors="replace").count("the broker delivered it again")
        for log in logs.values()
    )
    not_reviewed = LearningSettings.objects.filter(
        agent_id__in=agent_ids, last_review_at__isnull=True
    ).count()

    print(f"reviews run           {finished:>7,}")
    print(f"duplicates            {duplicates:>7,}")
    print(
        f"lost                  {lost:>7,}  (reviews not done: {unfinished}, agents with no last review: {not_reviewed})"
    )
    print(f"errors                {errors:>7,}")
    print(
        f"time to drain         {drained:>7.1f} s  ({len(agent_ids) / drained:.0f} reviews/s, 2 then 1 worker x 2 threads)"
    )
    for node in ("w1", "w2"):
        print(f"ran on {node}            {by_worker.get(node, 0):>7,}")
    print(
        f"w2 killed (SIGKILL)   after {killed_at_done} reviews were done; it left {len(stranded)} running"
    )
    finishers = Counter(
        str(w).split("@")[0]
        for w in Review.objects.filter(pk__in=stranded).values_list("details__worker", flat=True)
    )
    print(
        f"taken over            {taken_over.count():>7,}  (the ones w2 left running, finished by: "
        f"{dict(finishers) or '-'})"
    )
    print(
        f"redelivery happened   {'yes' if deliveries_again else 'no':>7}  "
        f"({deliveries_again} task deliveries marked redelivered; {redelivered_runs} of them ran a review, "
        "the rest found it done or running)"
    )
    load = os.getloadavg()
    print(f"load average          {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")
    ok = (
        lost == 0
        and duplicates == 0
        and unfinished == 0
        and not_reviewed == 0
        and killed_at_done is not None
    )
    if not ok:
        print("FAILED: a review was lost, ran twice, or the kill did not happen", file=sys.stderr)
        for node, log in logs.items():
            print(f"--- {node}\n{log.read_text(errors='replace')[-2000:]}", file=sys.stderr)
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
