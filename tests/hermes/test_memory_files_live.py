"""USER.md / MEMORY.md round trip through Hermes's own ``MemoryStore`` (hermes-agent of
``tests/hermes/requirements.txt``, in its own venv): Hermes writes the files with its
memory tool's ``add``, personaweb imports them (``manage.py persona import``) and exports
them again (``manage.py persona export``), and Hermes's ``MemoryStore`` reads the export:
entry for entry, byte for byte.

Runs when ``HERMES_VENV`` names that environment (``bash tests/hermes/run_provider_check.sh``).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.api import live

HERMES_VENV = os.environ.get("HERMES_VENV", "")
HERMES_PY = Path(HERMES_VENV, "bin", "python") if HERMES_VENV else None
SCRIPT = Path(__file__).with_name("hermes_memory_files.py")

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(
        HERMES_PY is None, reason="needs the Hermes venv: bash tests/hermes/run_provider_check.sh"
    ),
]

USER_ENTRIES = [
    "ana: prefers to be called Ana, never Anastasia",  # a self-label
    "Prefers short answers.",
    "Maya Okafor: Ana's business partner at the stall",  # another person
    "Weekly routine:\n- Saturday: market stall\n- Sunday: rest\n  (no calls before 10)",
    "Order notes\n  §  \nrye flour comes from the mill on Thursdays",  # a "§" line inside
]
MEMORY_NOTES = [
    "The bakery's oven holds twelve loaves.",
    "Market checklist:\n- float for the till\n- price cards\n- the rye starter",
    "Supplier quirks\n §\nthe mill's invoices arrive a week late",
]


def _hermes(home: Path, *args: str) -> dict:
    assert HERMES_PY is not None
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(home.parent),
           "HERMES_HOME": str(home), "PYTHONUNBUFFERED": "1"}  # fmt: skip
    done = subprocess.run(
        [str(HERMES_PY), str(SCRIPT), *args],
        cwd=home.parent, env=env, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    line = next((x for x in done.stdout.splitlines() if x.startswith("RESULT ")), None)
    assert done.returncode == 0 and line, done.stdout[-3000:] + done.stderr[-3000:]
    return json.loads(line[len("RESULT ") :])


def _persona(db: live.LiveDb, *args: str) -> str:
    done = subprocess.run(
        [sys.executable, live.MANAGE, "persona", *args],
        cwd=live.ROOT, env=db.env, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


@pytest.fixture(scope="module")
def round_trip(tmp_path_factory):
    folder = tmp_path_factory.mktemp("hermes-files")
    db = live.prepare_db(folder)
    written, exported = folder / "written" / "hermes", folder / "exported" / "hermes"
    # Hermes starts from personaweb's MEMORY.md (its persona) and adds its own notes
    _persona(db, "export", "helper", "--out", str(written / "memories"))
    (written / "memories" / "USER.md").unlink(missing_ok=True)
    hermes = _hermes(written, "add", json.dumps({"memory": MEMORY_NOTES, "user": USER_ENTRIES}))
    imports = [
        _persona(db, "import", "helper", str(written / "memories" / "MEMORY.md")),
        _persona(
            db, "import", "helper", str(written / "memories" / "USER.md"), "--principal", "ana"
        ),  # fmt: skip
    ]
    exports = _persona(
        db, "export", "helper", "--principal", "ana", "--out", str(exported / "memories")
    )
    back = _hermes(exported, "read")
    yield hermes, imports, exports, back
    shutil.rmtree(folder, ignore_errors=True)


def test_hermes_wrote_every_entry_with_its_own_memory_tool(round_trip):
    hermes, *_ = round_trip
    assert all(a["success"] for target in ("memory", "user") for a in hermes["answers"][target])
    assert hermes["user"] == USER_ENTRIES
    assert hermes["memory"][-len(MEMORY_NOTES) :] == MEMORY_NOTES


def test_the_import_takes_every_entry_and_keeps_the_guardrails(round_trip):
    _, imports, _, _ = round_trip
    memory, user = imports
    assert "0 refused" in memory and "persona version 2" in memory
    assert f"{len(USER_ENTRIES)} imported" in user and "0 refused" in user


def test_hermes_reads_the_export_entry_for_entry_byte_for_byte(round_trip):
    hermes, _, exports, back = round_trip
    assert "Left out" not in exports
    assert back["user"] == hermes["user"] == USER_ENTRIES
    assert back["memory"] == hermes["memory"]
    assert back["files"] == hermes["files"]  # the files themselves, byte for byte
    assert back["snapshot"] == hermes["snapshot"]  # and so Hermes's system prompt block
