"""The one interface every proposer has, and the choice of proposer per agent.

A proposer reads a review's corpus and answers, for a goals/background sentence::

    {"field": "goals" | "background" | None, "sentence": "...",
     "evidence": [{"quote": "...", "conversation": "<label or None>"}]}

and for a standing rule::

    {"rule": "..." | None, "evidence": [...]}

It never decides: the review verifies every quote itself and applies the policy.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from django.conf import settings as django_settings

if TYPE_CHECKING:
    from learning.models import LearningSettings
    from memory.verification import ReviewCorpus


@dataclass
class ProposerResult:
    """What a proposer answered. ``error`` is a sentence for the review record."""

    data: dict[str, Any] | None = None
    error: str = ""
    calls: int = 0
    tokens_in: int = 0
    tokens_out: int = 0
    notes: list[str] = field(default_factory=list)
    #: recurring patterns seen and not proposed (``learning.candidates.candidate``)
    candidates: list[dict[str, Any]] = field(default_factory=list)
    #: why the proposer did not look for a pattern at all (a sentence for the review)
    declined: str = ""


class Proposer(Protocol):
    name: str

    def propose_sentence(
        self,
        corpus: ReviewCorpus,
        persona: dict[str, Any],
        settings: LearningSettings,
        *,
        avoid: frozenset[str] = frozenset(),
    ) -> ProposerResult: ...

    def propose_rule(
        self,
        corpus: ReviewCorpus,
        persona: dict[str, Any],
        settings: LearningSettings,
        *,
        avoid: frozenset[str] = frozenset(),
    ) -> ProposerResult: ...


def proposer_kind(settings: LearningSettings) -> str:
    """The agent's proposer, or the site default (``LEARNING_PROPOSER``)."""
    return settings.proposer or django_settings.LEARNING_PROPOSER or "local"


def get_proposer(settings: LearningSettings) -> Proposer:
    kind = proposer_kind(settings)
    if kind == "openai":
        from learning.proposers.openai import OpenAIProposer

        return OpenAIProposer.for_settings(settings)
    from learning.proposers.local import LocalProposer

    return LocalProposer()
