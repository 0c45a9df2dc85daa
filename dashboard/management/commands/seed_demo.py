"""``manage.py seed_demo``: demo tenants, assistants, conversations and reviewers.

Idempotent: an agent is found by its slug and a conversation by its label, so running
it again adds nothing. Each assistant is seeded in one transaction. Messages are written
only through ``memory.services.record_turn``; times are offsets from the moment of
seeding, so the demo always ends "now". The data lives in ``dashboard.demo_data``.

Then each assistant's memory: consolidation (``memory.consolidation.consolidate``, the
same run as ``manage.py memory consolidate``) forms beliefs from what the people wrote,
each with its quote verified; its watermark means a second run reads nothing again.
The host-written beliefs, intentions and routines go through their services
(``belief_write``, ``intention_write``, ``routine_label``), each only when no row with
its words exists yet for that person, whatever its status.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction
from django.template.defaultfilters import pluralize
from django.utils import timezone

from dashboard.demo_data import DEMO_USERS, DESKS, DemoConversation, DemoDesk
from learning.models import LearningSettings
from memory.consolidation import consolidate
from memory.embeddings import vectors_for_texts
from memory.models import Belief, Conversation, EntityFact, Intention, Message, Principal, Routine
from memory.services import record_turn
from memory.services_beliefs import (
    belief_write,
    embeddings_enabled,
    intention_write,
    routine_label,
)
from persona.models import SourceType
from persona.services import ChangeTrigger, agent_create, persona_version_create
from tenancy.models import Agent, Membership, Tenant

_DATE_TOKEN = re.compile(r"\{(full|short)([+-]\d+)\}")
_TURN_GAP_MINUTES = (0, 3, 7, 12, 16, 21)  # minutes after the first turn, per turn


@dataclass
class SeedCounts:
    tenants: int = 0
    agents: int = 0
    persona_versions: int = 0
    people: int = 0
    conversations: int = 0
    messages: int = 0
    entity_facts: int = 0
    beliefs: int = 0
    intentions: int = 0
    routines: int = 0
    users: int = 0

    def added_anything(self) -> bool:
        return any(vars(self).values())


def _shift(day: date, days: int, *, working_days: bool) -> date:
    """``day`` moved by ``days`` (negative = back), counting only Mon-Fri if asked."""
    if not working_days:
        return day + timedelta(days=days)
    step = 1 if days > 0 else -1
    remaining = abs(days)
    while remaining:
        day += timedelta(days=step)
        if day.weekday() < 5:
            remaining -= 1
    return day


def _render(text: str, *, day: date, working_days: bool) -> str:
    """Replace ``{full-3}`` / ``{short+2}`` with a date relative to the conversation's day."""

    def sub(match: re.Match[str]) -> str:
        when = _shift(day, int(match.group(2)), working_days=working_days)
        if match.group(1) == "full":
            return f"{when.day} {when:%B %Y}"
        return f"{when:%d/%m}"

    return _DATE_TOKEN.sub(sub, text)


def conversation_start(conv: DemoConversation, *, now: datetime, working_days: bool) -> datetime:
    """When the conversation's first turn happened: ``days_ago`` days before ``now``'s day
    at its wall-clock time (local time zone). ``days_ago`` >= 1 keeps every turn in the past."""
    today = timezone.localdate(now)
    day = _shift(today, -conv.days_ago, working_days=working_days)
    hour, minute = (int(part) for part in conv.clock.split(":"))
    return timezone.make_aware(datetime.combine(day, time(hour, minute)))


def _seed_conversation(
    *, agent: Agent, conv: DemoConversation, now: datetime, working_days: bool
) -> int:
    start = conversation_start(conv, now=now, working_days=working_days)
    day = timezone.localdate(start)
    written = 0
    for index, (user_text, assistant_text) in enumerate(conv.turns):
        at = start + timedelta(minutes=_TURN_GAP_MINUTES[index])
        result = record_turn(
            agent=agent,
            principal_external_id=conv.person,
            conversation=conv.label,
            user_text=_render(user_text, day=day, working_days=working_days),
            assistant_text=_render(assistant_text, day=day, working_days=working_days),
            at=at,
            sealed=True if conv.sealed else None,
        )
        written += len(result.messages)
    return written


