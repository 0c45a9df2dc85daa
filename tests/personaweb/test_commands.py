from __future__ import annotations

import os
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from io import StringIO
from pathlib import Path

import pytest
from django.contrib.auth import authenticate
from django.contrib.auth.models import User
from django.core.management import call_command

from personaweb.cli import EXIT_BAD_INPUT, EXIT_CONFLICT, command_error
from personaweb.roles import is_operator
from tenancy.access import visible_tenant_ids
from tenancy.models import Membership
from tests.api import live
from tests.builders import child_env

LOGIN_LINE = re.compile(r"Log in at (http://\S+) as (\S+) / (\S+)")


def _ensure(*args: str) -> tuple[str, str, str]:
    out = StringIO()
    call_command("ensure_operator", *args, stdout=out)
    match = LOGIN_LINE.search(out.getvalue())
    assert match, out.getvalue()
    return match.group(1), match.group(2), match.group(3)


@pytest.mark.django_db
def test_ensure_operator_creates_a_working_login_in_every_tenant(rf, tenant, other_tenant) -> None:
    url, username, password = _ensure("--port", "8123")
    assert url == "http://127.0.0.1:8123/"
    # the login throttle (django-axes) authenticates only with the request, as a login form does
    user = authenticate(rf.post("/login/"), username=username, password=password)
    assert user is not None
    assert user.is_staff and not user.is_superuser
    assert is_operator(user)
    assert sorted(visible_tenant_ids(user) or []) == sorted([tenant.id, other_tenant.id])
    assert user.has_perm("tenancy.change_agent")  # the admin opens with something to do


@pytest.mark.django_db
def test_ensure_operator_again_prints_a_fresh_password(rf, tenant) -> None:
    _, username, first = _ensure()
    user = User.objects.get(username=username)
    user.is_superuser = True
    user.save()
    _, _, second = _ensure()
    assert first != second
    assert authenticate(rf.post("/login/"), username=username, password=first) is None
    user = authenticate(rf.post("/login/"), username=username, password=second)
    assert user is not None and not user.is_superuser
    assert Membership.objects.filter(user=user).count() == 1
    assert User.objects.filter(username=username).count() == 1


# --- runlocal -------------------------------------------------------------------


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _children(pid: int) -> list[int]:
    found: list[int] = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        found += [int(c) for c in (task / "children").read_text().split()]
    return found


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except FileNotFoundError:
        return False
    return state != "Z"


@pytest.fixture
def local_run(tmp_path: Path):
    """Start ``manage.py runlocal`` on a migrated SQLite file; yields (process, port, log)."""
    if not Path("/proc/self/task").exists():
        pytest.skip("these checks read the process tree from Linux's /proc")
    env = child_env(
        SQLITE_PATH=str(tmp_path / "db.sqlite3"), PERSONAWEB_VAR_DIR=str(tmp_path / "var")
    )
    root = Path(__file__).resolve().parents[2]
    live.migrated_db(tmp_path / "db.sqlite3")
    port = _free_port()
    log = tmp_path / "runlocal.log"
    with log.open("wb") as out:
        proc = subprocess.Popen(
            [sys.executable, "manage.py", "runlocal", "--port", str(port)],
            cwd=root,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        try:
            deadline = time.monotonic() + 90
            while not ("celery@" in log.read_text() and _answers(port)):
                assert proc.poll() is None, f"runlocal stopped early:\n{log.read_text()}"
                assert time.monotonic() < deadline, f"runlocal did not come up:\n{log.read_text()}"
                time.sleep(0.5)
            yield proc, port, log
        finally:
            if proc.poll() is None:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait()


def _answers(port: int) -> bool:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/login/", timeout=2) as response:
            return response.status == 200
    except (urllib.error.URLError, OSError):
        return False


@pytest.mark.slow
def test_runlocal_serves_and_ctrl_c_stops_everything(local_run) -> None:
    proc, port, log = local_run
    children = _children(proc.pid)
    assert len(children) == 2  # web and the worker with embedded beat
    with urllib.request.urlopen(
        f"http://127.0.0.1:{port}/static/css/app.css", timeout=5
    ) as response:
        assert response.status == 200  # whitenoise serves static files without collectstatic

    proc.send_signal(signal.SIGINT)
    assert proc.wait(timeout=60) == 0
    assert not [pid for pid in children if _alive(pid)]
    assert not _answers(port)
    text = log.read_text()
    assert "got SIGINT, stopping everything" in text
    assert "runlocal| all stopped" in text


@pytest.mark.slow
def test_runlocal_stops_everything_when_one_process_dies(local_run) -> None:
    proc, port, log = local_run
    children = _children(proc.pid)
    web = next(pid for pid in children if "runserver" in Path(f"/proc/{pid}/cmdline").read_text())
    os.kill(web, signal.SIGKILL)
    assert proc.wait(timeout=60) != 0
    assert not [pid for pid in children if _alive(pid)]
    assert "web exited with code -9; stopping everything" in log.read_text()


def test_a_command_line_refusal_is_one_line_with_its_exit_code():
    error = command_error("No agent with\n   the slug 'x'.  ")
    assert str(error) == "No agent with the slug 'x'."
    assert error.returncode == EXIT_BAD_INPUT == 2
    assert command_error("Stale.", EXIT_CONFLICT).returncode == 3
