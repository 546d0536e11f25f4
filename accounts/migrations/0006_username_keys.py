"""Each existing account's username key (accounts.names): what its name reads as. Where two
usernames read the same (lin and Lin), the older account keeps the key and the newer holds none:
nobody can take either name from now on, and neither account changes."""

from django.db import migrations

from accounts import names


def username_keys(apps, schema_editor) -> None:
    user = apps.get_model("accounts", "User")
    taken = set()
    for account in user.objects.order_by("pk").only("pk", "username").iterator():
        key = names.fingerprint(account.username)
        if key not in taken:
            taken.add(key)
            user.objects.filter(pk=account.pk).update(username_key=key)


class Migration(migrations.Migration):

    dependencies = [
        ("accounts", "0005_user_display_name"),
    ]

    operations = [
        migrations.RunPython(username_keys, migrations.RunPython.noop),
    ]
