from __future__ import annotations

from personaweb.errors import Refusal


class PersonaError(Refusal):
    """A refusal from the persona app; nothing was written."""
