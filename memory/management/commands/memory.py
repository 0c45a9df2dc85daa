"""``manage.py memory <action>``: conversation memory from the command line.

Actions:
  import FILE [--batch N] [--tenant SLUG]   load a JSONL file of messages
  embed [--limit N]                         embed waiting messages now
  beliefs import FILE [--tenant SLUG]       load a JSONL file of beliefs
  beliefs list AGENT --principal P [--json] [--all]
                                            a person's beliefs
  context AGENT --principal P --query Q [--now ISO] [--limit N] [--json] [--no-embed]
                                            what build_context recalls for a question
  consolidate AGENT [--limit N] [--json]    form beliefs from new user messages now
  encode-bank [--force]                     encode the question bank once into the file next
                                            to the ONNX encoder (var/encoder/; a no-op when
                                            there), and store the bank's topic votes of the
                                            beliefs that lack them; `make install` runs it
  mute BELIEF --by OPERATOR [--reason R]    don't mention a belief again (unmute undoes it)
  unmute BELIEF --by OPERATOR               hosts are given the belief again
  redact belief|message ID --by SUPERUSER --reason R
                                            remove the words for good (memory/management/mute_cli.py)

Exit codes: 0 done, 2 bad input (a bad line, a missing file), 1 anything else.
"""

from __future__ import annotations

import json
import sys
from argparse import ArgumentParser
from datetime import datetime
from typing import Any

from django.core.management.base import BaseCommand, CommandError
from tqdm import tqdm

from memory.management import mute_cli
from memory.services import MemoryInputError
from personaweb.cli import EXIT_BAD_INPUT


def _memory_migrated() -> bool:
    """Whether every migration of the memory app is applied to the default database."""
    from django.db import connection
    from django.db.migrations.executor import MigrationExecutor

    executor = MigrationExecutor(connection)
    plan = executor.migration_plan(executor.loader.graph.leaf_nodes())
    return not any(migration.app_label == "memory" for migration, _backwards in plan)


