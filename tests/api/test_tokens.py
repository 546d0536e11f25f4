"""Tokens: stored as hashes only, expiring, refreshed (rotated) on demand, revoked by logout; a
guest account upgraded to a registered one keeps its matches. A refused request changes nothing."""

import hashlib
from datetime import timedelta

import pytest
from django.db import connection
from django.utils import timezone

from accounts import tokens
from accounts.models import AuthToken, User
from tests.conftest import PASSWORD
from tests.matchplay import bots

pytestmark = pytest.mark.django_db

GUEST = "/api/v1/auth/guest/"
REGISTER = "/api/v1/auth/register/"
LOGIN = "/api/v1/auth/login/"
REFRESH = "/api/v1/auth/refresh/"
LOGOUT = "/api/v1/auth/logout/"
UPGRADE = "/api/v1/auth/upgrade/"
ME = "/api/v1/auth/me/"


def call(api_client, method: str, url: str, key: str | None, body=None):
    api_client.credentials(**({"HTTP_AUTHORIZATION": f"Token {key}"} if key else {}))
    return getattr(api_client, method)(url, body, format="json")


def me(api_client, key: str) -> int:
    return call(api_client, "get", ME, key).status_code


def tokens_state() -> list[tuple]:
    return list(AuthToken.objects.order_by("pk").values_list("pk", "digest", "user_id",
                                                             "expires_at"))


def test_only_a_hash_of_each_key_is_stored(api_client):
    key = api_client.post(GUEST).json()["token"]
    assert len(key) >= 43  # 256 random bits
    token = AuthToken.objects.get()
    assert token.digest == hashlib.sha256(key.encode()).hexdigest()
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT * FROM {AuthToken._meta.db_table}")
        stored = [str(value) for row in cursor.fetchall() for value in row]
    assert not any(key in value for value in stored)


def test_the_token_check_is_one_query(api_client, django_assert_num_queries):
    key = api_client.post(GUEST).json()["token"]
    api_client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    with django_assert_num_queries(1):
        assert api_client.get(ME).status_code == 200


def test_a_token_expires_after_its_lifetime(api_client, settings):
    settings.TOKEN_TTL_DAYS = 7
    before = timezone.now()
    body = api_client.post(GUEST).json()
    expires_at = AuthToken.objects.get().expires_at
    assert before + timedelta(days=7) <= expires_at <= timezone.now() + timedelta(days=7)
    assert body["expires_at"].startswith(expires_at.date().isoformat())
    AuthToken.objects.update(expires_at=timezone.now() - timedelta(seconds=1))
    response = call(api_client, "get", ME, body["token"])
    assert response.status_code == 401
    assert response.json()["error"]["code"] == "token_expired"
    assert call(api_client, "post", REFRESH, body["token"]).status_code == 401


def test_refresh_trades_a_token_for_a_new_one(api_client):
    old = api_client.post(GUEST).json()
    AuthToken.objects.update(expires_at=timezone.now() + timedelta(hours=1))
    response = call(api_client, "post", REFRESH, old["token"])
    assert response.status_code == 200
    new = response.json()
    assert new["token"] != old["token"] and new["user"] == old["user"]
    assert AuthToken.objects.get().expires_at > timezone.now() + timedelta(days=29)
    assert me(api_client, new["token"]) == 200
    assert me(api_client, old["token"]) == 401
    assert call(api_client, "post", REFRESH, old["token"]).status_code == 401
    assert AuthToken.objects.count() == 1


def test_a_token_refreshed_twice_at_once_has_one_successor(api_client):
    key = api_client.post(GUEST).json()["token"]
    token = AuthToken.objects.get()
    assert tokens.rotate(token) is not None
    assert tokens.rotate(token) is None
    assert AuthToken.objects.count() == 1 and me(api_client, key) == 401


def test_logout_revokes_the_token_sent_and_no_other(api_client, user):
    first = call(api_client, "post", LOGIN, None, {"username": "ada", "password": PASSWORD})
    second = call(api_client, "post", LOGIN, None, {"username": "ada", "password": PASSWORD})
    first, second = first.json()["token"], second.json()["token"]
    response = call(api_client, "post", LOGOUT, first)
    assert response.status_code == 204 and not response.content
    assert me(api_client, first) == 401
    assert me(api_client, second) == 200
    assert call(api_client, "post", LOGOUT, first).status_code == 401


def test_logout_everywhere_revokes_every_token_of_the_account(api_client, user, token):
    other = api_client.post(GUEST).json()["token"]
    key = call(api_client, "post", LOGIN, None, {"username": "ada", "password": PASSWORD})
    assert call(api_client, "post", LOGOUT, key.json()["token"],
                {"everywhere": True}).status_code == 204
    assert me(api_client, token) == 401
    assert me(api_client, other) == 200


def test_a_refused_logout_revokes_nothing(api_client, token):
    before = tokens_state()
    response = call(api_client, "post", LOGOUT, token, {"everywhere": "yes please"})
    assert response.status_code == 400
    assert tokens_state() == before and me(api_client, token) == 200


