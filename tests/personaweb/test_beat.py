"""Beat-scheduled tasks run in a real Celery worker: on the embedded default
(filesystem broker, SQLite, ``worker -B``) and on Redis with separate worker and beat
processes sharing the PostgreSQL test database."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import quote

import pytest
from django.conf import settings

from tests.api import live
from tests.builders import child_env

WAIT_SECONDS = 90.0  # generous: the worker starts Django on a busy 2-core machine
STOP_SECONDS = 20.0
CELERY = [sys.executable, "-m", "celery", "-A", "personaweb"]


@contextmanager
def running(
    argv: list[str], *, env: dict[str, str], log: Path
) -> Iterator[subprocess.Popen[bytes]]:
    """Run a process in its own group for the duration of the block; always stop it."""
    with log.open("wb") as out:
        proc = subprocess.Popen(
            argv,
            cwd=settings.BASE_DIR,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        try:
            yield proc
        finally:
            if proc.poll() is None:
                os.killpg(proc.pid, signal.SIGTERM)
                try:
                    proc.wait(timeout=STOP_SECONDS)
                except subprocess.TimeoutExpired:
                    os.killpg(proc.pid, signal.SIGKILL)
                    proc.wait()


def wait_for(
    check: Callable[[], bool], *, procs: list[subprocess.Popen[bytes]], logs: list[Path], what: str
) -> None:
    """Poll ``check`` until it holds; fail with the processes' logs if it never does."""
    deadline = time.monotonic() + WAIT_SECONDS
    while time.monotonic() < deadline:
        if check():
            return
        dead = [p for p in procs if p.poll() is not None]
        if dead:
            break
        time.sleep(0.5)
    tails = "\n".join(f"--- {log.name}\n{log.read_text(errors='replace')[-3000:]}" for log in logs)
    pytest.fail(f"Timed out or a process died waiting for {what}.\n{tails}")


def sqlite_heartbeat_runs(path: Path, name: str) -> int:
    try:
        with sqlite3.connect(path, timeout=5) as conn:
            row = conn.execute(
                "SELECT runs FROM personaweb_heartbeat WHERE name = ?", [name]
            ).fetchone()
    except sqlite3.OperationalError:  # busy while the worker writes
        return 0
    return int(row[0]) if row else 0


@pytest.mark.slow
def test_beat_runs_scheduled_task_on_the_embedded_default(tmp_path: Path) -> None:
    """No server at all: SQLite file + filesystem broker + ``worker -B``."""
    db_path = tmp_path / "embedded.sqlite3"
    var_dir = tmp_path / "var"
    env = child_env(SQLITE_PATH=str(db_path), PERSONAWEB_VAR_DIR=str(var_dir))
    live.migrated_db(db_path)
    assert sqlite_heartbeat_runs(db_path, "beat") == 0

    log = tmp_path / "worker.log"
    argv = [*CELERY, "worker", "-B", "--pool=solo", "-l", "info"]
    with running(argv, env=env, log=log) as worker:
        wait_for(
            lambda: sqlite_heartbeat_runs(db_path, "beat") >= 2,
            procs=[worker],
            logs=[log],
            what="two beat-scheduled heartbeats in the SQLite file",
        )
    assert (var_dir / "broker" / "queue").is_dir()  # the filesystem broker lived in the var dir
    assert "filesystem://" in log.read_text()


def _database_url(settings_dict: dict) -> str:
    user = quote(settings_dict.get("USER") or "")
    password = settings_dict.get("PASSWORD") or ""
    auth = f"{user}:{quote(password)}@" if password else (f"{user}@" if user else "")
    host = settings_dict.get("HOST") or "127.0.0.1"
    port = settings_dict.get("PORT") or "5432"
    return f"postgres://{auth}{host}:{port}/{settings_dict['NAME']}"


@pytest.mark.redis
@pytest.mark.slow
@pytest.mark.skipif(
    not os.environ.get("REDIS_URL"),
    reason="needs REDIS_URL (the PostgreSQL + Redis leg of .ci/run sets it)",
)
def test_beat_and_worker_on_redis(transactional_db, tmp_path: Path) -> None:
    """Separate ``celery worker`` and ``celery beat`` processes on Redis, writing to the
    PostgreSQL test database; and a task sent from here through Redis to the worker."""
    from celery.result import EagerResult
    from django.db import connection

    from personaweb.celery import app
    from personaweb.models import Heartbeat
    from personaweb.tasks import heartbeat

    if connection.vendor != "postgresql":
        pytest.skip("needs DATABASE_URL on PostgreSQL so the worker can share the test database")
    app.control.purge()  # tasks a previous run left in this Redis database
    env = child_env(
        DATABASE_URL=_database_url(connection.settings_dict),
        REDIS_URL=os.environ["REDIS_URL"],
        PERSONAWEB_VAR_DIR=str(tmp_path / "var"),
    )
    worker_log, beat_log = tmp_path / "worker.log", tmp_path / "beat.log"
    logs = [worker_log, beat_log]

    def runs(name: str) -> int:
        return Heartbeat.objects.filter(name=name).values_list("runs", flat=True).first() or 0

    worker_argv = [*CELERY, "worker", "--pool=threads", "--concurrency=2", "-l", "info"]
    with (
        running(worker_argv, env=env, log=worker_log) as worker,
        running([*CELERY, "beat", "-l", "info"], env=env, log=beat_log) as beat,
    ):
        wait_for(
            lambda: runs("beat") >= 2,
            procs=[worker, beat],
            logs=logs,
            what="beat heartbeats via Redis",
        )

        assert runs("ci-direct") == 0
        result = heartbeat.delay("ci-direct")
        assert not isinstance(result, EagerResult), (
            "the task ran in the test process, not in the worker"
        )
        assert result.get(timeout=WAIT_SECONDS) == 1
        wait_for(
            lambda: runs("ci-direct") == 1, procs=[worker], logs=logs, what="the direct task's row"
        )
    assert "redis://" in worker_log.read_text()
