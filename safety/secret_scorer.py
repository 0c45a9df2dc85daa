"""The learned layer of the secret scan: a logistic regression over token shapes in context.

The rules in ``safety.secrets`` say what a credential looks like; this scorer
learns it from the labelled parts (``secrets_<part>.jsonl``, every part but the kept-aside
``test`` and ``<name>_test``).
Features of one text, CRC-32 hashed into ``BUCKETS`` buckets:

* its words (camelCase and snake_case split, lowercased), unigrams and bigrams;
* for each token of 6+ characters, its **shape**: character classes, length band,
  entropy band, hex or not, and its run-length class pattern (``Aa9!a9``);
* each such shape paired with each of the three words before it, and those words
  alone ("password" + a
  mixed 12-character token, "commit" + a 40-character hex token);
* the best token's classes x entropy, and how many tokens the text has;
* a name joined from pieces (``AXI4-Lite``, ``ESP32-S3``, ``SPI1_CS``) is described by
  its pieces and learned apart from a random token: the join, not randomness, gives it a
  symbol, both cases and a digit (``_name_pieces``).

It is stacked on the rules, not used alone: measured forward in time (rules frozen before
part N, scorer trained on the parts before N, measured once on N; ``bench/secret_scan.py
--forward``), the scorer alone reached only 74-81 % detection, but as a veto on the
generic rule hits (keyword and entropy, never a provider's own shape) and as a flag of
its own when it is very sure, it cut false alarms on every step. Weights ship in
``safety/data/secrets_model.json`` (float16, zlib, base64) and are read with the
standard library; scikit-learn is needed only to retrain (``manage.py safety
train-secrets``).
"""

from __future__ import annotations

import base64
import hashlib
import itertools
import json
import math
import re
import string
import struct
import threading
import zlib
from collections import Counter
from collections.abc import Iterable
from pathlib import Path

DATA_DIR = Path(__file__).resolve().parent / "data"
MODEL_PATH = DATA_DIR / "secrets_model.json"
BUCKETS = 1 << 14
#: A generic rule hit scored below this is a look-alike; a text scored at or above
#: ``FLAG_ABOVE`` holds a credential even when no rule fired. Both were chosen on the
#: forward-in-time steps (seen2..seen5), not on one part.
VETO_BELOW = 0.1
FLAG_ABOVE = 0.9

_HEX = re.compile(r"[0-9a-fA-F]+")
_TOKEN = re.compile(r"[^\s\"'`,;()<>\[\]{}|&，。、：；！？=]+")


def _entropy(token: str) -> float:
    n = len(token)
    return -sum(c / n * math.log2(c / n) for c in Counter(token).values())


_SHAPE_TABLE = str.maketrans(
    string.ascii_uppercase + string.ascii_lowercase + string.digits,
    "A" * 26 + "a" * 26 + "9" * 10,
)
_CAMEL = re.compile(r"(?<=[a-z])(?=[A-Z])")
_NOT_WORD = re.compile(r"[\W_]+")


def _shape(token: str) -> str:
    """Runs of character classes: ``Tr0ut!Lake2024`` -> ``Aa9a!Aa9``."""
    return "".join(k for k, _ in itertools.groupby(token.translate(_SHAPE_TABLE)))[:12]


def _words(text: str) -> list[str]:
    return [w for w in _NOT_WORD.split(_CAMEL.sub(" ", text).lower()) if w]


#: A piece of a name: a word (``Lite``, ``bootloader``, ``FreeRTOS``), an upper-case code
#: with its digits (``AXI4``, ``I2C0``, ``STM32F407``, ``S3``, ``nRF52840``, ``BLAKE2b``;
#: one small letter at either end at most) or a dotted version
#: (``10.5.1``). A bare number only ends a name after a code (``SHA-256``, ``RS-485``):
#: after a word (``Phx-Row-8812``, ``pelican-harbor-73``) or inside (``ZN-44817-bq``) it
#: is how people write passwords.
_NAME_PIECE = re.compile(
    r"(?P<word>[A-Z]?[a-z]+(?:[A-Z][a-z]+|[A-Z]{2,}(?![a-z]))*)"
    r"|(?P<code>[a-z]?[A-Z][A-Z0-9]{0,11}[a-z]?)"
    r"|(?P<version>[vV]?\d+(?:\.\d+)+)"
    r"|(?P<number>\d+)"
)
#: What joins the pieces of a name: a hyphen, an underscore, a slash, a dot that is not
#: inside a version (``_R1.fastq.gz``, but ``FreeRTOS-10.5.1``).
_JOINER = re.compile(r"[-_/]|\.(?!\d)|(?<!\d)\.")


def _name_pieces(token: str) -> list[str] | None:
    """The kinds of the pieces of ``token`` when it is a name joined from pieces (a
    protocol, a part, a pin, a file or a build: ``AXI4-Lite``, ``ESP32-S3``, ``SPI1_CS``,
    ``S03_R1.fastq``, ``FreeRTOS-10.5.1``), else None. A password mixes its classes *inside* a piece
    (``m0ssy``, ``Brq4!delta``, ``Wq8Rv2Xm``) or ends on a number; a name mixes them only
    across the joins, so a name is described by its pieces, not by the classes of the
    whole token."""
    pieces = [p for p in _JOINER.split(token) if p]
    if len(pieces) < 2:
        return None
    kinds = []
    for piece in pieces:
        m = _NAME_PIECE.fullmatch(piece)
        if m is None:
            return None
        kinds.append(m.lastgroup or "")
    numbers = [n for n, kind in enumerate(kinds) if kind == "number"]
    if numbers and (numbers != [len(kinds) - 1] or kinds[-2] != "code"):
        return None
    return kinds


