"""``manage.py memory mute|unmute|redact``: the person page's Mute and Redact on the
command line, through the same services (``memory.services_beliefs.belief_mute``,
``belief_unmute``; ``memory.redaction.belief_redact``, ``message_redact``).

The command acts as the named login ``--by USERNAME`` (``tenancy.access.actor_for_username``)
and the services check it as they check a page's login: muting needs an operator of the
person's team, redacting a superuser with a reason. An unknown id, an id out of the
login's reach and a refusal each exit 2 with one sentence; nothing changes.
"""

from __future__ import annotations

from typing import Any

from memory.redaction import MAX_REASON_CHARS, MIN_REASON_CHARS
from personaweb.cli import command_error


def add_parsers(actions: Any) -> None:
    p = actions.add_parser(
        "mute",
        help="Don't mention a belief again: kept, never given to a host (an operator).",
    )
    p.add_argument("belief", type=int, help="the belief's id (`memory beliefs list` shows it)")
    p.add_argument("--by", required=True, help="the user name of the operator who mutes it")
    p.add_argument("--reason", default="", help="why (kept with the belief)")

    p = actions.add_parser("unmute", help="Undo a belief's mute: hosts are given it again.")
    p.add_argument("belief", type=int, help="the belief's id")
    p.add_argument("--by", required=True, help="the user name of the operator who unmutes it")

    p = actions.add_parser(
        "redact",
        help="Remove the words of a belief or a message for good (a superuser, with a reason).",
        description=(
            "The row stays and its words become [redacted] everywhere memory, persona and "
            "learning hold them; a redaction record keeps who, when and why. It cannot be undone."
        ),
    )
    p.add_argument("what", choices=["belief", "message"], help="what to redact")
    p.add_argument("id", type=int, help="its id")
    p.add_argument("--by", required=True, help="a superuser's user name")
    p.add_argument(
        "--reason",
        required=True,
        help=f"why ({MIN_REASON_CHARS}-{MAX_REASON_CHARS} characters; kept with the record)",
    )


def run(out: Any, options: dict[str, Any]) -> None:
    from memory.models import Belief, Message
    from memory.redaction import belief_redact, message_redact
    from memory.services_beliefs import belief_mute, belief_unmute
    from personaweb.errors import Refusal
    from tenancy.access import actor_for_username

    action = options["action"]
    try:
        actor = actor_for_username(options["by"])
        if action == "redact" and options["what"] == "message":
            message = Message.objects.filter(pk=options["id"]).first()
            if message is None:
                raise command_error(
                    f"No message {options['id']}; the conversation page shows the ids."
                )
            message_redact(actor=actor, message=message, reason=options["reason"])
            out.write(f"Message {message.pk} redacted; the reason is kept with the record.")
            return
        pk = options["id"] if action == "redact" else options["belief"]
        belief = Belief.objects.filter(pk=pk).first()
        if belief is None:
            raise command_error(
                f"No belief {pk}; `memory beliefs list AGENT --principal P` shows the ids."
            )
        if action == "mute":
            belief_mute(belief=belief, actor=actor, reason=options["reason"])
            out.write(f"Belief {pk} muted: no host is given it. `memory unmute {pk}` undoes it.")
        elif action == "unmute":
            belief_unmute(belief=belief, actor=actor)
            out.write(f"Belief {pk} unmuted: hosts are given it again.")
        else:
            belief_redact(actor=actor, belief=belief, reason=options["reason"])
            out.write(f"Belief {pk} redacted; the reason is kept with the record.")
    except Refusal as exc:
        raise command_error(str(exc)) from None
