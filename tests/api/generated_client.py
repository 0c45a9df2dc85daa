"""A client generated from the live /v1 schema by openapi-python-client sends
If-None-Match on the prefix route and gets 304 (a `.ci/run` step, not a pytest test).

The generator runs in its own virtual environment (``var/openapi-client-venv``, pinned in
``tests/api/generated_client_requirements.txt``, made again only when that file
changes), as a host developer would run it: against ``/v1/openapi.json`` of a live
gunicorn on a seeded file database. The generated package is then imported in that venv
and calls the prefix twice: 200 with an ETag, then 304 with no body. Exit code 0 only
when both held.

    python -m tests.api.generated_client
"""

from __future__ import annotations

import filecmp
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from tests.api import live

ROOT = Path(__file__).resolve().parents[2]
REQUIREMENTS = Path(__file__).with_name("generated_client_requirements.txt")
VENV = ROOT / "var" / "openapi-client-venv"

CALLS = r"""
import sys
from personaweb_host_api_client import AuthenticatedClient
from personaweb_host_api_client.api.host import prompt_prefix

client = AuthenticatedClient(base_url=sys.argv[1], token=sys.argv[2])
first = prompt_prefix.sync_detailed(slug="helper", client=client, principal="ana", session="s")
etag = first.headers.get("ETag")
print("first:", first.status_code, etag)
assert first.status_code == 200 and etag, first.content[:300]
again = prompt_prefix.sync_detailed(
    slug="helper", client=client, principal="ana", session="s", if_none_match=etag
)
print("with If-None-Match:", again.status_code, len(again.content), "bytes")
assert again.status_code == 304 and not again.content, again.content[:300]
"""


def _venv() -> Path:
    python = VENV / "bin" / "python"
    stamp = VENV / "requirements.txt"
    if not python.exists() or not stamp.exists() or not filecmp.cmp(REQUIREMENTS, stamp):
        shutil.rmtree(VENV, ignore_errors=True)
        subprocess.run([sys.executable, "-m", "venv", str(VENV)], check=True)
        # uv, when `make install` put it beside this Python, installs the generator and
        # its ~20 packages in parallel (CI's fresh clone: 3 s of CPU instead of 11 s);
        # pip where it is missing or fails
        uv = Path(sys.executable).parent / "uv"
        with_uv = [str(uv), "pip", "install", "--quiet", "--python", str(python)]
        if not (
            uv.exists() and subprocess.run([*with_uv, "-r", str(REQUIREMENTS)]).returncode == 0
        ):
            subprocess.run(
                [
                    str(VENV / "bin" / "pip"),
                    "install",
                    "--quiet",
                    "--disable-pip-version-check",
                    "-r",
                    str(REQUIREMENTS),
                ],
                check=True,
            )
        shutil.copy(REQUIREMENTS, stamp)
    return python


def main() -> int:
    python = _venv()
    folder = Path(tempfile.mkdtemp(prefix="pw-generated-client-"))
    try:
        db = live.prepare_db(folder)
        port = live.free_port()
        base = f"http://127.0.0.1:{port}"
        with live.running(
            live.gunicorn_argv(port, workers=1),
            env={**db.env, "MEMORY_BELIEF_EMBEDDINGS": "0", "PERSONAWEB_PAGE_SCAN_WAIT": "1"},
            ready_url=f"{base}/v1/openapi.json",
            log=folder / "gunicorn.log",
        ):
            schema = folder / "openapi.json"
            import urllib.request

            with urllib.request.urlopen(f"{base}/v1/openapi.json", timeout=30) as answer:
                schema.write_bytes(answer.read())
            out = folder / "generated"
            out.mkdir()
            config = folder / "generator.yaml"
            config.write_text("post_hooks: []\n")  # no formatter runs on the generated code
            subprocess.run(
                [
                    str(VENV / "bin" / "openapi-python-client"),
                    "generate",
                    "--path",
                    str(schema),
                    "--meta",
                    "none",
                    "--output-path",
                    str(out / "personaweb_host_api_client"),
                ],
                check=True,
                cwd=out,
            )
            code = subprocess.call(
                [str(python), "-c", CALLS, base, db.tokens["host"]],
                cwd=out,
            )
        return code
    finally:
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
