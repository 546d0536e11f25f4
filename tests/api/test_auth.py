"""Token sign-up (guest and registered), login and /me."""

import pytest
from rest_framework.throttling import ScopedRateThrottle

from tests.conftest import PASSWORD

pytestmark = pytest.mark.django_db

GUEST = "/api/v1/auth/guest/"
REGISTER = "/api/v1/auth/register/"
LOGIN = "/api/v1/auth/login/"
ME = "/api/v1/auth/me/"


def me_with(api_client, token):
    api_client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    return api_client.get(ME)


def test_a_guest_token_works_on_an_authenticated_endpoint(api_client):
    response = api_client.post(GUEST)
    assert response.status_code == 201
    body = response.json()
    assert body["user"]["is_guest"] is True
    assert body["user"]["username"].startswith("guest-")
    me = me_with(api_client, body["token"])
    assert me.status_code == 200
    assert me.json() == body["user"]


def test_each_guest_is_a_new_account_without_a_password(api_client, django_user_model):
    first = api_client.post(GUEST).json()
    second = api_client.post(GUEST).json()
    assert first["user"]["id"] != second["user"]["id"]
    assert first["token"] != second["token"]
    guest = django_user_model.objects.get(pk=first["user"]["id"])
    assert not guest.has_usable_password()


def test_a_stale_token_does_not_stop_a_client_from_starting_over(api_client):
    api_client.credentials(HTTP_AUTHORIZATION="Token not-a-real-token")
    assert api_client.post(GUEST).status_code == 201


def test_register_then_login_returns_a_new_token_each_time(api_client):
    registered = api_client.post(REGISTER, {"username": "lin", "password": PASSWORD})
    assert registered.status_code == 201
    assert registered.json()["user"] == {
        "id": registered.json()["user"]["id"], "username": "lin", "display_name": "",
        "name": "lin", "is_guest": False,
    }
    logins = [api_client.post(LOGIN, {"username": "lin", "password": PASSWORD})
              for _ in range(2)]
    assert [login.status_code for login in logins] == [200, 200]
    keys = [registered.json()["token"]] + [login.json()["token"] for login in logins]
    assert len(set(keys)) == 3
    # One token per signed-in client: signing in on another does not sign the first out.
    assert [me_with(api_client, key).json()["username"] for key in keys] == ["lin"] * 3


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"username": "lin"}, "password"),
        ({"password": PASSWORD}, "username"),
        ({"username": "lin", "password": "12345678"}, "password"),
        ({"username": "lin", "password": "short"}, "password"),
        ({"username": "ada", "password": PASSWORD}, "username"),
        ({"username": "Guest-7", "password": PASSWORD}, "username"),
        ({"username": "no spaces", "password": PASSWORD}, "username"),
        ({"username": "x" * 151, "password": PASSWORD}, "username"),
        (["lin", PASSWORD], "non_field_errors"),
    ],
)
def test_register_refusals_name_the_field(api_client, user, body, field):
    response = api_client.post(REGISTER, body, format="json")
    assert response.status_code == 400
    error = response.json()["error"]
    assert error["code"] == "invalid_input"
    assert field in error["details"]


@pytest.mark.parametrize(
    "body",
    [
        {"username": "ada", "password": "wrong password"},
        {"username": "nobody", "password": PASSWORD},
    ],
)
def test_wrong_credentials_are_401(api_client, user, body):
    response = api_client.post(LOGIN, body)
    assert response.status_code == 401
    assert response.json()["error"]["code"] == "authentication_failed"
    assert response["WWW-Authenticate"] == "Token"


def test_an_inactive_account_cannot_log_in(api_client, user):
    user.is_active = False
    user.save()
    assert api_client.post(LOGIN, {"username": "ada", "password": PASSWORD}).status_code == 401


def test_login_needs_both_fields(api_client):
    response = api_client.post(LOGIN, {"username": "ada"})
    assert response.status_code == 400
    assert "password" in response.json()["error"]["details"]


@pytest.mark.parametrize(
    ("header", "code"),
    [(None, "not_authenticated"), ("Token 0000", "authentication_failed")],
)
def test_me_needs_a_valid_token(api_client, header, code):
    if header:
        api_client.credentials(HTTP_AUTHORIZATION=header)
    response = api_client.get(ME)
    assert response.status_code == 401
    assert response.json()["error"]["code"] == code


def test_me_with_the_fixture_token(auth_client, user):
    assert auth_client.get(ME).json() == {"id": user.id, "username": "ada", "display_name": "",
                                          "name": "ada", "is_guest": False}


@pytest.mark.parametrize(
    ("url", "scope", "body"),
    [
        (REGISTER, "signup", {"username": "x"}),
        (LOGIN, "login", {"username": "ada", "password": "wrong password"}),
    ],
)
def test_sign_in_endpoints_are_throttled_per_client(api_client, monkeypatch, url, scope, body):
    monkeypatch.setattr(ScopedRateThrottle, "THROTTLE_RATES", {scope: "2/hour"})
    for _ in range(2):
        assert api_client.post(url, body).status_code != 429
    response = api_client.post(url, body)
    assert response.status_code == 429
    assert response.json()["error"]["code"] == "throttled"
    assert response.json()["error"]["details"]["wait_seconds"] > 0
    assert int(response["Retry-After"]) > 0
