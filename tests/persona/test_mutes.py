""" "Don't mention this again" for a learned persona line or an owner entry, one person
at a time: the services, who may, the plans of that person and of everybody else."""

from __future__ import annotations

import pytest

from memory.models import Principal
from persona import owner
from persona.learned_lines import learned_lines, without_muted
from persona.models import ContextPlan, Mute, PlanRotation
from persona.mutes import (
    MuteRefusal,
    entry_mute,
    line_mute,
    mute_undo,
    muted_line_counts,
)
from persona.plans import plan_build, plan_get_or_rotate, prefix_fetch
from persona.render import render_persona
from persona.selectors import persona_head
from personaweb.actors import Actor
from personaweb.errors import NotPermitted, NotReachable
from tenancy.access import actor_for_user
from tests.builders import LEARNED_RULE, LEARNED_SENTENCE, TYPED_GOAL
from tests.factories import make_agent, make_owner, make_user

SYSTEM = Actor.system("test")


@pytest.fixture
def ben(tenant):
    return Principal.objects.create(tenant=tenant, external_id="ben")


def prefix_of(agent, person, session="s"):
    return plan_get_or_rotate(agent=agent, principal=person, session_key=session).prefix_text


def test_the_learned_lines_are_the_learned_sentence_and_rule_not_the_typed_goal(learned):
    lines = learned_lines(persona_head(agent=learned))
    assert [(ln.section, ln.text, ln.proposal_id) for ln in lines] == [
        ("goals", LEARNED_SENTENCE, 7),
        ("standing_rules", LEARNED_RULE, 8),
    ]


def test_a_muted_sentence_leaves_one_persons_prefix_and_everyone_else_keeps_it(
    learned, ana, ben, operator
):
    assert LEARNED_SENTENCE in prefix_of(learned, ana)
    mute = line_mute(
        actor=actor_for_user(operator),
        agent=learned,
        principal=ana,
        section="goals",
        text=LEARNED_SENTENCE,
        reason="Ana does not sell wholesale any more",
    )
    assert (mute.muted_by, mute.reason, mute.proposal_id) == (
        "olivia",
        "Ana does not sell wholesale any more",
        7,
    )
    theirs = prefix_of(learned, ana)
    assert "wholesale" not in theirs and "Learned:" not in theirs
    assert TYPED_GOAL in theirs and LEARNED_RULE in theirs  # only the muted line goes
    assert LEARNED_SENTENCE in prefix_of(learned, ben)
    assert LEARNED_SENTENCE in persona_head(agent=learned).goals  # nothing deleted


