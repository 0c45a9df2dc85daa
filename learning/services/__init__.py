"""Writes of persona learning: settings, reviews, decisions, scheduling.

Views, the CLI, tasks and the API call these; one rule, one place.
"""

from __future__ import annotations

from learning.services.decisions import (
    change_undo,
    proposal_apply,
    proposal_dismiss,
    proposal_restore,
    proposal_undo,
    rule_owner_refusal,
)
from learning.services.errors import (
    DecisionRefused,
    LearningError,
    LearningInputError,
    ProposalNotWaiting,
    UndoRefused,
)
from learning.services.review import MAX_RULES_WAITING, review_run
from learning.services.schedule import due_agents_claim, review_enqueue, sweep_due_agents_run
from learning.services.settings import (
    SETTING_KEYS,
    learning_settings_get,
    learning_settings_update,
    settings_as_dict,
)

__all__ = [
    "MAX_RULES_WAITING",
    "SETTING_KEYS",
    "DecisionRefused",
    "LearningError",
    "LearningInputError",
    "ProposalNotWaiting",
    "UndoRefused",
    "change_undo",
    "due_agents_claim",
    "learning_settings_get",
    "learning_settings_update",
    "proposal_apply",
    "proposal_dismiss",
    "proposal_restore",
    "proposal_undo",
    "review_enqueue",
    "review_run",
    "rule_owner_refusal",
    "settings_as_dict",
    "sweep_due_agents_run",
]
