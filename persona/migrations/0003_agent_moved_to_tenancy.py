# Agent moved to tenancy (same table, persona_agent): the keys follow, then the old
# model state is dropped. No table changes.

import django.db.models.deletion
from django.db import migrations, models

CASCADE = django.db.models.deletion.CASCADE


class Migration(migrations.Migration):
    dependencies = [
        ("persona", "0002_learned_notes"),
        ("tenancy", "0001_initial"),
        ("learning", "0003_agent_moved_to_tenancy"),
        ("memory", "0003_tenancy_keys"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.AlterField(
                    model_name="agentpersonaversion",
                    name="agent",
                    field=models.ForeignKey(on_delete=CASCADE, related_name="versions", to="tenancy.agent"),
                ),
                migrations.AlterField(
                    model_name="contextplan",
                    name="agent",
                    field=models.ForeignKey(on_delete=CASCADE, related_name="plans", to="tenancy.agent"),
                ),
                migrations.DeleteModel(name="Agent"),
            ],
            database_operations=[],
        ),
    ]
