"""Adding people to a tenant's team (operator, reviewer, owner) without a shell: the
services authorise with an actor and refuse in sentences; the new login has no
password until its person sets one through the link e-mailed to them."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.core import mail
from django.core.management import call_command
from django.core.management.base import CommandError

from persona.models import OwnerAccount
from persona.owner_accounts import owner_add
from personaweb.actors import Actor
from personaweb.errors import NotPermitted, NotReachable
from tenancy.access import actor_for_user
from tenancy.models import Membership
from tenancy.team import TeamRefusal, member_add, set_password_link
from tests.factories import PrincipalFactory

pytestmark = pytest.mark.django_db


def _add(actor, tenant, **kw):
    fields = {"username": "rosa", "email": "rosa@example.org", "role": "reviewer", **kw}
    return member_add(actor=actor, tenant=tenant, **fields)


def test_an_operator_adds_a_reviewer_without_a_password(operator, tenant):
    added = _add(actor_for_user(operator), tenant, first_name="Rosa")
    user = User.objects.get(username="rosa")
    assert added.user == user and added.role == "reviewer"
    assert not user.has_usable_password() and not user.is_staff
    assert list(user.groups.values_list("name", flat=True)) == ["reviewer"]
    assert Membership.objects.filter(user=user, tenant=tenant).exists()
    assert actor_for_user(user).may("learning.decide")


def test_an_added_operator_is_staff_in_the_operator_group(operator, tenant):
    _add(actor_for_user(operator), tenant, username="otto", role="operator")
    otto = User.objects.get(username="otto")
    assert otto.is_staff and not otto.is_superuser
    assert otto.groups.get().name == "operator"
    assert otto.groups.get().permissions.exists()  # the admin opens for them


def test_a_reviewer_may_not_add_anyone(reviewer, tenant):
    with pytest.raises(NotPermitted, match="needs team.manage"):
        _add(actor_for_user(reviewer), tenant)
    assert not User.objects.filter(username="rosa").exists()


def test_another_tenant_is_out_of_reach_before_anything_else(operator, other_tenant):
    with pytest.raises(NotReachable):
        _add(actor_for_user(operator), other_tenant, role="nonsense")


@pytest.mark.parametrize(
    ("fields", "sentence"),
    [
        ({"username": ""}, "Give the new person a username"),
        ({"username": "rosa maria"}, "is not a valid username"),
        ({"username": "OLIVIA"}, "The login 'OLIVIA' exists already; choose another"),
        ({"email": ""}, "Give the new person's e-mail address"),
        ({"email": "rosa-at-example"}, "is not an e-mail address"),
        ({"role": "boss"}, "Choose a role: operator, reviewer, owner."),
    ],
)
def test_a_bad_request_is_refused_in_a_sentence_and_adds_nobody(operator, tenant, fields, sentence):
    before = User.objects.count()
    with pytest.raises(TeamRefusal, match=sentence):
        _add(actor_for_user(operator), tenant, **fields)
    assert User.objects.count() == before


def test_an_owner_is_linked_to_their_person_in_one_step(operator, tenant, other_tenant):
    ana = PrincipalFactory(tenant=tenant, external_id="ana", display_name="Ana")
    added = owner_add(
        actor=actor_for_user(operator),
        tenant=tenant,
        person="ana",
        username="ana",
        email="ana@example.org",
    )
    account = OwnerAccount.objects.get(user=added.user)
    assert account.principal == ana and added.role == "owner"
    assert added.user.first_name == "Ana" and not added.user.groups.exists()

    # a person of another tenant, an unknown one, or one linked already: refused, nobody added
    PrincipalFactory(tenant=other_tenant, external_id="bo")
    for person, sentence in (
        ("bo", "No person 'bo' in Acme"),
        ("", "Name the person this login is for"),
        ("ana", "already linked to the login 'ana'"),
    ):
        with pytest.raises(TeamRefusal, match=sentence):
            owner_add(
                actor=actor_for_user(operator),
                tenant=tenant,
                person=person,
                username="ana2",
                email="a2@example.org",
            )
    assert not User.objects.filter(username="ana2").exists()


def test_the_set_password_link_is_djangos_reset_confirmation(operator, tenant, client):
    added = _add(actor_for_user(operator), tenant)
    link = set_password_link(added.user, base_url="http://testserver/")
    response = client.get(link, follow=True)
    assert b"Choose your password" in response.content
    url = response.redirect_chain[-1][0]
    response = client.post(
        url, {"new_password1": "a long new phrase 42", "new_password2": "a long new phrase 42"}
    )
    assert response.status_code == 302
    added.user.refresh_from_db()
    assert added.user.check_password("a long new phrase 42")
    # used once: the same link no longer works
    assert b"This link no longer works" in client.get(link, follow=True).content


def test_the_team_command_adds_a_person_and_mails_the_link(tenant, capsys):
    call_command(
        "team",
        "add",
        "rosa",
        "--tenant",
        "acme",
        "--role",
        "reviewer",
        "--email",
        "rosa@example.org",
        "--base-url",
        "http://example.org:8000",
    )
    out = capsys.readouterr().out
    assert "Added rosa to Acme as reviewer" in out
    assert "http://example.org:8000/password/reset/" in out
    (message,) = mail.outbox
    assert (
        message.to == ["rosa@example.org"]
        and "http://example.org:8000/password/reset/" in message.body
    )
    assert "Your username is: rosa" in message.body


def test_the_team_command_refuses_in_a_sentence(tenant):
    with pytest.raises(CommandError, match="No tenant 'nope'"):
        call_command(
            "team",
            "add",
            "rosa",
            "--tenant",
            "nope",
            "--role",
            "reviewer",
            "--email",
            "rosa@example.org",
        )
    with pytest.raises(CommandError, match="Give the new person's e-mail address"):
        call_command("team", "add", "rosa", "--tenant", "acme", "--role", "reviewer", "--email", "")
    assert not mail.outbox


def test_the_system_actor_may_add_in_any_tenant(tenant):
    added = _add(Actor.system("cli"), tenant)
    assert added.user.username == "rosa"
