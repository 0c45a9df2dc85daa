# Tenants, agents and memberships move here from memory, persona and personaweb. The
# tables stay where they are (db_table keeps their names): only Django's model state
# moves, and the content types follow so permissions and admin history stay attached.

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models

MOVED = (("memory", "tenant"), ("persona", "agent"), ("personaweb", "membership"))


def move_content_types(apps, schema_editor):
    ContentType = apps.get_model("contenttypes", "ContentType")
    for app_label, model in MOVED:
        if ContentType.objects.filter(app_label="tenancy", model=model).exists():
            continue
        ContentType.objects.filter(app_label=app_label, model=model).update(app_label="tenancy")


def restore_content_types(apps, schema_editor):
    ContentType = apps.get_model("contenttypes", "ContentType")
    for app_label, model in MOVED:
        ContentType.objects.filter(app_label="tenancy", model=model).update(app_label=app_label)


class Migration(migrations.Migration):
    initial = True

    dependencies = [
        ("contenttypes", "0002_remove_content_type_name"),
        ("memory", "0002_initial"),
        ("persona", "0002_learned_notes"),
        ("personaweb", "0002_role_groups"),
        ("learning", "0002_initial"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name="Tenant",
                    fields=[
                        ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                        ("name", models.CharField(max_length=200)),
                        ("slug", models.SlugField(max_length=100, unique=True)),
                        ("created_at", models.DateTimeField(auto_now_add=True)),
                    ],
                    options={"db_table": "memory_tenant", "ordering": ["name"]},
                ),
                migrations.CreateModel(
                    name="Agent",
                    fields=[
                        ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                        ("name", models.CharField(max_length=200)),
                        ("slug", models.SlugField(max_length=100, unique=True)),
                        ("multi_tenant", models.BooleanField(default=False, help_text="Serves people of several tenants; never learns unless team mode is on.")),
                        ("persona_version", models.PositiveIntegerField(default=0)),
                        ("created_at", models.DateTimeField(auto_now_add=True)),
                        ("tenant", models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name="agents", to="tenancy.tenant")),
                    ],
                    options={
                        "db_table": "persona_agent",
                        "ordering": ["name", "id"],
                        "indexes": [models.Index(fields=["tenant", "name", "id"], name="agent_tenant_name")],
                    },
                ),
                migrations.CreateModel(
                    name="Membership",
                    fields=[
                        ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                        ("created_at", models.DateTimeField(auto_now_add=True)),
                        ("tenant", models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name="memberships", to="tenancy.tenant")),
                        ("user", models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name="memberships", to=settings.AUTH_USER_MODEL)),
                    ],
                    options={
                        "db_table": "personaweb_membership",
                        "constraints": [models.UniqueConstraint(fields=("user", "tenant"), name="membership_unique")],
                    },
                ),
            ],
            database_operations=[],
        ),
        migrations.RunPython(move_content_types, restore_content_types),
    ]
