"""Export the packaged all-MiniLM-L6-v2 to ONNX and quantise it, once, offline.

Run by ``manage.py safety export-encoder`` (``make install``, ``make run`` and ``.ci/run``
call it) or, when the file is missing, by ``safety.encoder`` in a subprocess
(``python -m safety.onnx_export PATH``), so a web process never imports torch itself.
Needs torch, transformers, onnx and onnxruntime; reads only the packaged model files.

The quantisation is dynamic (int8 weights, per output channel; activations quantised at
run time) for the word embeddings and the attention projections. The feed-forward
matrices stay float32: their inputs (after a LayerNorm, and after GELU) carry outliers
that per-tensor int8 activations clip, which took the cosine to the torch vectors down
to 0.98 on short texts (headings, an empty string); with them in float32 every text
stays above 0.99 (measured on sentences of the project's own documents, not on any
evaluation set). The weights use 7 of their 8 bits (``reduce_range``): on a CPU without
VNNI (an AMD EPYC with AVX2 only, seen here) the int8 products of 8-bit weights saturate,
which took one sentence of the README to 0.989; with 7 bits the lowest was 0.9945 there
(mean 0.998). The file is about 44 MB instead of 90 MB.
"""

from __future__ import annotations

import contextlib
import fcntl
import logging
import os
import sys
import tempfile
import warnings
from collections.abc import Iterator
from pathlib import Path

#: Part of the file name: a change to how the file is made makes a new file.
RECIPE = "int8-attn-v2"
FILE_NAME = f"all-MiniLM-L6-v2.{RECIPE}.onnx"

# feed-forward matrices (kept float32); the attention's own output projection is
# ".../attention/output/dense/MatMul" and is quantised
_FEED_FORWARD = ("/intermediate/dense/", "/output/dense/")


def _float_nodes(onnx_path: Path) -> list[str]:
    import onnx

    graph = onnx.load(str(onnx_path), load_external_data=False).graph
    return [
        node.name
        for node in graph.node
        if node.op_type == "MatMul"
        and any(part in node.name for part in _FEED_FORWARD)
        and "/attention/" not in node.name
    ]


@contextlib.contextmanager
def _locked(target: Path) -> Iterator[None]:
    """One exporter at a time per file (two web workers may both find it missing)."""
    lock = target.with_name(target.name + ".lock")
    with open(lock, "w") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def export(target: Path, *, force: bool = False) -> Path:
    """Write the quantised model to ``target`` (atomically); return it. A file already
    there is kept unless ``force``."""
    target = Path(target)
    target.parent.mkdir(parents=True, exist_ok=True)
    with _locked(target):
        if target.exists() and not force:
            return target
        with tempfile.TemporaryDirectory(dir=target.parent, prefix=".export-") as tmp:
            plain = Path(tmp) / "model.onnx"
            quantised = Path(tmp) / "model.int8.onnx"
            _export_float(plain)
            _quantise(plain, quantised)
            os.replace(quantised, target)
    return target


def _export_float(path: Path) -> None:
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
    import torch
    from transformers import AutoModel
    from transformers.utils import logging as hf_logging

    from safety.onnx_encoder import model_dir

    hf_logging.disable_progress_bar()
    hf_logging.set_verbosity_error()
    model = AutoModel.from_pretrained(str(model_dir()))
    model.eval()

    class Hidden(torch.nn.Module):
        """The transformer's last hidden state (pooling is done in numpy)."""

        def __init__(self, inner: torch.nn.Module) -> None:
            super().__init__()
            self.m = inner

        def forward(self, input_ids, attention_mask, token_type_ids):  # type: ignore[no-untyped-def]
            return self.m(
                input_ids=input_ids, attention_mask=attention_mask, token_type_ids=token_type_ids
            ).last_hidden_state

    names = ["input_ids", "attention_mask", "token_type_ids"]
    sample = tuple(torch.ones((2, 8), dtype=torch.long) for _ in names)
    axes = {name: {0: "batch", 1: "tokens"} for name in [*names, "last_hidden_state"]}
    with warnings.catch_warnings(), torch.no_grad():
        warnings.simplefilter("ignore")  # the legacy exporter's tracer and deprecation notes
        torch.onnx.export(
            Hidden(model),
            sample,
            str(path),
            input_names=names,
            output_names=["last_hidden_state"],
            dynamic_axes=axes,
            opset_version=17,
            dynamo=False,
        )


def _quantise(plain: Path, out: Path) -> None:
    from onnxruntime.quantization import QuantType, quantize_dynamic

    root = logging.getLogger()
    level = root.level
    root.setLevel(logging.ERROR)  # "consider pre-processing": not for a dynamic quantisation
    try:
        quantize_dynamic(
            str(plain),
            str(out),
            weight_type=QuantType.QInt8,
            per_channel=True,
            reduce_range=True,  # no saturation on CPUs without VNNI (see the docstring)
            nodes_to_exclude=_float_nodes(plain),
        )
    finally:
        root.setLevel(level)


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print("usage: python -m safety.onnx_export PATH", file=sys.stderr)
        return 2
    try:
        export(Path(argv[0]))
    except Exception as exc:  # noqa: BLE001 - the caller logs this line and falls back
        print(f"ONNX export failed: {type(exc).__name__}: {exc}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
