"""Proposers: what suggests a persona change. The model only proposes; code decides."""

from __future__ import annotations

from learning.proposers.base import Proposer, ProposerResult, get_proposer

__all__ = ["Proposer", "ProposerResult", "get_proposer"]
