"""personaweb's memory provider, loaded and driven by a real Hermes (hermes-agent, the
version of ``tests/hermes/requirements.txt``, in its own virtual environment) against a
live personaweb (gunicorn on a seeded file database, ``tests.api.live``).

Runs when ``HERMES_VENV`` names that environment: ``bash tests/hermes/run_provider_check.sh``
makes it (in ``var/hermes-venv``) and runs this file; ``.ci/run`` calls the script.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import urllib.request
from pathlib import Path

import pytest

from tests.api import live

HERMES_VENV = os.environ.get("HERMES_VENV", "")
HERMES_PY = Path(HERMES_VENV, "bin", "python") if HERMES_VENV else None
SCRIPT = Path(__file__).with_name("hermes_conversation.py")
SESSION = "hermes-check-1"

pytestmark = [
    pytest.mark.slow,
    # named but absent is a failure (below), not a skip: CI must not pass without Hermes
    pytest.mark.skipif(
        HERMES_PY is None, reason="needs the Hermes venv: bash tests/hermes/run_provider_check.sh"
    ),
]


def _install(db: live.LiveDb, home: Path, url: str, token: str) -> None:
    token_file = home.parent / f"{home.name}.token"
    token_file.write_text(token + "\n")
    token_file.chmod(0o600)
    done = subprocess.run(
        [sys.executable, live.MANAGE, "hermes", "install-provider", "--hermes-home", str(home),
         "--url", url, "--token-file", str(token_file), "--agent", "helper",
         "--principal", "ana", "--timeout", "2"],
        cwd=live.ROOT, env=db.env, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr


def _in_hermes(home: Path, *args: str) -> dict:
    assert HERMES_PY is not None
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(home.parent),
           "HERMES_HOME": str(home), "PYTHONUNBUFFERED": "1"}  # fmt: skip
    done = subprocess.run(
        [str(HERMES_PY), str(SCRIPT), *args],
        cwd=home.parent, env=env, capture_output=True, text=True, timeout=180,
    )  # fmt: skip
    line = next((x for x in done.stdout.splitlines() if x.startswith("RESULT ")), None)
    assert done.returncode == 0 and line, done.stdout[-3000:] + done.stderr[-3000:]
    return {**json.loads(line[len("RESULT ") :]), "stderr": done.stderr}


def _recorded(db: live.LiveDb) -> list[list[str]]:
    code = (
        "import json; from memory.models import Message; print('MSGS ' + json.dumps([[m.role, "
        f"m.text] for m in Message.objects.filter(conversation__external_id={SESSION!r})"
        ".order_by('conversation__id', 'seq')]))"
    )
    done = subprocess.run(
        [sys.executable, live.MANAGE, "shell", "-c", code],
        cwd=live.ROOT, env=db.env, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    line = next((x for x in done.stdout.splitlines() if x.startswith("MSGS ")), None)
    assert line, done.stderr
    return json.loads(line[len("MSGS ") :])


@pytest.fixture(scope="module")
def personaweb(tmp_path_factory):
    folder = tmp_path_factory.mktemp("hermes-live")
    db = live.prepare_db(folder)
    port = live.free_port()
    url = f"http://127.0.0.1:{port}"
    # one worker, warmed by a first build_context: a cold process loads the sentence model
    # on that call (seconds), which is the business of the model's own tests, not this one
    with live.running(
        live.gunicorn_argv(port, workers=1, threads=4), env=db.env,
        ready_url=f"{url}/v1/health", log=folder / "gunicorn.log",
    ):  # fmt: skip
        warm = urllib.request.Request(
            f"{url}/v1/context?agent=helper&principal=ana&query=warm",
            headers={"Authorization": f"Bearer {db.tokens['all']}"},
        )
        with urllib.request.urlopen(warm, timeout=120):
            pass
        yield db, url, folder


@pytest.fixture(scope="module")
def conversation(personaweb):
    db, url, folder = personaweb
    home = folder / "hermes-home"
    home.mkdir()
    (home / "config.yaml").write_text(
        "model:\n  default: some-model\nmemory:\n  memory_enabled: true\n"
    )
    _install(db, home, url, db.tokens["all"])
    host_token = folder / "host.token"
    host_token.write_text(db.tokens["host"])
    return db, _in_hermes(home, url, str(host_token), SESSION)


def test_hermes_loads_the_installed_provider_with_its_own_loader(conversation):
    _db, seen = conversation
    assert seen["active"] == "personaweb"
    assert "personaweb" in seen["discovered"]
    assert seen["loaded_module"] == "_hermes_user_memory.personaweb"  # a user plugin
    assert seen["available"] is True
    assert {
        "personaweb_beliefs_search",
        "personaweb_build_context",
        "personaweb_memory_write",
    } <= set(seen["tools"])


def test_every_turn_of_the_conversation_is_recorded_in_personaweb(conversation):
    db, seen = conversation
    expected = [
        [role, text]
        for user, reply in seen["turns"]
        for role, text in (("user", user), ("assistant", reply))
    ]
    assert _recorded(db) == expected


def test_the_system_prompt_block_keeps_its_bytes_until_the_persona_changes(conversation):
    _db, seen = conversation
    before, after = seen["blocks_before_change"], seen["blocks_after_change"]
    assert before[0] and "Helper" in before[0]
    assert len(set(before)) == 1  # byte-identical on every turn
    assert after[0] != before[0]  # the PATCH of the persona began a new prefix
    assert after[0] == after[1]  # ... which holds again
    prefix_calls = [status for method, path, status in seen["calls"] if path.endswith("/prefix")]
    # the first read gets the text, the repeats are 304 (If-None-Match), the change a 200
    assert prefix_calls == [200, 304, 304, 200, 304]


def test_each_turn_gets_the_context_of_build_context(conversation):
    _db, seen = conversation
    assert all(seen["contexts"]), seen["contexts"]
    assert any("peanut" in text.lower() or "tea" in text.lower() for text in seen["contexts"])


def test_the_memory_tools_are_calls_to_the_v1_api(conversation):
    _db, seen = conversation
    assert seen["tool_write"]["outcome"] == "created"
    statements = [item["statement"] for item in seen["tool_search"]["items"]]
    assert statements == ["Likes rye bread with caraway"]
    assert seen["tool_context"]["text"]


def test_a_personaweb_that_is_down_leaves_hermes_with_no_memory_and_no_error(personaweb, tmp_path):
    db, _url, _folder = personaweb
    home = tmp_path / "hermes-home"
    home.mkdir()
    _install(db, home, f"http://127.0.0.1:{live.free_port()}", db.tokens["all"])
    seen = _in_hermes(home, "down")
    assert seen["block"] == "" and seen["context"] == ""
    assert "not answering" in seen["tool"]["error"]
    assert seen["turn_s"] < 5
    assert "personaweb prompt_prefix failed" in seen["stderr"]
    assert "tea" not in seen["stderr"].lower()  # no message text in the log
