from django.db import migrations, models


def infer_authors(apps, schema_editor):
    """Entries written before authors were recorded: an entry's words are the owner's
    when the version that first held them was written under the username of the login
    linked to the person; anything else (a token's name, the command line, an operator)
    is on their behalf. Walks each document's versions in order, so an entry carried
    unchanged keeps the author of the version that wrote it."""
    Document = apps.get_model("persona", "OwnerDocument")
    Version = apps.get_model("persona", "OwnerDocumentVersion")
    Entry = apps.get_model("persona", "OwnerEntry")
    Account = apps.get_model("persona", "OwnerAccount")
    owners = dict(Account.objects.values_list("principal_id", "user__username"))
    for doc in Document.objects.all().iterator():
        owner = owners.get(doc.principal_id)
        seen: dict[str, tuple[str, str, str]] = {}
        for version in Version.objects.filter(document=doc).order_by("version"):
            changed = []
            for entry in Entry.objects.filter(version=version).order_by("position"):
                before = seen.get(entry.key)
                if before is not None and before[0] == entry.text:
                    author, by = before[1], before[2]
                else:
                    by = version.written_by
                    author = "owner" if owner and by == owner else "on_behalf"
                seen[entry.key] = (entry.text, author, by)
                entry.author, entry.written_by = author, by
                changed.append(entry)
            Entry.objects.bulk_update(changed, ["author", "written_by"])


class Migration(migrations.Migration):

    dependencies = [
        ('persona', '0004_owner_document'),
    ]

    operations = [
        migrations.AddField(
            model_name='ownerentry',
            name='author',
            field=models.CharField(choices=[('owner', 'the owner, signed in'), ('owner_token', 'the owner, through a token they made'), ('on_behalf', "someone on the owner's behalf")], default='on_behalf', max_length=12),
        ),
        migrations.AddField(
            model_name='ownerentry',
            name='written_by',
            field=models.CharField(blank=True, max_length=150),
        ),
        migrations.RunPython(infer_authors, migrations.RunPython.noop),
    ]
