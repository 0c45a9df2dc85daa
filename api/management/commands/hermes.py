"""``python manage.py hermes install-provider``: make personaweb the memory of a Hermes
agent (``api.hermes_provider``). Exit codes: 0 done, 2 bad input or a refusal."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from personaweb.cli import command_error
from personaweb.errors import Refusal


class Command(BaseCommand):
    help = "Hermes: install personaweb as a Hermes agent's memory provider."

    def add_arguments(self, parser: CommandParser) -> None:
        sub = parser.add_subparsers(dest="sub", required=True)
        p = sub.add_parser(
            "install-provider",
            help="copy the plugin into HERMES_HOME/plugins/personaweb/, write its settings "
            "and set memory.provider: personaweb in HERMES_HOME/config.yaml",
        )
        p.add_argument("--hermes-home", required=True, type=Path, help="e.g. ~/.hermes")
        p.add_argument(
            "--url", required=True, help="personaweb's address, e.g. http://127.0.0.1:8000"
        )
        p.add_argument(
            "--token-file",
            required=True,
            type=Path,
            help="a file (yours only: chmod 600) holding a token with the scopes host, "
            "memory.read and memory.write; Hermes reads it at each call",
        )
        p.add_argument("--agent", required=True, help="the agent's slug")
        p.add_argument(
            "--principal", required=True, metavar="EXTERNAL_ID", help="the person, by your id"
        )
        p.add_argument(
            "--timeout", type=float, help="seconds per call before memory is skipped (default 3)"
        )

    def handle(self, *args: Any, **opts: Any) -> None:
        from api.hermes_provider import PROVIDER, install_provider

        try:
            done = install_provider(
                hermes_home=opts["hermes_home"],
                url=opts["url"],
                token_file=opts["token_file"],
                agent=opts["agent"],
                principal=opts["principal"],
                timeout=opts["timeout"],
            )
        except Refusal as exc:
            raise command_error(exc) from None
        self.stdout.write(f"Copied the plugin to {done.plugin_dir}.")
        self.stdout.write(f"Wrote its settings to {done.settings_file} (readable by you only).")
        if done.previous_provider and done.previous_provider != PROVIDER:
            self.stdout.write(
                f"{done.config_file}: memory.provider was {done.previous_provider}; "
                f"it is now {PROVIDER}."
            )
        else:
            self.stdout.write(f"{done.config_file}: memory.provider is {PROVIDER}.")
        self.stdout.write("Hermes uses personaweb as its memory from its next start.")
