"""A real personaweb outside the test process: a seeded SQLite file database and a
server (gunicorn for /v1, ``manage.py mcp`` for MCP) on 127.0.0.1.

Used by the MCP subprocess tests, the schemathesis step of ``.ci/run``
(``tests/api/schema_live.py``) and ``bench/api.py``. The children never see
``DATABASE_URL`` or ``REDIS_URL``: they run on their own file database and filesystem
broker in a temporary folder, whatever the CI leg.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import json
import os
import secrets
import shutil
import signal
import socket
import sqlite3
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
MANAGE = str(ROOT / "manage.py")

# Runs in `manage.py shell`: one tenant with an agent (rendered once, so every text the
# injection scan embeds is stored and no server process loads the model) and what is
# remembered about ana (beliefs, an intention due today, a daily routine), her persona
# document (one version) and a nomination, a second tenant with its own agent, a
# reviewer, and tokens ("all" is bound to ana and holds every scope; "wide" reaches every
# person of acme with every scope but the owner-document ones; "memory" has memory.read
# only, no host). Prints the tokens
# as JSON.
SEED = r"""
import json
from django.contrib.auth.models import Group, User
from api.services import token_create
from learning.models import LearningSettings
from tenancy.models import Tenant
from memory.services import record_turn
from persona.plans import plan_get_or_rotate
from persona.services import agent_create
from tenancy.models import Membership

acme = Tenant.objects.create(name="Acme", slug="acme")
globex = Tenant.objects.create(name="Globex", slug="globex")
helper = agent_create(
    tenant=acme, name="Helper", slug="helper", role="Personal assistant",
    goals="Help the owner plan orders for the bakery.",
    guardrails=["Never share a customer's address."],
)
agent_create(tenant=globex, name="Elsewhere", slug="elsewhere", role="Assistant")
LearningSettings.objects.filter(agent=helper).update(mode="on-with-review")
for i in range(3):
    record_turn(agent=helper, principal_external_id="ana", conversation=f"seed-{i}",
                user_text="Could you help me plan the sourdough order for the market?",
                assistant_text="Here is a plan.")
plan_get_or_rotate(agent=helper)
from datetime import timedelta
from django.utils import timezone
from memory.services_beliefs import belief_write, intention_write, routine_label
for category, statement in [("likes", "Prefers green tea in the afternoon"),
                            ("constraints", "Allergic to peanuts"),
                            ("projects", "Runs a sourdough stall at the Saturday market")]:
    belief_write(agent=helper, principal_external_id="ana", category=category,
                 statement=statement, confidence=0.8, source="direct",
                 evidence={"host": "seed"})
intention_write(agent=helper, principal_external_id="ana", action="Order rye flour",
                due=timezone.now() + timedelta(hours=6), source="direct")
routine_label(agent=helper, principal_external_id="ana", action="Bakes bread",
              weekdays=[1, 2, 3, 4, 5, 6, 7], time="18:00",
              anchor_date=timezone.localdate().isoformat())
rex = User.objects.create_user("rex", password="unused-" + "x" * 12)
rex.groups.add(Group.objects.get_or_create(name="reviewer")[0])
Membership.objects.create(user=rex, tenant=acme)
from memory.models import Belief, Principal
from persona.models import OwnerNomination
from persona.learned_lines import statement_key
from persona.owner import owner_doc_write
ana = Principal.objects.get(tenant=acme, external_id="ana")
owner_doc_write(principal=ana, expected_version=0,
                entries=[{"text": "Prefers short answers.", "tier": "permanent"}])
tea = Belief.objects.get(principal=ana, statement="Prefers green tea in the afternoon")
OwnerNomination.objects.create(
    tenant=acme, principal=ana, belief=tea, statement=tea.statement,
    statement_key=statement_key(tea.statement), category=tea.category, confidence=0.9,
    corroboration_count=3, sensitivity=tea.sensitivity, nominated_at=timezone.now())
