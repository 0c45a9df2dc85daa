#!/usr/bin/env python
from __future__ import annotations

import os
import sys


def main() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "personaweb.settings")
    from personaweb.envfile import EnvFileError, load_env_file, split_env_file

    # before the settings load: a client that starts `manage.py mcp` passes no shell
    # environment, so `--env-file PATH` (KEY=VALUE lines) may carry the settings instead
    try:
        argv, env_file = split_env_file(sys.argv)
        if env_file is not None:
            load_env_file(env_file)
    except EnvFileError as exc:
        sys.stderr.write(f"{exc}\n")
        sys.exit(2)

    from django.conf import settings
    from django.core.exceptions import ImproperlyConfigured
    from django.core.management import execute_from_command_line

    try:
        settings.SECRET_KEY  # noqa: B018 - loads the settings now
    except ImproperlyConfigured as exc:
        # a misconfiguration is one sentence on stderr, not a traceback
        sys.stderr.write(f"{exc}\n")
        sys.exit(1)
    execute_from_command_line(argv)


if __name__ == "__main__":
    main()
