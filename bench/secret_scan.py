"""Secret scan figures: detection on credentials and false alarms on look-alikes, per family.

    .venv/bin/python bench/secret_scan.py            # every part
    .venv/bin/python bench/secret_scan.py --misses   # also list every miss and false alarm

The labelled texts are in ``memory/safety/data/secrets_<part>.jsonl`` (``{"text",
"label": "secret" | "ordinary", "family"}``). The ``tune`` part was used while writing the
rules in ``memory.safety.secrets``. Every later part was written independently
(by someone who never saw the rules or the other parts), measured once right after the
rules were frozen, and then used to change them, which makes it a seen part:

- ``seen1`` (74 texts): 100 % detected / 4.9 % false alarms;
- ``seen2`` (181 texts): 77.8 % / 13.2 % (the first truly independent set);
- ``seen3`` (217 texts): 83.9 % / 7.6 %;
- ``seen4`` (239 texts): 91.7 % / 11.8 %;
- ``seen5`` (258 texts): 90.7 % / 6.2 % (was ``test``).

``test`` is the next independent part: it is added after the rules are frozen again and
only measured (the bench reports "no labelled file" until then). No live credential is in
any file.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "personaweb.settings")

import django  # noqa: E402

django.setup()

from memory.safety import secrets  # noqa: E402

DATA = ROOT / "memory" / "safety" / "data"
PARTS = ("tune", "seen1", "seen2", "seen3", "seen4", "seen5", "test")


def load(part: str) -> list[dict]:
    path = DATA / f"secrets_{part}.jsonl"
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]


def report(part: str, rows: list[dict], *, misses: bool) -> None:
    flagged = [bool(secrets.find_secrets(r["text"])) for r in rows]
    by_family: dict[tuple[str, str], list[bool]] = defaultdict(list)
    for r, f in zip(rows, flagged, strict=True):
        by_family[(r["label"], r["family"])].append(f)
    pos = [f for r, f in zip(rows, flagged, strict=True) if r["label"] == "secret"]
    neg = [f for r, f in zip(rows, flagged, strict=True) if r["label"] == "ordinary"]
    print(
        f"{part:5s} detection {sum(pos) / len(pos):6.1%} ({sum(pos)}/{len(pos)})"
        f"   false alarms {sum(neg) / len(neg):6.1%} ({sum(neg)}/{len(neg)})"
    )
    for (label, family), fs in sorted(by_family.items()):
        what = "detected" if label == "secret" else "flagged "
        print(
            f"      {label:8s} {family:20s} {what} {sum(fs):3d}/{len(fs):<3d} ({sum(fs) / len(fs):6.1%})"
        )
    if misses:
        for r, f in zip(rows, flagged, strict=True):
            if f != (r["label"] == "secret"):
                kind = "missed" if r["label"] == "secret" else "false alarm"
                print(f"      {kind}: {r['text'][:90]}  {secrets.find_secrets(r['text'])}")


def speed(rows: list[dict]) -> None:
    texts = [r["text"] for r in rows]
    start = time.perf_counter()
    n = 0
    for k in range(5):
        for t in texts:
            secrets._scan(f"{t} ({k})")  # distinct texts: the cache does not answer
            n += 1
    print(f"speed {n / (time.perf_counter() - start):8.0f} texts/s (uncached)")


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--misses", action="store_true", help="list misses and false alarms")
    args = parser.parse_args()
    everything = []
    for part in PARTS:
        rows = load(part)
        if rows:
            report(part, rows, misses=args.misses)
            everything += rows
        else:
            print(f"{part:5s} (no labelled file)")
    speed(everything)


if __name__ == "__main__":
    main()
