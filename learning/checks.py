"""System checks for learning's settings that a deployment can get wrong."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

from django.conf import settings
from django.core.checks import CheckMessage, Error, register


@register()
def digest_webhook_check(app_configs: Any = None, **_: Any) -> list[CheckMessage]:
    """A digest webhook needs an http(s) address and a secret to sign with."""
    url = settings.REVIEW_DIGEST_WEBHOOK_URL
    if not url:
        return []
    errors: list[CheckMessage] = []
    if urlsplit(url).scheme not in ("http", "https") or not urlsplit(url).netloc:
        errors.append(
            Error(
                f"PERSONAWEB_DIGEST_WEBHOOK_URL must be an http:// or https:// address; it is {url!r}.",
                id="learning.E001",
            )
        )
    if len(settings.REVIEW_DIGEST_WEBHOOK_SECRET) < 16:
        errors.append(
            Error(
                "PERSONAWEB_DIGEST_WEBHOOK_SECRET must be set (16 characters or more) when "
                "PERSONAWEB_DIGEST_WEBHOOK_URL is: receivers check the digest's signature with it.",
                id="learning.E002",
            )
        )
    return errors
