"""``memory import`` on hostile files and tenants: each problem is one "line N: ..."
sentence, exit 2, nothing imported, no traceback (issue 9, findings 5 and 6)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from memory.models import Conversation, Message, Principal
from tenancy.models import Agent, Tenant
from tests.factories import make_agent

pytestmark = pytest.mark.django_db

GOOD = {
    "agent": "desk",
    "user": "ana",
    "conversation": "c-1",
    "role": "user",
    "text": "Summarise this month's invoices.",
    "at": "2026-11-02T09:00:00+00:00",
}


def write(path: Path, lines: list[str]) -> Path:
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def fails(path: Path, *args: str) -> CommandError:
    with pytest.raises(CommandError) as exc:
        call_command("memory", "import", str(path), *args, verbosity=0)
    assert exc.value.returncode == 2
    return exc.value


def nothing_imported() -> None:
    assert Message.objects.count() == 0
    assert Conversation.objects.count() == 0
    assert Principal.objects.count() == 0


@pytest.mark.parametrize(
    ("bad_line", "expected"),
    [
        (
            json.dumps({**GOOD, "at": "9999-12-31T23:59:59-14:00"}),
            "line 2: \"at\" is '9999-12-31T23:59:59-14:00', which is outside the years 1900 to 2200",
        ),
        (
            json.dumps({**GOOD, "at": "0001-01-01T00:00:00+14:00"}),
            "line 2: \"at\" is '0001-01-01T00:00:00+14:00', which is outside the years 1900 to 2200",
        ),
        (
            json.dumps(GOOD)[:-1] + ', "n": ' + "7" * 5000 + "}",
            "line 2: a number has more than",
        ),
        ("[" * 100_000 + "]" * 100_000, "line 2: the JSON is nested too deeply"),
        ('{"a": ' * 100_000 + "1" + "}" * 100_000, "line 2: the JSON is nested too deeply"),
        (json.dumps({**GOOD, "text": 42}), "line 2: the user text must be text"),
        (json.dumps({**GOOD, "text": 1.5}), "line 2: the user text must be text"),
        (json.dumps({**GOOD, "text": ["a"]}), "line 2: the user text must be text"),
    ],
    ids=["year-9999", "year-1", "5000-digits", "deep-list", "deep-object", "int", "float", "list"],
)
def test_hostile_line_is_named_exit_2_and_nothing_imported(tmp_path, bad_line, expected):
    path = write(tmp_path / "m.jsonl", [json.dumps(GOOD), bad_line])
    error = fails(path)
    message = str(error)
    assert expected in message, message
    assert "Nothing was imported." in message
    assert "Traceback" not in message and len(message) < 400
    nothing_imported()


def test_text_that_is_a_number_is_not_called_empty(tmp_path):
    path = write(tmp_path / "m.jsonl", [json.dumps({**GOOD, "text": 0})])
    message = str(fails(path))
    assert "must be text" in message and "empty" not in message


def test_the_command_exits_2_through_the_real_entry_point(tmp_path, capsys, monkeypatch):
    """What a person runs: ``manage.py memory import`` prints a sentence, no traceback."""
    from django.core.management import ManagementUtility

    # the real entry point closes every connection when it ends; the test's must stay open
    monkeypatch.setattr("django.db.connections.close_all", lambda: None)

    path = write(tmp_path / "m.jsonl", [json.dumps({**GOOD, "at": "9999-12-31T23:59:59-14:00"})])
    with pytest.raises(SystemExit) as exc:
        ManagementUtility(["manage.py", "memory", "import", str(path)]).execute()
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert "line 1:" in err and "Traceback" not in err
    nothing_imported()


def test_tenant_that_contradicts_the_agents_tenant_is_an_error(tmp_path, tenant, other_tenant):
    make_agent(tenant=tenant, slug="desk", name="Desk")
    path = write(tmp_path / "m.jsonl", [json.dumps(GOOD)])
    message = str(fails(path, "--tenant", other_tenant.slug))
    assert "'desk'" in message and "'acme'" in message and "'globex'" in message
    assert "line 1:" in message
    nothing_imported()


def test_tenant_that_matches_the_agents_tenant_imports(tmp_path, tenant):
    agent = make_agent(tenant=tenant, slug="desk", name="Desk")
    call_command(
        "memory", "import", str(write(tmp_path / "m.jsonl", [json.dumps(GOOD)])), "--tenant",
        "acme", verbosity=0,
    )  # fmt: skip
    assert Conversation.objects.get().agent == agent
    assert Principal.objects.get().tenant == tenant


def test_without_tenant_an_existing_agent_keeps_its_tenant(tmp_path, tenant):
    make_agent(tenant=tenant, slug="desk", name="Desk")
    call_command(
        "memory", "import", str(write(tmp_path / "m.jsonl", [json.dumps(GOOD)])), verbosity=0
    )
    assert Principal.objects.get().tenant == tenant
    assert not Tenant.objects.filter(slug="default").exists()


@pytest.mark.parametrize("slug", ["Not A Slug", "-acme", "acme_", "a" * 101, ""])
def test_invalid_tenant_slug_is_refused_and_not_created(tmp_path, slug):
    path = write(tmp_path / "m.jsonl", [json.dumps(GOOD)])
    message = str(fails(path, f"--tenant={slug}"))
    assert "is not a valid tenant slug" in message
    assert not Tenant.objects.exists()
    assert not Agent.objects.exists()
    nothing_imported()


def test_invalid_tenant_slug_is_refused_even_when_every_agent_exists(tmp_path, tenant):
    make_agent(tenant=tenant, slug="desk", name="Desk")
    path = write(tmp_path / "m.jsonl", [json.dumps(GOOD)])
    assert "is not a valid tenant slug" in str(fails(path, "--tenant", "ACME!"))
    nothing_imported()


def test_import_file_service_refuses_a_contradicting_tenant(tmp_path, tenant, other_tenant):
    from memory.importer import ImportLineError, import_file

    make_agent(tenant=tenant, slug="desk", name="Desk")
    path = write(tmp_path / "m.jsonl", [json.dumps(GOOD)])
    with pytest.raises(ImportLineError, match="exists already in tenant 'acme'"):
        import_file(path=path, tenant_slug="globex")
    nothing_imported()
