from __future__ import annotations

from importlib.metadata import PackageNotFoundError, version

from personaweb.celery import app as celery_app

try:
    #: the installed release (pyproject.toml's version); the MCP server reports it
    __version__ = version("personaweb")
except PackageNotFoundError:  # a checkout that was never installed
    __version__ = "0+unknown"

__all__ = ["__version__", "celery_app"]
