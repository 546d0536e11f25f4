"""Throttles count per client address, which a made-up X-Forwarded-For does not change unless the
connection comes from one of TRUSTED_PROXIES (then the rightmost address no trusted proxy holds
counts); the admin login is throttled too; with the cache (Redis)
down, signing in still works (throttles let requests through and log a warning)."""

import logging

import pytest
from rest_framework.throttling import ScopedRateThrottle

from accounts.throttling import AdminLoginThrottle
from tests.conftest import PASSWORD

pytestmark = pytest.mark.django_db

LOGIN = "/api/v1/auth/login/"
ADMIN_LOGIN = "/admin/login/"
WRONG = {"username": "ada", "password": "wrong password"}
DEAD_CACHE = {"default": {"BACKEND": "django.core.cache.backends.redis.RedisCache",
                          "LOCATION": "redis://127.0.0.1:1/0",
                          "OPTIONS": {"socket_connect_timeout": 1, "socket_timeout": 1}}}


@pytest.fixture
def two_an_hour(monkeypatch):
    monkeypatch.setattr(ScopedRateThrottle, "THROTTLE_RATES",
                        {"login": "2/hour", "signup": "2/hour"})
    monkeypatch.setattr(AdminLoginThrottle, "THROTTLE_RATES", {"admin_login": "2/hour"})


@pytest.fixture
def proxies(settings):
    def trust(*trusted: str) -> None:
        settings.TRUSTED_PROXIES = list(trusted)
    return trust


def forwarded(n: int, proxy: str = "127.0.0.1") -> dict:
    return {"HTTP_X_FORWARDED_FOR": f"203.0.113.{n}", "REMOTE_ADDR": proxy}


@pytest.mark.parametrize("url", [LOGIN, ADMIN_LOGIN])
@pytest.mark.parametrize("trusted", [(), ("198.51.100.0/24",)])
def test_a_made_up_forwarded_address_does_not_escape_the_throttle(client, user, two_an_hour,
                                                                 proxies, url, trusted):
    proxies(*trusted)  # none, or proxies other than the loopback the request comes from
    statuses = [client.post(url, WRONG, **forwarded(n)).status_code for n in range(40)]
    assert statuses[2:] == [429] * 38


@pytest.mark.parametrize("url", [LOGIN, ADMIN_LOGIN])
@pytest.mark.parametrize("trusted", [("127.0.0.1", "10.0.0.7"), ("10.0.0.0/8", "127.0.0.0/8")])
def test_behind_a_trusted_proxy_each_client_address_counts_apart(client, user, two_an_hour,
                                                                 proxies, url, trusted):
    proxies(*trusted)
    for n in range(3):
        first, second = (client.post(url, WRONG, **forwarded(n)).status_code for _ in range(2))
        assert 429 not in (first, second)
    assert client.post(url, WRONG, **forwarded(0)).status_code == 429
    # The proxy appends the address it saw; what the client wrote before it counts for nothing.
    spoofed = {"HTTP_X_FORWARDED_FOR": "10.9.9.9, 203.0.113.0", "REMOTE_ADDR": "127.0.0.1"}
    assert client.post(url, WRONG, **spoofed).status_code == 429
    # Through two trusted proxies: the address the outer one saw.
    chained = {"HTTP_X_FORWARDED_FOR": "203.0.113.1, 10.0.0.7", "REMOTE_ADDR": "127.0.0.1"}
    assert client.post(url, WRONG, **chained).status_code == 429


def test_the_admin_login_throttle_answers_429_with_retry_after(client, two_an_hour):
    for _ in range(2):
        assert client.post(ADMIN_LOGIN, WRONG).status_code == 200  # the form, with its error
    response = client.post(ADMIN_LOGIN, WRONG)
    assert response.status_code == 429
    assert int(response["Retry-After"]) > 0
    assert client.get(ADMIN_LOGIN).status_code == 200  # only attempts are counted


def test_staff_still_log_in_to_the_admin_below_the_limit(client, django_user_model, two_an_hour):
    django_user_model.objects.create_superuser("boss", password=PASSWORD)
    response = client.post(ADMIN_LOGIN, {"username": "boss", "password": PASSWORD})
    assert response.status_code == 302


def test_with_the_cache_down_signing_in_still_works(api_client, client, user, settings, caplog):
    settings.CACHES = DEAD_CACHE
    with caplog.at_level(logging.WARNING, logger="accounts.throttling"):
        guest = api_client.post("/api/v1/auth/guest/")
        registered = api_client.post("/api/v1/auth/register/",
                                     {"username": "lin", "password": PASSWORD})
        login = api_client.post(LOGIN, {"username": "ada", "password": PASSWORD})
        admin = client.post(ADMIN_LOGIN, WRONG)
    assert [r.status_code for r in (guest, registered, login, admin)] == [201, 201, 200, 200]
    warnings = [r for r in caplog.records if r.name == "accounts.throttling"]
    assert len(warnings) == 4
    assert all("cache is unavailable" in r.getMessage() for r in warnings)


# -- new guests: a bucket per address and one per browser ----------------------------------------

GUEST = "/api/v1/auth/guest/"


@pytest.fixture
def clock(monkeypatch):
    """The buckets' time, moved by hand: `clock.now += seconds`."""
    from accounts.throttling import Bucket

    class Clock:
        now = 1_000_000.0

    monkeypatch.setattr(Bucket, "timer", lambda self: Clock.now)
    return Clock


@pytest.fixture
def buckets(monkeypatch):
    from accounts.throttling import Bucket

    def rates(address: str, browser: str) -> None:
        monkeypatch.setattr(Bucket, "THROTTLE_RATES", {"guest": address,
                                                       "guest_browser": browser})
    return rates


def browser():
    """A browser of its own: a client that keeps the cookies it is given."""
    from rest_framework.test import APIClient

    return APIClient()


def test_a_household_behind_one_address_waits_minutes_not_an_hour(buckets, clock):
    buckets("6/hour", "100/hour")
    answers = [browser().post(GUEST) for _ in range(7)]
    assert [a.status_code for a in answers] == [201] * 6 + [429]
    refused = answers[-1]
    wait = refused.json()["error"]["details"]["wait_seconds"]
    assert 0 < wait <= 600 and int(refused["Retry-After"]) == wait  # one token: an hour / 6
    clock.now += wait
    assert browser().post(GUEST).status_code == 201
    assert browser().post(GUEST).status_code == 429


def test_one_browser_is_held_to_its_own_smaller_bucket(buckets, clock):
    buckets("100/hour", "2/hour")
    mine = browser()
    assert mine.post(GUEST).status_code == 201  # its first guest names the browser (a cookie)
    assert [mine.post(GUEST).status_code for _ in range(3)] == [201, 201, 429]
    assert mine.cookies["cardtable_browser"]["httponly"]
    assert browser().post(GUEST).status_code == 201  # another browser at the same address
    clock.now += 1800
    assert mine.post(GUEST).status_code == 201


def test_a_made_up_browser_cookie_counts_for_nothing(buckets, clock):
    buckets("100/hour", "1/hour")
    forged = browser()
    forged.cookies["cardtable_browser"] = "mine"
    assert [forged.post(GUEST).status_code for _ in range(2)] == [201, 201]
