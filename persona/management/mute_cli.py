"""``manage.py persona mute|unmute|redact``: "don't mention this again" for one person and
redaction of persona words on the command line, through the services the pages call
(``persona.mutes``: ``line_mute``, ``entry_mute``, ``mute_undo``; ``persona.redaction``:
``persona_version_redact``, ``owner_entry_redact``).

    persona mute line AGENT --principal P --section goals --text "..." --by USER [--reason R]
    persona mute entry --tenant T --principal P --key KEY --by USER [--reason R]
    persona unmute MUTE_ID --by USER
    persona redact version AGENT VERSION --passage "..." --by SUPERUSER --reason R
    persona redact entry --tenant T --principal P --key KEY --by SUPERUSER --reason R

The command acts as the named login ``--by USERNAME`` (``tenancy.access.actor_for_username``)
and the services check it as they check a page's login: a mute needs an operator of the
person's team (or the person's own owner login), a redaction a superuser with a reason.
An unknown agent, person, key or id, and a refusal, exit 2 with one sentence; nothing
changes. ``persona doc show`` lists an entry's key; ``persona explain`` the learned lines.
"""

from __future__ import annotations

from typing import Any

from memory.redaction import MAX_REASON_CHARS, MIN_REASON_CHARS
from persona.learned_lines import SECTION_LABELS
from personaweb.cli import command_error


def add_parsers(sub: Any) -> None:
    mute = sub.add_parser(
        "mute",
        help="Don't give one person a learned line or an entry of their document again.",
    )
    kinds = mute.add_subparsers(dest="mute_kind", required=True, metavar="WHAT")
    p = kinds.add_parser("line", help="A learned line of an assistant's persona, for one person.")
    p.add_argument("agent", help="agent slug")
    p.add_argument("--principal", required=True, help="the person's external id")
    p.add_argument("--section", required=True, choices=list(SECTION_LABELS))
    p.add_argument("--text", required=True, help="the line's words, as the persona says them")
    _by(p, "an operator of the person's team, or the person's own login")
    p.add_argument("--reason", default="", help="why (kept with the mute)")
    p = kinds.add_parser("entry", help="An entry of the person's own persona document.")
    _person(p)
    p.add_argument("--key", required=True, help="the entry's key (`persona doc show`)")
    _by(p, "an operator of the person's team, or the person's own login")
    p.add_argument("--reason", default="", help="why (kept with the mute)")

    p = sub.add_parser("unmute", help="Take a mute back: the person is given it again.")
    p.add_argument("mute", type=int, help="the mute's id (printed by `persona mute`)")
    _by(p, "an operator of the person's team, or the person's own login")

    redact = sub.add_parser(
        "redact",
        help="Remove persona words for good (a superuser, with a reason).",
        description=(
            "The words become [redacted] in every version that holds them, the pinned "
            "prompts are rebuilt and a redaction record keeps who, when and why. It cannot "
            "be undone."
        ),
    )
    kinds = redact.add_subparsers(dest="redact_kind", required=True, metavar="WHAT")
    p = kinds.add_parser("version", help="A passage of a persona version (every version).")
    p.add_argument("agent", help="agent slug")
    p.add_argument("version", type=int, help="a version that holds the passage")
    p.add_argument("--passage", required=True, help="the exact words, as the version has them")
    _by(p, "a superuser")
    _reason(p)
    p = kinds.add_parser("entry", help="An entry of a person's persona document.")
    _person(p)
    p.add_argument("--key", required=True, help="the entry's key (`persona doc show`)")
    _by(p, "a superuser")
    _reason(p)


def _by(p: Any, who: str) -> None:
    p.add_argument("--by", required=True, help=f"the user name of who acts: {who}")


def _reason(p: Any) -> None:
    p.add_argument(
        "--reason",
        required=True,
        help=f"why ({MIN_REASON_CHARS}-{MAX_REASON_CHARS} characters; kept with the record)",
    )


def _person(p: Any) -> None:
    p.add_argument("--tenant", required=True, help="tenant slug")
    p.add_argument("--principal", required=True, help="the person's external id")


