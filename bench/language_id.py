"""Which language a text is written in: ``learning.language.detect`` and
``persona_language`` against an answer key (``python bench/language_id.py``).

The key (``bench/language_id/key.json``) was written before any detector was tuned on
it: the language of every persona of the seen learning parts (read from each part's
persona JSON, never from a never-tuned part) and short sentences per language, such as
people write to an assistant or a review proposes (requests, rules, one-line goals).
Sentences at even positions may be tuned on; those at odd positions are kept aside
(``--heldout`` prints them; never tune on what it shows). A language the proposer does
not name (``language.LANGUAGE_NAMES``: Czech, Finnish, Danish, ...) is expected as
``language.UNREAD``.

Prints, for the personas and for each half of the sentences: right, "cannot tell" ("",
no harm: the caller reads the persona's language) and wrong (read as another language:
a persona read with another language's frames, a sentence refused), every miss, and the
time per persona and per sentence (the identifier loaded once, before timing).
``--smoke`` (CI) runs the same, without the sentences kept aside.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from learning import language  # noqa: E402

KEY = ROOT / "bench" / "language_id" / "key.json"
DATA = ROOT / "bench" / "learning_eval"


def expected(code: str) -> str:
    return code if code in language.LANGUAGE_NAMES else language.UNREAD


def score(rows: list[tuple[str, str, str]], detect: Any) -> tuple[dict[str, int], list, float]:
    """(right, cannot tell, wrong), the misses and the milliseconds per row."""
    start = time.perf_counter()
    got = [detect(text) for _, _, text in rows]
    ms = (time.perf_counter() - start) * 1000 / max(1, len(rows))
    tally = {"right": 0, "cannot tell": 0, "wrong": 0}
    misses = []
    for (name, want, text), said in zip(rows, got, strict=True):
        verdict = "right" if said == expected(want) else "cannot tell" if not said else "wrong"
        tally[verdict] += 1
        if verdict != "right":
            misses.append((verdict, name, want, said, text[:80].replace("\n", " ")))
    return tally, misses, ms


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--heldout", action="store_true", help="also the sentences kept aside")
    parser.add_argument("--smoke", action="store_true", help="(CI) the same: it takes seconds")
    args = parser.parse_args()
    key = json.loads(KEY.read_text())
    personas = []
    for name, code in key["personas"].items():
        persona = json.loads((DATA / f"{name}.json").read_text())["persona"]
        personas.append((name, code, persona))
    language.detect("warm up: the identifier loads once")
    halves = {"tune": 0, "heldout": 1} if args.heldout else {"tune": 0}
    start = time.perf_counter()
    found = [language.persona_language(p) for _, _, p in personas]
    ms = (time.perf_counter() - start) * 1000 / len(personas)
    tally = {"right": 0, "cannot tell": 0, "wrong": 0}
    for (name, code, _), said in zip(personas, found, strict=True):
        verdict = "right" if said == expected(code) else "cannot tell" if not said else "wrong"
        tally[verdict] += 1
        if verdict != "right":
            print(f"  persona {verdict}: {name} is {code}, read as {said!r}")
    print(f"personas: {tally} of {len(personas)} ({ms:.2f} ms each)")
    for half, parity in halves.items():
        rows = [
            (f"{lang}#{i}", lang, text)
            for lang, texts in key["sentences"].items()
            for i, text in enumerate(texts)
            if i % 2 == parity
        ]
        tally, misses, ms = score(rows, language.detect)
        for verdict, name, want, said, text in misses:
            print(f"  {half} {verdict}: {name} ({want}) read as {said!r}: {text}")
        print(f"sentences ({half}): {tally} of {len(rows)} ({ms:.2f} ms each)")


if __name__ == "__main__":
    main()
