#!/usr/bin/env python
"""HTTP API benchmark: the prefix route under a real WSGI server, next to a trivial route.

    .venv/bin/python bench/api.py                 # 20 clients, 20 s per route
    .venv/bin/python bench/api.py --seconds 5     # a quick look
    .venv/bin/python bench/api.py --rounds 4      # phases take turns (a shared machine)

Seeds a file SQLite database in a temporary folder (never DATABASE_URL), starts
gunicorn with 2 sync workers on 127.0.0.1, and drives it with ``--clients`` concurrent
clients (spread over 4 processes, one keep-nothing HTTP/1.1 connection per request, as
gunicorn's sync workers close each one) for ``--seconds`` per phase, in one run:

* ``GET /v1/health``: the trivial route (no token, no database);
* ``GET /v1/agents/helper/prefix``: the hot path, a host token, a pinned plan;
* the same with ``If-None-Match``: 304, no body;
* ``POST /v1/agents/helper/turns``: record-turn throughput (SQLite, one writer at a time);
* MCP over stdio: a fresh ``manage.py mcp`` started by the SDK's client, the time to
  its first answer (start and handshake), its first ``build_context`` (a cold process)
  and a second one (warm), ``--mcp-rounds`` times.

Before the phases, every gunicorn worker answers a prefix and a context call (the
query embedded, once its encoder is in), and the bench prints each worker's resident
memory (RSS, from ``/proc``) and whether torch or ONNX Runtime is mapped into it (goal:
one worker <= 250 MB); again after the phases.

The server runs with ``PERSONAWEB_API_RATE_LIMIT=0``: the bench drives one token far
over any sensible per-token limit.

Prints requests/s, p50 and p95 per phase, and the prefix/trivial ratio (goal: at least
50 %, p95 under 25 ms; 304s cheaper still). Every loop is bounded by the phase time and
the server is stopped at the end; only 127.0.0.1 is used. ``--smoke`` (CI): 2 clients,
1 s per phase, and an error answer or a phase with no request fails the run.
"""

from __future__ import annotations

import argparse
import http.client
import json
import multiprocessing as mp
import os
import shutil
import statistics
import sys
import tempfile
import threading
import time
import urllib.parse
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.api import live  # noqa: E402

PROCESSES = 4


def _client_thread(
    port: int, phase: dict, deadline: float, ident: str, out: list[float], errors: list[int]
) -> None:
    n = 0
    while time.monotonic() < deadline:
        n += 1
        body = None
        if phase["method"] == "POST":
            body = json.dumps(
                {
                    "principal": f"bench-{ident}",
                    "conversation": f"bench-{ident}",
                    "user_text": f"Turn {n}: plan the sourdough order for the market.",
                    "assistant_text": "Here is a plan.",
                }
            )
        started = time.perf_counter()
        try:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
            conn.request(phase["method"], phase["path"], body=body, headers=phase["headers"])
            response = conn.getresponse()
            response.read()
            conn.close()
        except OSError:
            errors.append(0)
            continue
        elapsed = time.perf_counter() - started
        if response.status != phase["expect"]:
            errors.append(response.status)
            continue
        out.append(elapsed)


def _client_process(
    port: int, phase: dict, threads: int, seconds: float, proc_no: int, queue
) -> None:
    deadline = time.monotonic() + seconds
    out: list[float] = []
    errors: list[int] = []
    workers = [
        threading.Thread(
            target=_client_thread,
            args=(port, phase, deadline, f"{proc_no}-{i}", out, errors),
            daemon=True,
        )
        for i in range(threads)
    ]
    for w in workers:
        w.start()
    for w in workers:
        w.join(timeout=seconds + 60)
    queue.put((out, len(errors), sorted(set(errors))[:5]))


