# Membership moved to tenancy (same table, personaweb_membership).

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("personaweb", "0002_role_groups"),
        ("tenancy", "0001_initial"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[migrations.DeleteModel(name="Membership")],
            database_operations=[],
        ),
    ]
