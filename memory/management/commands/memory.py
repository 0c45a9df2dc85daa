"""``manage.py memory <action>``: conversation memory from the command line.

Actions:
  import FILE [--batch N] [--tenant SLUG]   load a JSONL file of messages
  embed [--limit N]                         embed waiting messages now

Exit codes: 0 done, 2 bad input (a bad line, a missing file), 1 anything else.
"""

from __future__ import annotations

import sys
from argparse import ArgumentParser
from typing import Any

from django.core.management.base import BaseCommand, CommandError
from tqdm import tqdm

from memory.services import MemoryInputError

EXIT_BAD_INPUT = 2


class Command(BaseCommand):
    verbosity = 1
    help = "Conversation memory: import messages from a JSONL file, embed waiting messages."

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

        emb = actions.add_parser("embed", help="Compute the embeddings of waiting messages now.")
        emb.add_argument("--limit", type=int, default=None, help="stop after this many messages")

    def handle(self, *args: Any, **options: Any) -> None:
        self.verbosity = options["verbosity"]
        action = options["action"]
        if action == "import":
            self.import_file(options)
        elif action == "embed":
            self.embed(options)
        else:  # argparse refuses unknown actions; kept for call_command misuse
            raise CommandError(
                f"Unknown action {action!r}; use import or embed.", returncode=EXIT_BAD_INPUT
            )

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
