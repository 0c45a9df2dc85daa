"""A sentence that would tip its field into the write-time scan is not proposed: the
approval would refuse the write, and the themes after it would never be reached."""

from __future__ import annotations

from learning import policy
from safety.checks import InjectionFound

PERSONA = {
    "name": "Kiln helper",
    "role": "Studio assistant",
    "goals": "Answers glaze questions for a pottery studio.",
    "background": "",
    "guardrails": [],
    "standing_rules": [],
}


def test_a_sentence_that_tips_its_field_into_the_scan_is_refused(monkeypatch):
    real = policy.check_write

    def scan(text: str, kind: str, **kw):
        # the field as a whole reads as an instruction; each sentence alone does not
        if "glaze questions" in text and "firing logs" in text:
            raise InjectionFound(field=kind, kind=kind, pattern_ids=["test.whole"])
        return real(text, kind, **kw)

    monkeypatch.setattr(policy, "check_write", scan)
    refusal = policy.sentence_refusal(
        sentence="Reads the firing logs.", field="goals", persona=PERSONA, known_names=set()
    )
    assert refusal and "would be refused at write" in refusal
    assert (
        policy.sentence_refusal(
            sentence="Reads the firing logs.",
            field="background",
            persona=PERSONA,
            known_names=set(),
        )
        is None
    )
