"""How the project's manage.py commands refuse: the exit code says whether the input was
wrong (``EXIT_BAD_INPUT``) or conflicts with what is stored now (``EXIT_CONFLICT``), and
the message is the refusal's sentence on one line."""

from __future__ import annotations

from django.core.management.base import CommandError

EXIT_BAD_INPUT = 2
EXIT_CONFLICT = 3


def command_error(message: object, code: int = EXIT_BAD_INPUT) -> CommandError:
    """A ``CommandError`` saying ``message`` on one line (every run of white space one
    space), ending the command with ``code``."""
    return CommandError(" ".join(str(message).split()), returncode=code)
