"""``python manage.py mcp``: personaweb's MCP server.

* ``mcp --agent SLUG --principal P``: stdio, for an MCP client that starts the server
  itself (nothing but the protocol is written to stdout); it serves that one agent and
  that one person. ``--tenant-wide`` instead of ``--principal`` serves every person of
  the agent's tenant (each call names its person): only for a host that keeps its
  people apart itself;
* ``mcp --http 127.0.0.1:PORT``: streamable HTTP at ``/mcp`` with the API's bearer
  tokens (scope ``host``).

An MCP client starts the stdio server without the shell's environment: the settings
then come from the checkout (``var/secret_key`` as ``make run`` makes it, the SQLite file
in ``var/``) or from ``--env-file PATH`` (``KEY=VALUE`` lines, read by ``manage.py``
before the settings load). A misconfiguration is one sentence on stderr and a non-zero
exit, never a traceback: the host shows that line.
"""

from __future__ import annotations

import re
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser

from personaweb.cli import EXIT_BAD_INPUT

EXIT_CONFIG = 1
_HOSTPORT = re.compile(r"^(?P<host>[^:\s]+):(?P<port>\d{1,5})$")


class Command(BaseCommand):
    help = "Serve the MCP server over stdio (--agent, --principal) or streamable HTTP (--http HOST:PORT)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--agent", help="stdio: the agent (slug) this server serves")
        parser.add_argument("--principal", help="stdio: the person the conversations are with")
        parser.add_argument(
            "--tenant-wide",
            action="store_true",
            help="stdio: serve every person of the agent's tenant instead of one --principal",
        )
        parser.add_argument("--http", metavar="HOST:PORT", help="serve streamable HTTP at /mcp")
        parser.add_argument(
            "--env-file",
            metavar="PATH",
            help="settings as KEY=VALUE lines (DATABASE_URL, SECRET_KEY, ...), read by manage.py "
            "before the settings load; the environment wins over the file",
        )
        parser.add_argument(
            "--timeout",
            type=float,
            default=None,
            help=f"seconds per tool call (default {settings.PERSONAWEB_MCP_TOOL_TIMEOUT:g}, "
            "PERSONAWEB_MCP_TOOL_TIMEOUT)",
        )

    def handle(self, *args: Any, **opts: Any) -> None:
        if opts.get("env_file"):
            # manage.py takes it out before the settings load; here it came too late
            raise CommandError(
                "--env-file is read before the settings load: run `python manage.py mcp "
                "--env-file PATH ...` (not django-admin or call_command).",
                returncode=EXIT_BAD_INPUT,
            )
        timeout = opts["timeout"]
        if timeout is not None and timeout <= 0:
            raise CommandError(
                "--timeout must be a positive number of seconds.", returncode=EXIT_BAD_INPUT
            )
        if opts["http"]:
            if opts["agent"] or opts["principal"] or opts["tenant_wide"]:
                raise CommandError(
                    "--http serves what each caller's token reaches; leave out --agent, "
                    "--principal and --tenant-wide.",
                    returncode=EXIT_BAD_INPUT,
                )
            self._http(opts["http"], timeout)
            return
        if not opts["agent"]:
            raise CommandError(
                "Say how to serve: --agent SLUG --principal P for stdio, or --http 127.0.0.1:PORT.",
                returncode=EXIT_BAD_INPUT,
            )
        if bool(opts["principal"]) == bool(opts["tenant_wide"]):
            raise CommandError(
                "stdio serves one agent and one person: give --principal THEIR_ID (or, for a "
                "host that keeps its people apart itself, --tenant-wide instead).",
                returncode=EXIT_BAD_INPUT,
            )
        self._stdio(opts["agent"], opts["principal"], opts["tenant_wide"], timeout)

    def _stdio(
        self, slug: str, principal: str | None, tenant_wide: bool, timeout: float | None
    ) -> None:
        import anyio

        from api.mcp_server import build_server
        from api.selectors import Agent

        if not _database_ready():
            raise CommandError(
                f"The database {_database_name()} has no personaweb tables or cannot be read: "
                "run `python manage.py migrate`, or give the server's settings (DATABASE_URL "
                "or SQLITE_PATH) with --env-file PATH.",
                returncode=EXIT_CONFIG,
            )
        if not Agent.objects.filter(slug=slug).exists():
            raise CommandError(
                f"No agent with the slug {slug!r}; `python manage.py persona show` lists them.",
                returncode=EXIT_BAD_INPUT,
            )
        server = build_server(
            agent_slug=slug, principal=principal, tenant_wide=tenant_wide, timeout=timeout
        )
        _warm_memory_model()
        anyio.run(server.run_stdio_async)

    def _http(self, where: str, timeout: float | None) -> None:
        import uvicorn

        from api.mcp_server import build_http_app

        match = _HOSTPORT.match(where)
        if not match or not 0 < int(match["port"]) < 65536:
            raise CommandError(
                f"--http takes HOST:PORT, e.g. 127.0.0.1:8765; {where!r} is not.",
                returncode=EXIT_BAD_INPUT,
            )
        host, port = match["host"], int(match["port"])
        app = build_http_app(host=host, port=port, timeout=timeout)
        _warm_memory_model()
        self.stderr.write(
            f"MCP over streamable HTTP at http://{host}:{port}/mcp (bearer tokens with scope host); Ctrl-C stops it"
        )
        uvicorn.run(app, host=host, port=port, log_level="warning")


def _database_ready() -> bool:
    from django.db import DatabaseError

    from tenancy.models import Agent

    try:
        Agent.objects.exists()
    except DatabaseError:
        return False
    return True


def _database_name() -> str:
    from django.db import connection

    name = connection.settings_dict.get("NAME") or ""
    if connection.vendor == "sqlite":
        return f"at {name}"
    return f"{name!r} ({connection.vendor})"


def _warm_memory_model() -> None:
    """Load the embedding model (and the scan's learned layer) in the background as the
    server starts: a load of several seconds inside the first call would spend that
    call's timeout; until it is in, build_context ranks on words."""
    from safety.injection import warm_up_at_start

    warm_up_at_start()
