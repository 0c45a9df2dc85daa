"""schemathesis against the live /v1 schema (a `.ci/run` step, not a pytest test).

Seeds a file database, starts gunicorn (2 workers) on 127.0.0.1 with the API on, and
runs ``schemathesis run`` on ``/v1/openapi.json`` with a token holding every route's
scope, bound to a person (``AGENT_PERSONA_API_ENABLED`` is on, so the /v1/persona
routes are in the schema and run too): the examples, coverage and fuzzing phases, positive and negative data
(``--mode all``), every check (no 500, status codes, content types, headers and bodies
as the schema says, negative data rejected, auth not ignored). Exit code: schemathesis's.

The server runs with ``MEMORY_BELIEF_EMBEDDINGS=0``: the memory routes rank and
deduplicate on words, so no worker loads the embedding model for a fuzzed question
(the vectors are covered in-process by tests/memory and tests/api/test_memory_mcp.py).
It also runs with ``PERSONA_INJECTION_SEMANTIC=0``: a persona write renders its row to
count its tokens, and a fuzzed entry is new text, which the learned layer of the
injection scan would embed after loading its model in the worker, slower than the
request timeout on a busy machine (that layer is covered by tests/memory and
tests/persona).

    python -m tests.api.schema_live [--max-time SECONDS]
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from tests.api import live

# positive_data_acceptance: the schema cannot say every service rule (a label of white
# space, a time without an offset, a person who owns the conversation already), so
# schema-valid data may rightly be refused with a 400/409 envelope; every other check runs.
EXCLUDED_CHECKS = "positive_data_acceptance"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--max-time", type=int, default=60, help="schemathesis time budget of each pass (s)"
    )
    parser.add_argument("--max-examples", type=int, default=40)
    parser.add_argument("--keep", action="store_true", help="keep the temporary folder")
    args = parser.parse_args(argv)
    folder = Path(tempfile.mkdtemp(prefix="pw-schemathesis-"))
    try:
        print(f"schema_live: seeding a database in {folder}", flush=True)
        db = live.prepare_db(folder)
        port = live.free_port()
        base = f"http://127.0.0.1:{port}"
        with live.running(
            live.gunicorn_argv(port, workers=2),
            env={
                **db.env,
                "MEMORY_BELIEF_EMBEDDINGS": "0",
                "PERSONA_INJECTION_SEMANTIC": "0",
                "AGENT_PERSONA_API_ENABLED": "1",
                # schemathesis makes thousands of calls a minute with one token; the
                # limit itself is covered by tests/api/test_host_schemas.py
                "PERSONAWEB_API_RATE_LIMIT": "0",
            },
            ready_url=f"{base}/v1/openapi.json",
            log=folder / "gunicorn.log",
        ):
            print(f"schema_live: gunicorn on {base}; running schemathesis", flush=True)
            code = 0
            # a token bound to a person reaches that person only (and never other people's
            # conversations): the owner-document routes run with ana's token, the rest
            # with a tenant-wide one
            for token, selection in (
                (db.tokens["wide"], ["--exclude-tag", "persona"]),
                (db.tokens["all"], ["--include-tag", "persona"]),
            ):
                code = code or subprocess.call(
                    [
                        str(Path(sys.executable).with_name("schemathesis")),
                        "run",
                        f"{base}/v1/openapi.json",
                        *selection,
                        "--header",
                        f"Authorization: Bearer {token}",
                        "--mode",
                        "all",
                        "--phases",
                        "examples,coverage,fuzzing",
                        "--checks",
                        "all",
                        "--exclude-checks",
                        EXCLUDED_CHECKS,
                        "--max-examples",
                        str(args.max_examples),
                        "--max-time",
                        str(args.max_time),
                        "--seed",
                        "20261129",
                        # one worker: hypothesis's lambda descriptions call ast.parse, which
                        # on CPython 3.11 fails in concurrent threads ("AST constructor
                        # recursion depth mismatch"); the server still has two workers
                        "--workers",
                        "1",
                        "--request-timeout",
                        "30",
                        "--suppress-health-check",
                        "too_slow",
                    ],
                    cwd=folder,  # schemathesis keeps a cache folder where it runs
                    env={**db.env, "SCHEMATHESIS_HOOKS": ""},
                )
        log = (folder / "gunicorn.log").read_text(errors="replace")
        if "Traceback" in log or " 500 " in log:
            print("schema_live: the server logged an error:\n" + log[-4000:], flush=True)
            code = code or 1
        return code
    finally:
        if args.keep:
            print(f"schema_live: kept {folder}")
        else:
            shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
