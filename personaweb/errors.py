"""The one base class of refusals: an error whose message is a sentence for a person
(what is wrong and what to do) and after which nothing was written. Pages, CLI, API
and MCP show the message as it is; anything else is a bug and gets a 500."""

from __future__ import annotations


class Refusal(ValueError):
    """Base of refusals a person can read; nothing was written."""


class NotPermitted(Refusal):
    """The actor may not do this here (a 403 over HTTP, a tool error over MCP, a 403
    page); the message says who may."""

    api_code = "forbidden"


class NotReachable(Refusal):
    """The row is absent or out of the actor's reach (another tenant, another agent or
    person than the one a token is bound to): the same answer for both, a 404."""

    api_code = "not_found"

    def __init__(self, message: str = "Nothing with that name or id here.") -> None:
        super().__init__(message)