def _agent(slug: str) -> Any:
    from tenancy.models import Agent

    agent = Agent.objects.filter(slug=slug).first()
    if agent is None:
        raise command_error(f"No agent with the slug {slug!r}; check the name.")
    return agent


def _principal(*, tenant_id: int, external_id: str, where: str) -> Any:
    from memory.models import Principal

    principal = Principal.objects.filter(tenant_id=tenant_id, external_id=external_id).first()
    if principal is None:
        raise command_error(
            f"No person {external_id!r} in {where}; check the id (the People page)."
        )
    return principal


def _person_of(options: dict[str, Any]) -> Any:
    from tenancy.models import Tenant

    tenant = Tenant.objects.filter(slug=options["tenant"]).first()
    if tenant is None:
        raise command_error(f"No tenant with the slug {options['tenant']!r}.")
    return _principal(
        tenant_id=tenant.pk,
        external_id=options["principal"],
        where=f"the tenant {tenant.slug!r}",
    )


def _entry(principal: Any, key: str) -> Any:
    from persona.owner import doc_head

    entry = next((e for e in doc_head(principal.pk).entries if e.key == key), None)
    if entry is None:
        raise command_error(
            f"No entry {key!r} in the persona document of {principal.external_id!r}; "
            "`persona doc show` lists the keys."
        )
    return entry


def run(out: Any, options: dict[str, Any]) -> None:
    from personaweb.errors import Refusal
    from tenancy.access import actor_for_username

    try:
        actor = actor_for_username(options["by"])
        text = {"mute": _mute, "unmute": _unmute, "redact": _redact}[options["sub"]](actor, options)
    except Refusal as exc:
        raise command_error(str(exc)) from None
    out.write(text, ending="\n")


def _mute(actor: Any, options: dict[str, Any]) -> str:
    from persona.mutes import entry_mute, line_mute

    if options["mute_kind"] == "line":
        agent = _agent(options["agent"])
        principal = _principal(
            tenant_id=agent.tenant_id,
            external_id=options["principal"],
            where=f"the tenant of agent {agent.slug!r}",
        )
        mute = line_mute(
            actor=actor,
            agent=agent,
            principal=principal,
            section=options["section"],
            text=options["text"],
            reason=options["reason"],
        )
        what = f"this line of {agent.name}"
    else:
        principal = _person_of(options)
        actor.require(principal=principal)  # out of reach: not found, before the key is looked up
        entry = _entry(principal, options["key"])
        mute = entry_mute(actor=actor, principal=principal, key=entry.key, reason=options["reason"])
        what = "this entry of their document"
    return (
        f"Muted {what} for {principal.external_id} (mute {mute.pk}); their next prompt "
        f"leaves it out. `persona unmute {mute.pk}` takes it back."
    )


def _unmute(actor: Any, options: dict[str, Any]) -> str:
    from persona.mutes import mute_in_reach, mute_undo

    mute = mute_in_reach(actor, options["mute"])
    mute_undo(actor=actor, mute=mute)
    return f"Mute {mute.pk} taken back: {mute.principal.external_id} is given it again."


def _redact(actor: Any, options: dict[str, Any]) -> str:
    from persona.models import AgentPersonaVersion
    from persona.redaction import owner_entry_redact, persona_version_redact

    if options["redact_kind"] == "version":
        agent = _agent(options["agent"])
        version = AgentPersonaVersion.objects.filter(
            agent=agent, version=options["version"]
        ).first()
        if version is None:
            raise command_error(
                f"Agent {agent.slug!r} has no version {options['version']}; "
                "`persona history` lists them."
            )
        result = persona_version_redact(
            actor=actor, version=version, passage=options["passage"], reason=options["reason"]
        )
        shown = ", ".join(f"v{n}" for n in result.versions)
    else:
        principal = _person_of(options)
        actor.require(principal=principal)
        entry = _entry(principal, options["key"])
        result = owner_entry_redact(actor=actor, entry=entry, reason=options["reason"])
        shown = f"{len(result.redaction.reached.get('entries', []))} document version(s)"
    return (
        f"Redacted from {shown}; {result.plans_rotated} pinned prompt(s) rebuilt without it. "
        "The reason is kept with the record."
    )
