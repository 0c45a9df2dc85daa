"""Owner accounts (issue 12): a login is linked to the person it is, inside that person's
tenant, through one service the CLI (``persona owner``) and the admin both use."""

from __future__ import annotations

import io

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.urls import reverse

from persona.models import OwnerAccount
from persona.owner_accounts import OwnerAccountRefusal, owner_account_link, owner_account_unlink
from tests.factories import PrincipalFactory, make_user

pytestmark = pytest.mark.django_db


@pytest.fixture
def ana(tenant):
    return PrincipalFactory(tenant=tenant, external_id="ana")


def run(*args: str) -> str:
    out = io.StringIO()
    call_command("persona", *args, stdout=out, stderr=io.StringIO())
    return out.getvalue()


def fails(*args: str) -> CommandError:
    with pytest.raises(CommandError) as exc:
        run(*args)
    assert exc.value.returncode == 2
    assert "\n" not in str(exc.value)
    return exc.value


# --- the service ------------------------------------------------------------------------


def test_link_is_idempotent_and_unlink_removes_it(tenant, ana):
    user = make_user("ana", tenants=[tenant])
    account, created = owner_account_link(user=user, principal=ana)
    assert created and account.principal == ana
    assert owner_account_link(user=user, principal=ana) == (account, False)
    assert owner_account_unlink(user=user) is not None
    assert not OwnerAccount.objects.exists()
    assert owner_account_unlink(user=user) is None


def test_the_login_must_belong_to_the_persons_tenant(tenant, other_tenant, ana):
    outsider = make_user("gina", tenants=[other_tenant])
    with pytest.raises(OwnerAccountRefusal, match="is not a member of the tenant 'acme'"):
        owner_account_link(user=outsider, principal=ana)
    assert not OwnerAccount.objects.exists()


def test_one_person_per_login_and_one_login_per_person(tenant, ana):
    bob = PrincipalFactory(tenant=tenant, external_id="bob")
    user = make_user("ana", tenants=[tenant])
    owner_account_link(user=user, principal=ana)
    with pytest.raises(OwnerAccountRefusal, match="already linked to the person 'ana'"):
        owner_account_link(user=user, principal=bob)
    other = make_user("ana2", tenants=[tenant])
    with pytest.raises(OwnerAccountRefusal, match="already linked to the login 'ana'"):
        owner_account_link(user=other, principal=ana)
    assert OwnerAccount.objects.count() == 1


def test_a_deactivated_login_is_not_linked(tenant, ana):
    user = make_user("ana", tenants=[tenant])
    user.is_active = False
    user.save()
    with pytest.raises(OwnerAccountRefusal, match="is deactivated"):
        owner_account_link(user=user, principal=ana)


# --- the command line ------------------------------------------------------------------


def test_cli_links_lists_and_unlinks(tenant, other_tenant, ana):
    make_user("ana", tenants=[tenant])
    out = run("owner", "link", "ana", "--tenant", "acme", "--principal", "ana")
    assert "ana is now linked to ana in acme" in out
    assert "was already linked" in run(
        "owner", "link", "ana", "--tenant", "acme", "--principal", "ana"
    )
    assert run("owner", "list").strip() == "ana  ->  ana in acme"
    assert run("owner", "list", "--tenant", "globex").strip() == ""
    assert "is no longer linked" in run("owner", "unlink", "ana")
    assert "was not linked to a person; nothing changed" in run("owner", "unlink", "ana")
    assert not OwnerAccount.objects.exists()


def test_cli_refusals_are_one_line_and_exit_2(tenant, other_tenant, ana):
    make_user("ana", tenants=[tenant])
    make_user("gina", tenants=[other_tenant])
    assert "No login 'nobody'" in str(
        fails("owner", "link", "nobody", "--tenant", "acme", "--principal", "ana")
    )
    assert "No tenant with the slug 'nowhere'" in str(
        fails("owner", "link", "ana", "--tenant", "nowhere", "--principal", "ana")
    )
    assert "No person 'ghost' in the tenant 'acme'" in str(
        fails("owner", "link", "ana", "--tenant", "acme", "--principal", "ghost")
    )
    # the person must be of the named tenant, and the login a member of it
    assert "No person 'ana' in the tenant 'globex'" in str(
        fails("owner", "link", "gina", "--tenant", "globex", "--principal", "ana")
    )
    assert "is not a member of the tenant 'acme'" in str(
        fails("owner", "link", "gina", "--tenant", "acme", "--principal", "ana")
    )
    assert not OwnerAccount.objects.exists()


# --- the admin ---------------------------------------------------------------------------


@pytest.fixture
def admin_client(client, tenant):
    from django.core.management import call_command

    call_command("ensure_operator", "--username", "olga", stdout=io.StringIO())
    user = make_user("ann", role="operator", tenants=[tenant])
    user.is_staff = True
    user.save()
    client.force_login(user)
    return client


def test_admin_links_through_the_service(admin_client, tenant, other_tenant, ana):
    add = reverse("admin:persona_owneraccount_add")
    ana_login = make_user("ana", tenants=[tenant])
    gina_login = make_user("gina", tenants=[other_tenant])
    page = admin_client.get(add).content.decode()
    assert ">ana<" in page and ">gina<" not in page  # only logins of the operator's tenants
    response = admin_client.post(add, {"user": gina_login.pk, "principal": ana.pk})
    assert response.status_code == 200 and not OwnerAccount.objects.exists()
    response = admin_client.post(add, {"user": ana_login.pk, "principal": ana.pk})
    assert response.status_code == 302
    account = OwnerAccount.objects.get()
    assert (account.user, account.principal) == (ana_login, ana)

    bob = PrincipalFactory(tenant=tenant, external_id="bob")
    response = admin_client.post(add, {"user": ana_login.pk, "principal": bob.pk})
    assert "already linked to the person" in response.content.decode()
    # a link is shown, not changed in place; it is removed through the service
    change = reverse("admin:persona_owneraccount_change", args=[account.pk])
    assert admin_client.post(change, {"user": ana_login.pk, "principal": bob.pk}).status_code == 403
    delete = reverse("admin:persona_owneraccount_delete", args=[account.pk])
    assert admin_client.post(delete, {"post": "yes"}).status_code == 302
    assert not OwnerAccount.objects.exists()


def test_admin_hides_another_tenants_links(admin_client, other_tenant):
    gina = PrincipalFactory(tenant=other_tenant, external_id="gina")
    account, _ = owner_account_link(user=make_user("gina", tenants=[other_tenant]), principal=gina)
    url = reverse("admin:persona_owneraccount_change", args=[account.pk])
    assert admin_client.get(url).status_code == 404
    listing = admin_client.get(reverse("admin:persona_owneraccount_changelist")).content.decode()
    assert f"/owneraccount/{account.pk}/" not in listing