def run_phase(port: int, phase: dict, *, clients: int, seconds: float) -> dict:
    queue: mp.Queue = mp.Queue()
    per = [clients // PROCESSES + (1 if i < clients % PROCESSES else 0) for i in range(PROCESSES)]
    procs = [
        mp.Process(target=_client_process, args=(port, phase, n, seconds, i, queue))
        for i, n in enumerate(per)
        if n
    ]
    started = time.monotonic()
    for p in procs:
        p.start()
    latencies: list[float] = []
    errors = 0
    codes: set[int] = set()
    for _ in procs:
        out, n_err, some = queue.get(timeout=seconds + 120)
        latencies += out
        errors += n_err
        codes.update(some)
    for p in procs:
        p.join(timeout=30)
    wall = time.monotonic() - started
    return summary(phase["name"], [(latencies, errors, codes, seconds, wall)])


def summary(name: str, runs: list[tuple[list[float], int, set[int], float, float]]) -> dict:
    """One phase's figures over its runs (several with ``--rounds``)."""
    latencies = sorted(x for run in runs for x in run[0])
    seconds = sum(run[3] for run in runs)
    q = statistics.quantiles(latencies, n=100) if len(latencies) >= 100 else None
    return {
        "name": name,
        "requests": len(latencies),
        "rps": len(latencies) / seconds if latencies else 0.0,
        "p50_ms": (q[49] if q else statistics.median(latencies or [0])) * 1000,
        "p95_ms": (q[94] if q else max(latencies or [0])) * 1000,
        "errors": sum(run[1] for run in runs),
        "codes": sorted(set().union(*(run[2] for run in runs))),
        "wall": sum(run[4] for run in runs),
        "runs": runs,
    }


def _workers_of(master: int) -> list[int]:
    """Pids of the gunicorn master's children (its workers), from /proc."""
    pids = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        # "pid (comm) state ppid ...": comm may hold spaces, so split after the last ")"
        if int(stat.rsplit(")", 1)[1].split()[1]) == master:
            pids.append(int(entry.name))
    return sorted(pids)


def _memory_of(pid: int) -> tuple[float, str]:
    """(RSS in MB, which encoder runtime is mapped: torch / onnxruntime / none)."""
    rss = 0.0
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            rss = int(line.split()[1]) / 1024
    maps = Path(f"/proc/{pid}/maps").read_text()
    loaded = [name for name in ("libtorch", "onnxruntime") if name in maps]
    return rss, "+".join(loaded) or "none"


def _get(port: int, path: str, token: str) -> tuple[int, dict]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    conn.request("GET", path, headers={"Authorization": f"Bearer {token}"})
    response = conn.getresponse()
    body = response.read()
    conn.close()
    return response.status, json.loads(body or b"{}") if response.status == 200 else {}


def worker_memory(master: int, *, label: str) -> list[str]:
    """Each worker's RSS and mapped encoder runtime, printed; returns the problems."""
    problems = []
    for pid in _workers_of(master):
        rss, runtime = _memory_of(pid)
        print(f"  worker {pid}: RSS {rss:6.1f} MB ({label}), encoder runtime: {runtime}")
        if rss > 250:
            problems.append(f"worker {pid} RSS {rss:.0f} MB > 250 MB")
    return problems


def first_calls(port: int, master: int, db: live.LiveDb, *, workers: int) -> None:
    """Every worker's first prefix and context calls: concurrent pairs of calls (sync
    workers take one request each) until every worker has its encoder in and the
    context answers rank on meaning; each query is new (no cache answers)."""
    prefix = "/v1/agents/helper/prefix?principal=ana&session=first-calls"
    deadline = time.monotonic() + 120
    rounds = 0
    ranked: list[str] = []
    while time.monotonic() < deadline:
        rounds += 1

        def pair(n: int, out: list[str], rounds: int = rounds) -> None:
            code, _ = _get(port, prefix, db.tokens["host"])
            if code != 200:
                out.append(f"prefix error {code}")
                return
            query = urllib.parse.quote(f"What tea does she like, round {rounds} call {n}?")
            code, pack = _get(port, f"/v1/context?query={query}", db.tokens["all"])
            out.append(str(pack.get("ranking")) if code == 200 else f"context error {code}")

        ranked = []
        threads = [threading.Thread(target=pair, args=(n, ranked)) for n in range(2 * workers)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        errors = [r for r in ranked if "error" in r]
        if errors:
            raise RuntimeError(f"first calls failed: {errors[:3]}")
        loaded = all(_memory_of(pid)[1] != "none" for pid in _workers_of(master))
        if loaded and rounds >= 2 and all(r == "embedding" for r in ranked):
            break
        time.sleep(0.5)
    print(
        f"first prefix and context calls: {rounds} rounds of {2 * workers} pairs; "
        f"last round ranked on {', '.join(sorted(set(ranked)))}"
    )


def mcp_first_call(db: live.LiveDb, *, rounds: int) -> None:
    """A fresh ``manage.py mcp`` over stdio (the SDK's client starts it, as a host does):
    seconds to the first answer (process start and handshake), to the first
    ``build_context`` of the process and to a second one. Embeddings on, as a host runs it."""
    import anyio
    from mcp import Client, StdioServerParameters

    params = StdioServerParameters(
        command=sys.executable,
        args=[live.MANAGE, "mcp", "--agent", "helper", "--principal", "ana", "--timeout", "60"],
        env=db.env,
        cwd=str(ROOT),
    )
    ask = {"query": "What does she sell at the market?"}

    async def one() -> tuple[float, float, float]:
        started = time.perf_counter()
        async with Client(params, read_timeout_seconds=120) as client:
            ready = time.perf_counter() - started
            t0 = time.perf_counter()
            first = await client.call_tool("build_context", ask)
            cold = time.perf_counter() - t0
            t0 = time.perf_counter()
            second = await client.call_tool("build_context", ask)
            warm = time.perf_counter() - t0
        if first.is_error or second.is_error:
            raise RuntimeError(f"build_context failed: {first.content} {second.content}")
        return ready, cold, warm

    print(f"MCP over stdio, a fresh process each round ({rounds} rounds):", flush=True)
    for n in range(1, rounds + 1):
        ready, cold, warm = anyio.run(one)
        print(
            f"  round {n}: start + handshake {ready * 1000:7.0f} ms   first build_context "
            f"{cold * 1000:7.0f} ms   second (warm) {warm * 1000:7.0f} ms",
            flush=True,
        )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--clients", type=int, default=20)
    parser.add_argument("--workers", type=int, default=2, help="gunicorn workers")
    parser.add_argument("--mcp-rounds", type=int, default=3, help="fresh MCP processes")
    parser.add_argument("--mcp-only", action="store_true", help="only the MCP first call")
    parser.add_argument(
        "--rounds",
        type=int,
        default=1,
        help="split each phase into this many turns, the phases taking turns (fairer ratios "
        "on a shared machine)",
    )
    parser.add_argument("--smoke", action="store_true", help="2 clients, 1 s per phase (CI)")
    args = parser.parse_args()
    if args.smoke:
        args.seconds, args.clients, args.mcp_rounds, args.rounds = 1.0, 2, 1, 1
    rounds = max(1, min(args.rounds, 20))
    seconds = max(1.0, min(args.seconds, 300.0))
    clients = max(1, min(args.clients, 200))
    folder = Path(tempfile.mkdtemp(prefix="pw-bench-api-"))
    try:
        print(f"seeding a database in {folder} ...", flush=True)
        db = live.prepare_db(folder)
        mcp_first_call(db, rounds=max(1, min(args.mcp_rounds, 20)))
        if args.mcp_only:
            return 0
        port = live.free_port()
        auth = {"Authorization": f"Bearer {db.tokens['host']}"}
        prefix = "/v1/agents/helper/prefix?principal=ana&session=bench"
        with live.running(
            live.gunicorn_argv(port, workers=args.workers),
            env={**db.env, "PERSONAWEB_API_RATE_LIMIT": "0"},
            ready_url=f"http://127.0.0.1:{port}/v1/health",
            log=folder / "gunicorn.log",
        ) as server:
            first_calls(port, server.pid, db, workers=args.workers)
            memory_problems = worker_memory(
                server.pid, label="after its first prefix and context calls"
            )
            print("  goal: one web worker <= 250 MB")
            # pin the plan and read its ETag (the first call renders and stores it)
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
            conn.request("GET", prefix, headers=auth)
            response = conn.getresponse()
            etag = response.getheader("ETag")
            response.read()
            conn.close()
            assert response.status == 200 and etag, response.status
            phases = [
                {
                    "name": "trivial GET /v1/health",
                    "method": "GET",
                    "path": "/v1/health",
                    "headers": {},
                    "expect": 200,
                },
                {
                    "name": "prefix GET (200)",
                    "method": "GET",
                    "path": prefix,
                    "headers": auth,
                    "expect": 200,
                },
                {
                    "name": "prefix GET If-None-Match (304)",
                    "method": "GET",
                    "path": prefix,
                    "headers": {**auth, "If-None-Match": etag},
                    "expect": 304,
                },
                {
                    "name": "record turn POST (201)",
                    "method": "POST",
                    "path": "/v1/agents/helper/turns",
                    "headers": {**auth, "Content-Type": "application/json"},
                    "expect": 201,
                },
            ]
            print(
                f"gunicorn, {args.workers} sync workers on 127.0.0.1:{port}; {clients} clients, "
                f"{seconds:g} s per phase in {rounds} turn(s) (machine: {mp.cpu_count()} "
                f"cores, shared; load average {os.getloadavg()[0]:.1f})",
                flush=True,
            )
            # --rounds: the phases take turns, so a neighbour's load on a shared machine
            # falls on every phase alike and the ratios stay fair
            runs: dict[str, list] = {phase["name"]: [] for phase in phases}
            for _ in range(rounds):
                for phase in phases:
                    r = run_phase(port, phase, clients=clients, seconds=seconds / rounds)
                    runs[phase["name"]] += r["runs"]
            results = []
            for phase in phases:
                r = summary(phase["name"], runs[phase["name"]])
                results.append(r)
                extra = f"  errors {r['errors']} {r['codes']}" if r["errors"] else ""
                print(
                    f"  {r['name']:<34} {r['rps']:8.1f} req/s   p50 {r['p50_ms']:6.1f} ms   "
                    f"p95 {r['p95_ms']:6.1f} ms   ({r['requests']} requests){extra}",
                    flush=True,
                )
            memory_problems += worker_memory(server.pid, label="after the phases")
        trivial, full, cond, turns = results
        if trivial["rps"]:
            print(
                f"prefix/trivial throughput: {100 * full['rps'] / trivial['rps']:.0f} % "
                f"(goal >= 50 %); 304/trivial: {100 * cond['rps'] / trivial['rps']:.0f} %; "
                f"prefix p95 {full['p95_ms']:.1f} ms (goal < 25 ms)"
            )
        print(f"record-turn throughput: {turns['rps']:.1f} turns/s, p95 {turns['p95_ms']:.1f} ms")
        failed = [r["name"] for r in results if r["errors"] or not r["requests"]]
        if memory_problems:
            print("memory over the goal: " + "; ".join(memory_problems))
        if args.smoke and failed:
            print(f"smoke: errors or no answer in {'; '.join(failed)}", file=sys.stderr)
            return 1
        return 0
    finally:
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
