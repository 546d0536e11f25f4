"""DRF's authtoken table kept every key in plain text. Each key there becomes a token stored by its
hash, expiring TOKEN_TTL_DAYS from now, so clients keep working with the key they hold; then that
table is dropped (no key stays readable) with authtoken's migration records (the app is no longer
installed; re-installing it would start afresh). A database that never had the table (a new one)
skips all this. There is no way back: a hash cannot be turned into its key again.
"""

import hashlib
from datetime import timedelta

from django.conf import settings
from django.db import migrations
from django.db.migrations.recorder import MigrationRecorder
from django.utils import timezone

OLD_TABLE = "authtoken_token"


def hash_drf_tokens(apps, schema_editor):
    db = schema_editor.connection
    if OLD_TABLE not in db.introspection.table_names():
        return
    qn = schema_editor.quote_name
    with db.cursor() as cursor:
        cursor.execute(f"SELECT {qn('key')}, {qn('user_id')} FROM {qn(OLD_TABLE)}")
        rows = cursor.fetchall()
    token = apps.get_model("accounts", "AuthToken")
    expires_at = timezone.now() + timedelta(days=settings.TOKEN_TTL_DAYS)
    token.objects.using(db.alias).bulk_create(
        token(digest=hashlib.sha256(key.encode()).hexdigest(), user_id=user_id,
              expires_at=expires_at)
        for key, user_id in rows)
    schema_editor.execute(f"DROP TABLE {qn(OLD_TABLE)}")
    MigrationRecorder(db).migration_qs.filter(app="authtoken").delete()


class Migration(migrations.Migration):

    dependencies = [
        ("accounts", "0002_auth_tokens_hashed"),
    ]

    operations = [
        migrations.RunPython(hash_drf_tokens, migrations.RunPython.noop, elidable=False),
    ]