def _classes(token: str) -> int:
    return (
        (token != token.upper())  # a lowercase letter
        + (token != token.lower())  # an uppercase letter
        + any(c.isdigit() for c in token)
        + (not token.isalnum())
    )


def named_features(text: str) -> tuple[list[str], dict[str, float]]:
    """The features of one text by name: the counted keys and the scalars (to trace a
    score; ``features`` hashes them)."""
    keys: list[str] = []
    words = _words(text)
    keys += ["w:" + w for w in words]
    keys += [f"b:{a}_{b}" for a, b in zip(words, words[1:], strict=False)]
    tokens = [t.strip(".:!?") for t in _TOKEN.findall(text)]
    best = best_name = 0.0
    context: list[str] = []  # the last three words before the current token
    for token in tokens:
        if len(token) >= 6:
            classes = _classes(token)
            entropy = _entropy(token)
            hexy = _HEX.fullmatch(token) is not None
            key = f"cl{classes}_L{min(len(token) // 8, 6)}_E{int(entropy)}_H{int(hexy)}"
            # only a name whose joins raise its classes (a digit, both cases, a hyphen)
            pieces = _name_pieces(token) if classes >= 3 else None
            if pieces is None:
                keys += ["t:" + key, "s:" + _shape(token)]
                best = max(best, entropy * classes)
            else:
                # a name joined from pieces: its own features, learned apart from those of
                # a random token (its classes come from the joins, not from randomness)
                key = "n:" + "-".join(pieces[:4]) + "_" + key
                keys += ["t:" + key, "s:n:" + _shape(token)]
                best_name = max(best_name, entropy * classes)
            keys += [f"c:{w}|{key}" for w in context]
            keys += ["cw:" + w for w in context]
        context = (context + _words(token))[-3:]
    scalars = {
        "best": best / 10,
        "best_name": best_name / 10,
        "n_toks": min(len(tokens), 50) / 50,
    }
    return keys, scalars


def _bucket(name: str) -> int:
    return zlib.crc32(name.encode()) % BUCKETS


def features(text: str) -> dict[int, float]:
    """Hashed feature counts of one text (bucket -> value)."""
    keys, scalars = named_features(text)
    f: dict[int, float] = dict(Counter(map(_bucket, keys)))
    for name, value in scalars.items():
        f[_bucket(name)] = f.get(_bucket(name), 0.0) + value
    return f


class Model:
    def __init__(self, weights: list[float], bias: float) -> None:
        self.weights = weights
        self.bias = bias

    def score(self, text: str) -> float:
        z = self.bias + sum(self.weights[k] * v for k, v in features(text).items())
        return 1.0 / (1.0 + math.exp(-max(-50.0, min(50.0, z))))

    def to_json(self, *, trained_on: Iterable[str]) -> str:
        packed = struct.pack(f"<{len(self.weights)}e", *self.weights)
        parts = list(trained_on)
        return json.dumps(
            {
                "buckets": len(self.weights),
                "bias": self.bias,
                "weights": base64.b64encode(zlib.compress(packed, 9)).decode("ascii"),
                "trained_on": parts,
                "data_sha256": data_digest(parts),
            },
            indent=1,
        )

    @classmethod
    def from_json(cls, raw: str) -> Model:
        data = json.loads(raw)
        packed = zlib.decompress(base64.b64decode(data["weights"]))
        return cls(list(struct.unpack(f"<{data['buckets']}e", packed)), float(data["bias"]))


_lock = threading.Lock()
_model: Model | None = None


def _loaded() -> Model | None:
    global _model
    if _model is None and MODEL_PATH.exists():
        with _lock:
            if _model is None:
                _model = Model.from_json(MODEL_PATH.read_text(encoding="utf-8"))
    return _model


def score(text: str) -> float | None:
    """How likely ``text`` holds a credential (0..1); None when no model ships."""
    model = _loaded()
    return model.score(text) if model else None


def measured_only(part: str) -> bool:
    """Whether a labelled part is kept aside: ``test`` and every ``<name>_test`` half are
    measured, never learned from."""
    return part == "test" or part.endswith("_test")


def training_parts() -> list[str]:
    """Every labelled part but the kept-aside ones (``measured_only``)."""
    names = sorted(p.stem.removeprefix("secrets_") for p in DATA_DIR.glob("secrets_*.jsonl"))
    return [n for n in names if not measured_only(n)]


def data_digest(parts: Iterable[str]) -> str:
    """SHA-256 of the labelled files a model was trained on (a stale model shows)."""
    digest = hashlib.sha256()
    for part in parts:
        digest.update((DATA_DIR / f"secrets_{part}.jsonl").read_bytes())
    return digest.hexdigest()


def load_part(part: str) -> list[dict]:
    path = DATA_DIR / f"secrets_{part}.jsonl"
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]


def train(rows: list[dict]) -> Model:
    """Fit the scorer on labelled rows (``{"text", "label"}``); needs scikit-learn."""
    from scipy.sparse import csr_matrix
    from sklearn.linear_model import LogisticRegression

    data, row_ids, cols = [], [], []
    for r, row in enumerate(rows):
        for k, v in features(row["text"]).items():
            row_ids.append(r)
            cols.append(k)
            data.append(v)
    x = csr_matrix((data, (row_ids, cols)), shape=(len(rows), BUCKETS))
    y = [row["label"] == "secret" for row in rows]
    fit = LogisticRegression(C=1.0, max_iter=2000, class_weight="balanced").fit(x, y)
    return Model([float(w) for w in fit.coef_[0]], float(fit.intercept_[0]))


def set_model(model: Model | None) -> None:
    """Replace the loaded model (None: read the file again on next use)."""
    global _model
    _model = model
