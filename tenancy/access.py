"""Who may see what: every page and API route finds rows through these, so another
tenant's agent is a 404 (never a 403, which would confirm that the slug exists)."""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.core.exceptions import PermissionDenied
from django.db.models import QuerySet
from django.http import Http404, HttpRequest

from personaweb.actors import ROLE_CAPABILITIES, Actor
from personaweb.errors import Refusal
from personaweb.roles import OPERATOR, REVIEWER, is_operator, is_reviewer
from tenancy.models import Agent, Tenant


def visible_tenants(user: AbstractBaseUser | AnonymousUser) -> QuerySet[Tenant]:
    if not user.is_authenticated:
        return Tenant.objects.none()
    if getattr(user, "is_superuser", False):
        return Tenant.objects.all()
    return Tenant.objects.filter(memberships__user_id=user.pk)


def visible_tenant_ids(user: AbstractBaseUser | AnonymousUser) -> list[int] | None:
    """Tenant ids the user may see; None means all (a superuser). Cached on the user."""
    if getattr(user, "is_superuser", False):
        return None
    cached = getattr(user, "_pw_tenant_ids", None)
    if cached is None:
        cached = list(visible_tenants(user).values_list("id", flat=True))
        user._pw_tenant_ids = cached  # type: ignore[union-attr]
    return cached


def actor_for_user(user: AbstractBaseUser | AnonymousUser) -> Actor:
    """The actor a login is: the capabilities its roles grant (``ROLE_CAPABILITIES``) in
    the tenants it belongs to. A superuser has every capability a role grants, in every
    tenant; a login that is signed out or inactive has none, and no tenant.

    Build it once per request: it reads the roles and tenants once (both are cached on
    the user), so questions asked per row (``actor.may``, ``reaches_agent``) run no query.
    """
    if not user.is_authenticated or not getattr(user, "is_active", False):
        return Actor(kind="user", name="", tenant_ids=frozenset(), user=user)
    capabilities: frozenset[str] = frozenset()
    if getattr(user, "is_superuser", False):
        capabilities = frozenset().union(*ROLE_CAPABILITIES.values())
    else:
        for role, has in ((OPERATOR, is_operator), (REVIEWER, is_reviewer)):
            if has(user):
                capabilities |= ROLE_CAPABILITIES[role]
    tids = visible_tenant_ids(user)
    return Actor(
        kind="user",
        name=user.get_username(),
        tenant_ids=None if tids is None else frozenset(tids),
        capabilities=capabilities,
        user=user,
    )


def actor_for_username(username: str) -> Actor:
    """The actor a command line's ``--by USERNAME`` is (``actor_for_user`` of that login),
    so a command acts as a named person and the services check them as they check a
    page's login. ``Refusal`` for no such login or an inactive one."""
    from django.contrib.auth import get_user_model

    name = (username or "").strip()
    user = get_user_model().objects.filter(username=name).first() if name else None
    if user is None:
        raise Refusal(f"No login is called {name!r}; give --by the user name of who acts.")
    if not user.is_active:
        raise Refusal(f"The login {name!r} is not active; give another user name to --by.")
    return actor_for_user(user)


def scope_to_user(qs: QuerySet, *, user: AbstractBaseUser | AnonymousUser, path: str) -> QuerySet:
    """``qs`` limited to rows whose tenant (at ``path``) the user may see."""
    tids = visible_tenant_ids(user)
    if tids is None:
        return qs
    return qs.filter(**{f"{path}__in": tids})


def visible_agents(user: AbstractBaseUser | AnonymousUser) -> QuerySet:
    return scope_to_user(Agent.objects.all(), user=user, path="tenant_id")


def agent_for_user(request: HttpRequest, slug: str, *, with_learning: bool = False):
    """The agent ``slug`` if the user may see it; 404 otherwise (also for other tenants)."""
    qs = visible_agents(request.user).select_related("tenant")
    if with_learning:
        qs = qs.select_related("learning")
    agent = qs.filter(slug=slug).first()
    if agent is None:
        raise Http404("No agent with that name here.")
    return agent


def require_operator(request: HttpRequest) -> None:
    if not is_operator(request.user):
        raise PermissionDenied("Only an operator may do this.")


def require_reviewer(request: HttpRequest) -> None:
    if not is_reviewer(request.user):
        raise PermissionDenied("Only a reviewer or an operator may do this.")
