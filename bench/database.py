"""A bench's own PostgreSQL database on 127.0.0.1:5432 (user postgres), made for the run and
dropped after it, and the environment that points Django at it in this process (DEBUG off, no
broker or cache server: tasks run eagerly)."""

import os

PG = "postgres://postgres@127.0.0.1:5432"


def configure(database: str) -> None:
    """Before django.setup(): settings that read `database`."""
    os.environ.update(DJANGO_SETTINGS_MODULE="config.settings", DEBUG="0",
                      SECRET_KEY="bench-only-secret-key-" + "x" * 40,
                      ALLOWED_HOSTS="testserver", SECURE_SSL_REDIRECT="0",
                      DATABASE_URL=f"{PG}/{database}")
    for name in ("CELERY_BROKER_URL", "CACHE_URL"):
        os.environ.pop(name, None)


def _server(*statements: str) -> None:
    import psycopg

    with psycopg.connect(f"{PG}/postgres", autocommit=True) as conn:
        for statement in statements:
            conn.execute(statement)


def recreate(database: str) -> None:
    _server(f"DROP DATABASE IF EXISTS {database} WITH (FORCE)", f"CREATE DATABASE {database}")


def drop(database: str) -> None:
    _server(f"DROP DATABASE IF EXISTS {database} WITH (FORCE)")