tokens = {
    "host": token_create(tenant=acme, name="host", scopes="host")[1],
    "all": token_create(tenant=acme, name="all", scopes="host,learning.read,learning.decide,memory.read,memory.write,persona.read,persona.write", user=rex, principal=ana, on_behalf=True)[1],
    "other": token_create(tenant=globex, name="other", scopes="host")[1],
    "memory": token_create(tenant=acme, name="memory", scopes="memory.read")[1],
    "wide": token_create(tenant=acme, name="wide", scopes="host,learning.read,learning.decide,memory.read,memory.write", user=rex)[1],
}
print("SEEDED " + json.dumps(tokens))
"""


@dataclass
class LiveDb:
    folder: Path
    env: dict[str, str]
    tokens: dict[str, str]


def child_env(folder: Path, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")}
    # a server refuses to start without a real secret key when DEBUG is off
    env.setdefault("SECRET_KEY", secrets.token_urlsafe(50))
    env.update(
        SQLITE_PATH=str(folder / "live.sqlite3"),
        PERSONAWEB_VAR_DIR=str(folder / "var"),
        PERSONAWEB_API_ENABLED="1",
        DJANGO_SETTINGS_MODULE="personaweb.settings",
        PYTHONUNBUFFERED="1",
        HF_HUB_OFFLINE="1",
        LOG_LEVEL="WARNING",
        **extra,
    )
    return env


def _migrate(env: dict[str, str]) -> None:
    """Migrate the file database ``env`` names."""
    run = {"cwd": ROOT, "env": env, "capture_output": True, "text": True, "timeout": 300}
    done = subprocess.run([sys.executable, MANAGE, "migrate", "--noinput"], **run)  # type: ignore[call-overload]
    if done.returncode:
        raise RuntimeError(f"migrate failed: {done.stderr[-2000:]}")


def _seed(env: dict[str, str]) -> dict[str, str]:
    """Seed the migrated file database ``env`` names; the tokens the seed made."""
    run = {"cwd": ROOT, "env": env, "capture_output": True, "text": True, "timeout": 300}
    done = subprocess.run([sys.executable, MANAGE, "shell", "-c", SEED], **run)  # type: ignore[call-overload]
    line = next((x for x in done.stdout.splitlines() if x.startswith("SEEDED ")), None)
    if done.returncode or line is None:
        raise RuntimeError(f"seeding failed: {done.stdout[-1000:]} {done.stderr[-2000:]}")
    return json.loads(line[len("SEEDED ") :])


# Migrating and seeding costs 10-20 s (the seed loads the embedding model to render the
# agent once); a CI run asks for a fresh seeded database about ten times (the MCP
# tests, the benches, schemathesis, the generated client, Hermes). The first one is
# built into var/live-templates/<key>/ and every caller gets its own copy. The key
# covers everything that can change what migrate and the seed write: the product's
# source (every package, the templates, the labelled data and model files), this file,
# pyproject.toml, the Python that runs them and the settings the environment gives.
TEMPLATES = ROOT / "var" / "live-templates"
# the template's file as migrate left it, before the seed (``migrated_db``)
MIGRATED = "migrated.sqlite3"
_SOURCE_SKIP = {"tests", "bench", "docs", "var", "static", "build", "screenshots"}
# the product's settings (libraries' own variables, which imports set, are not)
_ENV_PREFIXES = (
    "AGENT_", "CELERY_", "DEBUG", "EMBEDDING_", "HERMES_", "LEARNING_", "LOG_LEVEL",
    "MEMORY_", "PERSONAWEB_", "PERSONA_",
)  # fmt: skip
# where things are, not what they do (the Hermes check names its venv, tests/hermes)
_ENV_VOLATILE = {"PERSONAWEB_VAR_DIR", "SQLITE_PATH", "SECRET_KEY", "HERMES_VENV", "HERMES_FULL"}


def _template_key(env: dict[str, str]) -> str:
    digest = hashlib.sha256()
    digest.update(sys.executable.encode())
    settings = sorted(
        (k, v) for k, v in env.items() if k.startswith(_ENV_PREFIXES) and k not in _ENV_VOLATILE
    )
    digest.update(json.dumps(settings).encode())
    files = [Path(__file__), ROOT / "pyproject.toml", ROOT / "manage.py"]
    for top in sorted(ROOT.iterdir()):
        skip = (
            top.name in _SOURCE_SKIP or top.name.startswith(".") or top.name.endswith(".egg-info")
        )
        if top.is_dir() and not skip:
            files += sorted(
                path
                for path in top.rglob("*")
                if path.is_file() and "__pycache__" not in path.parts and path.suffix != ".pyc"
            )
    for path in files:
        digest.update(str(path.relative_to(ROOT)).encode() + b"\0")
        digest.update(path.read_bytes())
    return digest.hexdigest()[:20]


def _copy_database(source: Path, target: Path) -> None:
    """A consistent copy of a SQLite file (through its WAL, if one was left)."""
    src, dst = sqlite3.connect(source), sqlite3.connect(target)
    try:
        src.backup(dst)
    finally:
        src.close()
        dst.close()


@contextlib.contextmanager
def _template() -> Iterator[Path]:
    """This source's template folder, built on the first call (migrated, the empty file
    kept as MIGRATED, then seeded), held under the lock: one builder at a time
    (pytest-xdist workers, benches run side by side), and no copy of a half-built one."""
    TEMPLATES.mkdir(parents=True, exist_ok=True)
    template = TEMPLATES / _template_key(child_env(TEMPLATES))
    ready = template / "tokens.json"
    with open(TEMPLATES / ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not ready.exists():
            shutil.rmtree(template, ignore_errors=True)
            template.mkdir()
            env = child_env(template)
            _migrate(env)
            _copy_database(template / "live.sqlite3", template / MIGRATED)
            ready.write_text(json.dumps(_seed(env)))
            for other in TEMPLATES.iterdir():  # keep var/ from filling with old ones
                if (
                    other.is_dir()
                    and other != template
                    and time.time() - other.stat().st_mtime > 86400
                ):
                    shutil.rmtree(other, ignore_errors=True)
        yield template
        os.utime(template)


def prepare_db(folder: Path) -> LiveDb:
    """A fresh migrated and seeded file database in ``folder``: a copy of the template
    (built on the first call, about 10-20 s), or built in place when
    ``PERSONAWEB_LIVE_TEMPLATE=0``."""
    folder.mkdir(parents=True, exist_ok=True)
    env = child_env(folder)
    if os.environ.get("PERSONAWEB_LIVE_TEMPLATE", "1") == "0":
        _migrate(env)
        return LiveDb(folder=folder, env=env, tokens=_seed(env))
    with _template() as template:
        tokens = json.loads((template / "tokens.json").read_text())
        _copy_database(template / "live.sqlite3", folder / "live.sqlite3")
        if (template / "var").exists():
            shutil.copytree(template / "var", folder / "var", dirs_exist_ok=True)
    return LiveDb(folder=folder, env=env, tokens=tokens)


def migrated_db(path: Path) -> None:
    """A migrated, empty SQLite file at ``path`` (for a server a test starts on its own
    settings): a copy of the template's file from before its seed, or migrated in place
    when ``PERSONAWEB_LIVE_TEMPLATE=0``. ``manage.py migrate`` costs about 5 s of CPU."""
    if os.environ.get("PERSONAWEB_LIVE_TEMPLATE", "1") == "0":
        _migrate({**child_env(path.parent), "SQLITE_PATH": str(path)})
        return
    with _template() as template:
        _copy_database(template / MIGRATED, path)


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def wait_http(url: str, *, seconds: float = 60.0, proc: subprocess.Popen | None = None) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if proc is not None and proc.poll() is not None:
            raise RuntimeError(f"the server exited with code {proc.returncode}")
        try:
            with urllib.request.urlopen(url, timeout=2):
                return
        except urllib.error.HTTPError:
            return  # it answers
        except OSError:
            time.sleep(0.2)
    raise RuntimeError(f"nothing answered at {url} within {seconds:.0f} s")


@contextlib.contextmanager
def running(
    argv: list[str], *, env: dict[str, str], ready_url: str, log: Path
) -> Iterator[subprocess.Popen]:
    """Start ``argv`` (its own process group), wait until ``ready_url`` answers, and
    stop it (SIGTERM, then SIGKILL) on the way out."""
    with open(log, "wb") as out:
        proc = subprocess.Popen(
            argv,
            cwd=ROOT,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        try:
            wait_http(ready_url, proc=proc)
            yield proc
        finally:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(proc.pid, signal.SIGTERM)
            try:
                proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(proc.pid, signal.SIGKILL)
                proc.wait()


def gunicorn_argv(port: int, *, workers: int = 2, threads: int = 1) -> list[str]:
    return [
        sys.executable,
        "-m",
        "gunicorn",
        "personaweb.wsgi:application",
        "--bind",
        f"127.0.0.1:{port}",
        "--workers",
        str(workers),
        "--threads",
        str(threads),
        "--log-level",
        "warning",
        "--timeout",
        "60",
        # the schema allows query strings longer than gunicorn's 4,094-byte default line
        # (200 characters of 4-byte UTF-8, percent-encoded, per parameter)
        "--limit-request-line",
        "0",
    ]