class Command(BaseCommand):
    verbosity = 1
    help = (
        "Conversation memory: import messages, embed them; import and list beliefs; "
        "show what build_context recalls for a question."
    )

    def add_arguments(self, parser: ArgumentParser) -> None:
        actions = parser.add_subparsers(dest="action", required=True, metavar="ACTION")

        imp = actions.add_parser(
            "import",
            help="Import messages from a JSONL file (one JSON object per line).",
            description=(
                'Each line: {"agent", "user", "conversation", "role", "text", "at"} and optionally '
                '"sealed": true. Every line is checked before anything is written; importing the '
                "same file again adds nothing."
            ),
        )
        imp.add_argument("file", help="path of the JSONL file")
        imp.add_argument(
            "--batch", type=int, default=2_000, help="messages per insert (default 2000)"
        )
        imp.add_argument(
            "--tenant",
            default=None,
            help=(
                "tenant slug for agents the file creates (default: 'default'; created if "
                "needed); an agent that exists in another tenant is an error"
            ),
        )

        aud = actions.add_parser(
            "audit",
            help="The memory health check: near twins, stale, weak or blocked memory.",
            description=(
                "Lists near-duplicate beliefs, beliefs that restate the persona, stored text "
                "today's scans would block, expired beliefs still active, beliefs resting on "
                "one weak piece of evidence, beliefs no host was given in --days days and "
                "learned persona lines whose evidence is gone. Records the counts for the "
                "dashboard's Memory health page unless --dry-run."
            ),
        )
        aud.add_argument("--json", action="store_true", help="print the report as JSON")
        aud.add_argument("--tenant", default=None, help="only this tenant (slug)")
        aud.add_argument(
            "--days", type=int, default=30, help="'never given' means in this many days (30)"
        )
        aud.add_argument(
            "--no-scan", action="store_true", help="skip the safety scan (no model load)"
        )
        aud.add_argument("--dry-run", action="store_true", help="print only; record nothing")

        emb = actions.add_parser("embed", help="Compute the embeddings of waiting messages now.")
        emb.add_argument("--limit", type=int, default=None, help="stop after this many messages")

        beliefs = actions.add_parser("beliefs", help="Import or list beliefs about people.")
        what = beliefs.add_subparsers(dest="beliefs_action", required=True, metavar="ACTION")
        bimp = what.add_parser(
            "import",
            help="Import beliefs from a JSONL file (one belief per line).",
            description=(
                'Each line: {"agent", "principal", "category", "statement", "confidence", '
                '"source"} and optionally "valid_from", "valid_until", "due", "sensitivity". '
                "Every line is checked before anything is written; a restatement corroborates "
                "the belief it repeats."
            ),
        )
        bimp.add_argument("file", help="path of the JSONL file")
        bimp.add_argument(
            "--tenant", default="default", help="tenant slug for agents the file creates"
        )
        blist = what.add_parser("list", help="List a person's beliefs.")
        blist.add_argument("agent", help="agent slug")
        blist.add_argument("--principal", required=True, help="the person's external id")
        blist.add_argument("--json", action="store_true", help="print JSON")
        blist.add_argument(
            "--all",
            action="store_true",
            help="also superseded, retired, sealed and deleted beliefs (never muted or redacted)",
        )

        ctx = actions.add_parser("context", help="What the assistant would recall for a question.")
        ctx.add_argument("agent", help="agent slug")
        ctx.add_argument("--principal", required=True, help="the person's external id")
        ctx.add_argument("--query", required=True, help="the person's message")
        ctx.add_argument("--now", default=None, help="ISO time to answer at (default: now)")
        ctx.add_argument("--limit", type=int, default=10, help="items in the pack (1-100)")
        ctx.add_argument("--json", action="store_true", help="print JSON")
        ctx.add_argument("--no-embed", action="store_true", help="rank on words only")

        con = actions.add_parser(
            "consolidate",
            help="Form beliefs from an agent's new user messages now (what beat does).",
            description=(
                "Reads the user messages that arrived since the last run (never sealed "
                "conversations, assistant text, directive messages or messages holding a "
                "secret or an injection), proposes first-person statements, verifies each "
                "quote word for word and stores them as beliefs."
            ),
        )
        con.add_argument("agent", help="agent slug")
        con.add_argument(
            "--limit", type=int, default=None, help="read at most this many messages a batch"
        )
        con.add_argument("--json", action="store_true", help="print JSON")

        bank = actions.add_parser(
            "encode-bank",
            help="Encode the question bank once, next to the ONNX encoder (make install).",
            description=(
                "Writes the served encoder's vectors of the question bank "
                "(memory/data/asked_about_a_person.jsonl) next to the ONNX encoder file, so a "
                "server's first calls rank with the bank; a no-op when the file is there."
            ),
        )
        bank.add_argument("--force", action="store_true", help="encode it again even if present")

        mute_cli.add_parsers(actions)

    def handle(self, *args: Any, **options: Any) -> None:
        self.verbosity = options["verbosity"]
        action = options["action"]
        if action == "import":
            self.import_file(options)
        elif action == "embed":
            self.embed(options)
        elif action == "audit":
            self.audit(options)
        elif action == "beliefs" and options["beliefs_action"] == "import":
            self.beliefs_import(options)
        elif action == "beliefs":
            self.beliefs_list(options)
        elif action == "context":
            self.context(options)
        elif action == "consolidate":
            self.consolidate(options)
        elif action == "encode-bank":
            self.encode_bank(force=options["force"])
        elif action in ("mute", "unmute", "redact"):
            mute_cli.run(self.stdout, options)
        else:  # argparse refuses unknown actions; kept for call_command misuse
            raise CommandError(
                f"Unknown action {action!r}; use import, embed, audit, beliefs, context, "
                "consolidate, encode-bank, mute, unmute or redact.",
                returncode=EXIT_BAD_INPUT,
            )

    def encode_bank(self, *, force: bool) -> None:
        from memory.context import write_bank_file

        path, wrote = write_bank_file(force=force)
        if path is None:
            self.stdout.write("The encoder is not the ONNX one: no question bank file to keep.")
        elif wrote:
            self.stdout.write(self.style.SUCCESS(f"Wrote the question bank's vectors: {path}"))
        else:
            self.stdout.write(f"The question bank's vectors are there already: {path}")
        if not _memory_migrated():
            # a fresh install encodes the bank before the database exists: beliefs written
            # later store their votes as they are written
            self.stdout.write(
                "The database is not migrated yet: no belief's topic votes to store "
                "(beliefs written from now on store theirs)."
            )
            return
        from memory.embeddings import belief_bank_votes_fill

        # the beliefs stored before this bank (or model): their topic votes, kept with
        # their vectors, so no reader computes them
        written = belief_bank_votes_fill()
        if written:
            self.stdout.write(f"Stored the bank's topic votes of {written} belief texts.")

    def audit(self, options: dict[str, Any]) -> None:
        from memory.audit import audit_run, audit_tenants, checks
        from tenancy.models import Tenant

        if options["days"] < 1:
            raise CommandError("--days must be at least 1.", returncode=EXIT_BAD_INPUT)
        tenant_ids = None
        if options["tenant"]:
            tenant = Tenant.objects.filter(slug=options["tenant"]).first()
            if tenant is None:
                raise CommandError(
                    f"No tenant is called {options['tenant']!r}; see the admin for the slugs.",
                    returncode=EXIT_BAD_INPUT,
                )
            tenant_ids = [tenant.pk]
        run = audit_run if options["dry_run"] else audit_tenants
        report = run(
            tenant_ids=tenant_ids, never_given_days=options["days"], scan=not options["no_scan"]
        )
        if options["json"]:
            self.stdout.write(json.dumps(report.as_dict(), indent=2, sort_keys=True))
            return
        titles = {c.kind: c for c in checks()}
        total = sum(report.counts.values())
        self.stdout.write(f"Memory health: {total} finding(s).")
        for kind, n in report.counts.items():
            check = titles[kind]
            self.stdout.write(f"\n{check.title}: {n}" + (f" ({check.remedy})" if n else ""))
            for finding in [f for f in report.findings if f.kind == kind][:20]:
                self.stdout.write(f"  - {finding.subject} {finding.subject_id}: {finding.text}")
                self.stdout.write(f"    {finding.detail}")
            if n > 20:
                self.stdout.write(f"  ... and {n - 20} more (--json lists up to 200 of each)")

    def _bar(self, **kwargs: Any) -> tqdm:
        # the bar goes to stderr so stdout stays a clean summary
        return tqdm(
            file=sys.stderr, disable=None if self.verbosity else True, dynamic_ncols=True, **kwargs
        )

    def import_file(self, options: dict[str, Any]) -> None:
        from memory.importer import import_records, import_tenant_slug, read_import_file

        path = options["file"]
        if options["batch"] < 1:
            raise CommandError("--batch must be at least 1.", returncode=EXIT_BAD_INPUT)
        try:
            import_tenant_slug(options["tenant"])  # before reading a large file
            with self._bar(desc="checking", unit=" lines") as bar:
                plan = read_import_file(path, on_progress=bar.update)
            with self._bar(desc="importing", unit=" msg", total=len(plan.records)) as bar:
                result = import_records(
                    plan=plan,
                    tenant_slug=options["tenant"],
                    batch_size=options["batch"],
                    on_progress=bar.update,
                )
        except MemoryInputError as exc:
            raise CommandError(
                f"{path}: {exc} Nothing was imported.", returncode=EXIT_BAD_INPUT
            ) from None
        self.stdout.write(
            f"Imported {result.messages_created:,} messages from {result.lines:,} lines "
            f"({result.messages_skipped:,} already there); created {result.agents_created} agents, "
            f"{result.principals_created} users, {result.conversations_created} conversations; "
            f"sealed {result.conversations_sealed} conversations."
        )

    def embed(self, options: dict[str, Any]) -> None:
        from django.conf import settings

        from memory.embeddings import embed_pending
        from memory.selectors import messages_pending_embedding_count

        limit = options["limit"]
        waiting = messages_pending_embedding_count()
        todo = waiting if limit is None else min(waiting, limit)
        done = 0
        with self._bar(desc="embedding", unit=" msg", total=todo) as bar:
            while done < todo:
                chunk = min(settings.EMBEDDING_TASK_CHUNK, todo - done)
                linked = embed_pending(limit=chunk)
                if not linked:
                    break
                done += linked
                bar.update(linked)
        self.stdout.write(f"Embedded {done:,} messages; {waiting - done:,} still waiting.")

    # --- the memory kernel -------------------------------------------------------------

    def _agent(self, slug: str) -> Any:
        from tenancy.models import Agent

        agent = Agent.objects.filter(slug=slug).first()
        if agent is None:
            raise CommandError(f"No agent with the slug {slug!r}.", returncode=EXIT_BAD_INPUT)
        return agent

    def _now(self, value: str | None) -> datetime:
        from django.utils import timezone

        if value is None:
            return timezone.now()
        try:
            now = datetime.fromisoformat(value)
        except ValueError:
            raise CommandError(
                f"--now {value!r} is not an ISO-8601 time; write e.g. 2026-11-29T12:00:00+00:00.",
                returncode=EXIT_BAD_INPUT,
            ) from None
        if timezone.is_naive(now):
            raise CommandError(
                f"--now {value!r} has no time zone; add an offset, e.g. +00:00.",
                returncode=EXIT_BAD_INPUT,
            )
        return now

    def beliefs_import(self, options: dict[str, Any]) -> None:
        from memory.importer_beliefs import import_beliefs, read_beliefs_file

        path = options["file"]
        try:
            records, lines = read_beliefs_file(path)
            result = import_beliefs(records=records, lines=lines, tenant_slug=options["tenant"])
        except MemoryInputError as exc:
            raise CommandError(
                f"{path}: {exc} Nothing was imported.", returncode=EXIT_BAD_INPUT
            ) from None
        self.stdout.write(
            f"Imported {len(records):,} beliefs from {result.lines:,} lines: {result.created} new, "
            f"{result.corroborated} corroborated, {result.superseded} superseding an older one; "
            f"created {result.agents_created} agents."
            + (
                f" {result.muted} restated a muted belief and were not stored."
                if result.muted
                else ""
            )
        )

    def beliefs_list(self, options: dict[str, Any]) -> None:
        from django.utils import timezone

        from memory.importer_beliefs import belief_as_dict
        from memory.models import Belief
        from memory.selectors_beliefs import HIDDEN_FROM_HOSTS

        agent = self._agent(options["agent"])
        rows = Belief.objects.filter(
            tenant_id=agent.tenant_id, principal__external_id=options["principal"]
        ).order_by("category", "-last_reinforced_at", "id")
        if not options["all"]:
            rows = rows.filter(status=Belief.Status.ACTIVE)
        # like every export: a muted or redacted belief is never listed (the person's
        # page shows them to operators, with who muted or redacted them and why)
        hidden = rows.filter(status__in=HIDDEN_FROM_HOSTS).count() if options["all"] else 0
        rows = rows.exclude(status__in=HIDDEN_FROM_HOSTS)
        now = timezone.now()
        data = [belief_as_dict(b, now=now) for b in rows]
        if options["json"]:
            self.stdout.write(json.dumps({"beliefs": data}, ensure_ascii=False, indent=2))
            return
        if not data:
            self.stdout.write(f"No beliefs about {options['principal']!r}.")
        for item in data:
            until = f" until {item['valid_until'][:10]}" if item["valid_until"] else ""
            self.stdout.write(
                f"#{item['id']:<6} {item['category']:<17} {item['statement']}"
                f"  [{item['status']}, confidence {item['confidence']:.2f}, "
                f"x{item['corroboration_count']}, retention {item['retention']:.2f}{until}]"
            )
        if hidden:
            self.stdout.write(
                f"{hidden} muted or redacted belief(s) not listed; the person's page shows them."
            )

    def context(self, options: dict[str, Any]) -> None:
        from memory.context import build_context, render_context

        agent = self._agent(options["agent"])
        if not 1 <= options["limit"] <= 100:
            raise CommandError("--limit must be from 1 to 100.", returncode=EXIT_BAD_INPUT)
        pack = build_context(
            agent=agent,
            principal_external_id=options["principal"],
            query=options["query"],
            now=self._now(options["now"]),
            limit=options["limit"],
            use_embeddings=False if options["no_embed"] else None,
            wait=True,  # a one-shot process: load the model now rather than rank on words
        )
        if options["json"]:
            self.stdout.write(json.dumps(pack.as_dict(), ensure_ascii=False, indent=2))
        else:
            self.stdout.write(render_context(pack))

    def consolidate(self, options: dict[str, Any]) -> None:
        from memory.consolidation import BATCH_MESSAGES, consolidate

        agent = self._agent(options["agent"])
        limit = options["limit"] or BATCH_MESSAGES
        if limit < 1:
            raise CommandError("--limit must be at least 1.", returncode=EXIT_BAD_INPUT)
        totals: dict[str, Any] = {}
        while True:
            report = consolidate(agent=agent, limit=limit)
            if report.busy:
                raise CommandError(
                    f"Another consolidation of {agent.slug!r} is running; try again when it ends.",
                    returncode=EXIT_BAD_INPUT,
                )
            for key, value in report.as_dict().items():
                if isinstance(value, int) and not isinstance(value, bool):
                    totals[key] = totals.get(key, 0) + value
                elif key == "skipped":
                    skipped = totals.setdefault("skipped", {})
                    for reason, n in value.items():
                        skipped[reason] = skipped.get(reason, 0) + n
            if not report.more:
                break
        totals = {"agent": agent.slug, **totals}
        totals.setdefault("skipped", {})
        if options["json"]:
            self.stdout.write(json.dumps(totals, ensure_ascii=False, indent=2))
            return
        skipped = ", ".join(f"{n} {reason}" for reason, n in sorted(totals["skipped"].items()))
        self.stdout.write(
            f"Consolidated {agent.slug}: read {totals['messages_read']:,} messages, "
            f"{totals['created']} new beliefs, {totals['corroborated']} corroborated, "
            f"{totals['superseded']} superseding an older one"
            + (f"; skipped: {skipped}." if skipped else ".")
        )
