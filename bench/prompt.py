#!/usr/bin/env python
"""Prompt-prefix benchmark: the pinned plan's hot path next to a full render.

    .venv/bin/python bench/prompt.py                       # SQLite, scratch file in /tmp
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/pw_x .venv/bin/python bench/prompt.py

On SQLite the database is a temporary file; with DATABASE_URL the database is used as
is (migrated if needed) and the rows this run created are deleted at the end. The
cache is the settings' cache (local memory unless REDIS_URL is set).

Prints, for one agent with a realistic persona and one pinned plan (warm):
``prefix_fetch`` per second with the cache and without it (one indexed read), the plan
call with nothing changed, a full render from the database (load the agent and its
head version, render with the injection scan), the ratios (goal: at least 20x), and
queries per fetch (goal: at most 1, and 0 with the cache).
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

GUARDRAILS = [
    "Never disclose another customer's claim, address or policy number.",
    "Quote the policy clause before saying whether something is covered.",
    "Never give a final coverage decision; say a claims handler decides.",
    "Send a customer who wants new bank details on file to the secure form.",
    "Say plainly when you do not know and offer to pass the question on.",
    "Keep medical details out of summaries unless the customer asks to include them.",
    "Do not promise a payout date.",
    "Escalate any mention of self-harm to a human handler at once.",
]
RULES = [
    "In customer updates, say a referred claim is under review.",
    "Give dates in full, with the day of the week.",
    "Put the claim number in the first line of every summary.",
    "Write amounts with the currency symbol and two decimals.",
]
GOALS = "\n".join(
    [
        "Draft plain-English customer updates for open home and motor claims.",
        "Summarise long claim threads into a short status note for handlers.",
        "Check incoming documents against the checklist of the claim type.",
        "Prepare the weekly report of claims waiting on the customer.",
        "Help new handlers find the policy clause that applies to a question.",
        "Turn handler notes into polite letters that keep the facts unchanged.",
    ]
)
BACKGROUND = "\n".join(
    [
        "Works on the claims desk of a mid-sized home and motor insurer.",
        "The desk handles about four hundred open claims at a time.",
        "Handlers work in two shifts and hand over through written notes.",
        "Most customers write by email; some call and the call notes are pasted in.",
        "The team values short answers that a handler can check in a minute.",
        "Storm season brings sudden peaks of roof and flood claims.",
    ]
)


def setup_django(scratch: Path) -> bool:
    """Point settings at scratch storage before Django starts; returns whether it is PostgreSQL."""
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "personaweb.settings")
    # DEBUG stays off, as on a server; the settings then need a key
    os.environ.setdefault(
        "SECRET_KEY", "bench-only-key-for-a-throwaway-database-never-for-a-server-1f4e"
    )
    os.environ["PERSONAWEB_VAR_DIR"] = str(scratch / "var")
    postgres = bool(os.environ.get("DATABASE_URL"))
    if not postgres:
        os.environ["SQLITE_PATH"] = str(scratch / "bench.sqlite3")
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    return postgres


def per_second(fn: Callable[[], object], *, seconds: float) -> tuple[float, int]:
    """Calls per second of ``fn`` over about ``seconds`` (after one warm-up call)."""
    t0 = time.perf_counter()
    fn()
    batch = 50 if time.perf_counter() - t0 < 0.005 else 1
    count = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        for _ in range(batch):
            fn()
        count += batch
        now = time.perf_counter()
        if now >= deadline:
            return count / (now - start), count


def queries_per_call(fn: Callable[[], object], *, calls: int = 200) -> float:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as ctx:
        for _ in range(calls):
            fn()
    return len(ctx.captured_queries) / calls


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="time per measurement")
    parser.add_argument(
        "--smoke", action="store_true", help="a twentieth of a second per measurement (CI)"
    )
    args = parser.parse_args()
    if args.smoke:
        args.seconds = 0.05

    with tempfile.TemporaryDirectory(prefix="pw-bench-prompt-") as tmp:
        postgres = setup_django(Path(tmp))
        from django.core.cache import cache
        from django.db import connection

        from memory.models import Principal
        from persona.models import AgentPersonaVersion
        from persona.plans import plan_get_or_rotate, prefix_fetch
        from persona.render import render_persona
        from persona.services import ChangeTrigger, agent_create, persona_version_create
        from safety import injection
        from tenancy.models import Agent, Tenant

        tag = f"{os.getpid()}-{int(time.time())}"
        tenant = Tenant.objects.create(name=f"Bench {tag}", slug=f"bench-prompt-{tag}")
        try:
            agent = agent_create(
                tenant=tenant,
                name="Claims desk",
                slug=f"bench-prompt-{tag}",
                role="Assistant to the claims handlers of a home and motor insurer",
                goals=GOALS,
                background=BACKGROUND,
                guardrails=GUARDRAILS,
            )
            persona_version_create(
                agent=agent,
                changes={"standing_rules": RULES},
                trigger=ChangeTrigger(source_type="manual", reason="House rules"),
            )
            person = Principal.objects.create(tenant=tenant, external_id="handler-1")
            plan = plan_get_or_rotate(agent=agent, principal=person, session_key="bench-session")
            cache.clear()

            def fetch_cached() -> object:
                return prefix_fetch(
                    agent_id=agent.id, principal_id=person.id, session_key="bench-session"
                )

            def fetch_db() -> object:
                return prefix_fetch(
                    agent_id=agent.id,
                    principal_id=person.id,
                    session_key="bench-session",
                    use_cache=False,
                )

            def plan_call() -> object:
                return plan_get_or_rotate(
                    agent=agent, principal=person, session_key="bench-session"
                )

            def full_render() -> object:
                fresh = Agent.objects.get(pk=agent.pk)
                version = AgentPersonaVersion.objects.get(
                    agent=fresh, version=fresh.persona_version
                )
                return render_persona(version)

            def full_render_cold_scan() -> object:
                # what a render costs when the injection scan really runs (the first
                # render in a process, or new text): empty the scan's result cache
                injection._cache.clear()
                return full_render()

            assert fetch_cached()[1] == fetch_db()[1] == plan.prefix_sha256
            assert full_render() == plan.prefix_text

            cached_rate, _ = per_second(fetch_cached, seconds=args.seconds)
            db_rate, _ = per_second(fetch_db, seconds=args.seconds)
            plan_rate, _ = per_second(plan_call, seconds=args.seconds)
            render_rate, renders = per_second(full_render, seconds=args.seconds)
            cold_rate, colds = per_second(full_render_cold_scan, seconds=args.seconds)

            db = f"PostgreSQL {connection.pg_version}" if postgres else "SQLite (file, WAL)"
            print(f"database         {db}; cache {type(cache).__name__}")
            print(
                f"prefix           {len(plan.prefix_text):,} chars, {plan.token_count:,} tokens, "
                f"{len(GUARDRAILS)} guardrails, {len(RULES)} rules"
            )
            print(
                f"prefix_fetch     cached   {cached_rate:>10,.0f}/s   queries/fetch {queries_per_call(fetch_cached):.2f}"
            )
            print(
                f"prefix_fetch     no cache {db_rate:>10,.0f}/s   queries/fetch {queries_per_call(fetch_db):.2f}"
            )
            print(
                f"plan call        no change{plan_rate:>10,.0f}/s   queries/call  {queries_per_call(plan_call):.2f}"
            )
            print(
                f"full render      from DB  {render_rate:>10,.0f}/s   queries/render "
                f"{queries_per_call(full_render, calls=20):.2f}  ({renders:,} renders)"
            )
            print(
                f"full render      cold scan{cold_rate:>10,.1f}/s   (injection scan run each time, "
                f"{colds:,} renders)"
            )
            print(
                f"ratio vs render, scan results cached: cached fetch {cached_rate / render_rate:,.0f}x, "
                f"uncached fetch {db_rate / render_rate:,.0f}x"
            )
            print(
                f"ratio vs render, scan run:            cached fetch {cached_rate / cold_rate:,.0f}x, "
                f"uncached fetch {db_rate / cold_rate:,.0f}x   (goal >= 20x)"
            )
        finally:
            Agent.objects.filter(tenant=tenant).delete()
            tenant.delete()


if __name__ == "__main__":
    main()
