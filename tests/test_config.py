"""Settings read from the environment: each case loads them in a fresh process."""

import ast
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SETTINGS = ROOT / "config" / "settings.py"
ENV_READERS = {"env", "env_bool", "env_int", "env_list"}
PRODUCTION = {
    "DEBUG": "0",
    "SECRET_KEY": "k7#Qw9!zR2@vL5$xN8^mT3&bY6*cJ1(pF4)hD0_gS-eA+uW=oZ;iK:",
    "ALLOWED_HOSTS": "cards.example.com",
    "DATABASE_URL": "postgres://cards:secret@db.internal:5432/cards",
    "CELERY_BROKER_URL": "redis://redis.internal:6379/0",
    "CACHE_URL": "redis://redis.internal:6379/1",
}


def environment_variables() -> set[str]:
    """Every variable config/settings.py reads: env("X"), env_bool("X"), env_list("X")."""
    names = set()
    for node in ast.walk(ast.parse(SETTINGS.read_text())):
        if isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.Constant):
            func = node.func
            name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
            if name in ENV_READERS and isinstance(node.args[0].value, str):
                names.add(node.args[0].value)
    return names


def run(args: list[str], env: dict[str, str]) -> subprocess.CompletedProcess:
    clean = {k: v for k, v in os.environ.items() if k not in environment_variables()}
    return subprocess.run(
        [sys.executable, *args], cwd=ROOT, env={**clean, **env, "DJANGO_SETTINGS_MODULE":
                                                 "config.settings"},
        capture_output=True, text=True, timeout=120,
    )


def settings_under(**env) -> dict:
    names = ["DEBUG", "ALLOWED_HOSTS", "DATABASES", "CACHES", "CELERY_BROKER_URL",
             "CELERY_TASK_ALWAYS_EAGER", "CELERY_TASK_EAGER_PROPAGATES", "SECRET_KEY"]
    code = ("import json; from django.conf import settings as s; "
            f"print(json.dumps({{n: getattr(s, n) for n in {names!r}}}, default=str)); "
            "print(json.dumps(getattr(s, 'CELERY_RESULT_BACKEND', None)))")
    done = run(["-c", code], env)
    assert done.returncode == 0, done.stderr
    values, backend = done.stdout.splitlines()
    return {**json.loads(values), "CELERY_RESULT_BACKEND": json.loads(backend)}


def test_settings_read_the_variables_the_readme_documents():
    names = environment_variables()
    assert {"DATABASE_URL", "CELERY_BROKER_URL", "SECRET_KEY", "DEBUG", "ALLOWED_HOSTS"} <= names
    readme = (ROOT / "README.md").read_text()
    example = (ROOT / ".env.example").read_text()
    assert [n for n in sorted(names) if f"`{n}`" not in readme] == []
    assert [n for n in sorted(names) if f"{n}=" not in example] == []


def test_embedded_defaults():
    values = settings_under()
    assert values["DEBUG"] is True
    database = values["DATABASES"]["default"]
    assert database["ENGINE"] == "django.db.backends.sqlite3"
    assert database["NAME"] == str(ROOT / "db.sqlite3")
    assert values["CELERY_TASK_ALWAYS_EAGER"] is True
    assert values["CELERY_TASK_EAGER_PROPAGATES"] is True
    assert values["CELERY_BROKER_URL"] == "memory://"
    assert values["CELERY_RESULT_BACKEND"] is None
    assert values["CACHES"]["default"]["BACKEND"].endswith("LocMemCache")


def test_empty_values_count_as_unset():
    values = settings_under(DATABASE_URL="", ALLOWED_HOSTS=" ", CELERY_BROKER_URL="", DEBUG="")
    assert values["DATABASES"]["default"]["NAME"] == str(ROOT / "db.sqlite3")
    assert values["ALLOWED_HOSTS"] == ["127.0.0.1", "localhost", "[::1]"]
    assert values["CELERY_TASK_ALWAYS_EAGER"] is True
    assert values["DEBUG"] is True


