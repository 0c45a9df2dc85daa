"""Persona learning figures: ``python bench/learning.py`` (SQLite) or with
``DATABASE_URL=postgres://...`` (PostgreSQL). Builds its own throwaway database.

Prints:
1. review time excluding the model call, for a maximal review (team mode, standing
   rules on, 8 threads x 40 user messages; a scripted proposer answering at once);
2. the beat sweep over 10,000 agents with learning on (1,000 due), and its query
   count next to the same sweep over 1,000 agents (100 due);
3. a review with the local proposer on stored embeddings (the same 8 x 40 corpus).

``--smoke`` (CI): 2 threads x 4 messages, one run of each, sweeps over 20 agents.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "personaweb.settings")
# DEBUG stays off, as on a server; the settings then need a key
os.environ.setdefault(
    "SECRET_KEY", "bench-only-key-for-a-throwaway-database-never-for-a-server-1f4e"
)
os.environ.setdefault("HF_HUB_OFFLINE", "1")

import django  # noqa: E402

django.setup()

from datetime import UTC, datetime, timedelta  # noqa: E402

from django.db import connection  # noqa: E402
from django.test.utils import CaptureQueriesContext  # noqa: E402
from django.utils import timezone  # noqa: E402

RUNS = 15
THREADS, MESSAGES = 8, 40  # the desk's corpus: threads x user messages
SWEEPS = ((1_000, 100), (10_000, 1_000))  # (agents, due)
SWEEP_RUNS, LOCAL_RUNS = 3, 5
PEOPLE = ["dev", "callum", "priya", "ana"]
T0 = datetime(2026, 11, 2, 9, 0, tzinfo=UTC)
WORK = [
    "Draft a customer update for claim {n} about the water damage in the kitchen.",
    "Can you draft a customer update for claim {n}? The loss adjuster visits on Tuesday.",
    "Please draft a customer update for claim {n} saying the report is still with the surveyor.",
]
FILLER = [
    "What does the policy say about temporary accommodation for claim {n}?",
    "Summarise the notes from the call with the contractor on claim {n}.",
    "Check whether the excess on claim {n} was already paid by the customer.",
    "List the documents still missing from the file for claim {n}.",
]
CORRECTION = "Thanks, but please write dates in full in the update for claim {n}."


def build_desk():
    from learning.services import learning_settings_update
    from memory.services import record_turn
    from tests.factories import TenantFactory, make_agent

    tenant = TenantFactory(name="Bench", slug="bench")
    agent = make_agent(tenant=tenant, slug="bench-desk", name="Desk", role="Claims desk assistant")
    learning_settings_update(
        agent=agent,
        values={"mode": "on-with-review", "across_users": True, "standing_rules": True},
        by="bench",
    )
    hour = 0.0
    for c in range(THREADS):
        who = PEOPLE[c % len(PEOPLE)]
        label = f"desk-{who}-{c}"
        for i in range(MESSAGES):
            n = 1000 + c * MESSAGES + i
            if i == 0:
                text = WORK[c % len(WORK)].format(n=n)
            elif i == 1:
                text = CORRECTION.format(n=n)
            else:
                text = FILLER[i % len(FILLER)].format(n=n)
            hour += 0.01
            record_turn(
                agent=agent,
                principal_external_id=who,
                conversation=label,
                user_text=text,
                assistant_text=f"Here is what I found for claim {n}.",
                at=T0 + timedelta(hours=hour),
            )
    return agent


class Instant:
    """A proposer that answers at once with a proposal the code will verify and accept."""

    name = "instant"

    def propose_sentence(self, corpus, persona, settings, *, avoid=frozenset()):
        from learning.proposers.base import ProposerResult

        evidence = [
            {"quote": "draft a customer update for claim", "conversation": m.conversation_label}
            for m in corpus.messages
            if m.seq == 1
        ]
        return ProposerResult(
            data={
                "field": "goals",
                "sentence": "Drafts customer updates for claims.",
                "evidence": evidence,
            },
            calls=1,
        )

    def propose_rule(self, corpus, persona, settings, *, avoid=frozenset()):
        from learning.proposers.base import ProposerResult

        evidence = [
            {"quote": "please write dates in full", "conversation": m.conversation_label}
            for m in corpus.messages
            if m.after_assistant and "dates in full" in m.text
        ]
        return ProposerResult(data={"rule": "Write dates in full.", "evidence": evidence}, calls=1)


def reset(agent) -> None:
    from learning.models import LearningSettings, Proposal

    Proposal.objects.filter(agent=agent).delete()
    LearningSettings.objects.filter(agent=agent).update(last_seen_message_id=0)


def bench_review(
    agent, proposer, *, runs: int = RUNS, cold: bool = False
) -> tuple[list[float], object]:
    from learning.services import review_run
    from safety.text import normalize

    times, review = [], None
    for _ in range(runs):
        reset(agent)
        if cold:  # as if every message were new to this process
            normalize.cache_clear()
        review = review_run(agent=agent, trigger="cli", proposer=proposer)
        times.append(review.details["timings"]["without_model_ms"])
    return times, review


def bench_sweep(n_agents: int, n_due: int) -> tuple[float, int, int]:
    from learning.models import LearningSettings
    from learning.services import due_agents_claim
    from tenancy.models import Agent, Tenant

    tenant, _ = Tenant.objects.get_or_create(slug=f"sweep-{n_agents}", defaults={"name": "Sweep"})
    now = timezone.now()
    agents = Agent.objects.bulk_create(
        [Agent(tenant=tenant, name=f"S{i}", slug=f"sweep-{n_agents}-{i}") for i in range(n_agents)],
        batch_size=2000,
    )
    LearningSettings.objects.bulk_create(
        [
            LearningSettings(
                agent=a,
                mode="on",
                due_at=now - timedelta(minutes=1)
                if i < n_due
                else now + timedelta(hours=1 + i % 24),
            )
            for i, a in enumerate(agents)
        ],
        batch_size=2000,
    )
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")
    with CaptureQueriesContext(connection) as ctx:
        t0 = time.perf_counter()
        claimed = due_agents_claim(now=now)
        elapsed = (time.perf_counter() - t0) * 1000
    assert len(claimed) == n_due, (len(claimed), n_due)
    LearningSettings.objects.filter(agent__tenant=tenant).delete()
    Agent.objects.filter(tenant=tenant).delete()
    return elapsed, len(ctx.captured_queries), len(claimed)


def bench_enqueue(n_due: int) -> str:
    """The whole sweep, with its 1,000 task messages published to Redis (a bench queue)."""
    import redis

    from learning import tasks
    from learning.models import LearningSettings
    from learning.services import sweep_due_agents_run
    from tenancy.models import Agent, Tenant

    queue = f"bench-learning-{os.getpid()}"
    tenant, _ = Tenant.objects.get_or_create(slug="enqueue", defaults={"name": "Enqueue"})
    agents = Agent.objects.bulk_create(
        [Agent(tenant=tenant, name=f"E{i}", slug=f"enqueue-{i}") for i in range(n_due)]
    )
    now = timezone.now()
    LearningSettings.objects.bulk_create(
        [LearningSettings(agent=a, mode="on", due_at=now - timedelta(minutes=1)) for a in agents]
    )
    original = tasks.review_agent.apply_async
    tasks.review_agent.apply_async = lambda args, **kw: original(args, queue=queue, **kw)
    try:
        t0 = time.perf_counter()
        enqueued = sweep_due_agents_run(now=now)
        elapsed = (time.perf_counter() - t0) * 1000
    finally:
        tasks.review_agent.apply_async = original
        client = redis.Redis.from_url(os.environ["REDIS_URL"])
        waiting = client.llen(queue)
        client.delete(queue)
        LearningSettings.objects.filter(agent__tenant=tenant).delete()
        Agent.objects.filter(tenant=tenant).delete()
    return (
        f"whole sweep incl. publishing {enqueued:,} review tasks to Redis after commit: "
        f"{elapsed:.0f} ms ({waiting:,} messages reached the queue)"
    )


def fmt(times: list[float]) -> str:
    return f"median {statistics.median(times):.1f} ms, min {min(times):.1f} ms, max {max(times):.1f} ms"


def main() -> None:
    global RUNS, THREADS, MESSAGES, SWEEPS, SWEEP_RUNS, LOCAL_RUNS
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--smoke", action="store_true", help="tiny data, one run (CI)")
    if parser.parse_args().smoke:
        RUNS, THREADS, MESSAGES, SWEEPS, SWEEP_RUNS, LOCAL_RUNS = 1, 2, 4, ((20, 2),), 1, 1
    tmp = tempfile.mkdtemp(prefix="bench-learning-")
    if connection.vendor == "sqlite":
        connection.settings_dict["TEST"]["NAME"] = str(Path(tmp) / "bench.sqlite3")
    test_db = connection.creation.create_test_db(verbosity=0, autoclobber=True, serialize=False)
    try:
        print(f"database: {connection.vendor} ({test_db})")
        agent = build_desk()

        for cold in (True, False):
            times, review = bench_review(agent, Instant(), cold=cold)
            label = "cold text cache" if cold else "warm text cache"
            print(
                f"1. maximal review without the model call (team mode, rules on, "
                f"{review.threads_read} threads x {review.messages_read // max(review.threads_read, 1)} messages, "
                f"outcome {review.outcome}, {review.model_calls} proposer calls, {label}): "
                f"{fmt(times)}  [goal < 50 ms]"
            )

        from memory.models import Message
        from safety.text import normalize

        texts = list(
            Message.objects.filter(conversation__agent=agent, role="user").values_list(
                "text", flat=True
            )
        )
        norm_times = []
        for _ in range(5):
            normalize.cache_clear()
            t0 = time.perf_counter()
            for _ in range(3):  # is_directive, then verify_quotes for the sentence and the rule
                for text in texts:
                    normalize(text)
            norm_times.append((time.perf_counter() - t0) * 1000)
        print(
            f"   of which safety.text.normalize on the {len(texts)} messages, 3 passes: "
            f"median {statistics.median(norm_times):.1f} ms"
        )

        for n, due in SWEEPS:
            runs = [bench_sweep(n, due) for _ in range(SWEEP_RUNS)]
            best = min(r[0] for r in runs)
            queries = {r[1] for r in runs}
            print(
                f"2. beat sweep over {n:,} agents with learning on ({due:,} due): "
                f"{best:.1f} ms (best of {SWEEP_RUNS}), {sorted(queries)} queries  [goal < 200 ms]"
            )

        if os.environ.get("REDIS_URL"):
            print(f"   {bench_enqueue(SWEEPS[-1][1])}")

        from learning.proposers.local import LocalProposer
        from memory.embeddings import embed_pending

        t0 = time.perf_counter()
        while embed_pending(limit=512) == 512:
            pass
        print(
            f"   (embedding the corpus once, model load included: {time.perf_counter() - t0:.1f} s)"
        )
        local_times = []
        for _ in range(LOCAL_RUNS):
            reset(agent)
            from learning.services import review_run

            review = review_run(agent=agent, trigger="cli", proposer=LocalProposer())
            local_times.append(review.details["timings"]["total_ms"])
        sentence = review.details["parts"]["sentence"]
        rule = review.details["parts"]["rule"]
        print(
            f"3. review with the local proposer on stored embeddings ({THREADS} x {MESSAGES}, team mode, rules on): "
            f"{fmt(local_times)}; outcome {review.outcome}: {sentence['text']!r} / {rule['text']!r}"
        )
    finally:
        connection.creation.destroy_test_db(test_db, verbosity=0)


if __name__ == "__main__":
    main()
