"""Recall of ``memory.context.build_context``, measured: ``python bench/eval_recall.py [--json]``.

Builds a throwaway SQLite database (a temporary file; ``DATABASE_URL`` and
``REDIS_URL`` are ignored), writes the 200 beliefs of ``bench/eval_recall/`` through
``belief_write`` (oldest first, each at its own time so retention differs; statement
vectors from the packaged all-MiniLM-L6-v2 model, computed in one batch), then asks
the 68 queries of ``queries.txt`` at 2026-11-17T09:00Z in four configurations: words
only, + time facet, + embeddings, + both (the default of ``build_context``).

Reported, for the ``tune`` and ``heldout`` parts separately (heldout is never tuned
on), overall and by kind: recall@3 (share of the expected keys, up to three, in the
first three items) and MRR@10 (1 / rank of the first expected item in ten). Also:
cross-person leaks (an item about the other person in any pack, pinned included) and
expired-first (an ended belief ranked first for a present-tense question). See
``bench/eval_recall/README.md`` for the fixture. ``--no-embed`` skips the model.
``--encoder onnx|torch`` picks the sentence encoder (``safety.encoder``) for the statements
and the queries; ``both`` (the default, but for ``--smoke`` and ``--no-embed``) runs the
whole evaluation once with each, in two processes, and prints both, then their overall
figures side by side: the ONNX encoder must not lose recall.
``--smoke`` (CI) asks one query per part and kind of a tenth of the beliefs (and those the
queries expect): the same code, figures meaningless.
Figures are from whatever machine runs it; printed, never asserted.
"""

from __future__ import annotations

import sys
from pathlib import Path

# bench/ holds secrets.py (a bench of its own) that would shadow the standard module
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).resolve().parent]

import argparse  # noqa: E402
import json  # noqa: E402
import os  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402
from collections import defaultdict  # noqa: E402
from dataclasses import dataclass  # noqa: E402
from datetime import UTC, datetime, timedelta  # noqa: E402
from typing import Any  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "bench" / "eval_recall"
NOW = datetime(2026, 11, 17, 9, 0, tzinfo=UTC)
AGENT = "recall-eval"
KINDS = ("direct", "paraphrase", "time", "expired_trap", "other_person_trap")
#: tune: may be looked at while changing the ranking; heldout: never tuned on; fresh: a
#: part written later by someone who had not read the code, measured once (``--data``)
PARTS = ("tune", "heldout", "fresh")


@dataclass(frozen=True)
class FixtureBelief:
    key: str
    principal: str
    category: str
    statement: str
    days_ago: float
    valid_from: datetime | None
    valid_until: datetime | None
    due: datetime | None


@dataclass(frozen=True)
class Query:
    id: str
    principal: str
    kind: str
    part: str
    text: str
    expected: tuple[str, ...]


def _rows(path: Path) -> list[list[str]]:
    out = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.lstrip().startswith("#"):
            out.append([cell.strip() for cell in line.split("|")])
    return out


def load_beliefs(data: Path = DATA) -> list[FixtureBelief]:
    """The beliefs of every ``beliefs_<person>.txt`` in ``data`` (the person's id is the
    file name's end)."""
    beliefs = []
    for path in sorted(data.glob("beliefs_*.txt")):
        principal = path.stem.removeprefix("beliefs_")
        for key, category, statement, options in _rows(path):
            opts = dict(part.split("=", 1) for part in options.split())

            def day(name: str, opts: dict[str, str] = opts) -> datetime | None:
                return NOW + timedelta(days=float(opts[name])) if name in opts else None

            beliefs.append(
                FixtureBelief(
                    key=key,
                    principal=principal,
                    category=category,
                    statement=statement,
                    days_ago=float(opts.get("days_ago", "30")),
                    valid_from=day("valid_from"),
                    valid_until=day("valid_until"),
                    due=day("due"),
                )
            )
    keys = [b.key for b in beliefs]
    assert len(keys) == len(set(keys)), "duplicate belief keys"
    return beliefs


