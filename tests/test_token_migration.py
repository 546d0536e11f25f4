"""The migration from DRF's plain-text token table: every key there keeps working, as a hash,
and no key stays readable in the database."""

import importlib

import pytest
from django.apps import apps
from django.db import connection
from django.db.migrations.recorder import MigrationRecorder

from accounts import tokens
from accounts.models import AuthToken

pytestmark = pytest.mark.django_db(transaction=True)

migration = importlib.import_module("accounts.migrations.0003_hash_drf_tokens")
OLD_KEYS = ["9944b09199c62bcf9418ad846dd0e4bbdfc6ee4b", "0" * 40]


@pytest.fixture
def legacy_table(django_user_model):
    """DRF's table as an older release left it, with a key per user."""
    users = [django_user_model.objects.create_user(name) for name in ("ada", "lin")]
    qn = connection.ops.quote_name
    with connection.cursor() as cursor:
        cursor.execute(f"CREATE TABLE {qn(migration.OLD_TABLE)} ({qn('key')} varchar(40)"
                       f" PRIMARY KEY, {qn('user_id')} bigint NOT NULL)")
        for key, user in zip(OLD_KEYS, users, strict=True):
            cursor.execute(f"INSERT INTO {qn(migration.OLD_TABLE)} VALUES (%s, %s)",
                           [key, user.pk])
    MigrationRecorder(connection).record_applied("authtoken", "0001_initial")
    return users


def run_migration() -> None:
    with connection.schema_editor() as editor:
        migration.hash_drf_tokens(apps, editor)


def test_old_keys_keep_working_and_are_kept_only_as_hashes(legacy_table, api_client):
    run_migration()
    assert migration.OLD_TABLE not in connection.introspection.table_names()
    assert not MigrationRecorder(connection).migration_qs.filter(app="authtoken").exists()
    stored = dict(AuthToken.objects.values_list("digest", "user_id"))
    assert stored == {tokens.digest(key): user.pk
                      for key, user in zip(OLD_KEYS, legacy_table, strict=True)}
    for key, user in zip(OLD_KEYS, legacy_table, strict=True):
        api_client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
        assert api_client.get("/api/v1/auth/me/").json()["username"] == user.username


def test_a_database_without_the_old_table_is_left_alone(user):
    tokens.issue(user)
    before = list(AuthToken.objects.values_list("pk", "digest"))
    run_migration()
    assert list(AuthToken.objects.values_list("pk", "digest")) == before
