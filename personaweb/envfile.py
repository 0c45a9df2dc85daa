"""``manage.py --env-file PATH``: settings from a file of ``KEY=VALUE`` lines, read
before Django loads the settings (an MCP client that starts ``manage.py mcp`` passes
no shell environment, so a server's settings can come from a file instead).

Lines: ``KEY=VALUE``, optionally ``export KEY=VALUE``; blank lines and ``#`` comments
are skipped; one pair of matching quotes around a value is removed. A variable already
in the environment wins, as it does for ``make run``'s key.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

OPTION = "--env-file"
_LINE = re.compile(r"^(?:export\s+)?(?P<key>[A-Za-z_][A-Za-z0-9_]*)\s*=\s*(?P<value>.*)$")
MAX_BYTES = 1_000_000


class EnvFileError(Exception):
    """The file cannot be used; the message is one sentence saying why."""


def split_env_file(argv: list[str]) -> tuple[list[str], str | None]:
    """``argv`` without ``--env-file PATH`` (or ``--env-file=PATH``), and that path."""
    rest: list[str] = []
    path: str | None = None
    args = iter(argv)
    for arg in args:
        if arg == OPTION:
            path = next(args, None)
            if path is None:
                raise EnvFileError(f"{OPTION} needs a path: {OPTION} /path/to/personaweb.env.")
        elif arg.startswith(OPTION + "="):
            path = arg[len(OPTION) + 1 :]
        else:
            rest.append(arg)
    return rest, path


def read_env_file(path: str | Path) -> dict[str, str]:
    """The ``KEY=VALUE`` pairs of ``path``; a missing file or a line that is not a pair
    is an ``EnvFileError``."""
    file = Path(path).expanduser()
    try:
        if file.stat().st_size > MAX_BYTES:
            raise EnvFileError(f"The env file {file} is larger than {MAX_BYTES:,} bytes.")
        text = file.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise EnvFileError(
            f"The env file {file} does not exist; give the path of a file of KEY=VALUE lines."
        ) from None
    except (OSError, UnicodeDecodeError) as exc:
        raise EnvFileError(
            f"The env file {file} cannot be read ({exc.__class__.__name__})."
        ) from None
    pairs: dict[str, str] = {}
    for number, line in enumerate(text.splitlines(), start=1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        found = _LINE.match(line)
        if found is None:
            raise EnvFileError(
                f"Line {number} of the env file {file} is not a KEY=VALUE line; fix or remove it."
            )
        value = found["value"].strip()
        if len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"":
            value = value[1:-1]
        pairs[found["key"]] = value
    return pairs


def load_env_file(path: str | Path) -> None:
    """Put the pairs of ``path`` into ``os.environ``; a variable already set wins."""
    for key, value in read_env_file(path).items():
        os.environ.setdefault(key, value)
