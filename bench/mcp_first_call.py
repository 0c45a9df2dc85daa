#!/usr/bin/env python
"""First-call latency of a fresh stdio MCP process: ``build_context`` as the first call,
then warm calls, next to each other.

    .venv/bin/python bench/mcp_first_call.py            # 3 fresh processes
    .venv/bin/python bench/mcp_first_call.py --runs 1

Seeds a file SQLite database in a temporary folder (never DATABASE_URL; the seed of
tests/api/live.py), then for each run starts ``manage.py mcp --agent helper --principal
ana`` over stdio as a host would (embeddings on, the default 8 s tool timeout, host
reads not waiting), times the first ``build_context`` (from the request, the process
already answering the handshake), then waits for the model and times a warm call. Prints
each call's milliseconds and its ``ranking`` (``words`` while the model was loading,
``embedding`` once it is in), and the machine's load average.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import anyio  # noqa: E402
from mcp import Client, StdioServerParameters  # noqa: E402

from tests.api import live  # noqa: E402

QUERY = "What tea does she like in the afternoon?"


async def one_process(env: dict[str, str], *, warm_wait: float) -> list[tuple[str, float, str]]:
    params = StdioServerParameters(
        command=sys.executable,
        args=[live.MANAGE, "mcp", "--agent", "helper", "--principal", "ana"],
        env=env,
        cwd=str(live.ROOT),
    )
    out: list[tuple[str, float, str]] = []

    async def timed(label: str) -> None:
        t0 = time.perf_counter()
        result = await client.call_tool("build_context", {"query": QUERY})
        ms = 1000 * (time.perf_counter() - t0)
        ranking = "ERROR" if result.is_error else result.structured_content["ranking"]
        out.append((label, ms, ranking))

    async with Client(params, read_timeout_seconds=120) as client:
        await timed("first")
        await timed("second")
        await anyio.sleep(warm_wait)  # the background load finishes
        for i in range(3):
            await timed(f"warm {i + 1}")
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=3, help="fresh processes (default 3)")
    parser.add_argument("--warm-wait", type=float, default=20.0, help="seconds before warm calls")
    parser.add_argument("--smoke", action="store_true", help="one process, no warm wait (CI)")
    args = parser.parse_args()
    if args.smoke:
        args.runs, args.warm_wait = 1, 0.0
    errors = 0
    folder = Path(tempfile.mkdtemp(prefix="pw-bench-mcp-"))
    try:
        db = live.prepare_db(folder)
        env = {**db.env, "MEMORY_BELIEF_EMBEDDINGS": "1", "PERSONAWEB_PAGE_SCAN_WAIT": "0"}
        print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
        for run in range(args.runs):
            rows = anyio.run(lambda: one_process(env, warm_wait=args.warm_wait))
            errors += sum(ranking == "ERROR" for _, _, ranking in rows)
            cells = ", ".join(f"{label} {ms:7.1f} ms ({ranking})" for label, ms, ranking in rows)
            print(f"process {run + 1}: {cells}")
        print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    if errors:
        print(f"{errors} call(s) answered with an error")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
