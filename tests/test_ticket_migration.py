"""The migration that binds stream tickets to their token: tickets issued before it (30-second
ones, none saying its token) are dropped, and the database migrates with them in it."""

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.utils import timezone

from accounts.models import StreamTicket

pytestmark = pytest.mark.django_db(transaction=True)
BEFORE = [("accounts", "0006_username_keys")]


def test_tickets_from_before_are_dropped_as_they_get_their_token():
    executor = MigrationExecutor(connection)
    executor.migrate(BEFORE)
    old = executor.loader.project_state(BEFORE).apps
    user = old.get_model("accounts", "User").objects.create(username="ada")
    old.get_model("accounts", "StreamTicket").objects.create(
        user=user, digest="0" * 64, expires_at=timezone.now())
    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())
    assert not StreamTicket.objects.exists()
    assert "token_id" in {c.name for c in connection.introspection.get_table_description(
        connection.cursor(), StreamTicket._meta.db_table)}
