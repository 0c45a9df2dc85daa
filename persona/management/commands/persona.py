"""``python manage.py persona <sub>``: the operator's command line for agent personas.

``persona doc ...`` is the owner persona document (``persona/management/doc_cli.py``);
``persona owner ...`` links a login to the person it is (``owner_cli.py``);
``persona mute|unmute|redact ...`` mutes a learned line or an entry for one person and
redacts persona words (``mute_cli.py``).

Exit codes: 0 ok, 2 bad input (unknown agent or person, a limit, a secret, a refused
guardrail write, text ``scan`` would block), 3 version conflict. Errors are one line
on standard error, never a stack trace.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandParser

from persona.management import doc_cli, mute_cli, owner_cli
from persona.models import AgentPersonaVersion, SourceType
from persona.selectors import persona_head
from personaweb.cli import EXIT_CONFLICT, command_error
from personaweb.errors import Refusal
from tenancy.models import Agent


class Command(BaseCommand):
    help = "Show, render, edit guardrails of, export, import and scan agent personas."
    requires_system_checks: list = []

    def add_arguments(self, parser: CommandParser) -> None:
        sub = parser.add_subparsers(dest="sub", required=True, metavar="SUBCOMMAND")

        p = sub.add_parser("show", help="The head persona version.")
        p.add_argument("agent", help="agent slug")
        p.add_argument("--json", action="store_true")

        p = sub.add_parser(
            "render", help="The pinned prompt prefix (the plan call) and its sha256."
        )
        p.add_argument("agent")
        p.add_argument("--principal", default="", help="the person's external id")
        p.add_argument("--session", default="", help="the host's session key")
        p.add_argument("--json", action="store_true")

        p = sub.add_parser(
            "explain",
            help="Every line of the prompt prefix with where it came from (as ?explain=1).",
        )
        p.add_argument("agent")
        p.add_argument("--principal", default="", help="the person's external id")
        p.add_argument("--session", default="", help="the host's session key")
        p.add_argument("--json", action="store_true")

        p = sub.add_parser("history", help="Every persona version, newest first.")
        p.add_argument("agent")
        p.add_argument("--json", action="store_true")

        p = sub.add_parser("guardrails", help="Replace the guardrails (one per non-empty line).")
        p.add_argument("agent")
        p.add_argument(
            "--set", dest="file", required=True, help="file of guardrails, or - for stdin"
        )
        p.add_argument("--reason", required=True)
        p.add_argument("--expected-version", type=int, default=None)

        p = sub.add_parser("export", help="Write MEMORY.md (and USER.md with --principal).")
        p.add_argument("agent")
        p.add_argument("--principal", default="")
        p.add_argument("--out", required=True, help="folder to write into")
        p.add_argument(
            "--no-trim",
            action="store_true",
            help="refuse (write nothing) instead of leaving out what is over Hermes's limits",
        )

        p = sub.add_parser(
            "import", help="Import MEMORY.md into the persona, or USER.md with --principal."
        )
        p.add_argument("agent")
        p.add_argument("file")
        p.add_argument("--principal", default="")
        p.add_argument("--expected-version", type=int, default=None)
        p.add_argument(
            "--replace-guardrails",
            action="store_true",
            help="let the file's Guardrail: entries replace the guardrails (needs --reason)",
        )
        p.add_argument("--reason", default="", help="why the guardrails are replaced")

        doc_cli.add_parser(sub)

        p = sub.add_parser(
            "scan", help="Would these lines be blocked or refused? One entry per line."
        )
        p.add_argument("file", nargs="?", default="-", help="file to scan (default: stdin)")
        p.add_argument("--json", action="store_true")

        owner_cli.add_parser(sub)
        mute_cli.add_parsers(sub)

    def handle(self, *args: Any, **options: Any) -> None:
        from persona.services import PersonaVersionConflict

        handler = getattr(self, f"cmd_{options['sub']}")
        try:
            handler(**options)
        except PersonaVersionConflict as exc:
            raise command_error(str(exc), EXIT_CONFLICT) from exc
        except Refusal as exc:
            raise command_error(str(exc)) from exc

    # -- helpers ------------------------------------------------------------------

    def _agent(self, slug: str) -> Agent:
        agent = Agent.objects.select_related("tenant").filter(slug=slug).first()
        if agent is None:
            raise command_error(
                f"No agent with the slug {slug!r}; `persona show` takes an agent slug."
            )
        return agent

    def _principal(self, agent: Agent, external_id: str):
        from memory.models import Principal

        if not external_id:
            return None
        principal = Principal.objects.filter(
            tenant_id=agent.tenant_id, external_id=external_id
        ).first()
        if principal is None:
            raise command_error(
                f"No person {external_id!r} in the tenant of agent {agent.slug!r}; check the id."
            )
        return principal

    def _read(self, path: str) -> str:
        if path == "-":
            return sys.stdin.read()
        try:
            return Path(path).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise command_error(
                f"Cannot read {path}: {exc.strerror if isinstance(exc, OSError) else exc}."
            ) from exc

    def _out(self, text: str) -> None:
        self.stdout.write(text, ending="\n")

    # -- subcommands ----------------------------------------------------------------

    def cmd_doc(self, **options: Any) -> None:
        doc_cli.run(self.stdout, options)

    def cmd_owner(self, **options: Any) -> None:
        owner_cli.run(self.stdout, options)

    def cmd_mute(self, **options: Any) -> None:
        mute_cli.run(self.stdout, options)

    cmd_unmute = cmd_redact = cmd_mute

    def cmd_show(self, *, agent: str, json: bool = False, **_: Any) -> None:
        row = self._agent(agent)
        head = persona_head(agent=row)
        data: dict[str, Any] = _version_dict(head, evidence=False) if head else {"version": 0}
        data["agent"] = row.slug
        if json:
            self._out(_dumps(data))
            return
        self._out(f"{row.name} ({row.slug}) — persona version {data['version']}")
        if head is None:
            return
        self._out(f"role: {head.role}")
        for title, items in (
            ("guardrails", head.guardrails),
            ("standing rules", head.standing_rules),
        ):
            self._out(f"{title}:")
            for i, item in enumerate(items, start=1):
                self._out(f"  {i}. {item}")
        self._out(f"goals: {head.goals}")
        self._out(f"background: {head.background}")

    def cmd_render(
        self, *, agent: str, principal: str, session: str, json: bool = False, **_: Any
    ) -> None:
        from persona.plans import plan_get_or_rotate

        row = self._agent(agent)
        plan = plan_get_or_rotate(
            agent=row, principal=self._principal(row, principal), session_key=session
        )
        if json:
            self._out(
                _dumps(
                    {
                        "prefix": plan.prefix_text,
                        "sha256": plan.prefix_sha256,
                        "epoch": plan.epoch,
                        "persona_version": plan.persona_version,
                        "tokens": plan.token_count,
                    }
                )
            )
            return
        self._out(plan.prefix_text)
        self._out("")
        self._out(
            f"sha256: {plan.prefix_sha256}  epoch: {plan.epoch}  "
            f"persona version: {plan.persona_version}  tokens: {plan.token_count}"
        )

    def cmd_explain(
        self, *, agent: str, principal: str, session: str, json: bool = False, **_: Any
    ) -> None:
        """The answer of ``prompt_explain`` (``GET /v1/agents/SLUG/prefix?explain=1``):
        read-only; an operator reads every quote, as on the agent page."""
        from persona.provenance import explain_session

        row = self._agent(agent)
        answer = explain_session(
            agent=row, principal=self._principal(row, principal), session_key=session
        ).as_dict()
        if json:
            self._out(_dumps(_plain(answer)))
            return
        width = len(str(len(answer["lines"])))
        for line in answer["lines"]:
            self._out(f"{line['n']:>{width}}  {line['text']}")
            if line["summary"] and line["kind"] != "frame":
                self._out(f"{'':>{width}}    <- {line['summary']}")
        pinned = f"pinned, epoch {answer['epoch']}" if answer["pinned"] else "not pinned yet"
        self._out("")
        self._out(
            f"sha256: {answer['sha256']}  persona version: {answer['persona_version']}  "
            f"owner document version: {answer['owner_doc_version'] or '-'}  ({pinned})"
        )

    def cmd_history(self, *, agent: str, json: bool = False, **_: Any) -> None:
        row = self._agent(agent)
        versions = AgentPersonaVersion.objects.filter(agent=row).order_by("-version")
        if json:
            self._out(_dumps([_version_dict(v, evidence=True) for v in versions]))
            return
        for v in versions:
            who = f" by {v.approved_by}" if v.approved_by else ""
            changed = ", ".join(v.fields_changed) or "nothing"
            self._out(
                f"v{v.version}  {v.created_at:%Y-%m-%d %H:%M}  {v.source_type}{who}  "
                f"[{changed}]  {v.reason}"
            )

    def cmd_guardrails(
        self, *, agent: str, file: str, reason: str, expected_version: int | None, **_: Any
    ) -> None:
        from persona.services import ChangeTrigger, persona_version_create

        row = self._agent(agent)
        lines = [line.strip() for line in self._read(file).splitlines() if line.strip()]
        version = persona_version_create(
            agent=row,
            changes={"guardrails": lines},
            trigger=ChangeTrigger(source_type=SourceType.HOST, reason=reason),
            expected_version=expected_version,
        )
        self._out(f"Saved persona version {version.version} with {len(lines)} guardrail(s).")

    def cmd_export(self, *, agent: str, principal: str, out: str, no_trim: bool, **_: Any) -> None:
        from persona.hermes import export_files

        row = self._agent(agent)
        try:
            report = export_files(
                agent=row,
                out_dir=Path(out),
                principal=self._principal(row, principal),
                trim=not no_trim,
            )
        except OSError as exc:
            raise command_error(f"Cannot write into {out}: {exc.strerror}.") from exc
        for path in report.paths:
            self._out(f"wrote {path}")
        for sentence in report.sentences:
            self._out(sentence)

    def cmd_import(
        self,
        *,
        agent: str,
        file: str,
        principal: str,
        expected_version: int | None,
        replace_guardrails: bool,
        reason: str,
        **_: Any,
    ) -> None:
        from persona.hermes import (
            IMPORT_MAX_CHARS,
            GuardrailImportRefused,
            persona_import,
            user_import,
        )

        row = self._agent(agent)
        if file != "-":
            # a file far over the import cap is refused before it is even read
            max_bytes = 4 * int(getattr(settings, "HERMES_IMPORT_MAX_CHARS", IMPORT_MAX_CHARS))
            try:
                size = Path(file).stat().st_size
            except OSError as exc:
                raise command_error(f"Cannot read {file}: {exc.strerror}.") from exc
            if size > max_bytes:
                raise command_error(
                    f"{file} is {size:,} bytes; an import takes at most {max_bytes:,}. "
                    "Nothing was imported; shorten the file."
                )
        text = self._read(file)
        person = self._principal(row, principal)
        if person is not None:
            if replace_guardrails:
                raise command_error(
                    "--replace-guardrails is for MEMORY.md; USER.md holds no guardrails."
                )
            report = user_import(principal=person, text=text)
        else:
            try:
                report = persona_import(
                    agent=row,
                    text=text,
                    expected_version=expected_version,
                    replace_guardrails=replace_guardrails,
                    reason=reason,
                )
            except GuardrailImportRefused as exc:
                self._out("the file would change the guardrails:\n" + "\n".join(exc.diff))
                raise command_error(
                    "Nothing was imported: the file's Guardrail: entries differ from the "
                    'guardrails (the difference is above); import again with --replace-guardrails --reason "why" '
                    "to replace them, or remove those entries to keep them."
                ) from exc
        for item in report.blocked:
            self._out(
                f"not imported (entry {item['index']}): blocked by {', '.join(item['pattern_ids'])}"
            )
        for item in report.secrets:
            self._out(
                f"not imported (entry {item['index']}): holds a secret ({', '.join(item['kinds'])})"
            )
        if report.guardrail_diff:
            self._out("guardrails replaced:\n" + "\n".join(report.guardrail_diff))
        summary = f"{len(report.imported)} imported, {len(report.unchanged)} already present, {report.refused} refused"
        if report.version:
            summary += f"; persona version {report.version}"
        self._out(summary + ".")

    def cmd_scan(self, *, file: str, json: bool = False, **_: Any) -> None:
        from safety.secrets import scan_entry

        results: list[dict[str, Any]] = []
        for number, line in enumerate(self._read(file).splitlines(), start=1):
            if not line.strip():
                continue
            found = scan_entry(line)
            results.append(
                {
                    "line": number,
                    "blocked": bool(found["blocked"]),
                    "pattern_ids": list(found["pattern_ids"]),
                    "secret": bool(found["secret_kinds"]),
                    "secret_kinds": list(found["secret_kinds"]),
                }
            )
        if json:
            self._out(_dumps(results))
        else:
            for r in results:
                verdict = f"BLOCKED ({', '.join(r['pattern_ids'])})" if r["blocked"] else "ok"
                secret = f"; SECRET ({', '.join(r['secret_kinds'])})" if r["secret"] else ""
                self._out(f"line {r['line']}: {verdict}{secret}")
        bad = sum(1 for r in results if r["blocked"] or r["secret"])
        if bad:
            raise command_error(
                f"{bad} of {len(results)} line(s) would be blocked or refused; see the report above."
            )


def _version_dict(v: AgentPersonaVersion, *, evidence: bool) -> dict[str, Any]:
    data: dict[str, Any] = {
        "version": v.version,
        "name": v.name,
        "role": v.role,
        "goals": v.goals,
        "background": v.background,
        "guardrails": list(v.guardrails),
        "standing_rules": list(v.standing_rules),
        "source_type": v.source_type,
        "reason": v.reason,
        "approved_by": v.approved_by,
        "proposal_id": v.proposal_id,
        "fields_changed": list(v.fields_changed),
        "created_at": v.created_at.isoformat(),
    }
    if evidence:
        data["evidence"] = v.evidence
    return data


def _dumps(data: Any) -> str:
    return json.dumps(data, ensure_ascii=False, indent=2, sort_keys=True)


def _plain(data: Any) -> Any:
    """JSON-ready values (times as ISO text)."""
    from django.core.serializers.json import DjangoJSONEncoder

    return json.loads(json.dumps(data, cls=DjangoJSONEncoder))
