"""Injection scan figures: detection and false-positive rates per layer, and speed.

    .venv/bin/python bench/injection.py          # rates on train and held-out, scans/s
    .venv/bin/python bench/injection.py --fit    # also the threshold search on train

Layers: "patterns" is normalisation + the pattern table; "semantic" is the embedding
layer on its own; "combined" is what ``memory.safety.injection.scan`` does (either layer).
The thresholds in ``memory.safety.injection`` were chosen with ``--fit`` on the train split
only; held-out rows are measured, never fitted.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "personaweb.settings")
os.environ.setdefault("HF_HUB_OFFLINE", "1")

import django  # noqa: E402

django.setup()

from memory.safety import injection  # noqa: E402
from memory.safety.injection import (  # noqa: E402
    SEMANTIC_MARGIN,
    SEMANTIC_THRESHOLD,
    normalise,
    scan_many,
    semantic_scores,
)
from tests.memory.injection_table import HELDOUT, TRAIN  # noqa: E402

BENIGN_SLACK = 0.03


def rates(flags: list[bool], labels: list[bool]) -> tuple[float, float, int, int]:
    hostile = [f for f, y in zip(flags, labels, strict=True) if y]
    benign = [f for f, y in zip(flags, labels, strict=True) if not y]
    return sum(hostile) / len(hostile), sum(benign) / len(benign), len(hostile), len(benign)


def layer_flags(rows: list[tuple[str, bool]]) -> dict[str, list[bool]]:
    texts = [t for t, _ in rows]
    patterns = [r.blocked for r in scan_many(texts, semantic=False)]
    combined_results = scan_many(texts, semantic=True)
    semantic = [bool(r.semantic_hits) for r in combined_results]
    combined = [r.blocked for r in combined_results]
    return {"patterns": patterns, "semantic": semantic, "combined": combined}


def report(name: str, rows: list[tuple[str, bool]]) -> None:
    labels = [y for _, y in rows]
    flags = layer_flags(rows)
    for layer in ("patterns", "semantic", "combined"):
        det, fp, nh, nb = rates(flags[layer], labels)
        print(
            f"{name:9s} {layer:9s} detection {det:6.1%} ({round(det * nh)}/{nh})   false positives {fp:6.1%} ({round(fp * nb)}/{nb})"
        )


def fit() -> None:
    """Grid search on TRAIN for the semantic layer alone.

    Rule (fixed before the held-out split was measured): every benign train row stays
    at least ``BENIGN_SLACK`` below the decision boundary (in similarity or in lead);
    among those points, as many hostile train rows as possible, then the largest slack.
    """
    texts = [normalise(t).text for t, _ in TRAIN]
    labels = [y for _, y in TRAIN]
    scores = semantic_scores(texts)
    pairs = [(s.attack, s.attack - s.benign, y) for s, y in zip(scores, labels, strict=True) if s]
    points = []
    for t100 in range(30, 91):
        for m100 in range(-10, 31):
            t, m = t100 / 100, m100 / 100
            flags = [a >= t and lead >= m for a, lead, _ in pairs]
            det, fp, _, _ = rates(flags, [y for *_, y in pairs])
            benign_slack = min(max(t - a, m - lead) for a, lead, y in pairs if not y)
            if fp > 0 or benign_slack < BENIGN_SLACK:
                continue
            points.append((det, benign_slack, t, m))
    print(f"fit on train (semantic alone, benign slack >= {BENIGN_SLACK}):")
    if not points:
        print("  no feasible point")
        return
    det, slack, t, m = max(points)
    print(f"  threshold {t:.2f} margin {m:.2f} -> train detection {det:.1%} (slack {slack:.3f})")
    print(f"  in use:   threshold {SEMANTIC_THRESHOLD:.2f} margin {SEMANTIC_MARGIN:.2f}")
    hostile = sorted(
        (
            (s.attack, s.attack - s.benign, t)
            for s, (t, y) in zip(scores, TRAIN, strict=True)
            if y and s
        ),
    )
    benign = sorted(
        (
            (s.attack, s.attack - s.benign, t)
            for s, (t, y) in zip(scores, TRAIN, strict=True)
            if not y and s
        ),
        reverse=True,
    )
    print("  closest benign train rows (attack sim, lead):")
    for a, lead, t in benign[:5]:
        print(f"    {a:.2f} {lead:+.2f}  {t[:70]}")
    print("  weakest hostile train rows (attack sim, lead):")
    for a, lead, t in hostile[:5]:
        print(f"    {a:.2f} {lead:+.2f}  {t[:70]}")


def speed() -> None:
    texts = [t for t, _ in TRAIN + HELDOUT]
    # distinct texts so the per-text cache does not answer
    for semantic, rounds in ((False, 50), (True, 3)):
        n = 0
        start = time.perf_counter()
        for r in range(rounds):
            batch = [f"{t} (variant {r})" for t in texts]
            scan_many(batch, semantic=semantic)
            n += len(batch)
        elapsed = time.perf_counter() - start
        label = "patterns only " if not semantic else "with semantic "
        print(f"{label} {n / elapsed:10.0f} scans/s  ({n} distinct texts, batched)")
    scan_many(texts, semantic=True)  # warm the cache (the speed rounds evicted some)
    start = time.perf_counter()
    for _ in range(20):
        scan_many(texts, semantic=True)
    elapsed = time.perf_counter() - start
    print(f"cached         {20 * len(texts) / elapsed:10.0f} scans/s  (repeat texts, cache hits)")


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--fit", action="store_true", help="print the threshold search on train")
    args = parser.parse_args()
    t0 = time.perf_counter()
    injection.scan("warm up the model", semantic=True)
    print(f"model + exemplars loaded in {time.perf_counter() - t0:.1f} s")
    if args.fit:
        fit()
    report("train", TRAIN)
    report("held-out", HELDOUT)
    speed()


if __name__ == "__main__":
    main()