def load_queries(known: set[str], data: Path = DATA) -> list[Query]:
    queries = []
    for qid, principal, kind, part, text, expected in _rows(data / "queries.txt"):
        keys = tuple(k.strip() for k in expected.split(",") if k.strip())
        assert kind in KINDS and part in PARTS, qid
        assert keys and set(keys) <= known, f"{qid}: unknown key in {keys}"
        queries.append(Query(qid, principal, kind, part, text, keys))
    return queries


def _setup(tmp: Path, *, embed: bool, encoder: str | None = None) -> None:
    os.environ["DJANGO_SETTINGS_MODULE"] = "personaweb.settings"
    if encoder:
        os.environ["PERSONAWEB_ENCODER"] = encoder
    os.environ["SQLITE_PATH"] = str(tmp / "eval.sqlite3")
    os.environ["PERSONAWEB_VAR_DIR"] = str(tmp / "var")
    os.environ.setdefault("DEBUG", "1")
    for name in ("DATABASE_URL", "REDIS_URL"):
        os.environ.pop(name, None)
    os.environ["CELERY_TASK_ALWAYS_EAGER"] = "1"
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()
    from django.conf import settings

    settings.MEMORY_BELIEF_EMBEDDINGS = embed


def build(beliefs: list[FixtureBelief], *, embed: bool) -> tuple[dict[str, int], dict[str, Any]]:
    """Write the fixture; return key -> surviving belief id, and load figures."""
    from django.core.management import call_command

    from memory.models import Belief
    from memory.services_beliefs import belief_write
    from safety.errors import UnsafeText
    from tenancy.services import agent_create, tenant_get_or_create

    call_command("migrate", verbosity=0)
    tenant, _ = tenant_get_or_create(slug="eval")
    agent = agent_create(tenant=tenant, name="Recall eval", slug=AGENT)
    t0 = time.perf_counter()
    encoder_name = "none"
    if embed:
        from memory.embeddings import vectors_for_texts
        from safety import encoder

        vectors_for_texts([b.statement for b in beliefs])
        encoder_name = str(encoder.backend())
    embed_s = time.perf_counter() - t0
    ids: dict[str, int] = {}
    outcomes: dict[str, int] = defaultdict(int)
    merged: list[str] = []
    t0 = time.perf_counter()
    refused: list[str] = []
    for b in sorted(beliefs, key=lambda b: -b.days_ago):
        try:
            result = belief_write(
                agent=agent,
                principal_external_id=b.principal,
                category=b.category,
                statement=b.statement,
                confidence=0.8,
                source="direct",
                valid_from=b.valid_from,
                valid_until=b.valid_until,
                due=b.due,
                evidence={"host": "recall eval"},
                now=NOW - timedelta(days=b.days_ago),
            )
        except UnsafeText as refusal:
            # the write check refused it, as it would refuse a host: the belief is not
            # in memory, and a query expecting it counts as a miss
            outcomes["refused"] += 1
            refused.append(f"{b.key}: {refusal}")
            continue
        outcomes[result.outcome] += 1
        ids[b.key] = result.belief.pk
        if result.outcome != "created":
            merged.append(f"{b.key} {result.outcome} #{result.belief.pk}")
    write_s = time.perf_counter() - t0
    inactive = Belief.objects.exclude(status=Belief.Status.ACTIVE).values_list("id", flat=True)
    lost = sorted(k for k, pk in ids.items() if pk in set(inactive))
    return ids, {
        "outcomes": dict(outcomes),
        "merged": merged,
        "keys_not_active": lost,
        "refused": refused,
        "embed_s": round(embed_s, 2),
        "encoder": encoder_name,
        "write_ms_per_belief": round(1000 * write_s / len(beliefs), 2),
    }


