#!/usr/bin/env python
"""Ingest benchmark: record_turn, ``memory import`` and the embedding task.

    .venv/bin/python bench/ingest.py                       # SQLite, scratch file in /tmp
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/pw_x .venv/bin/python bench/ingest.py

On SQLite the database is a temporary file; with DATABASE_URL the database is used as
is (migrated if needed) and the rows this run created are deleted at the end. The
Celery broker folder is a scratch folder too, and REDIS_URL is ignored, so no task
reaches a real worker.

Prints: messages/second for record_turn and for ``memory import`` of a generated
file (and its idempotent second run), and the embedding task's sentences/second next
to raw ``model.encode`` throughput on the same texts, measured in the same process.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import random
import resource
import shutil
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

VERBS = [
    "draft",
    "review",
    "summarise",
    "check",
    "update",
    "schedule",
    "prepare",
    "compare",
    "file",
    "sort",
]
THINGS = [
    "the quarterly sales report",
    "the invoice from the printer supplier",
    "the onboarding checklist",
    "the travel plan for the Lisbon visit",
    "the minutes of Monday's stand-up",
    "the budget spreadsheet",
    "the release notes for version two",
    "the customer complaint about late delivery",
    "the team rota",
    "the contract renewal terms",
    "the expense claims of last month",
    "the slides for the board meeting",
]
WHENS = [
    "before Friday",
    "by tomorrow morning",
    "this afternoon",
    "after lunch",
    "before the call",
    "by the end of the week",
    "first thing on Monday",
    "when you have a moment",
]
EXTRAS = [
    "and keep it short",
    "with the totals at the top",
    "and flag anything unusual",
    "in plain language",
    "with a list of open questions",
    "and copy the team lead",
    "using last year's layout",
    "and note what changed since the last version",
]
REPLIES = [
    "Done, the draft is ready for you.",
    "Here is the summary you asked for.",
    "I checked it and found two open points.",
    "Scheduled; you will get a reminder.",
    "Updated as requested.",
    "Sorted by date, newest first.",
]


def sentence(rng: random.Random, n: int) -> str:
    # the running number keeps texts distinct, as real messages mostly are
    return (
        f"Could you {rng.choice(VERBS)} {rng.choice(THINGS)} {rng.choice(WHENS)}, "
        f"{rng.choice(EXTRAS)}? This is request {n} for the desk."
    )


def setup_django(scratch: Path) -> bool:
    """Point settings at scratch storage before Django starts; returns whether it is PostgreSQL."""
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "personaweb.settings")
    # DEBUG stays off, as on a server; the settings then need a key
    os.environ.setdefault(
        "SECRET_KEY", "bench-only-key-for-a-throwaway-database-never-for-a-server-1f4e"
    )
    os.environ["PERSONAWEB_VAR_DIR"] = str(scratch / "var")
    os.environ.pop("REDIS_URL", None)
    os.environ.setdefault("LOG_LEVEL", "WARNING")
    postgres = bool(os.environ.get("DATABASE_URL"))
    if not postgres:
        os.environ["SQLITE_PATH"] = str(scratch / "bench.sqlite3")
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    return postgres


def rate(count: int, seconds: float) -> str:
    return f"{count / seconds:,.0f}/s" if seconds > 0 else "n/a"


def bench_record_turn(*, tag: str, turns: int, rng: random.Random) -> None:
    from memory.services import record_turn
    from persona.services import agent_create
    from tenancy.models import Tenant

    tenant = Tenant.objects.create(name=f"Bench {tag}", slug=f"bench-{tag}")
    agent = agent_create(tenant=tenant, name="Bench desk", slug=f"bench-{tag}-desk")
    start_at = datetime(2026, 10, 1, 8, 0, tzinfo=UTC)
    texts = [sentence(rng, n) for n in range(turns)]
    t0 = time.perf_counter()
    for n, text in enumerate(texts):
        record_turn(
            agent=agent,
            principal_external_id=f"user-{n % 10}",
            conversation=f"conv-{n % 100}",
            user_text=text,
            assistant_text=rng.choice(REPLIES),
            at=start_at + timedelta(minutes=n),
        )
    seconds = time.perf_counter() - t0
    print(
        f"record_turn      {turns:,} turns ({2 * turns:,} messages) in {seconds:.1f} s: "
        f"{rate(turns, seconds)} turns, {rate(2 * turns, seconds)} messages"
    )


def bench_embedding() -> None:
    """The embedding task against raw ``model.encode`` on the very same texts.

    The task runs one chunk per call (``time_budget=0``: exactly one
    ``embed_pending(limit=EMBEDDING_TASK_CHUNK)``); before or after each call (the order
    alternates) the model encodes the distinct new texts of that chunk directly.
    Interleaving at this grain keeps the load of other processes on a shared machine
    from favouring either side.
    """
    from django.conf import settings

    from memory import embeddings
    from memory.models import Message, TextEmbedding
    from memory.selectors import messages_pending_embedding
    from memory.tasks import embed_pending_messages

    model = embeddings.get_model()
    model.encode(["warm up the model"] * 8, batch_size=8)
    pending = Message.objects.filter(embedding__isnull=True).count()
    chunk = settings.EMBEDDING_TASK_CHUNK

    def raw(texts: list[str]) -> float:
        t0 = time.perf_counter()
        model.encode(
            texts,
            batch_size=settings.EMBEDDING_BATCH_SIZE,
            normalize_embeddings=True,
            convert_to_numpy=True,
            show_progress_bar=False,
        )
        return time.perf_counter() - t0

    def task() -> tuple[int, float]:
        t0 = time.perf_counter()
        linked = embed_pending_messages.apply(kwargs={"time_budget": 0}).get()
        return linked, time.perf_counter() - t0

    raw_seconds = task_seconds = 0.0
    sentences = linked_total = rounds = 0
    while True:
        head = messages_pending_embedding(limit=chunk)
        if not head:
            break
        shas = {sha for _, sha in head}
        known = set(TextEmbedding.objects.filter(sha256__in=shas).values_list("sha256", flat=True))
        texts = list(
            dict(
                Message.objects.filter(id__in=[i for i, _ in head])
                .exclude(text_sha256__in=known)
                .values_list("text_sha256", "text")
            ).values()
        )
        if rounds % 2:
            linked, seconds = task()
            raw_seconds += raw(texts)
        else:
            raw_seconds += raw(texts)
            linked, seconds = task()
        task_seconds += seconds
        linked_total += linked
        sentences += len(texts)
        rounds += 1
    raw_rate = sentences / raw_seconds
    task_rate = sentences / task_seconds
    print(
        f"model.encode     {sentences:,} distinct sentences in {raw_seconds:.1f} s: "
        f"{raw_rate:,.1f} sentences/s (batch {settings.EMBEDDING_BATCH_SIZE})"
    )
    print(
        f"embedding task   the same {sentences:,} sentences in {task_seconds:.1f} s: "
        f"{task_rate:,.1f} sentences/s; linked {linked_total:,} of {pending:,} waiting messages "
        f"({rate(linked_total, task_seconds)} messages) in {rounds} chunks of {chunk}"
    )
    print(f"task / raw       {task_rate / raw_rate:.0%} (goal >= 80%)")


def write_import_file(path: Path, *, tag: str, messages: int, rng: random.Random) -> None:
    per_conv = 20
    start_at = datetime(2026, 9, 1, 8, 0, tzinfo=UTC)
    with path.open("w", encoding="utf-8") as out:
        for n in range(messages):
            conv = n // per_conv
            user_line = n % 2 == 0
            row: dict[str, object] = {
                "agent": f"bench-{tag}-import-{conv % 2}",
                "user": f"person-{conv % 200}",
                "conversation": f"import-{conv}",
                "role": "user" if user_line else "assistant",
                "text": sentence(rng, n) if user_line else rng.choice(REPLIES),
                "at": (
                    start_at + timedelta(minutes=conv * 30, seconds=n % per_conv * 20)
                ).isoformat(),
            }
            if conv % 50 == 0:
                row["sealed"] = True
            out.write(json.dumps(row) + "\n")


def bench_import(*, tag: str, path: Path, messages: int) -> None:
    from django.core.management import call_command

    from memory.models import Message

    before = Message.objects.count()
    t0 = time.perf_counter()
    call_command(
        "memory", "import", str(path), "--tenant", f"bench-{tag}", verbosity=0, stdout=io.StringIO()
    )
    first = time.perf_counter() - t0
    added = Message.objects.count() - before
    t0 = time.perf_counter()
    call_command(
        "memory", "import", str(path), "--tenant", f"bench-{tag}", verbosity=0, stdout=io.StringIO()
    )
    second = time.perf_counter() - t0
    again = Message.objects.count() - before - added
    print(
        f"memory import    {messages:,} messages in {first:.1f} s: {rate(added, first)} messages "
        f"(added {added:,})"
    )
    print(
        f"import again     {second:.1f} s: {rate(messages, second)} lines checked, added {again:,}"
    )


def cleanup(tag: str, embedding_floor: int) -> None:
    from memory.models import Message, TextEmbedding
    from tenancy.models import Agent, Tenant

    Agent.objects.filter(slug__startswith=f"bench-{tag}-").delete()
    Tenant.objects.filter(slug=f"bench-{tag}").delete()
    used = Message.objects.filter(embedding__isnull=False).values("embedding_id")
    TextEmbedding.objects.filter(id__gt=embedding_floor).exclude(id__in=used).delete()


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--turns", type=int, default=2_000, help="record_turn calls (default 2000)")
    parser.add_argument(
        "--messages", type=int, default=100_000, help="lines of the import file (default 100000)"
    )
    parser.add_argument("--skip-embedding", action="store_true")
    parser.add_argument(
        "--smoke",
        action="store_true",
        help="20 turns, 100 lines to import (CI; figures meaningless)",
    )
    args = parser.parse_args()
    if args.smoke:
        args.turns, args.messages = 20, 100

    scratch = Path(tempfile.mkdtemp(prefix="personaweb-bench-"))
    tag = f"{os.getpid()}-{int(time.time())}"
    rng = random.Random(20261129)
    postgres = setup_django(scratch)
    from django.db import connection
    from django.db.models import Max

    from memory.models import TextEmbedding

    embedding_floor = TextEmbedding.objects.aggregate(top=Max("id"))["top"] or 0
    print(f"database: {connection.vendor} ({connection.settings_dict['NAME']}), run {tag}")
    try:
        bench_record_turn(tag=tag, turns=args.turns, rng=rng)
        if not args.skip_embedding:
            bench_embedding()
        path = scratch / "messages.jsonl"
        write_import_file(path, tag=tag, messages=args.messages, rng=rng)
        bench_import(tag=tag, path=path, messages=args.messages)
        peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        print(f"peak memory      {peak_mb:,.0f} MB (whole process, model included)")
    finally:
        if postgres:
            cleanup(tag, embedding_floor)
        connection.close()
        shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    main()
