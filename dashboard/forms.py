"""Forms the dashboard gives Django's auth views (mounted in personaweb.urls)."""

from __future__ import annotations

import unicodedata
from collections.abc import Iterator
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.forms import PasswordResetForm


class SetOrResetPasswordForm(PasswordResetForm):
    """Django's password reset, also for a login added to the team that has not chosen a
    password yet (no usable password, never logged in): its person asks for a new link
    when the one in their welcome e-mail has expired. A login whose password was made
    unusable on purpose after it had logged in still gets nothing."""

    def get_users(self, email: str) -> Iterator[Any]:
        for user in self._candidates(email):
            if user.has_usable_password() or user.last_login is None:
                yield user

    def _candidates(self, email: str) -> Iterator[Any]:
        # Django's own matching (active logins, the e-mail compared case-insensitively
        # after Unicode normalisation), without its usable-password filter
        model = get_user_model()
        field = model.get_email_field_name()
        users = model._default_manager.filter(**{f"{field}__iexact": email, "is_active": True})
        return (u for u in users if _same(email, getattr(u, field) or ""))


def _same(a: str, b: str) -> bool:
    return (
        unicodedata.normalize("NFKC", a).casefold() == unicodedata.normalize("NFKC", b).casefold()
    )