def summary_of(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """recall@3 and MRR@10 over per-query rows (``recall3``, ``rr``)."""
    if not rows:
        return {"n": 0}
    return {
        "n": len(rows),
        "recall@3": round(sum(r["recall3"] for r in rows) / len(rows), 4),
        "mrr@10": round(sum(r["rr"] for r in rows) / len(rows), 4),
    }


def evaluate(
    queries: list[Query],
    beliefs: list[FixtureBelief],
    ids: dict[str, int],
    *,
    embeddings: bool,
    time_facet: bool,
) -> dict[str, Any]:
    from memory.context import build_context, past_intent
    from tenancy.models import Agent

    agent = Agent.objects.get(slug=AGENT)
    owner = {ids[b.key]: b.principal for b in beliefs if b.key in ids}
    ended = {
        ids[b.key]
        for b in beliefs
        if b.key in ids and b.valid_until is not None and b.valid_until < NOW
    }
    per_query = []
    leaks = expired_first = 0
    elapsed = []
    for q in queries:
        t0 = time.perf_counter()
        pack = build_context(
            agent=agent,
            principal_external_id=q.principal,
            query=q.text,
            now=NOW,
            limit=10,
            use_embeddings=embeddings,
            use_time_facet=time_facet,
        )
        elapsed.append(time.perf_counter() - t0)
        ranked = [item.id for item in pack.items]
        leaks += sum(1 for i in ranked + [p.id for p in pack.pinned] if owner.get(i) != q.principal)
        if ranked and ranked[0] in ended and not past_intent(q.text):
            expired_first += 1
        wanted = {ids.get(k, -1) for k in q.expected}  # -1: refused at write, never found
        recall = len(wanted & set(ranked[:3])) / min(len(wanted), 3)
        rr = next((1 / (r + 1) for r, i in enumerate(ranked[:10]) if i in wanted), 0.0)
        per_query.append({"id": q.id, "kind": q.kind, "part": q.part, "recall3": recall, "rr": rr})

    summary = summary_of

    out: dict[str, Any] = {
        "leaks": leaks,
        "expired_first": expired_first,
        "ms_mean": round(1000 * sum(elapsed) / len(elapsed), 2),
    }
    out["parts"] = [p for p in PARTS if any(r["part"] == p for r in per_query)]
    for part in (*out["parts"], "all"):
        rows = [r for r in per_query if part == "all" or r["part"] == part]
        out[part] = {"overall": summary(rows)}
        for kind in KINDS:
            out[part][kind] = summary([r for r in rows if r["kind"] == kind])
    out["misses"] = [r["id"] for r in per_query if r["rr"] == 0]
    return out


def _table(results: dict[str, dict[str, Any]]) -> str:
    lines = []
    head = f"{'configuration':<26} {'part':<8} {'recall@3':>9} {'MRR@10':>8}  " + "  ".join(
        f"{k[:12]:>12}" for k in KINDS
    )
    lines.append(head)
    lines.append("-" * len(head))
    for name, res in results.items():
        for part in (*res["parts"], "all"):
            o = res[part]["overall"]
            kinds = "  ".join(
                f"{res[part][k]['recall@3'] * 100:5.1f}/{res[part][k]['mrr@10']:.2f}"
                if res[part][k]["n"]
                else f"{'-':>12}"
                for k in KINDS
            )
            lines.append(
                f"{name:<26} {part:<8} {o['recall@3'] * 100:8.1f}% {o['mrr@10']:8.3f}  {kinds}"
            )
        lines.append(
            f"{'':<26} leaks {res['leaks']}, expired ranked first {res['expired_first']}, "
            f"mean {res['ms_mean']} ms/query, misses: {' '.join(res['misses']) or 'none'}"
        )
    lines.append("(by kind: recall@3 % / MRR@10)")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")
    parser.add_argument("--no-embed", action="store_true", help="words only (no model)")
    parser.add_argument("--only", default=None, help="run only this configuration (by name)")
    parser.add_argument(
        "--smoke", action="store_true", help="one query per part and kind (CI; figures meaningless)"
    )
    parser.add_argument(
        "--data",
        type=Path,
        default=DATA,
        help="a fixture folder: beliefs_<person>.txt files and queries.txt (default: %(default)s)",
    )
    parser.add_argument(
        "--encoder",
        choices=("onnx", "torch", "both"),
        default=None,
        help="sentence encoder (default: both, one run each; onnx for --smoke)",
    )
    args = parser.parse_args(argv)
    if args.encoder is None:
        args.encoder = "onnx" if args.smoke or args.no_embed else "both"
    if args.encoder == "both":
        return _both(args)
    beliefs = load_beliefs(args.data)
    queries = load_queries({b.key for b in beliefs}, args.data)
    if args.smoke:
        firsts: dict[tuple[str, str], Query] = {}
        for q in queries:
            firsts.setdefault((q.part, q.kind), q)
        queries = list(firsts.values())
        wanted = {k for q in queries for k in q.expected}
        beliefs = [b for i, b in enumerate(beliefs) if b.key in wanted or i % 10 == 0]
    with tempfile.TemporaryDirectory(prefix="eval-recall-") as tmp:
        _setup(Path(tmp), embed=not args.no_embed, encoder=args.encoder)
        ids, load = build(beliefs, embed=not args.no_embed)
        configs = [("words", False, False), ("words + time facet", False, True)]
        if not args.no_embed:
            configs += [
                ("words + embeddings", True, False),
                ("words + emb + time facet", True, True),
            ]
        results = {
            name: evaluate(queries, beliefs, ids, embeddings=emb, time_facet=facet)
            for name, emb, facet in configs
            if args.only is None or name == args.only
        }
    report = {
        "beliefs": len(beliefs),
        "queries": len(queries),
        "by_part": {p: sum(1 for q in queries if q.part == p) for p in PARTS},
        "load": load,
        "results": results,
    }
    if args.json:
        print(json.dumps(report, indent=2))
    else:
        parts = ", ".join(f"{p} {n}" for p, n in report["by_part"].items() if n)
        print(
            f"{len(beliefs)} beliefs, {len(queries)} queries ({parts}) from {args.data}; "
            f"load: {load['outcomes']}, keys not active: {load['keys_not_active'] or 'none'}, "
            f"refused at write: {load['refused'] or 'none'}; "
            f"encoder: {load['encoder']}"
        )
        if load["merged"]:
            print("merged at load: " + "; ".join(load["merged"]))
        print(_table(results))
    return 0


def _both(args: argparse.Namespace) -> int:
    """The evaluation once per encoder (each in its own process, so each loads only its
    own model), both reports printed, then the overall figures side by side."""
    import subprocess

    reports: dict[str, dict[str, Any]] = {}
    for name in ("torch", "onnx"):
        argv = [sys.executable, str(Path(__file__).resolve()), "--encoder", name, "--json"]
        argv += ["--smoke"] if args.smoke else []
        argv += ["--data", str(args.data)]
        argv += ["--only", args.only] if args.only else []
        done = subprocess.run(argv, capture_output=True, text=True, check=False)
        if done.returncode:
            print(done.stdout[-2000:], done.stderr[-4000:], file=sys.stderr)
            return done.returncode
        reports[name] = json.loads(done.stdout)
    if args.json:
        print(json.dumps(reports, indent=2))
        return 0
    for name, report in reports.items():
        print(f"== encoder: {name} (statements and queries) ==")
        print(
            f"load: {report['load']['outcomes']}, statements encoded in "
            f"{report['load']['embed_s']} s"
        )
        print(_table(report["results"]))
        print()
    print(
        f"{'configuration':<26} {'part':<8} {'torch r@3':>10} {'onnx r@3':>9} "
        f"{'torch MRR':>10} {'onnx MRR':>9}"
    )
    torch_results, onnx_results = reports["torch"]["results"], reports["onnx"]["results"]
    for config, res in torch_results.items():
        for part in (*res["parts"], "all"):
            a, b = res[part]["overall"], onnx_results[config][part]["overall"]
            print(
                f"{config:<26} {part:<8} {a['recall@3'] * 100:9.1f}% {b['recall@3'] * 100:8.1f}% "
                f"{a['mrr@10']:10.3f} {b['mrr@10']:9.3f}"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