def test_a_mute_rotates_the_persons_pinned_plan_and_the_cache_follows(
    learned, ana, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        plan = plan_get_or_rotate(agent=learned, principal=ana, session_key="s")
    fetched = prefix_fetch(agent_id=learned.pk, principal_id=ana.pk, session_key="s")
    assert LEARNED_RULE in fetched.prefix_text
    mute = line_mute(
        actor=SYSTEM, agent=learned, principal=ana, section="standing_rules", text=LEARNED_RULE
    )
    with django_capture_on_commit_callbacks(execute=True):
        rotated = plan_get_or_rotate(agent=learned, principal=ana, session_key="s")
    assert rotated.epoch == plan.epoch + 1 and LEARNED_RULE not in rotated.prefix_text
    assert rotated.rotations.get(to_epoch=rotated.epoch).reason == PlanRotation.Reason.MUTED
    fetched = prefix_fetch(agent_id=learned.pk, principal_id=ana.pk, session_key="s")
    assert fetched.sha256 == rotated.prefix_sha256
    # the rebuild from what the plan pinned is byte-identical
    assert plan_build(ContextPlan.objects.get(pk=plan.pk)) == rotated.prefix_text
    mute_undo(actor=SYSTEM, mute=mute)
    back = plan_get_or_rotate(agent=learned, principal=ana, session_key="s")
    assert back.epoch == plan.epoch + 2 and LEARNED_RULE in back.prefix_text
    assert back.prefix_text == plan.prefix_text


def test_a_muted_line_stays_muted_when_learning_brings_the_same_words_back(learned, ana):
    from persona.services import ChangeTrigger, persona_version_create

    line_mute(actor=SYSTEM, agent=learned, principal=ana, section="goals", text=LEARNED_SENTENCE)
    # an operator takes the sentence out by hand, and learning later adds it again
    persona_version_create(
        agent=learned,
        changes={"goals": TYPED_GOAL},
        trigger=ChangeTrigger(source_type="ui_form", reason="tidy", approved_by="olivia"),
    )
    persona_version_create(
        agent=learned,
        changes={"goals": f"{TYPED_GOAL} {LEARNED_SENTENCE}"},
        trigger=ChangeTrigger(
            source_type="persona_learning",
            reason="Persona learning: applied a learned goals sentence (proposal 9).",
            approved_by="rita",
            proposal_id=9,
            learned={"field": "goals", "sentence": LEARNED_SENTENCE, "note": "again"},
        ),
    )
    learned.refresh_from_db()
    assert "wholesale" not in prefix_of(learned, ana)
    asked = [(learned.pk, LEARNED_SENTENCE), (learned.pk, "Bakes rye on Mondays.")]
    assert muted_line_counts(asked) == {(learned.pk, LEARNED_SENTENCE): 1}


def test_without_muted_removes_the_sentence_from_its_line_and_keeps_the_rest(learned):
    head = persona_head(agent=learned)
    view = without_muted(head, [("goals", learned_lines(head)[0].key)])
    assert view.goals == TYPED_GOAL and view.learned == []
    assert head.goals.endswith(LEARNED_SENTENCE) and head.learned  # the row is untouched
    assert render_persona(view) != render_persona(head)


def test_only_learned_lines_are_muted_and_not_twice(learned, ana):
    with pytest.raises(MuteRefusal, match="not a learned line"):
        line_mute(actor=SYSTEM, agent=learned, principal=ana, section="goals", text=TYPED_GOAL)
    line_mute(actor=SYSTEM, agent=learned, principal=ana, section="goals", text=LEARNED_SENTENCE)
    with pytest.raises(MuteRefusal, match="muted for them already"):
        line_mute(
            actor=SYSTEM, agent=learned, principal=ana, section="goals", text=LEARNED_SENTENCE
        )
    assert Mute.objects.count() == 1


def test_an_unmute_twice_is_refused_and_the_record_stays(learned, ana):
    mute = line_mute(
        actor=SYSTEM, agent=learned, principal=ana, section="goals", text=LEARNED_SENTENCE
    )
    mute_undo(actor=SYSTEM, mute=mute)
    with pytest.raises(MuteRefusal, match="unmuted already"):
        mute_undo(actor=SYSTEM, mute=mute)
    mute.refresh_from_db()
    assert mute.unmuted_by == "system:test" and mute.unmuted_at and mute.muted_at


def test_a_reason_carrying_a_secret_is_refused_and_nothing_is_muted(learned, ana):
    from safety.checks import SecretFound

    with pytest.raises(SecretFound):
        line_mute(
            actor=SYSTEM,
            agent=learned,
            principal=ana,
            section="goals",
            text=LEARNED_SENTENCE,
            reason="key AKIAIOSFODNN7EXAMPLE",
        )
    assert not Mute.objects.exists()


def test_the_owner_and_an_operator_may_mute_a_reviewer_and_another_person_may_not(
    learned, ana, ben, reviewer
):
    owner_login = make_owner(ana)
    ben_login = make_owner(ben)
    for who in (reviewer, ben_login):
        with pytest.raises(NotPermitted, match="Only the person themself"):
            line_mute(
                actor=actor_for_user(who),
                agent=learned,
                principal=ana,
                section="goals",
                text=LEARNED_SENTENCE,
            )
    mute = line_mute(
        actor=actor_for_user(owner_login),
        agent=learned,
        principal=ana,
        section="goals",
        text=LEARNED_SENTENCE,
    )
    with pytest.raises(NotPermitted):
        mute_undo(actor=actor_for_user(reviewer), mute=mute)
    mute_undo(actor=actor_for_user(owner_login), mute=mute)


def test_another_tenants_operator_does_not_find_the_person(learned, ana, other_tenant):
    stranger = make_user("otto", role="operator", tenants=[other_tenant])
    with pytest.raises(NotReachable):
        line_mute(
            actor=actor_for_user(stranger),
            agent=learned,
            principal=ana,
            section="goals",
            text=LEARNED_SENTENCE,
        )
    theirs = make_agent(tenant=other_tenant, slug="theirs")
    with pytest.raises(NotReachable):
        line_mute(actor=SYSTEM, agent=theirs, principal=ana, section="goals", text="x")


# --- owner entries -----------------------------------------------------------------------


def _doc(person, *texts):
    owner.owner_doc_write(
        principal=person, expected_version=0, entries=[{"text": t} for t in texts]
    )
    return owner.doc_head(person.pk).entries


def test_a_muted_entry_stays_in_the_document_and_leaves_the_prefix(agent, ana):
    entries = _doc(ana, "Prefers short answers.", "Has a twin brother called Tom.")
    assert "twin brother" in prefix_of(agent, ana)
    entry_mute(actor=SYSTEM, principal=ana, key=entries[1].key, reason="private")
    prefix = prefix_of(agent, ana)
    assert "twin brother" not in prefix and "Prefers short answers." in prefix
    assert [e.text for e in owner.doc_head(ana.pk).entries] == [
        "Prefers short answers.",
        "Has a twin brother called Tom.",
    ]
    with pytest.raises(MuteRefusal, match="muted already"):
        entry_mute(actor=SYSTEM, principal=ana, key=entries[1].key)
    with pytest.raises(MuteRefusal, match="not in the document"):
        entry_mute(actor=SYSTEM, principal=ana, key="nope")


def test_a_muted_entry_is_not_nominated_again_and_its_affirmation_is_refused(agent, ana):
    from persona.models import OwnerNomination
    from tests.builders import add_nomination

    nomination = add_nomination(agent, "Has a twin brother called Tom.")
    entries = _doc(ana, "Has a twin brother called Tom.")
    entry_mute(actor=SYSTEM, principal=ana, key=entries[0].key)
    with pytest.raises(owner.OwnerDocRefusal, match="muted"):
        owner.nomination_affirm(principal=ana, nomination_id=nomination.pk, by="ana")
    nomination.refresh_from_db()
    assert nomination.state == OwnerNomination.State.NOMINATED
    OwnerNomination.objects.all().delete()
    belief = nomination.belief
    belief.corroboration_count, belief.confidence, belief.category = 3, 0.9, "identity"
    assert owner.nomination_consider(belief=belief) is None
    assert not OwnerNomination.objects.exists()


def test_a_write_that_never_saw_a_muted_entry_keeps_it_in_its_place(agent, ana):
    entries = _doc(ana, "One.", "Two is private.", "Three.")
    entry_mute(actor=SYSTEM, principal=ana, key=entries[1].key)
    owner.owner_doc_write(
        principal=ana,
        expected_version=1,
        entries=[{"key": entries[0].key, "text": "One."}, {"text": "Four."}],
        keep_keys={entries[1].key},
    )
    assert [e.text for e in owner.doc_head(ana.pk).entries] == ["One.", "Two is private.", "Four."]


def test_a_new_mute_state_rotates_a_plan_even_for_a_person_with_no_document():
    from persona.plans import PlanVersions, rotation_due

    pinned = PlanVersions(3, None, 0, 0)
    assert rotation_due(pinned=pinned, current=PlanVersions(3, None, 0, 1)) == "muted"
    assert rotation_due(pinned=PlanVersions(3, 2, 5, 4), current=PlanVersions(3, 2, 5, 4)) is None
