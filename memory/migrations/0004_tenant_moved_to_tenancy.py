# Tenant moved to tenancy (same table, memory_tenant): drop the old model state now
# that nothing points at it.

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("memory", "0003_tenancy_keys"),
        ("persona", "0003_agent_moved_to_tenancy"),
        ("personaweb", "0003_membership_moved_to_tenancy"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[migrations.DeleteModel(name="Tenant")],
            database_operations=[],
        ),
    ]
