"""A proposer double for the review tests: answers from a script and counts calls."""

from __future__ import annotations

from typing import Any

from learning.proposers.base import ProposerResult


class ScriptedProposer:
    name = "scripted"

    def __init__(
        self, sentence: dict[str, Any] | None = None, rule: dict[str, Any] | None = None
    ) -> None:
        self.sentence = sentence
        self.rule = rule
        self.sentence_calls = 0
        self.rule_calls = 0

    @property
    def calls(self) -> int:
        return self.sentence_calls + self.rule_calls

    def propose_sentence(self, corpus, persona, settings, *, avoid=frozenset()) -> ProposerResult:
        self.sentence_calls += 1
        return ProposerResult(data=self.sentence, calls=1, tokens_in=10, tokens_out=5)

    def propose_rule(self, corpus, persona, settings, *, avoid=frozenset()) -> ProposerResult:
        self.rule_calls += 1
        return ProposerResult(data=self.rule, calls=1, tokens_in=10, tokens_out=5)


GOOD_SENTENCE = {
    "field": "goals",
    "sentence": "Prices wholesale orders for the studio.",
    "evidence": [
        {"quote": "price this wholesale order for the cafe", "conversation": "order-maya-0"},
        {"quote": "Please price this wholesale order", "conversation": "order-maya-1"},
        {
            "quote": "to price this wholesale order of twelve planters",
            "conversation": "order-maya-2",
        },
    ],
}
GOOD_RULE = {
    "rule": "Write dates in full.",
    "evidence": [
        {"quote": "please write dates in full", "conversation": None},
        {"quote": "write dates in full in every update", "conversation": None},
    ],
}
