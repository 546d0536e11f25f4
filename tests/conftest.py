"""Fixtures shared by every test package: API clients and accounts with tokens."""

import os

import pytest
from django.core.cache import cache
from hypothesis import settings as hypothesis_settings
from rest_framework.test import APIClient

from accounts import tokens
from games.engine.registry import discover

PASSWORD = "a long enough pass phrase"

# CI gates a landing: there property tests replay the same examples every run (a failure found
# while developing is fixed and kept as a case); locally they keep exploring new ones.
hypothesis_settings.register_profile("ci", derandomize=True, print_blob=True)
if os.environ.get("CI"):
    hypothesis_settings.load_profile("ci")

# The rulesets that exist for the tests only (a ruleset is one folder: tests/rulesets/<name>/).
TEST_RULESETS = discover("tests.rulesets")


@pytest.fixture(autouse=True)
def _empty_cache():
    """Throttle counters live in the cache: no test inherits another's."""
    cache.clear()


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
