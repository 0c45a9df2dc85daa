"""Installing personaweb as Hermes's memory provider (``manage.py hermes
install-provider``): copy the plugin (``hermes_plugin/personaweb/``) into
``HERMES_HOME/plugins/personaweb/``, write its settings to ``HERMES_HOME/personaweb.json``
(owner-only; the path of the token file, never the token), and set
``memory.provider: personaweb`` in ``HERMES_HOME/config.yaml``.

config.yaml is changed the way ``hermes config set`` changes it (read as YAML, one key
set, written back whole): every other setting is kept, its comments are not. Everything
is checked before anything is written; a config.yaml that is not a YAML mapping is
refused, not replaced.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import stat
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import yaml
from django.conf import settings

from personaweb.errors import Refusal

PROVIDER = "personaweb"
SETTINGS_FILE = "personaweb.json"
PLUGIN_FILES = ("__init__.py", "client.py", "plugin.yaml")
_SLUG = re.compile(r"^[-a-zA-Z0-9_]+$")


class InstallRefused(Refusal):
    pass


@dataclass(frozen=True)
class Installed:
    plugin_dir: Path
    settings_file: Path
    config_file: Path
    #: the provider config.yaml named before (None: none)
    previous_provider: str | None


def plugin_source() -> Path:
    return Path(settings.BASE_DIR) / "hermes_plugin" / PROVIDER


def _check_url(url: str) -> str:
    parts = urlsplit(url.strip())
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise InstallRefused(
            f"{url!r} is not personaweb's address; give it as http(s)://HOST[:PORT] "
            "(e.g. http://127.0.0.1:8000)."
        )
    if parts.query or parts.fragment:
        raise InstallRefused("Give personaweb's address without a query or fragment.")
    return url.strip().rstrip("/")


def _check_token_file(path: Path) -> Path:
    path = path.expanduser().resolve()
    try:
        info = path.stat()
        text = path.read_text(encoding="utf-8").strip()
    except OSError:
        raise InstallRefused(
            f"The token file {path} cannot be read; put the token printed by "
            "`manage.py api token create` in it (and nothing else)."
        ) from None
    if not stat.S_ISREG(info.st_mode) or not text or len(text.split()) != 1:
        raise InstallRefused(f"The token file {path} should hold one API token and nothing else.")
    if info.st_mode & (stat.S_IRWXG | stat.S_IRWXO):
        raise InstallRefused(
            f"Others can read the token file {path}; make it yours only (chmod 600 {path}) "
            "and install again."
        )
    return path


def _read_config(path: Path) -> dict[str, Any]:
    if not path.exists():
        return {}
    try:
        loaded = yaml.safe_load(path.read_text(encoding="utf-8-sig"))
    except (OSError, UnicodeError, yaml.YAMLError):
        raise InstallRefused(
            f"{path} is not readable YAML, so it was left as it is; fix it (or move it "
            "away) and install again."
        ) from None
    if loaded is None:
        return {}
    if not isinstance(loaded, dict):
        raise InstallRefused(f"{path} is not a YAML mapping, so it was left as it is.")
    memory = loaded.get("memory")
    if memory is not None and not isinstance(memory, dict):
        raise InstallRefused(
            f"The memory entry of {path} is not a mapping, so it was left as it is."
        )
    return loaded


def _write_atomic(path: Path, text: str, *, mode: int) -> None:
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            out.write(text)
        os.chmod(tmp, mode)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def _copy_plugin(dest: Path) -> None:
    """Replace ``dest`` with the plugin's files (a new folder moved into place)."""
    source = plugin_source()
    dest.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(dir=dest.parent, prefix=f".{dest.name}."))
    try:
        for name in PLUGIN_FILES:
            shutil.copyfile(source / name, staging / name)
        staging.chmod(0o755)
        if dest.exists():
            old = dest.with_name(f".{dest.name}.old")
            shutil.rmtree(old, ignore_errors=True)
            dest.rename(old)
            staging.rename(dest)
            shutil.rmtree(old, ignore_errors=True)
        else:
            staging.rename(dest)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise


def install_provider(
    *,
    hermes_home: Path,
    url: str,
    token_file: Path,
    agent: str,
    principal: str,
    timeout: float | None = None,
) -> Installed:
    """Install (or update) the provider in ``hermes_home``; see the module docstring."""
    url = _check_url(url)
    token_path = _check_token_file(token_file)
    if not _SLUG.match(agent or ""):
        raise InstallRefused(f"{agent!r} is not an agent slug (letters, digits, - and _).")
    principal = (principal or "").strip()
    if not principal or len(principal) > 200 or "\x00" in principal:
        raise InstallRefused("Give the person's id in your app (1 to 200 characters).")
    if timeout is not None and not 0.2 <= timeout <= 30:
        raise InstallRefused("Give the timeout in seconds, between 0.2 and 30.")
    home = hermes_home.expanduser().resolve()
    if home.exists() and not home.is_dir():
        raise InstallRefused(f"{home} is not a folder; give the Hermes home (e.g. ~/.hermes).")
    config_path = home / "config.yaml"
    config = _read_config(config_path)  # refused before anything is written
    if not all((plugin_source() / name).is_file() for name in PLUGIN_FILES):
        raise InstallRefused(f"The plugin's files are missing from {plugin_source()}.")

    home.mkdir(mode=0o700, parents=True, exist_ok=True)
    plugin_dir = home / "plugins" / PROVIDER
    _copy_plugin(plugin_dir)

    settings_path = home / SETTINGS_FILE
    values: dict[str, Any] = {
        "url": url,
        "token_file": str(token_path),
        "agent": agent,
        "principal": principal,
    }
    if timeout is not None:
        values["timeout"] = timeout
    _write_atomic(settings_path, json.dumps(values, indent=2, sort_keys=True) + "\n", mode=0o600)

    memory = config.setdefault("memory", {})
    previous = memory.get("provider") or None
    if previous != PROVIDER or not config_path.exists():
        memory["provider"] = PROVIDER
        mode = stat.S_IMODE(config_path.stat().st_mode) if config_path.exists() else 0o600
        dumped = yaml.safe_dump(config, sort_keys=False, allow_unicode=True)
        _write_atomic(config_path, dumped, mode=mode)
    return Installed(
        plugin_dir=plugin_dir,
        settings_file=settings_path,
        config_file=config_path,
        previous_provider=previous,
    )
