"""Roles are groups: ``operator`` and ``reviewer``; superusers do all.

Rule owners are named per agent in its learning settings (usernames); an empty list
means any named reviewer or operator of the agent's tenant.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from django.contrib.auth.models import AbstractBaseUser, AnonymousUser

OPERATOR = "operator"
REVIEWER = "reviewer"
ROLE_NAMES = (OPERATOR, REVIEWER)


def _group_names(user: AbstractBaseUser | AnonymousUser) -> frozenset[str]:
    cached = getattr(user, "_pw_groups", None)
    if cached is None:
        if not user.is_authenticated:
            cached = frozenset()
        else:
            cached = frozenset(user.groups.values_list("name", flat=True))  # type: ignore[union-attr,attr-defined]
        user._pw_groups = cached  # type: ignore[union-attr]
    return cached


def is_operator(user: AbstractBaseUser | AnonymousUser) -> bool:
    return bool(
        user.is_authenticated
        and (getattr(user, "is_superuser", False) or OPERATOR in _group_names(user))
    )


def is_reviewer(user: AbstractBaseUser | AnonymousUser) -> bool:
    """Reviewers work the queue; operators may review too."""
    return bool(
        user.is_authenticated
        and (
            getattr(user, "is_superuser", False)
            or REVIEWER in _group_names(user)
            or OPERATOR in _group_names(user)
        )
    )
