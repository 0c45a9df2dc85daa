"""Per-query trace of ``bench/eval_recall.py``: ``python bench/eval_recall_trace.py FOLD``.

Builds one fold (``root`` for ``bench/eval_recall``, else ``freshN``) as the harness does
(``onnx``, "words + emb + time facet", the harness's ``NOW``), asks every query with
``limit=100`` and prints, for each query that loses recall@3 or ranks its first answer below
1 (every query with ``--all``), the ranks of the expected keys and the top ``--top`` items
with their score, similarity, word score, cosine and the pack's ``why``; ``--kinds`` and
``--ids`` filter the queries, ``--heirs`` prints every ended belief's heir
(``memory.candidates.successors``), ``--quiet`` only the fold's totals (they equal the
harness's). ``--smoke`` (CI) traces the root fold's first query of each kind over a tenth of
its beliefs (and those the queries expect), as ``bench/eval_recall.py --smoke`` does: the same
code, figures meaningless. Never run it on a never-tuned fold: it shows the answers. Figures
printed, never asserted.
"""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
# bench/ holds secrets.py (a bench of its own) that would shadow the standard module
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != HERE]

import argparse  # noqa: E402
import importlib.util  # noqa: E402
import tempfile  # noqa: E402
from typing import Any  # noqa: E402

_spec = importlib.util.spec_from_file_location("eval_recall", HERE / "eval_recall.py")
assert _spec is not None and _spec.loader is not None
ev: Any = importlib.util.module_from_spec(_spec)
sys.modules["eval_recall"] = ev  # its dataclasses look their module up
_spec.loader.exec_module(ev)


def _line(rank: int, item: Any, key: str, wanted: bool) -> str:
    mark = "*" if wanted else " "
    return (
        f"  {mark}{rank:3d} {key:<22} s={item.score:.3f} sim={item.similarity:.3f} "
        f"lex={item.lexical:.2f} cos={(item.cosine or 0.0):.3f} [{item.category}] "
        f"{item.statement[:70]!r} | {item.why}"
    )


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("fold", nargs="?", help="root or freshN (a seen fold)")
    ap.add_argument("--kinds", default="", help="comma-separated query kinds")
    ap.add_argument("--ids", default="", help="comma-separated query ids (printed whatever)")
    ap.add_argument("--all", action="store_true", help="every query, hit or not")
    ap.add_argument("--top", type=int, default=5)
    ap.add_argument("--heirs", action="store_true", help="every ended belief's heir")
    ap.add_argument("--quiet", action="store_true", help="only the fold's totals")
    ap.add_argument("--smoke", action="store_true", help="CI: root fold, one query per kind")
    args = ap.parse_args()
    if args.smoke:
        args.fold, args.all = args.fold or "root", True
    elif not args.fold:
        ap.error("name a seen fold: root or freshN")
    kinds = set(filter(None, args.kinds.split(",")))
    only = set(filter(None, args.ids.split(",")))
    data = ev.DATA if args.fold == "root" else ev.DATA / args.fold
    with tempfile.TemporaryDirectory(prefix="eval-recall-trace-") as tmp:
        ev._setup(Path(tmp), embed=True, encoder="onnx")
        from memory import context
        from memory.models import Principal
        from tenancy.models import Agent

        beliefs = ev.load_beliefs(data)
        queries = ev.load_queries({b.key for b in beliefs}, data)
        if args.smoke:
            queries = [next(q for q in queries if q.kind == k) for k in ev.KINDS]
            wanted_keys = {k for q in queries for k in q.expected}
            beliefs = [b for i, b in enumerate(beliefs) if b.key in wanted_keys or i % 10 == 0]
        ids, _ = ev.build(beliefs, embed=True)
        key_of = {v: k for k, v in ids.items()}
        agent = Agent.objects.get(slug=ev.AGENT)
        total_recall = total_rr = 0.0
        for q in queries:
            pack = context.build_context(
                agent=agent,
                principal_external_id=q.principal,
                query=q.text,
                now=ev.NOW,
                limit=100,
                use_embeddings=True,
                use_time_facet=True,
            )
            ranked = [it.id for it in pack.items]
            wanted = {ids.get(k, -1) for k in q.expected}
            recall = len(wanted & set(ranked[:3])) / min(len(wanted), 3)
            rr = next((1 / (r + 1) for r, i in enumerate(ranked[:10]) if i in wanted), 0.0)
            total_recall += recall
            total_rr += rr
            if args.quiet or (kinds and q.kind not in kinds) or (only and q.id not in only):
                continue
            if not args.all and not only and recall == 1 and rr == 1:
                continue
            ranks = {
                k: next((r + 1 for r, i in enumerate(ranked) if i == ids.get(k)), None)
                for k in q.expected
            }
            print(f"\n== {args.fold} {q.id} [{q.kind}] r@3={recall:.2f} rr={rr:.2f} :: {q.text}")
            print("   expected: " + ", ".join(f"{k}@{r}" for k, r in ranks.items()))
            shown = list(range(min(args.top, len(pack.items))))
            shown += [r - 1 for r in ranks.values() if r and r > args.top]
            for r in shown:
                it = pack.items[r]
                print(_line(r + 1, it, key_of.get(it.id, "?"), it.id in wanted))
        if args.heirs:
            for person in Principal.objects.all():
                cand = context._candidates(person)
                heir = context._successors_of(cand)
                for i, row in enumerate(cand.rows):
                    if heir[i] >= 0 or (row[6] is not None and row[6] < ev.NOW):
                        to = key_of.get(cand.rows[heir[i]][0], "?") if heir[i] >= 0 else "-"
                        print(f"  heir {key_of.get(row[0], '?'):<24} -> {to}")
        n = len(queries)
        print(f"TOTAL {args.fold} {100 * total_recall / n:.2f} / {total_rr / n:.4f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
