"""Refusals of the learning services; each message says what to do next."""

from __future__ import annotations

from personaweb.errors import NotPermitted, Refusal


class LearningError(Refusal):
    """Base of learning refusals a person can read; nothing was written."""


class LearningInputError(LearningError):
    """Bad settings or arguments. ``errors`` maps each bad field to its message."""

    def __init__(self, message: str, *, errors: dict[str, str] | None = None) -> None:
        super().__init__(message)
        self.errors = errors or {}


class DecisionRefused(LearningError):
    """A decision (apply, turn down, undo) was refused; the proposal is unchanged."""


class ProposalNotWaiting(DecisionRefused):
    """Someone decided this proposal already (or it was dropped)."""


class UndoRefused(DecisionRefused):
    """Undo would lose an edit, or there is nothing learned to undo."""


class DecisionNotPermitted(DecisionRefused, NotPermitted):
    """The actor may not decide this proposal (a 403): the rule of
    ``learning.owners.decide_refusal``."""
