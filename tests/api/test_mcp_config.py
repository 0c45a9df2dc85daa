"""``manage.py mcp`` as an MCP client starts it (issue 23, point 2): the README's
snippets run as written (paths and token filled in) with nothing but ``PATH`` and
``HOME`` in the environment; the settings come from the checkout's key file or an
``--env-file``; a misconfiguration is one sentence on stderr; over HTTP, plain bearer
tokens with a 401 that says how to get one and no OAuth metadata."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import anyio
import httpx2
import pytest
import yaml
from mcp import Client, StdioServerParameters

from api.operations import enabled_operations
from personaweb.envfile import EnvFileError, read_env_file, split_env_file
from tests.api import live

README = live.ROOT / "README.md"
CHECKOUT = "/path/to/personaweb"
#: what Hermes (and most clients) pass to a stdio server of their own environment
BARE = {"PATH": os.environ["PATH"], "HOME": os.environ.get("HOME", "/tmp")}


def readme_blocks(language: str) -> list[str]:
    return re.findall(rf"```{language}\n(.*?)```", README.read_text(), flags=re.S)


def readme_servers() -> list[tuple[str, dict[str, Any]]]:
    """(where, the server entry) of every MCP client snippet in the README."""
    found: list[tuple[str, dict[str, Any]]] = []
    for block in readme_blocks("yaml"):
        config = yaml.safe_load(block)
        if isinstance(config, dict) and "mcp_servers" in config:
            found.append(("hermes config.yaml", config["mcp_servers"]["personaweb"]))
    for block in readme_blocks("json"):
        config = json.loads(block)
        if "mcpServers" in config:
            found.append(("mcpServers JSON", config["mcpServers"]["personaweb"]))
    return found


def stdio_snippets() -> list[tuple[str, dict[str, Any]]]:
    return [(where, entry) for where, entry in readme_servers() if "command" in entry]


def http_snippets() -> list[tuple[str, dict[str, Any]]]:
    return [(where, entry) for where, entry in readme_servers() if "url" in entry]


def test_the_readme_has_stdio_and_http_snippets_for_hermes_and_mcpservers():
    kinds = {(where, "command" in entry) for where, entry in readme_servers()}
    assert kinds == {
        ("hermes config.yaml", True),
        ("hermes config.yaml", False),
        ("mcpServers JSON", True),
        ("mcpServers JSON", False),
    }
    for _, entry in stdio_snippets():
        assert entry["command"] == f"{CHECKOUT}/.venv/bin/python"
        assert entry["args"][:2] == [f"{CHECKOUT}/manage.py", "mcp"]
        assert "SECRET_KEY" not in entry.get("env", {}), "a pasted snippet needs no key"


def _filled(arg: str) -> str:
    return arg.replace(f"{CHECKOUT}/.venv/bin/python", sys.executable).replace(
        CHECKOUT, str(live.ROOT)
    )


def write_env_file(path: Path, **pairs: str) -> Path:
    path.write_text("".join(f"{k}={v}\n" for k, v in pairs.items()))
    return path


@pytest.fixture(scope="module")
def live_db(tmp_path_factory):
    db = live.prepare_db(tmp_path_factory.mktemp("mcp-config"))
    # the key as `make run` leaves it, in the var folder the env file names
    key_file = Path(db.env["PERSONAWEB_VAR_DIR"]) / "secret_key"
    key_file.parent.mkdir(parents=True, exist_ok=True)
    key_file.write_text("a-key-made-by-make-run-" + "k" * 40 + "\n")
    key_file.chmod(0o600)
    return db


@pytest.fixture
def db_env_file(live_db, tmp_path) -> Path:
    """Where the test database is (a checkout's own `var/` needs none of this): the
    database and var folder only, never a key."""
    return write_env_file(
        tmp_path / "personaweb.env",
        SQLITE_PATH=live_db.env["SQLITE_PATH"],
        PERSONAWEB_VAR_DIR=live_db.env["PERSONAWEB_VAR_DIR"],
        MEMORY_BELIEF_EMBEDDINGS="0",
        HF_HUB_OFFLINE="1",
    )


@pytest.mark.slow
@pytest.mark.parametrize("where", ["hermes config.yaml", "mcpServers JSON"])
def test_the_readme_stdio_snippet_starts_with_only_path_and_home(where, db_env_file, tmp_path):
    entry = dict(stdio_snippets())[where]
    args = [_filled(a) for a in entry["args"]] + ["--env-file", str(db_env_file)]
    params = StdioServerParameters(
        command=_filled(entry["command"]),
        args=args,
        env={**BARE, **entry.get("env", {})},
        cwd=str(tmp_path),  # the client's folder, not the checkout
    )

    async def main() -> Any:
        async with Client(params, read_timeout_seconds=120) as client:
            return await client.list_tools(), await client.call_tool("persona_read", {})

    tools, head = anyio.run(main)
    assert sorted(t.name for t in tools.tools) == sorted(op.name for op in enabled_operations())
    assert not head.is_error and head.structured_content["slug"] == "helper"


def run_mcp(*args: str, env: dict[str, str] | None = None, cwd: Path | None = None):
    return subprocess.run(
        [sys.executable, live.MANAGE, "mcp", *args],
        env=env or BARE,
        cwd=cwd,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=120,
    )


def one_sentence(stderr: str) -> str:
    lines = stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in stderr, stderr
    return lines[0]


@pytest.mark.slow
def test_no_key_anywhere_is_one_sentence_and_a_failed_start(tmp_path):
    empty_var = tmp_path / "var"
    env_file = write_env_file(tmp_path / "e.env", PERSONAWEB_VAR_DIR=str(empty_var))
    done = run_mcp("--agent", "helper", "--principal", "ana", "--env-file", str(env_file))
    assert done.returncode != 0 and done.stdout == ""
    line = one_sentence(done.stderr)
    assert line.startswith("SECRET_KEY is not set and DEBUG is off")
    assert str(empty_var / "secret_key") in line


@pytest.mark.slow
def test_an_unknown_agent_is_one_sentence_and_a_failed_start(db_env_file):
    done = run_mcp("--agent", "nobody", "--principal", "ana", "--env-file", str(db_env_file))
    assert done.returncode == 2 and done.stdout == ""
    assert "No agent with the slug 'nobody'" in one_sentence(done.stderr)


@pytest.mark.slow
def test_a_database_that_is_not_migrated_is_one_sentence(live_db, tmp_path):
    env_file = write_env_file(
        tmp_path / "e.env",
        SQLITE_PATH=str(tmp_path / "empty.sqlite3"),
        PERSONAWEB_VAR_DIR=live_db.env["PERSONAWEB_VAR_DIR"],
    )
    done = run_mcp("--agent", "helper", "--principal", "ana", "--env-file", str(env_file))
    assert done.returncode == 1 and done.stdout == ""
    line = one_sentence(done.stderr)
    assert "has no personaweb tables" in line and "migrate" in line


@pytest.mark.slow
def test_a_missing_env_file_is_one_sentence(tmp_path):
    done = run_mcp("--agent", "helper", "--env-file", str(tmp_path / "nope.env"))
    assert done.returncode == 2
    assert "does not exist" in one_sentence(done.stderr)


def test_the_key_make_run_writes_is_the_key_the_settings_read(settings):
    from personaweb.settings import BASE_DIR

    makefile = (live.ROOT / "Makefile").read_text()
    local_key = re.search(r"^LOCAL_KEY := (\S+)$", makefile, flags=re.M)
    assert local_key is not None
    # the default var folder is the checkout's var/, and the key file sits in it
    assert settings.SECRET_KEY_FILE == settings.VAR_DIR / "secret_key"
    assert BASE_DIR / local_key.group(1) == BASE_DIR / "var" / "secret_key"


def test_the_key_file_is_read_when_secret_key_is_unset(tmp_path):
    from personaweb.settings import secret_key_from_file

    key = tmp_path / "secret_key"
    assert secret_key_from_file(key) == ""
    key.write_text("made-by-make-run\n")
    assert secret_key_from_file(key) == "made-by-make-run"
    key.write_text("\n")
    assert secret_key_from_file(key) == ""


def test_env_files_are_key_value_lines(tmp_path):
    path = write_env_file(tmp_path / "a.env", A="1")
    path.write_text('# comment\n\nexport DATABASE_URL="sqlite:////x.db"\nDEBUG=0\nEMPTY=\n')
    assert read_env_file(path) == {"DATABASE_URL": "sqlite:////x.db", "DEBUG": "0", "EMPTY": ""}
    path.write_text("DEBUG=0\nthis is not a pair\n")
    with pytest.raises(EnvFileError, match="Line 2 of the env file"):
        read_env_file(path)
    assert split_env_file(["manage.py", "mcp", "--env-file", "x", "--agent", "a"]) == (
        ["manage.py", "mcp", "--agent", "a"],
        "x",
    )
    assert split_env_file(["manage.py", "--env-file=y", "check"]) == (["manage.py", "check"], "y")
    with pytest.raises(EnvFileError, match="needs a path"):
        split_env_file(["manage.py", "mcp", "--env-file"])


# --- streamable HTTP: plain bearer tokens --------------------------------------------------


@pytest.mark.slow
def test_the_readme_http_snippets_connect_and_a_401_says_how_to_get_a_token(live_db, tmp_path):
    port = live.free_port()
    argv = [sys.executable, live.MANAGE, "mcp", "--http", f"127.0.0.1:{port}", "--timeout", "60"]
    url = f"http://127.0.0.1:{port}/mcp"
    env = {**live_db.env, "MEMORY_BELIEF_EMBEDDINGS": "0", "PERSONAWEB_API_RATE_LIMIT": "3"}

    async def session(entry: dict[str, Any], calls: list[tuple[str, dict[str, Any]]]) -> Any:
        from mcp.client.streamable_http import streamable_http_client

        async with httpx2.AsyncClient(headers=entry.get("headers", {}), timeout=60) as http:
            target = entry["url"].replace("8765", str(port))
            async with Client(streamable_http_client(target, http_client=http)) as client:
                tools = await client.list_tools()
                return tools, [await client.call_tool(name, args) for name, args in calls]

    with live.running(argv, env=env, ready_url=url, log=tmp_path / "mcp-http.log"):
        for where, entry in http_snippets():
            filled = {
                **entry,
                "headers": {
                    k: v.replace("<token with scope host>", live_db.tokens["wide"])
                    for k, v in entry["headers"].items()
                },
            }
            tools, _ = anyio.run(session, filled, [])
            names = sorted(t.name for t in tools.tools)
            assert names == sorted(op.name for op in enabled_operations()), where

        # no token, and a wrong one: 401, a body that says how, no OAuth metadata
        for headers in ({}, {"Authorization": "Bearer pw_not-a-token"}):
            answer = httpx2.post(url, json={}, headers=headers)
            assert answer.status_code == 401
            assert "resource_metadata" not in answer.headers["www-authenticate"]
            assert "manage.py api token create" in answer.json()["error_description"]
            assert "--scopes host" in answer.json()["error_description"]
        base = f"http://127.0.0.1:{port}"
        for metadata in ("oauth-protected-resource/mcp", "oauth-authorization-server"):
            assert httpx2.get(f"{base}/.well-known/{metadata}").status_code == 404
        # a token without the scope host: 403, saying which scope
        no_host = httpx2.post(
            url, json={}, headers={"Authorization": f"Bearer {live_db.tokens['memory']}"}
        )
        assert no_host.status_code == 403 and "scope host" in no_host.json()["error_description"]

        # the rate limit counts tool calls over HTTP (3 a minute here)
        bound = {"url": url, "headers": {"Authorization": f"Bearer {live_db.tokens['all']}"}}
        ask = {"query": "What does she sell at the market?"}
        _, results = anyio.run(session, bound, [("build_context", ask)] * 4)
        assert [r.is_error for r in results] == [False, False, False, True]
        assert "sourdough stall" in results[0].structured_content["text"]  # no agent named
        assert "Too many calls with this API token" in " ".join(
            getattr(c, "text", "") for c in results[3].content
        )
