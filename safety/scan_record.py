"""What the full scan (patterns + learned layer, torch encoder) says about every row of the
validation split with the shipped model, recorded next to the model file.

``manage.py safety train`` scans the whole split with the model it has just written and
records the verdict of each row (``manage.py safety record-scan`` does it again for the
model on disk). The suite then checks, without the full torch scan, that the record is of
the shipped model file and of the labelled files as they are, that its figures are the
ones the model was chosen with, that the pattern layer gives every row's recorded pattern
verdict, and that the full scan of a fixed sample of rows gives their recorded verdicts.

One character a row, in file order: ``p`` the patterns block it, ``l`` only the learned
layer does, ``.`` it passes.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from safety.learned import DATA_DIR, MODEL_PATH, LabelledText, load_file, split_paths

RECORD_PATH = DATA_DIR / "injection_model_validation_scan.json"
PATTERNS, LEARNED, PASSES = "p", "l", "."


def sha256_of(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def verdicts(rows: Sequence[LabelledText], vector_source: Callable[[list[str]], np.ndarray]) -> str:
    """The full scan's verdict of each row with the shipped model (``scan_many`` with
    ``semantic=True`` when every vector comes from ``vector_source``)."""
    from safety.injection import _decoded_views, _pattern_hits, learned_scores, normalise
    from safety.learned import get_model

    threshold = get_model().threshold
    out = []
    need = []
    for i, r in enumerate(rows):
        if not r.text or not r.text.strip():
            out.append(PASSES)
            continue
        norm = normalise(r.text)
        if _pattern_hits(norm, _decoded_views(r.text, norm)):
            out.append(PATTERNS)
        else:
            out.append("?")
            need.append(i)
    scores = learned_scores([rows[i].text for i in need], vector_source=vector_source)
    for i, score in zip(need, scores, strict=True):
        out[i] = LEARNED if score is not None and score.probability >= threshold else PASSES
    return "".join(out)


def build(vector_source: Callable[[list[str]], np.ndarray]) -> dict[str, Any]:
    return {
        "model_sha256": sha256_of(MODEL_PATH),
        "encoder": "torch",
        "files": {
            path.name: {
                "sha256": sha256_of(path),
                "verdicts": verdicts(load_file(path), vector_source),
            }
            for path in split_paths("validation")
        },
    }


def write_with_torch() -> dict[str, Any]:
    """Scan the whole validation split with the torch encoder (encoded directly; nothing
    stored) and write the record."""
    from safety import encoder

    encoder.use_backend("torch")
    try:
        record = build(lambda texts: encoder.encode(texts))
    finally:
        encoder.use_backend(None)
    RECORD_PATH.write_text(json.dumps(record, indent=1) + "\n", encoding="utf-8")
    return record


def read() -> dict[str, Any]:
    record: dict[str, Any] = json.loads(RECORD_PATH.read_text(encoding="utf-8"))
    return record
