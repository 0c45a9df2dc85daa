"""The refusal every safety check raises (``safety.checks.check_write``)."""

from __future__ import annotations

from personaweb.errors import Refusal


class UnsafeText(Refusal):
    """A text was refused by the safety checks (a secret or an injection-scan hit);
    nothing was written. ``field`` names the text as the person knows it."""

    field: str
