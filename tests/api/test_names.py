"""Display names: what a name may be, when two names are the same (case, look-alike characters),
which names are nobody's, and where people read them (seats, match lists). The API sets them at
guest creation and with PATCH /auth/me/; a refused name changes nothing."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from accounts import names
from accounts.models import User
from tests.conftest import PASSWORD
from tests.matchplay import bots

pytestmark = pytest.mark.django_db

GUEST = "/api/v1/auth/guest/"
ME = "/api/v1/auth/me/"
REGISTER = "/api/v1/auth/register/"


def signed_in(api_client, body=None) -> dict:
    response = api_client.post(GUEST, body)
    assert response.status_code == 201, response.json()
    data = response.json()
    api_client.credentials(HTTP_AUTHORIZATION=f"Token {data['token']}")
    return data


def error(response) -> tuple[int, str, dict]:
    body = response.json()["error"]
    return response.status_code, body["code"], body["details"]


# -- what a name may be ---------------------------------------------------------------------------


@pytest.mark.parametrize(("asked", "kept"), [
    ("  Lin   Wei ", "Lin Wei"), ("Ｌｉｎ", "Lin"), ("王小明", "王小明"), ("李·明", "李·明"),
    ("O'Brien-2", "O'Brien-2"), ("José", "José"), ("Ⓛⓘⓝ", "Lin"),
])
def test_a_name_is_trimmed_and_normalised(asked, kept):
    assert names.display_name(asked) == kept


@pytest.mark.parametrize("asked", [
    "x", "y" * 25, "Lin\x00", "Lin\nWei", "Li\u200bn", "Li\u202en", "Lin\tWei", "12", "__",
    "Lin!", "<b>Lin</b>", "Lin\ue000", None, 7,
])
def test_names_of_the_wrong_length_or_characters_are_invalid(asked):
    with pytest.raises(names.NameRefused) as refused:
        names.display_name(asked)
    assert refused.value.code == "invalid_name"


@pytest.mark.parametrize("asked", [
    "admin", "Admin Lin", "ADMINISTRATOR", "аdmin", "Staff", "Bot 3", "bot_2", "机器人2",
    "管理员", "Moderator7", "guest-3f2a9b1c0d4e", "You", "Open seat",
])
def test_names_of_the_service_its_staff_and_bots_are_reserved(asked):
    with pytest.raises(names.NameRefused) as refused:
        names.display_name(asked)
    assert refused.value.code == "reserved_name"


@pytest.mark.parametrize(("one", "other"), [
    ("Lin", "lin"), ("Lin", "LIN"), ("Lin", "1in"), ("Lin", "Iin"), ("Lin Wei", "lin_wei"),
    ("Bob", "B0B"), ("paypal", "рауpal"), ("Lin", "Ｌｉｎ"), ("straße", "STRASSE"),
])
def test_names_that_read_the_same_have_one_key(one, other):
    assert names.key(one) == names.key(other)


@pytest.mark.parametrize(("one", "other"), [
    ("Lin", "Lan"), ("Tom", "Rom"), ("Botan", "Bot"), ("王小明", "王小月"),
])
def test_names_that_read_apart_have_their_own_keys(one, other):
    assert names.key(one) != names.key(other)


NAMEISH = st.text(st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=30)


@given(NAMEISH)
def test_a_name_kept_is_kept_as_it_is_and_holds_no_invisible_character(asked):
    try:
        kept = names.display_name(asked)
    except names.NameRefused:
        return
    assert names.display_name(kept) == kept
    assert names.MIN_LENGTH <= len(kept) <= names.MAX_LENGTH
    assert not any(c.isspace() and c != " " for c in kept) and "\x00" not in kept


@given(NAMEISH)
def test_a_key_does_not_depend_on_case(name):
    assert names.key(name) == names.key(name.casefold())


# -- through the API ------------------------------------------------------------------------------


def test_a_guest_named_at_creation_is_read_by_that_name_everywhere(api_client):
    data = signed_in(api_client, {"display_name": " Lin  Wei "})
    assert data["user"]["display_name"] == data["user"]["name"] == "Lin Wei"
    assert data["user"]["username"].startswith("guest-")
    view = api_client.post("/api/v1/matches/", {"ruleset": "gandengyan", "seats": bots(4)}).json()
    assert view["seats"][0]["player"] == "Lin Wei"
    listed = api_client.get("/api/v1/matches/").json()["results"][0]
    assert listed["seats"][0]["player"] == "Lin Wei"
    assert api_client.get(ME).json()["name"] == "Lin Wei"


def test_a_guest_without_a_name_is_read_by_its_username_until_it_sets_one(api_client):
    data = signed_in(api_client)
    assert data["user"]["display_name"] == "" and data["user"]["name"] == data["user"]["username"]
    response = api_client.patch(ME, {"display_name": "Ada"})
    assert response.status_code == 200
    assert response.json() | {"id": 0} == {"id": 0, "username": data["user"]["username"],
                                           "display_name": "Ada", "name": "Ada", "is_guest": True}
    assert api_client.patch(ME, {"display_name": "Ada Lovelace"}).json()["name"] == "Ada Lovelace"


def test_a_name_that_reads_as_another_accounts_is_taken(api_client, user):
    signed_in(api_client, {"display_name": "Lin"})
    other = api_client.__class__()
    assert error(other.post(GUEST, {"display_name": "LIN"}))[:2] == (409, "name_taken")
    signed_in(other, {"display_name": "Zhou"})
    for taken in ("lin", "1in", "ADA", "аda"):  # Lin's display name; user's username, ada
        assert error(other.patch(ME, {"display_name": taken})) == (
            409, "name_taken", {"field": "display_name"})
    assert other.get(ME).json()["display_name"] == "Zhou"
    assert User.objects.filter(display_name__iexact="lin").count() == 1


def test_an_account_may_take_a_name_that_reads_as_its_own_username(api_client, auth_client):
    assert auth_client.patch(ME, {"display_name": "Ada"}).json()["name"] == "Ada"


@pytest.mark.parametrize(("asked", "code"), [("Bot 2", "reserved_name"), ("x", "invalid_name"),
                                             ("Lin\x07", "invalid_name")])
def test_a_refused_name_changes_nothing(api_client, asked, code):
    signed_in(api_client, {"display_name": "Zhou"})
    assert error(api_client.patch(ME, {"display_name": asked})) == (400, code,
                                                                    {"field": "display_name"})
    assert error(api_client.post(GUEST, {"display_name": asked}))[:2] == (400, code)
    assert api_client.get(ME).json()["display_name"] == "Zhou"
    assert User.objects.count() == 1


def test_a_username_that_reads_as_another_accounts_name_is_refused_at_sign_up(api_client):
    signed_in(api_client, {"display_name": "Lin Wei"})
    api_client.credentials()
    for username in ("linwei", "LinWei", "admin"):
        response = api_client.post(REGISTER, {"username": username, "password": PASSWORD})
        status, code, details = error(response)
        assert (status, code, list(details)) == (400, "invalid_input", ["username"])
    assert api_client.post(REGISTER, {"username": "lin", "password": PASSWORD}).status_code == 201


def test_a_guest_upgrades_to_a_username_that_reads_as_its_own_name(api_client):
    data = signed_in(api_client, {"display_name": "Lin"})
    response = api_client.post("/api/v1/auth/upgrade/", {"username": "lin",
                                                         "password": PASSWORD})
    assert response.status_code == 200
    assert response.json()["user"] | {"id": 0} == {"id": 0, "username": "lin",
                                                   "display_name": "Lin", "name": "Lin",
                                                   "is_guest": False}
    assert response.json()["user"]["id"] == data["user"]["id"]
