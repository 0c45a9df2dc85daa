"""``safety.memo.VerdictStore`` over ``ScanVerdict``: registered by ``MemoryConfig.ready``
so a text's scan verdict is computed once for every process (see ``safety.memo``)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from memory.models import ScanVerdict

#: digests per query (SQLite allows 999 parameters; PostgreSQL far more)
_CHUNK = 500


class ScanVerdictStore:
    def get(self, scanner: str, digests: Sequence[str]) -> dict[str, Any]:
        found: dict[str, Any] = {}
        for start in range(0, len(digests), _CHUNK):
            found.update(
                ScanVerdict.objects.filter(
                    scanner=scanner, digest__in=digests[start : start + _CHUNK]
                ).values_list("digest", "verdict")
            )
        return found

    def put(self, scanner: str, verdicts: Mapping[str, Any]) -> None:
        ScanVerdict.objects.bulk_create(
            [ScanVerdict(digest=d, scanner=scanner, verdict=v) for d, v in verdicts.items()],
            ignore_conflicts=True,
            batch_size=_CHUNK,
        )


def forget_other_scanners() -> int:
    """Delete the verdicts recorded by other builds of the scanner (after an upgrade no
    process reads them again); returns how many rows went."""
    from safety.memo import fingerprint

    current = {fingerprint(kind) for kind in ("render", "render-patterns")}
    deleted, _ = ScanVerdict.objects.exclude(scanner__in=current).delete()
    return deleted
