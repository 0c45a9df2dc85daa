"""Every owner-document entry records who wrote it, and the prompt row says "typed by
them" or "affirmed by them" only when the owner did (issue 22, point 7)."""

from __future__ import annotations

import importlib
import json
from io import StringIO

import pytest
from django.apps import apps
from django.core.management import call_command
from django.utils import timezone

from memory.models import Principal
from persona.models import OwnerDocumentVersion, OwnerEntry, OwnerNomination
from persona.models_owner import Author
from persona.owner import (
    ROW_HEADING,
    ROW_HEADING_ON_BEHALF,
    doc_head,
    nomination_affirm,
    owner_doc_write,
    owner_writer,
    render_row,
)
from personaweb.actors import Actor
from personaweb.errors import NotPermitted
from tests.factories import make_owner, make_user


@pytest.fixture
def ana(tenant):
    return Principal.objects.create(tenant=tenant, external_id="ana")


@pytest.fixture
def ana_login(ana):
    return make_owner(ana, "ana-login")


def user_actor(user):
    return Actor(kind="user", name=user.get_username(), tenant_ids=None, user=user)


def token_actor(name, *, user=None, principal_id=None):
    return Actor(
        kind="token", name=f"token:{name}", tenant_ids=None, user=user, principal_id=principal_id
    )


def test_the_writer_of_an_actor_is_the_owner_only_when_it_is_their_login(ana, ana_login, operator):
    assert owner_writer(actor=user_actor(ana_login), principal=ana) == ("ana-login", Author.OWNER)
    mine = token_actor("phone", user=ana_login, principal_id=ana.pk)
    assert owner_writer(actor=mine, principal=ana) == ("token:phone", Author.OWNER_TOKEN)
    made_for_her = token_actor("desk", principal_id=ana.pk)
    assert owner_writer(actor=made_for_her, principal=ana) == ("token:desk", Author.ON_BEHALF)
    root = make_user("root", superuser=True)
    assert owner_writer(actor=user_actor(root), principal=ana) == (
        "superuser root on behalf of ana",
        Author.ON_BEHALF,
    )
    assert owner_writer(actor=Actor.system("cli"), principal=ana)[1] == Author.ON_BEHALF


def test_an_operator_or_another_persons_token_may_not_write_the_document(ana, ana_login, operator):
    with pytest.raises(NotPermitted, match="Only the person"):
        owner_writer(actor=user_actor(operator), principal=ana)
    with pytest.raises(NotPermitted, match="not bound to this person"):
        owner_writer(actor=token_actor("x", user=ana_login, principal_id=ana.pk + 1), principal=ana)
    with pytest.raises(NotPermitted, match="not bound to this person"):
        owner_writer(actor=token_actor("tenant-wide"), principal=ana)


def test_an_entry_records_its_writer_and_keeps_it_while_its_words_stay(ana, ana_login):
    owner_doc_write(
        principal=ana,
        expected_version=0,
        entries=[{"text": "Runs a bakery."}, {"text": "Lives in Porto."}],
        written_by="ana-login",
    )
    bakery, porto = doc_head(ana).entries
    assert (bakery.author, bakery.written_by) == (Author.OWNER, "ana-login")
    # someone else changes one entry's words and the other's tier only
    owner_doc_write(
        principal=ana,
        expected_version=1,
        entries=[
            {"key": bakery.key, "text": "Runs two bakeries."},
            {"key": porto.key, "text": "Lives in Porto.", "tier": "permanent"},
        ],
        written_by="token:desk",
    )
    bakery, porto = doc_head(ana).entries
    assert (bakery.author, bakery.written_by) == (Author.ON_BEHALF, "token:desk")
    assert (porto.author, porto.written_by) == (Author.OWNER, "ana-login")
    row = render_row([bakery, porto])
    assert row.startswith(ROW_HEADING_ON_BEHALF)
    assert "- Runs two bakeries. (written on their behalf)" in row
    assert "- Lives in Porto. (typed by them)" in row


def test_a_writer_named_like_the_owner_is_not_the_owner_without_their_login(ana):
    # no login is linked to ana: a name is only a name
    owner_doc_write(principal=ana, expected_version=0, entries=[{"text": "X."}], written_by="ana")
    assert doc_head(ana).entries[0].author == Author.ON_BEHALF


def test_the_command_line_never_writes_as_the_owner(ana, ana_login, tmp_path):
    path = tmp_path / "entries.json"
    path.write_text(json.dumps([{"text": "Likes jazz."}]))
    call_command(
        "persona", "doc", "edit", "--tenant", "acme", "--principal", "ana",
        "--expected-version", "0", "--file", str(path), "--by", "ana-login", stdout=StringIO(),
    )  # fmt: skip
    entry = doc_head(ana).entries[0]
    assert entry.author == Author.ON_BEHALF  # --by ana-login claims nothing
    assert "(written on their behalf)" in render_row([entry])


def _nomination(ana, statement="Likes long walks"):
    return OwnerNomination.objects.create(
        tenant_id=ana.tenant_id,
        principal=ana,
        statement=statement,
        statement_key=statement.casefold(),
        category="likes",
        confidence=0.9,
        corroboration_count=3,
        sensitivity=1,
        nominated_at=timezone.now(),
    )


def test_an_affirmation_says_affirmed_by_them_only_for_the_owner(ana, ana_login):
    mine = _nomination(ana)
    nomination_affirm(principal=ana, nomination_id=mine.pk, by="ana-login")
    theirs = _nomination(ana, "Likes rye bread")
    nomination_affirm(principal=ana, nomination_id=theirs.pk, by="token:desk")
    walks, bread = doc_head(ana).entries
    assert (walks.author, bread.author) == (Author.OWNER, Author.ON_BEHALF)
    row = render_row([walks, bread])
    assert "- Likes long walks (affirmed by them)" in row
    assert "- Likes rye bread (affirmed on their behalf)" in row
    assert render_row([walks]).startswith(ROW_HEADING)


def test_the_migration_infers_authors_from_the_versions_that_wrote_them(ana, ana_login):
    owner_doc_write(
        principal=ana, expected_version=0, entries=[{"text": "A."}], written_by="ana-login"
    )
    first = doc_head(ana).entries[0]
    owner_doc_write(
        principal=ana,
        expected_version=1,
        entries=[{"key": first.key, "text": "A."}, {"text": "B."}],
        written_by="token:ops",
    )
    OwnerEntry.objects.update(author=Author.ON_BEHALF, written_by="")  # as before the migration
    migration = importlib.import_module("persona.migrations.0005_owner_entry_author")
    migration.infer_authors(apps, None)
    head = OwnerDocumentVersion.objects.get(version=2)
    a, b = head.entries.order_by("position")
    assert (a.author, a.written_by) == (Author.OWNER, "ana-login")  # carried from v1
    assert (b.author, b.written_by) == (Author.ON_BEHALF, "token:ops")