def _seed_desk(desk: DemoDesk, *, now: datetime, counts: SeedCounts) -> None:
    with transaction.atomic():
        tenant, created = Tenant.objects.get_or_create(
            slug=desk.tenant_slug, defaults={"name": desk.tenant_name}
        )
        counts.tenants += created
        agent = Agent.objects.filter(slug=desk.agent_slug).first()
        if agent is not None and agent.tenant_id != tenant.id:
            raise CommandError(
                f"An agent with the slug {desk.agent_slug!r} already exists in another tenant "
                f"({agent.tenant}); seed_demo leaves it alone. Seed into a fresh database or "
                "rename that agent."
            )
        if agent is None:
            agent = agent_create(
                tenant=tenant,
                name=desk.agent_name,
                slug=desk.agent_slug,
                role=desk.role,
                goals=desk.goals,
                background=desk.background,
                guardrails=list(desk.guardrails),
                created_by=desk.operator,
                source_type=SourceType.UI_FORM,
            )
            counts.agents += 1
            counts.persona_versions += 1
            for edit in desk.persona_edits:
                persona_version_create(
                    agent=agent,
                    changes=edit.changes,
                    trigger=ChangeTrigger(
                        source_type=SourceType.UI_FORM,
                        reason=edit.reason,
                        approved_by=desk.operator,
                    ),
                )
                counts.persona_versions += 1
        # Before the turns, so they count towards the first review.
        # agent_create makes the settings row (mode off); the demo turns learning on
        # once, and a later run leaves an operator's own changes alone.
        learning, _ = LearningSettings.objects.get_or_create(agent=agent)
        if learning.turns_since_review == 0 and learning.last_review_at is None:
            LearningSettings.objects.filter(pk=learning.pk).update(**desk.learning)

        for external_id, display_name in desk.people:
            principal, created = Principal.objects.get_or_create(
                tenant=tenant, external_id=external_id, defaults={"display_name": display_name}
            )
            counts.people += created
            if not created and not principal.display_name:
                principal.display_name = display_name
                principal.save(update_fields=["display_name"])

        existing = set(
            Conversation.objects.filter(agent=agent).values_list("external_id", flat=True)
        )
        for conv in desk.conversations:
            if conv.label in existing:
                continue
            counts.messages += _seed_conversation(
                agent=agent, conv=conv, now=now, working_days=desk.working_days
            )
            counts.conversations += 1

        for spec in desk.facts:
            principal = Principal.objects.get(tenant=tenant, external_id=spec.person)
            # The user message the fact was learnt from, when the entity is named in it.
            source = (
                Message.objects.filter(
                    conversation__agent=agent,
                    conversation__external_id=spec.conversation,
                    role=Message.Role.USER,
                    text__icontains=spec.entity,
                )
                .order_by("seq")
                .first()
            )
            _, created = EntityFact.objects.get_or_create(
                tenant=tenant,
                entity=spec.entity,
                fact=spec.fact,
                defaults={"kind": spec.kind, "principal": principal, "source_message": source},
            )
            counts.entity_facts += created


def _at(now: datetime, *, days: int, clock: str) -> datetime:
    """``clock`` (local time) on the day ``days`` after ``now``'s day."""
    hour, minute = (int(part) for part in clock.split(":"))
    day = timezone.localdate(now) + timedelta(days=days)
    return timezone.make_aware(datetime.combine(day, time(hour, minute)))


