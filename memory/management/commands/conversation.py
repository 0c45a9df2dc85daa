"""Seal a conversation, or (a superuser, with a reason) unseal it.

    manage.py conversation seal AGENT LABEL [--by NAME]
    manage.py conversation unseal AGENT LABEL --by SUPERUSER --reason "why"

Exit 2 with a sentence when the conversation is unknown or the unseal is refused.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError, CommandParser

from memory.models import Conversation
from memory.sealing import conversation_seal, conversation_unseal
from personaweb.errors import Refusal


class Command(BaseCommand):
    help = "Seal a conversation (one-way), or unseal it as a superuser with a recorded reason."

    def add_arguments(self, parser: CommandParser) -> None:
        actions = parser.add_subparsers(dest="action", required=True, metavar="ACTION")
        seal = actions.add_parser(
            "seal",
            help="Seal: never read by learning, never quoted or shown, never evidence (beliefs "
            "resting on it alone end; nominations and waiting proposals quoting it are withdrawn).",
        )
        unseal = actions.add_parser(
            "unseal", help="Unseal (superuser, with a reason). Restores nothing sealing withdrew."
        )
        for p in (seal, unseal):
            p.add_argument("agent", help="agent slug")
            p.add_argument("label", help="the host's conversation label")
        seal.add_argument("--by", default="cli")
        unseal.add_argument("--by", required=True, help="a superuser's user name")
        unseal.add_argument("--reason", required=True)

    def handle(self, *args: Any, **options: Any) -> None:
        conv = Conversation.objects.filter(
            agent__slug=options["agent"], external_id=options["label"]
        ).first()
        if conv is None:
            raise CommandError(
                f"No conversation {options['label']!r} of agent {options['agent']!r}; check both names.",
                returncode=2,
            )
        try:
            if options["action"] == "seal":
                self.stdout.write(conversation_seal(conversation=conv, by=options["by"]).summary())
                return
            user = get_user_model().objects.filter(username=options["by"]).first()
            if user is None:
                raise CommandError(f"No account is called {options['by']!r}.", returncode=2)
            result = conversation_unseal(conversation=conv, by=user, reason=options["reason"])
            self.stdout.write(
                f"Unsealed {conv.external_id}; the reason is logged. {result.message}"
            )
        except Refusal as exc:
            raise CommandError(str(exc), returncode=2) from None
