"""The one base class of refusals: an error whose message is a sentence for a person
(what is wrong and what to do) and after which nothing was written. Pages, CLI, API
and MCP show the message as it is; anything else is a bug and gets a 500."""

from __future__ import annotations


class Refusal(ValueError):
    """Base of refusals a person can read; nothing was written."""