def test_logout_and_refresh_need_a_token(api_client):
    for url in (LOGOUT, REFRESH, UPGRADE):
        response = api_client.post(url)
        assert response.status_code == 401
        assert response.json()["error"]["code"] == "not_authenticated"


def test_a_guest_upgraded_keeps_its_account_and_its_matches(api_client):
    guest = api_client.post(GUEST).json()
    created = call(api_client, "post", "/api/v1/matches/", guest["token"],
                   {"ruleset": "gandengyan", "seats": bots(4)})
    assert created.status_code == 201
    response = call(api_client, "post", UPGRADE, guest["token"],
                    {"username": "lin", "password": PASSWORD})
    assert response.status_code == 200
    upgraded = response.json()
    assert upgraded["user"] == {"id": guest["user"]["id"], "username": "lin", "display_name": "",
                                "name": "lin", "is_guest": False}
    assert me(api_client, guest["token"]) == 401  # its tokens are replaced by the new one
    mine = call(api_client, "get", "/api/v1/matches/", upgraded["token"]).json()["results"]
    assert [m["id"] for m in mine] == [created.json()["id"]]
    view = call(api_client, "get", f"/api/v1/matches/{created.json()['id']}/",
                upgraded["token"]).json()
    assert view["seats"][0]["player"] == "lin" and view["you"] == 0
    login = call(api_client, "post", LOGIN, None, {"username": "lin", "password": PASSWORD})
    assert login.status_code == 200 and login.json()["user"]["id"] == guest["user"]["id"]
    assert User.objects.count() == 1


@pytest.mark.parametrize(
    ("body", "field"),
    [({"username": "ada", "password": PASSWORD}, "username"),
     ({"username": "lin", "password": "12345678"}, "password"),
     ({"username": "guest-lin", "password": PASSWORD}, "username"),
     ({"username": "lin"}, "password")],
)
def test_a_refused_upgrade_leaves_the_guest_as_it_was(api_client, user, body, field):
    guest = api_client.post(GUEST).json()
    before = (list(User.objects.order_by("pk").values()), tokens_state())
    response = call(api_client, "post", UPGRADE, guest["token"], body)
    assert response.status_code == 400
    assert field in response.json()["error"]["details"]
    assert (list(User.objects.order_by("pk").values()), tokens_state()) == before
    assert me(api_client, guest["token"]) == 200


def test_a_registered_account_cannot_be_upgraded(api_client, token):
    before = tokens_state()
    response = call(api_client, "post", UPGRADE, token, {"username": "lin", "password": PASSWORD})
    assert response.status_code == 409
    assert response.json()["error"]["code"] == "not_a_guest"
    assert tokens_state() == before


def test_issuing_a_token_clears_the_accounts_expired_ones(user):
    stale = tokens.issue(user).token
    AuthToken.objects.filter(pk=stale.pk).update(expires_at=timezone.now())
    fresh = tokens.issue(user).token
    assert list(AuthToken.objects.values_list("pk", flat=True)) == [fresh.pk]


def test_staff_see_and_revoke_tokens_in_the_admin_but_cannot_make_one(admin_client, user, token,
                                                                      api_client):
    row = AuthToken.objects.get(user=user)
    listing = admin_client.get("/admin/accounts/authtoken/")
    assert listing.status_code == 200 and "ada" in listing.content.decode()
    assert admin_client.get("/admin/accounts/authtoken/add/").status_code == 403
    response = admin_client.post(f"/admin/accounts/authtoken/{row.pk}/delete/", {"post": "yes"})
    assert response.status_code == 302
    assert me(api_client, token) == 401


def test_a_matchs_view_and_act_check_the_token_they_read_with_the_match(api_client):
    """The view and the act read the token in the match's own query: a revoked or expired token
    and a deactivated user are refused there as anywhere, and nothing is played."""
    key = api_client.post(GUEST).json()["token"]
    created = call(api_client, "post", "/api/v1/matches/", key,
                   {"ruleset": "gandengyan", "seats": bots(3)})
    assert created.status_code == 201
    view_url = f"/api/v1/matches/{created.json()['id']}/"
    act = {"expected_version": created.json()["version"], "action": {"type": "pass"}}

    def answers() -> tuple[int, int]:
        return (call(api_client, "get", view_url, key).status_code,
                call(api_client, "post", view_url + "act/", key, act).status_code)

    assert answers()[0] == 200
    AuthToken.objects.update(expires_at=timezone.now() - timedelta(seconds=1))
    assert answers() == (401, 401)
    AuthToken.objects.update(expires_at=timezone.now() + timedelta(days=1))
    User.objects.update(is_active=False)
    assert answers() == (401, 401)
    User.objects.update(is_active=True)
    AuthToken.objects.all().delete()
    assert answers() == (401, 401)
    assert call(api_client, "get", "/api/v1/matches/999999/", key).status_code == 401
