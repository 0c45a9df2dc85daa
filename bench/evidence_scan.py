"""False alarms of the injection scan on ordinary user messages and persona fields.

    .venv/bin/python bench/evidence_scan.py            # developer assistants' messages, every persona
    .venv/bin/python bench/evidence_scan.py --all      # every seen assistant's messages
    .venv/bin/python bench/evidence_scan.py --smoke    # CI: one assistant, 12 messages

Reads the *seen* parts of the learning evaluation only (``bench/learning_eval.SEEN_PARTS``;
never a part in ``NEVER_TUNED``). The persona fields are honest; the conversations are
ordinary work but hold a few planted traps (a pasted issue that holds an injection, a
directive, a secret), so each hit is listed for a reader to judge.

Each user message is scored twice:

- ``evidence``: ``safety.evidence.why_unsafe``, what decides whether a review may read it
  (a hit drops the message from the learning evidence);
- ``scan``: the full injection scan, the learned layer included (``safety.injection.scan``,
  what ``check_write`` runs on a quote taken from the message and on a persona field).

Persona fields (role, goals, background, each guardrail) go through the full scan, as the
write check of a starting persona does. Hits are listed by id and the first 60 characters
(the assistants hold no real secrets, but the listing never prints more).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from injection import setup_django  # noqa: E402
from learning_eval import DATA, SEEN_PARTS  # noqa: E402

PERSONA_FIELDS = ("role", "goals", "background")


def _configs(parts: tuple[str, ...]) -> list[tuple[str, dict]]:
    out = []
    for part in parts:
        for path in sorted((DATA / part).glob("*.json")):
            out.append((part, json.loads(path.read_text(encoding="utf-8"))))
    return out


def _is_developer(config: dict) -> bool:
    """An assistant whose person pastes code, logs or output (its ``kind`` says so)."""
    return "pasting" in config.get("kind", "")


def _user_messages(part: str, config: dict) -> list[tuple[str, str]]:
    rows = []
    with open(DATA / part / config["file"], encoding="utf-8") as handle:
        for n, line in enumerate(handle, 1):
            row = json.loads(line)
            if row.get("role") == "user":
                rows.append((f"{config['agent']}:{row['conversation']}:{n}", row["text"]))
    return rows


def _short(text: str) -> str:
    return text[:60].replace("\n", " ")


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--all", action="store_true", help="every seen assistant's messages")
    parser.add_argument(
        "--scratch",
        type=Path,
        default=Path("/tmp/personaweb-bench-injection"),
        help="folder for the scratch database of vectors (kept between runs)",
    )
    parser.add_argument(
        "--smoke",
        action="store_true",
        help="CI: one developer assistant, its first 12 messages, a scratch folder of its own",
    )
    args = parser.parse_args()
    if args.smoke:
        import atexit
        import shutil
        import tempfile

        args.scratch = Path(tempfile.mkdtemp(prefix="pw-bench-evidence-smoke-"))
        atexit.register(shutil.rmtree, args.scratch, True)
    setup_django(args.scratch)
    from safety.evidence import why_unsafe
    from safety.injection import scan_many
    from safety.learned import get_model

    configs = _configs(SEEN_PARTS)
    chosen = [(p, c) for p, c in configs if args.all or _is_developer(c)]
    if args.smoke:
        chosen = chosen[:1]
        configs = chosen
    messages = [m for p, c in chosen for m in _user_messages(p, c)]
    if args.smoke:
        messages = messages[:12]
    print(
        f"{len(chosen)} assistants, {len(messages)} user messages; "
        f"learned threshold {get_model().threshold:.4f}"
    )
    t0 = time.perf_counter()
    results = scan_many([t for _, t in messages], semantic=True)
    evidence_hits = scan_hits = 0
    for (mid, text), result in zip(messages, results, strict=True):
        unsafe = why_unsafe(text)
        if unsafe:
            evidence_hits += 1
        if result.blocked:
            scan_hits += 1
        if unsafe or result.blocked:
            score = f"{result.semantic_score:.3f}" if result.semantic_score is not None else "-"
            why = f"{unsafe.kind}:{','.join(unsafe.found)}" if unsafe else "-"
            ids = ",".join(result.pattern_ids) or "-"
            print(f"  MSG {mid} evidence={why} scan={ids} p={score} | {_short(text)}")
    print(
        f"messages: {evidence_hits} dropped from evidence, {scan_hits} blocked by the full "
        f"scan, of {len(messages)} ({time.perf_counter() - t0:.0f} s)"
    )
    fields: list[tuple[str, str]] = []
    for _, config in configs:
        persona = config.get("persona") or {}
        for name in PERSONA_FIELDS:
            if persona.get(name):
                fields.append((f"{config['agent']}:{name}", persona[name]))
        for n, rule in enumerate(persona.get("guardrails") or [], 1):
            fields.append((f"{config['agent']}:guardrail{n}", rule))
    results = scan_many([t for _, t in fields], semantic=True)
    field_hits = 0
    for (fid, text), result in zip(fields, results, strict=True):
        if result.blocked:
            field_hits += 1
            score = f"{result.semantic_score:.3f}" if result.semantic_score is not None else "-"
            print(f"  FIELD {fid} scan={','.join(result.pattern_ids)} p={score} | {_short(text)}")
    print(f"persona fields: {field_hits} blocked of {len(fields)} ({len(configs)} assistants)")


if __name__ == "__main__":
    main()
