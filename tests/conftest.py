"""Fixtures shared by every test package: API clients and accounts with tokens."""

import json
import os
import tomllib
from pathlib import Path

import pytest
from django.core.cache import cache
from django.core.handlers.base import BaseHandler
from hypothesis import settings as hypothesis_settings
from rest_framework.test import APIClient

from accounts import tokens
from games.api.errors import ERRORS
from games.engine.registry import discover

PASSWORD = "a long enough pass phrase"

# CI gates a landing: there property tests replay the same examples every run (a failure found
# while developing is fixed and kept as a case); locally they keep exploring new ones.
hypothesis_settings.register_profile("ci", derandomize=True, print_blob=True)
if os.environ.get("CI"):
    hypothesis_settings.load_profile("ci")

ROOT = Path(__file__).resolve().parent.parent
COMPILED = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["cardtable"]["compiled"]


def stale_compiled() -> list[str]:
    """The compiled modules (setup.py) built before their source last changed: Python would
    import them, not the source, and the tests would test old code."""
    stale = []
    for name in COMPILED:
        source = ROOT / name
        built = source.parent.glob(f"{source.stem}.*.so")
        if any(path.stat().st_mtime < source.stat().st_mtime for path in built):
            stale.append(name)
    return stale


def pytest_sessionstart(session):
    if stale := stale_compiled():
        pytest.exit(f"compiled modules older than their sources ({', '.join(stale)}): run "
                    "`make compile`", returncode=1)


# The rulesets that exist for the tests only (a ruleset is one folder: tests/rulesets/<name>/).
TEST_RULESETS = discover("tests.rulesets")


@pytest.fixture(scope="session")
def django_db_setup(django_db_setup, django_db_blocker):
    """The test database as migrated, less the house tables a fresh install gets
    (games/migrations/0006_house_tables.py): each test makes the tables it needs. When no test
    collected asked for a database (tests/integration/test_faults.py alone: its stack has its
    own), pytest-django made none and the configured one is a real one: left alone."""
    from django.db import connection

    from games.models import Table

    if connection.settings_dict["NAME"] != connection.creation._get_test_db_name():
        return
    with django_db_blocker.unblock():
        Table.objects.all().delete()


@pytest.fixture(autouse=True)
def _unpaced(settings):
    """The server moves at once unless a test sets a pace (tests/api/test_pace.py does): most
    tests play many server turns in a row."""
    settings.SERVER_PACE_MS = 0


@pytest.fixture(autouse=True)
def _empty_cache():
    """Throttle counters live in the cache: no test inherits another's."""
    cache.clear()


def _error_code(response) -> str | None:
    """The code of an answer in the API's error shape (None for any other answer)."""
    if response.status_code < 400 or "application/json" not in response.get("Content-Type", ""):
        return None
    body = json.loads(response.content)
    return body["error"]["code"] if isinstance(body, dict) and "error" in body else None


@pytest.fixture(autouse=True)
def _errors_as_listed():
    """Every error any test meets has the status the API's table gives its code
    (games.api.errors.ERRORS), whichever endpoint and whichever path through the code answered
    it. /api/raise/ is tests/test_api_errors.py's view that raises whatever a test names, made-up
    codes and all: left out."""
    met = []
    handle, handle_async = BaseHandler.get_response, BaseHandler.get_response_async

    def noted(request, response):
        if not request.path.startswith("/api/raise/") and (code := _error_code(response)):
            met.append((request.method, request.path, code, response.status_code))
        return response

    def get_response(self, request):
        return noted(request, handle(self, request))

    async def get_response_async(self, request):
        return noted(request, await handle_async(self, request))

    BaseHandler.get_response, BaseHandler.get_response_async = get_response, get_response_async
    try:
        yield
    finally:
        BaseHandler.get_response, BaseHandler.get_response_async = handle, handle_async
    wrong = [answer for answer in met if ERRORS.get(answer[2], (None,))[0] != answer[3]]
    assert not wrong, f"errors whose status is not their code's in ERRORS: {wrong}"


@pytest.fixture(autouse=True)
def _fast_password_hashing(settings):
    """Production hashing is slow on purpose; tests only need passwords to round-trip."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def api_client() -> APIClient:
    return APIClient()


@pytest.fixture
def user(django_user_model):
    """A registered player whose password is PASSWORD."""
    return django_user_model.objects.create_user("ada", password=PASSWORD)


@pytest.fixture
def token(user) -> str:
    return tokens.issue(user).key


@pytest.fixture
def auth_client(token) -> APIClient:
    """An API client that sends `user`'s token."""
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    return client
