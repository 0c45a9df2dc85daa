"""Scan verdicts kept per exact text, so every process reads a verdict instead of
scanning again.

A scan is a pure function of the text and of the scanner: the word patterns, the
learned model and its threshold, the secret detector, and the code that runs them.
``fingerprint(kind)`` names that scanner (a digest of the ``safety`` package's source,
its shipped model files, the encoder's model name and the detect-secrets version), so a
verdict recorded by one build is never read by another: after an upgrade or a retrained
model every text is scanned again, on first sight, by the new scanner ("scanned again
at load" still holds; only the repeat of an identical computation is skipped).

The verdicts live in memory's ``ScanVerdict`` table (``safety`` has no models): memory
registers a ``VerdictStore`` at start-up, as it registers the vector store. Without one
(a process with no Django app registry, or the tests that scan raw functions) nothing
is recorded or read. A store that fails (a locked SQLite database, a read-only
replica) costs a scan, never a refusal: each read and write runs in its own savepoint
and its errors are dropped (logged at debug level, as the vector store's are).

Only settled verdicts are recorded: a pending result (the learned layer not run yet) is
never kept. Keys are digests of the text; the store holds no text.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import logging
from collections.abc import Mapping, Sequence
from importlib import metadata
from pathlib import Path
from typing import Any, Protocol

logger = logging.getLogger(__name__)

_PACKAGE = Path(__file__).resolve().parent
#: the shipped model files a verdict depends on (training data is not read at scan time)
_MODEL_FILES = ("injection_model.json", "injection_concepts.json", "secrets_model.json")


class VerdictStore(Protocol):
    """Where verdicts are kept (memory's ``ScanVerdict`` table)."""

    def get(self, scanner: str, digests: Sequence[str]) -> dict[str, Any]:
        """The recorded verdicts among ``digests`` for ``scanner``, by digest."""
        ...

    def put(self, scanner: str, verdicts: Mapping[str, Any]) -> None:
        """Record verdicts by digest; one already recorded is kept (a race is harmless:
        both computed the same verdict)."""
        ...


_store: VerdictStore | None = None


def set_verdict_store(store: VerdictStore | None) -> None:
    global _store
    _store = store


def digest(text: str) -> str:
    """The key of a text: 32 hex characters (BLAKE2b, 16 bytes)."""
    return hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=16).hexdigest()


@functools.cache
def _build_digest() -> str:
    from safety.encoder import MODEL_NAME

    h = hashlib.sha256()
    for path in sorted(_PACKAGE.glob("*.py")):
        h.update(path.name.encode())
        h.update(path.read_bytes())
    for name in _MODEL_FILES:
        path = _PACKAGE / "data" / name
        h.update(name.encode())
        h.update(path.read_bytes() if path.exists() else b"-")
    h.update(MODEL_NAME.encode())
    try:
        h.update(metadata.version("detect-secrets").encode())
    except metadata.PackageNotFoundError:  # pragma: no cover - a pinned dependency
        h.update(b"no detect-secrets")
    return h.hexdigest()[:16]


def fingerprint(kind: str) -> str:
    """The scanner's name in the store: ``kind`` (``render``: the secret and injection
    scans of ``safety.checks``; ``render-patterns`` without the learned layer) and the
    build digest, at most 40 characters."""
    return f"{kind}:{_build_digest()}"


def recall(kind: str, texts: Sequence[str]) -> dict[str, Any]:
    """The recorded verdicts of ``texts`` by text (those recorded by this scanner)."""
    if _store is None or not texts:
        return {}
    keys = {digest(t): t for t in texts}
    try:
        with _savepoint():
            found = _store.get(fingerprint(kind), list(keys))
    except _store_errors() as exc:
        logger.debug("Could not read recorded scan verdicts (%s); scanning.", type(exc).__name__)
        return {}
    return {keys[k]: v for k, v in found.items() if k in keys}


def remember(kind: str, verdicts: Mapping[str, Any]) -> None:
    """Record settled verdicts by text (JSON-able payloads)."""
    if _store is None or not verdicts:
        return
    try:
        with _savepoint():
            _store.put(fingerprint(kind), {digest(t): v for t, v in verdicts.items()})
    except _store_errors() as exc:
        logger.debug("Could not record scan verdicts (%s).", type(exc).__name__)


def _savepoint() -> Any:
    """Inside a caller's transaction (a render inside a plan write) a read or write runs
    in a savepoint, so a failure (the table not migrated yet while an upgrade rolls out, a
    locked database) rolls back only the savepoint, never the caller's transaction. In
    autocommit (a page, a host read) a failed statement harms nothing: no savepoint, no
    extra round trips."""
    from django.db import connection, transaction

    if connection.in_atomic_block:
        return transaction.atomic()
    return contextlib.nullcontext()


def _store_errors() -> tuple[type[BaseException], ...]:
    from django.db import DatabaseError

    return (DatabaseError, RuntimeError)
