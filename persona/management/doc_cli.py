"""``manage.py persona doc ...``: the owner persona document on the command line.

``show [--json]``, ``edit --expected-version N --file ENTRIES.json``, ``history``,
``nominations [--state S]``, ``affirm ID``, ``decline ID``; each with ``--tenant T
--principal P``. A stale ``--expected-version`` exits 3 naming the current head; a
refusal (a secret, a cap, bad JSON) exits 2; nothing is written in either case.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from personaweb.cli import EXIT_CONFLICT, command_error


def add_parser(sub: Any) -> None:
    doc = sub.add_parser("doc", help="The owner's persona document (show, edit, nominations).")
    actions = doc.add_subparsers(dest="doc_action", required=True, metavar="ACTION")

    def person(p: Any) -> None:
        p.add_argument("--tenant", required=True, help="tenant slug")
        p.add_argument("--principal", required=True, help="the person's external id")

    p = actions.add_parser("show", help="The head version and its entries.")
    person(p)
    p.add_argument("--json", action="store_true")
    p = actions.add_parser("edit", help="Replace the entries (a JSON list).")
    person(p)
    p.add_argument("--expected-version", type=int, required=True, help="the version you edited")
    p.add_argument(
        "--file", required=True, help='JSON list of {"text", "sensitivity"?, "tier"?, "key"?}'
    )
    p.add_argument(
        "--by",
        default="cli",
        help="who edits (recorded on the version; the entries say written on the person's "
        "behalf: the command line is never the owner)",
    )
    p = actions.add_parser("history", help="Every version, newest first.")
    person(p)
    p.add_argument("--limit", type=int, default=20)
    p.add_argument("--json", action="store_true")
    p = actions.add_parser("nominations", help="Nominations (default: the open ones).")
    person(p)
    p.add_argument(
        "--state", default="nominated", choices=["nominated", "affirmed", "declined", "withdrawn"]
    )
    p.add_argument("--json", action="store_true")
    for name in ("affirm", "decline"):
        p = actions.add_parser(name, help=f"{name.capitalize()} a nomination.")
        person(p)
        p.add_argument("nomination", type=int, help="nomination id")
        p.add_argument("--by", default="cli")


def entry_dict(e: Any) -> dict[str, Any]:
    from memory.models_beliefs import Sensitivity

    return {
        "key": e.key,
        "text": e.text,
        "source": e.source,
        "source_belief_id": e.source_belief_id,
        "sensitivity": Sensitivity(e.sensitivity).label,
        "tier": e.tier,
        "author": e.author,
        "written_by": e.written_by,
        "reinforcement_count": e.reinforcement_count,
        "last_reinforced_at": e.last_reinforced_at.isoformat(),
        "stale": e.stale,
        "stale_reason": e.stale_reason,
        "dormant": e.dormant,
    }


def run(out: Any, options: dict[str, Any]) -> None:
    from memory.models import Principal
    from persona.models import OwnerDocumentVersion, OwnerNomination
    from persona.models_owner import Author
    from persona.owner import (
        OwnerDocConflict,
        doc_head,
        nomination_affirm,
        nomination_decline,
        owner_doc_write,
        sealed_nominations,
    )
    from personaweb.errors import Refusal

    principal = (
        Principal.objects.select_related("tenant")
        .filter(tenant__slug=options["tenant"], external_id=options["principal"])
        .first()
    )
    if principal is None:
        raise command_error(
            f"No person {options['principal']!r} in tenant {options['tenant']!r}; check both."
        )
    action = options["doc_action"]

    def write(text: str) -> None:
        out.write(text, ending="\n")

    try:
        if action == "show":
            head = doc_head(principal)
            data = {"version": head.version, "entries": [entry_dict(e) for e in head.entries]}
            if options["json"]:
                write(json.dumps(data, ensure_ascii=False, indent=2))
                return
            write(f"Version {head.version}, {len(head.entries)} entries.")
            for e in head.entries:
                flags = " ".join(
                    f for f in ("stale" if e.stale else "", "dormant" if e.dormant else "") if f
                )
                write(f"- {e.text}  [{e.source}, {e.tier}{', ' + flags if flags else ''}]")
        elif action == "edit":
            try:
                entries = json.loads(Path(options["file"]).read_text(encoding="utf-8"))
            except OSError as exc:
                raise command_error(f"Cannot read {options['file']}: {exc.strerror}.") from None
            except ValueError as exc:
                raise command_error(
                    f"{options['file']} is not JSON ({exc}); nothing was written."
                ) from None
            version = owner_doc_write(
                principal=principal,
                expected_version=options["expected_version"],
                entries=entries,
                written_by=options["by"],
                # the server's command line is never the owner, whatever --by says
                author=Author.ON_BEHALF,
            )
            if version is None:
                write(
                    f"Nothing changed; the document stays at version {options['expected_version']}."
                )
            else:
                write(f"Saved version {version.version}.")
        elif action == "history":
            versions = OwnerDocumentVersion.objects.filter(document__principal=principal).order_by(
                "-version"
            )[: max(1, options["limit"])]
            history: list[dict[str, Any]] = [
                {
                    "version": v.version,
                    "source": v.source,
                    "written_by": v.written_by,
                    "note": v.note,
                    "created_at": v.created_at.isoformat(),
                }
                for v in versions
            ]
            if options["json"]:
                write(json.dumps({"versions": history}, indent=2))
                return
            for item in history:
                write(
                    f"v{item['version']}  {item['created_at'][:19]}  {item['source']}  "
                    f"{item['written_by']}  {item['note']}"
                )
        elif action == "nominations":
            nominations = list(
                OwnerNomination.objects.filter(
                    principal=principal, state=options["state"]
                ).order_by("-nominated_at")
            )
            sealed = sealed_nominations(nominations)
            listed = [
                {
                    "id": n.pk,
                    "statement": n.statement,
                    "category": n.category,
                    "confidence": n.confidence,
                    "corroboration_count": n.corroboration_count,
                    "state": n.state,
                    # never the words of a sealed conversation
                    "evidence_quote": None if n.pk in sealed else n.evidence_quote,
                    "sealed": n.pk in sealed,
                    "nominated_at": n.nominated_at.isoformat(),
                }
                for n in nominations
            ]
            if options["json"]:
                write(json.dumps({"nominations": listed}, ensure_ascii=False, indent=2))
                return
            if not listed:
                write(f"No {options['state']} nominations.")
            for n in listed:
                write(
                    f"#{n['id']}  {n['statement']}  [{n['category']}, x{n['corroboration_count']}]"
                )
        elif action == "affirm":
            version = nomination_affirm(
                principal=principal,
                nomination_id=options["nomination"],
                by=options["by"],
                author=Author.ON_BEHALF,
            )
            write(f"Affirmed; the document is at version {version.version}.")
        elif action == "decline":
            nomination_decline(
                principal=principal, nomination_id=options["nomination"], by=options["by"]
            )
            write("Declined; this statement will not be nominated again.")
    except OwnerDocConflict as exc:
        raise command_error(str(exc), EXIT_CONFLICT) from None
    except Refusal as exc:
        raise command_error(str(exc)) from None
