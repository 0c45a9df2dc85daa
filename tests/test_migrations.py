from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import call_command


@pytest.mark.django_db
def test_no_pending_migrations() -> None:
    """Every model change has its migration: makemigrations finds nothing to write."""
    out = StringIO()
    try:
        call_command("makemigrations", "--check", "--dry-run", stdout=out, stderr=out)
    except SystemExit:  # --check exits 1 when a migration is missing
        pytest.fail(
            f"Models have changes without a migration; run makemigrations:\n{out.getvalue()}"
        )


# --- expand / contract (docs/deployment.md) ------------------------------------------
PROJECT_APPS = ("api", "learning", "memory", "persona", "personaweb", "tenancy")
#: operations that take away or rename what the previous release's code still uses
CONTRACTING = ("RemoveField", "DeleteModel", "RenameField", "RenameModel", "AlterModelTable")
#: contract migrations, each allowed in a release after the one that stopped using what it
#: removes (docs/deployment.md, "Release N+1, contract"): "app.migration_name"
CONTRACT_MIGRATIONS: set[str] = set()


def contracting_operations(migration) -> list[str]:
    """The operations of ``migration`` that change the database by taking something
    away; state-only changes (``SeparateDatabaseAndState`` without database operations,
    as when models moved to tenancy) take nothing away."""
    from django.db.migrations.operations import SeparateDatabaseAndState

    found = []
    pending = list(migration.operations)
    while pending:
        operation = pending.pop(0)
        if isinstance(operation, SeparateDatabaseAndState):
            pending.extend(operation.database_operations)
        elif type(operation).__name__ in CONTRACTING:
            found.append(type(operation).__name__)
    return found


def test_every_migration_is_additive_unless_named_a_contract_migration() -> None:
    """Old workers keep running while ``migrate`` runs: a migration removes or renames a
    column or table only in a later release, listed in CONTRACT_MIGRATIONS."""
    from django.db.migrations.loader import MigrationLoader

    loader = MigrationLoader(None, ignore_no_migrations=True)
    offending = {
        f"{app}.{name}": ops
        for (app, name), migration in loader.disk_migrations.items()
        if app in PROJECT_APPS
        and f"{app}.{name}" not in CONTRACT_MIGRATIONS
        and (ops := contracting_operations(migration))
    }
    assert not offending, (
        f"These migrations take away what the running release may still use: {offending}. "
        "Ship an additive migration now and the removal in a later release (docs/deployment.md), "
        "then name the removal in CONTRACT_MIGRATIONS."
    )


def test_a_migration_that_drops_a_column_is_contracting() -> None:
    from django.db import migrations, models

    class Removal(migrations.Migration):
        operations = [
            migrations.AddField("review", "note", models.CharField(max_length=10, null=True)),
            migrations.RemoveField("review", "reason"),
            migrations.SeparateDatabaseAndState(
                state_operations=[migrations.DeleteModel("Tenant")], database_operations=[]
            ),
            migrations.SeparateDatabaseAndState(
                database_operations=[migrations.RenameField("review", "a", "b")]
            ),
        ]

    assert contracting_operations(Removal("0099_removal", "learning")) == [
        "RemoveField",
        "RenameField",
    ]