def _seed_memory(desk: DemoDesk, *, now: datetime, counts: SeedCounts) -> None:
    """What the assistant's memory holds: beliefs consolidated from the people's own
    words, then what its hosts wrote (see the module docstring)."""
    agent = Agent.objects.get(slug=desk.agent_slug)
    report = consolidate(agent=agent, now=now)
    counts.beliefs += report.created + report.superseded
    people = dict(
        Principal.objects.filter(
            tenant_id=agent.tenant_id, external_id__in=[p for p, _ in desk.people]
        ).values_list("external_id", "id")
    )

    def days(value: float | None) -> datetime | None:
        return None if value is None else now + timedelta(days=value)

    missing = [
        spec
        for spec in desk.beliefs
        if not Belief.objects.filter(
            principal_id=people[spec.person], statement=spec.statement
        ).exists()
    ]
    if missing and embeddings_enabled():
        vectors_for_texts([spec.statement for spec in missing])  # one batch, stored per text
    for spec in missing:
        result = belief_write(
            agent=agent,
            principal_external_id=spec.person,
            category=spec.category,
            statement=spec.statement,
            confidence=spec.confidence,
            source="direct",
            valid_from=days(spec.valid_from_days),
            valid_until=days(spec.valid_until_days),
            evidence={"host": spec.host},
            now=now,
        )
        counts.beliefs += result.outcome != "corroborated"
    for todo in desk.intentions:
        if Intention.objects.filter(principal_id=people[todo.person], action=todo.action).exists():
            continue
        intention_write(
            agent=agent,
            principal_external_id=todo.person,
            action=todo.action,
            due=_at(now, days=todo.due_in_days, clock=todo.clock),
            source="direct",
            lead_time=timedelta(hours=todo.lead_hours),
            importance=todo.importance,
            now=now,
        )
        counts.intentions += 1
    for routine in desk.routines:
        if Routine.objects.filter(
            principal_id=people[routine.person], action=routine.action
        ).exists():
            continue
        routine_label(
            agent=agent,
            principal_external_id=routine.person,
            action=routine.action,
            weekdays=list(routine.weekdays),
            time=routine.clock,
            anchor_date=timezone.localdate(now) - timedelta(days=routine.since_days),
            now=now,
        )
        counts.routines += 1


def _seed_users(*, counts: SeedCounts) -> None:
    """Dashboard logins for the demo's people, with unusable passwords (no superusers)."""
    user_model = get_user_model()
    with transaction.atomic():
        for spec in DEMO_USERS:
            user, created = user_model.objects.get_or_create(
                username=spec.username,
                defaults={"first_name": spec.first_name, "last_name": spec.last_name},
            )
            if created:
                user.set_unusable_password()
                user.save(update_fields=["password"])
                counts.users += 1
            group, _ = Group.objects.get_or_create(name=spec.group)
            user.groups.add(group)
            tenant = Tenant.objects.get(slug=spec.tenant_slug)
            Membership.objects.get_or_create(user=user, tenant=tenant)
            _link_owner(user, tenant)


def _link_owner(user: Any, tenant: Tenant) -> None:
    """A demo person's login is linked to the person it is, so "My persona" shows."""
    from memory.models import Principal
    from persona.models import OwnerAccount
    from persona.owner_accounts import owner_account_link

    principal = Principal.objects.filter(
        tenant=tenant, external_id=getattr(user, "username", "")
    ).first()
    if principal is None:
        return
    if (
        OwnerAccount.objects.filter(user=user).exists()
        or OwnerAccount.objects.filter(principal=principal).exists()
    ):
        return
    owner_account_link(user=user, principal=principal)


def seed_demo(*, now: datetime | None = None) -> SeedCounts:
    """Write whatever part of the demo data is missing; returns what was added."""
    now = now or timezone.now()
    counts = SeedCounts()
    for desk in DESKS:
        _seed_desk(desk, now=now, counts=counts)
        _seed_memory(desk, now=now, counts=counts)
    _seed_users(counts=counts)
    return counts


class Command(BaseCommand):
    help = (
        "Create the demo data: Maya Okafor's personal assistant and the Harbour Insurance "
        "claims desk, with several weeks of conversations, their reviewers, and what the "
        "assistants remember about the people (consolidated from their messages, and written "
        "by hosts). Safe to run again: it only adds what is missing."
    )

    def handle(self, *args: object, **options: object) -> None:
        counts = seed_demo()
        if not counts.added_anything():
            self.stdout.write("Demo data already present; nothing added.")
            return
        self.stdout.write(
            self.style.SUCCESS(
                f"Demo data: added {counts.tenants} tenants, {counts.agents} agents "
                f"({counts.persona_versions} persona versions), {counts.people} people, "
                f"{counts.conversations} conversations ({counts.messages} messages), "
                f"{counts.entity_facts} entity facts, {counts.beliefs} "
                f"belief{pluralize(counts.beliefs)}, {counts.intentions} "
                f"intention{pluralize(counts.intentions)}, {counts.routines} "
                f"routine{pluralize(counts.routines)} and "
                f"{counts.users} dashboard users."
            )
        )
