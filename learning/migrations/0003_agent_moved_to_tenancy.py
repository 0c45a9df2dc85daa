# Agent moved to tenancy (same table): only the model state of these keys changes.

import django.db.models.deletion
from django.db import migrations, models

CASCADE = django.db.models.deletion.CASCADE


class Migration(migrations.Migration):
    dependencies = [
        ("learning", "0002_initial"),
        ("tenancy", "0001_initial"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.AlterField(
                    model_name="learningsettings",
                    name="agent",
                    field=models.OneToOneField(on_delete=CASCADE, related_name="learning", to="tenancy.agent"),
                ),
                migrations.AlterField(
                    model_name="proposal",
                    name="agent",
                    field=models.ForeignKey(on_delete=CASCADE, related_name="proposals", to="tenancy.agent"),
                ),
                migrations.AlterField(
                    model_name="rejection",
                    name="agent",
                    field=models.ForeignKey(on_delete=CASCADE, related_name="rejections", to="tenancy.agent"),
                ),
                migrations.AlterField(
                    model_name="review",
                    name="agent",
                    field=models.ForeignKey(on_delete=CASCADE, related_name="reviews", to="tenancy.agent"),
                ),
            ],
            database_operations=[],
        ),
    ]