def test_production_variables_are_used():
    values = settings_under(**PRODUCTION)
    assert values["DEBUG"] is False
    assert values["SECRET_KEY"] == PRODUCTION["SECRET_KEY"]
    assert values["ALLOWED_HOSTS"] == ["cards.example.com"]
    database = values["DATABASES"]["default"]
    assert database["ENGINE"] == "django.db.backends.postgresql"
    assert (database["NAME"], database["USER"], database["HOST"], database["PORT"]) == (
        "cards", "cards", "db.internal", 5432)
    assert values["CELERY_TASK_ALWAYS_EAGER"] is False
    assert values["CELERY_BROKER_URL"] == PRODUCTION["CELERY_BROKER_URL"]
    assert values["CELERY_RESULT_BACKEND"] is None  # nobody reads task results
    assert values["CACHES"]["default"]["BACKEND"] == "django.core.cache.backends.redis.RedisCache"
    assert values["CACHES"]["default"]["LOCATION"] == PRODUCTION["CACHE_URL"]


def test_debug_off_without_a_secret_key_refuses_to_start():
    done = run(["manage.py", "check"], {"DEBUG": "0"})
    assert done.returncode != 0
    assert "SECRET_KEY must be set when DEBUG is off" in done.stderr


@pytest.mark.parametrize("key", [
    "k7#Qw9!zR2@vL5$xN8^mT3&bY6*cJ1(pF4)hD0_gS-eA+uW=o",  # 49 characters
    "short", "a" * 80, "abcd" * 20, "django-insecure-" + PRODUCTION["SECRET_KEY"]])
def test_debug_off_with_a_weak_secret_key_refuses_to_start(key):
    done = run(["manage.py", "check"], {**PRODUCTION, "SECRET_KEY": key})
    assert done.returncode != 0
    assert "SECRET_KEY must be 50 or more random characters" in done.stderr


def test_a_short_secret_key_is_accepted_while_debug_is_on():
    assert settings_under(SECRET_KEY="short")["SECRET_KEY"] == "short"


def test_sqlite_transactions_take_the_write_lock_as_they_begin():
    options = settings_under()["DATABASES"]["default"]["OPTIONS"]
    assert options["transaction_mode"] == "IMMEDIATE"
    assert options["timeout"] > 0
    postgres = settings_under(**PRODUCTION)["DATABASES"]["default"]
    assert "transaction_mode" not in postgres.get("OPTIONS", {})


def test_throttles_trust_no_forwarded_address_unless_told_which_proxies():
    code = ("from django.conf import settings as s; "
            "print(','.join(s.TRUSTED_PROXIES) or '-', s.TOKEN_TTL_DAYS)")
    assert run(["-c", code], {}).stdout.split() == ["-", "30"]
    assert run(["-c", code], {"TRUSTED_PROXIES": "10.0.0.5, 172.16.0.0/12",
                              "TOKEN_TTL_DAYS": "7"}).stdout.split() == [
        "10.0.0.5,172.16.0.0/12", "7"]
    for bad in ({"TRUSTED_PROXIES": "nginx"}, {"TRUSTED_PROXIES": "10.0.0.0/40"},
                {"TOKEN_TTL_DAYS": "0"}):
        done = run(["manage.py", "check"], bad)
        assert done.returncode != 0 and next(iter(bad)) in done.stderr


@pytest.mark.parametrize("value", ["maybe", "2"])
def test_an_unreadable_boolean_is_refused(value):
    done = run(["manage.py", "check"], {"DEBUG": value})
    assert done.returncode != 0
    assert "DEBUG=" in done.stderr


def test_production_settings_pass_the_deploy_checklist():
    done = run(["manage.py", "check", "--deploy", "--fail-level", "WARNING"], PRODUCTION)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "System check identified no issues" in done.stdout
