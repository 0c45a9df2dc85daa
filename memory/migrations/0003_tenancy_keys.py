# Tenant and Agent moved to tenancy (same tables): only the model state of these keys
# changes. The Tenant model state itself goes in 0004, once nothing points at it.

import django.db.models.deletion
from django.db import migrations, models

CASCADE = django.db.models.deletion.CASCADE


class Migration(migrations.Migration):
    dependencies = [
        ("memory", "0002_initial"),
        ("tenancy", "0001_initial"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.AlterField(
                    model_name="principal",
                    name="tenant",
                    field=models.ForeignKey(on_delete=CASCADE, related_name="principals", to="tenancy.tenant"),
                ),
                migrations.AlterField(
                    model_name="entityfact",
                    name="tenant",
                    field=models.ForeignKey(on_delete=CASCADE, related_name="entity_facts", to="tenancy.tenant"),
                ),
                migrations.AlterField(
                    model_name="conversation",
                    name="agent",
                    field=models.ForeignKey(on_delete=CASCADE, related_name="conversations", to="tenancy.agent"),
                ),
            ],
            database_operations=[],
        ),
    ]
