from __future__ import annotations


class PersonaError(ValueError):
    """Base of refusals a person can read; nothing was written."""
