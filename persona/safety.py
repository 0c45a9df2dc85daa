"""Safety shared by every write and render path: the secret scan (at write).

The injection scan lives in ``persona.injection``. This module refuses
credential-shaped values using detect-secrets' maintained plugins.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

from detect_secrets.core.scan import scan_line
from detect_secrets.settings import transient_settings

from persona.errors import PersonaError

# Plugins that look for a credential by its shape or by a keyword next to it. The
# bare high-entropy plugins are left out: on prose they fire on ordinary words
# ("loves mythic fantasy"), and a refusal must mean something.
_PLUGINS = [
    {"name": name}
    for name in (
        "ArtifactoryDetector", "AWSKeyDetector", "AzureStorageKeyDetector", "BasicAuthDetector",
        "CloudantDetector", "DiscordBotTokenDetector", "GitHubTokenDetector", "GitLabTokenDetector",
        "IbmCloudIamDetector", "IbmCosHmacDetector", "JwtTokenDetector", "KeywordDetector",
        "MailchimpDetector", "NpmDetector", "OpenAIDetector", "PrivateKeyDetector", "PypiTokenDetector",
        "SendGridDetector", "SlackDetector", "SoftlayerDetector", "SquareOAuthDetector",
        "StripeDetector", "TelegramBotTokenDetector", "TwilioKeyDetector",
    )
]


@dataclass(frozen=True)
class SecretFinding:
    kind: str


class SecretFound(PersonaError):
    """A credential-shaped value was offered for storage; nothing was written."""

    def __init__(self, *, field: str, kinds: list[str]) -> None:
        self.field = field
        self.kinds = kinds
        super().__init__(
            f"The {field} looks like it holds a secret ({', '.join(sorted(set(kinds)))}). "
            "Remove the credential and save again; personaweb never stores secrets in a persona."
        )


@functools.lru_cache(maxsize=2048)
def _scan(text: str) -> tuple[str, ...]:
    kinds: list[str] = []
    with transient_settings({"plugins_used": _PLUGINS, "filters_used": []}):
        for line in text.splitlines() or [text]:
            kinds.extend(s.type for s in scan_line(line))
    return tuple(dict.fromkeys(kinds))


def find_secrets(text: str) -> list[str]:
    """Kinds of credential found in ``text`` (empty when none)."""
    if not text or not text.strip():
        return []
    return list(_scan(text))


def refuse_secrets(*, field: str, text: str) -> None:
    kinds = find_secrets(text)
    if kinds:
        raise SecretFound(field=field, kinds=kinds)
