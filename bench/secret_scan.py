"""Secret scan figures: detection on credentials and false alarms on look-alikes, per family.

    .venv/bin/python bench/secret_scan.py            # every part
    .venv/bin/python bench/secret_scan.py --misses   # also list every miss and false alarm
    .venv/bin/python bench/secret_scan.py --lopo     # the learned layer, leaving one part out
    .venv/bin/python bench/secret_scan.py --forward  # frozen rules + scorer, forward in time

The labelled texts are in ``safety/data/secrets_<part>.jsonl`` (``{"text",
"label": "secret" | "ordinary", "family"}``). The ``tune`` part was used while writing the
rules in ``safety.secrets``. A part named ``test`` or ``<name>_test`` is kept aside: the
learned layer never learns from it. Every later part was written independently
(by someone who never saw the rules or the other parts), measured once right after the
rules were frozen, and then used to change them, which makes it a seen part:

- ``seen1`` (74 texts): 100 % detected / 4.9 % false alarms;
- ``seen2`` (181 texts): 77.8 % / 13.2 % (the first truly independent set);
- ``seen3`` (217 texts): 83.9 % / 7.6 %;
- ``seen4`` (239 texts): 91.7 % / 11.8 %;
- ``seen5`` (258 texts): 90.7 % / 6.2 % (was ``test``);
- ``seen6`` (288 texts): 96.6 % / 5.7 % (was ``test``; the first part measured on the
  general mechanisms with the learned layer stacked on them).

After seen5 the rules were rewritten as general mechanisms (see ``safety.secrets``)
plus a learned layer. Honest figures for that change (none of them on a part the change
was fitted to):

- the first version of the general mechanisms, written looking at seen1..seen4 only,
  measured once on seen5: 94.6 % / 7.8 % (with the learned layer trained on tune..seen4
  stacked on it: 93.8 % / 4.7 %);
- ``--forward``: rules as frozen before each part + the learned layer trained on the
  earlier parts, pooled over seen2..seen5: rules 86.7 % / 9.5 %, stacked 87.1 % / 7.4 %;
  with seen6 (whose frozen rules already stack the layer, so its "rules" line is the
  96.6 % / 5.7 % above): rules 89.1 % / 8.6 %, stacked 89.5 % / 7.2 %;
- ``--lopo``: the learned layer alone, one part left out at a time, pooled: 88.5 % / 10.1 %
  over tune..seen5, 90.7 % / 11.4 % with seen6 (not enough alone; it is only used stacked
  on the rules).

seen6's five misses and seven false alarms (the eighth is AWS's example key) were then
fixed by their general causes (keypad, locker and combination codes; "log into ... and
use <password>"; keys written in groups; urn: content hashes; base64 of any text, tables
and paths included; redaction markers; PEM blocks whose body is prose; public keys kept
from the learned layer; media, list and page ids in URL queries). With those rules and
the learned layer of before seen6 (trained on tune..seen5), seen6 reads 100 % / 0.7 %;
that too is fitted.

Every seen part now reads 100 % detected and at most 0.8 % false alarms (the one
false alarm is AWS's documented example key, refused on purpose): those figures are
fitted and say nothing about fresh text.

``test`` (270 texts, written by a helper who never saw the rules or any other part,
committed after the seen6 round was frozen at c9df8bf) was measured once on
2026-12-01: **98.6 % detected (142/144) / 3.2 % false alarms (4/126)**; misses: a Mailgun
``api:key-<hex>`` pair, "gate pin 2087"; false alarms: a bare ``git rev-parse HEAD`` hash
on the line after the command, base64 of browser hints in a header, AWS's example key
(refused on purpose), "a good passphrase is four or five random words". It has not been
used to change anything; when it is, rename it ``seen7`` and write the next ``test``.

Later (2026-12-01, third session) the learned layer's veto judges each generic hit in its
own lines (the hit's line and two either side), not in the whole text: a token in a pasted
CI config above a long build log was vetoed as part of the whole message (found by the
learning evaluation, fresh5 hivewatch-fw, not by these sets). Every figure above stayed the
same (test 98.6 % / 3.2 %, every seen part as before); 4,010 texts/s uncached (loaded machine).
Engineering text (2026-12-06, safety42; issue 27 point 3): an AXI4-Lite register map was
dropped from the learning evidence as a secret (learned score 0.99, no secret in it). A new
part of 112 texts was written before any change: register and pin maps, part numbers,
firmware build output, datasheet and protocol prose, firmware configs and version strings,
and passwords, keys and tokens pasted into the same kinds of text (part-number-shaped
passwords included). It is split by family into ``hardware`` (58 texts, learned from and
looked at) and ``hardware_test`` (54 texts, kept aside: ``secret_scorer.measured_only``,
measured once at the end). Traced cause: the scorer read ``AXI4-Lite`` as a random token,
its four character classes coming from the join (``best`` +2.75 and its class key +1.79 of
the 5.2 logit). Names joined from pieces (``AXI4-Lite``, ``ESP32-S3``, ``SPI1_CS``,
``FreeRTOS-10.5.1``) now get features of their own (``secret_scorer._name_pieces``);
passwords written as words and a number (``Phx-Row-8812``) keep a random token's. Before ->
after (``find_secrets``; the evidence path, ``safety.evidence.secret_kinds``, reads the same):

- tune..seen6 and ``test``: unchanged (100 % detected on every seen part, test 98.6 % / 3.2 %);
- ``hardware`` (tuned): 100 % / 12.9 % (4/31) -> 100 % / 0 %;
- ``hardware_test`` (kept aside, measured once): 78.3 % (18/23) / 9.7 % (3/31) -> 78.3 % /
  3.2 % (1/31). The five misses are the same before and after, all rule gaps (a
  ``-DWIFI_PSK=\"...\"`` build flag, base64 under ``ARTIFACTORY_TOKEN:``, an ``xdt_live_``
  key, a "passkey" of words and symbols, a fixed BLE passkey); the false alarm left is a
  Wishbone register map with ``DATA@0x0``;
- ``--forward`` pooled: rules + scorer 89.5 % / 7.2 % -> 89.8 % / 7.2 % (seen2 and seen3 one
  more text detected each, seen4..seen6 identical); scorer alone 82.6 % / 15.1 % -> 83.0 % /
  15.2 %; ``--lopo`` pooled 90.7 % / 11.4 % -> 90.1 % / 11.0 % (now with ``hardware``);
- seen assistants' messages dropped from the evidence as secrets (``safety.evidence``): 120
  -> 115, the five all ordinary (two AXI4-Lite requests among them), none added.

No live credential is in any file.
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
# DEBUG stays off, as on a server; the settings then need a key
os.environ.setdefault(
    "SECRET_KEY", "bench-only-key-for-a-throwaway-database-never-for-a-server-1f4e"
)

import django  # noqa: E402

django.setup()

from safety import secret_scorer, secrets  # noqa: E402

DATA = ROOT / "safety" / "data"
PARTS = (
    "tune",
    "seen1",
    "seen2",
    "seen3",
    "seen4",
    "seen5",
    "seen6",
    "test",
    "hardware",
    "hardware_test",
)
#: Rows read per part and label; ``--smoke`` sets it, None reads all.
LIMIT: int | None = None


def load(part: str) -> list[dict]:
    path = DATA / f"secrets_{part}.jsonl"
    if not path.exists():
        return []
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]
    if LIMIT is None:
        return rows
    secret = [r for r in rows if r["label"] == "secret"]
    ordinary = [r for r in rows if r["label"] == "ordinary"]
    return secret[:LIMIT] + ordinary[:LIMIT]


def report(part: str, rows: list[dict], *, misses: bool) -> None:
    flagged = [bool(secrets.find_secrets(r["text"])) for r in rows]
    by_family: dict[tuple[str, str], list[bool]] = defaultdict(list)
    for r, f in zip(rows, flagged, strict=True):
        by_family[(r["label"], r["family"])].append(f)
    pos = [f for r, f in zip(rows, flagged, strict=True) if r["label"] == "secret"]
    neg = [f for r, f in zip(rows, flagged, strict=True) if r["label"] == "ordinary"]
    print(
        f"{part:13s} detection {sum(pos) / len(pos):6.1%} ({sum(pos)}/{len(pos)})"
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


def _rates(pred: list[bool], rows: list[dict]) -> tuple[int, int, int, int]:
    pos = [p for p, r in zip(pred, rows, strict=True) if r["label"] == "secret"]
    neg = [p for p, r in zip(pred, rows, strict=True) if r["label"] != "secret"]
    return sum(pos), len(pos), sum(neg), len(neg)


def _line(name: str, tp: int, n_pos: int, fp: int, n_neg: int) -> str:
    return f"{name:34s} detection {tp / n_pos:6.1%}   false alarms {fp / n_neg:6.1%}"


def lopo() -> None:
    """The scorer alone, trained on every other part and measured on the one left out.

    This is the honest estimate for the learned layer on its own; the rules were written
    while looking at every part, so no such estimate exists for them."""
    parts = [p for p in PARTS if not secret_scorer.measured_only(p) and load(p)]
    total = [0, 0, 0, 0]
    for held in parts:
        model = secret_scorer.train([r for p in parts if p != held for r in load(p)])
        rows = load(held)
        rates = _rates([model.score(r["text"]) >= 0.5 for r in rows], rows)
        total = [a + b for a, b in zip(total, rates, strict=True)]
        print(_line(f"scorer, {held} left out", *rates))
    print(_line("scorer, pooled", *total))


#: The rules as they were frozen before each independent part was first measured (then
#: at memory/safety/secrets.py; the package is the top-level ``safety`` app since).
FROZEN = (
    ("seen2", "ee44a94"),
    ("seen3", "f54c0d0"),
    ("seen4", "08c9ef6"),
    ("seen5", "4a1e705"),
    ("seen6", "ce2bb4d"),  # its rules already stack the learned layer
)


def forward() -> None:
    """Forward in time: the rules frozen before part N (read from git), the scorer trained
    on the parts before N, both measured on N. Reproduces each part's one fresh
    measurement, then shows what the learned layer (veto below ``VETO_BELOW``, flag at
    ``FLAG_ABOVE``) would have changed."""
    import importlib.util
    import subprocess
    import tempfile

    generic = {secrets.KEYWORD_KIND, "Base64 High Entropy String", "Hex High Entropy String"}
    totals: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0, 0])
    for held, commit in FROZEN:
        source = subprocess.run(
            ["git", "show", f"{commit}:memory/safety/secrets.py"],
            cwd=ROOT,
            capture_output=True,
            text=True,
            check=True,
        ).stdout.replace("memory.safety", "safety")
        with tempfile.NamedTemporaryFile("w", suffix=".py", delete=False) as f:
            f.write(source)
        spec = importlib.util.spec_from_file_location(f"rules_{commit}", f.name)
        assert spec and spec.loader
        rules = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(rules)
        os.unlink(f.name)
        before = PARTS[: PARTS.index(held)]
        model = secret_scorer.train([r for p in before for r in load(p)])
        secret_scorer.set_model(model)  # rules that stack the scorer use the one of their time
        rows = load(held)
        kinds = [set(rules.find_secrets(r["text"])) for r in rows]
        secret_scorer.set_model(None)
        prob = [model.score(r["text"]) for r in rows]
        stacked = [
            (bool(k) and not (k <= generic and p < secret_scorer.VETO_BELOW))
            or (not k and p >= secret_scorer.FLAG_ABOVE and secrets.has_candidate(r["text"]))
            for k, p, r in zip(kinds, prob, rows, strict=True)
        ]
        for name, pred in (
            (f"{held}: rules of {commit}", [bool(k) for k in kinds]),
            (f"{held}: scorer alone", [p >= 0.5 for p in prob]),
            (f"{held}: rules + scorer", stacked),
        ):
            rates = _rates(pred, rows)
            kind = name.split(": ")[1].split(" of ")[0]
            totals[kind] = [a + b for a, b in zip(totals[kind], rates, strict=True)]
            print(_line(name, *rates))
    for kind, sums in totals.items():
        print(_line(f"pooled: {kind}", *sums))


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--misses", action="store_true", help="list misses and false alarms")
    parser.add_argument("--lopo", action="store_true", help="scorer, leaving one part out")
    parser.add_argument("--forward", action="store_true", help="frozen rules + scorer in time")
    parser.add_argument(
        "--smoke",
        action="store_true",
        help="CI: 10 rows per part, then --forward on the last frozen rules (needs git history)",
    )
    args = parser.parse_args()
    if args.smoke:
        global LIMIT, FROZEN
        LIMIT, FROZEN = 10, FROZEN[-1:]
    if args.lopo or args.forward:
        lopo() if args.lopo else None
        forward() if args.forward else None
        return
    everything = []
    for part in PARTS:
        rows = load(part)
        if rows:
            report(part, rows, misses=args.misses)
            everything += rows
        else:
            print(f"{part:13s} (no labelled file)")
    if not everything:
        raise SystemExit(f"no labelled secrets_*.jsonl file in {DATA}")
    speed(everything)
    if args.smoke:
        forward()


if __name__ == "__main__":
    main()
