"""Spectators (观战): who may watch a match, what their view and stream hold, the spectator
count, the watch list and staff's exhibition matches."""

from datetime import timedelta

import pytest
from asgiref.sync import sync_to_async
from django.contrib.auth import get_user_model
from django.test import AsyncClient
from django.utils import timezone

from accounts.models import AuthToken
from games import services
from games.api import streams
from games.engine.registry import get_ruleset
from games.models import Match, Spectator, Table
from tests.api.test_streams import Stream
from tests.matchplay import bots, counted_seeds, create, new_player

User = get_user_model()
TWO_PEOPLE = [{"type": "human"}] * 2 + [{"type": "bot", "level": "random"}] * 2


@pytest.fixture(autouse=True)
def seeded(monkeypatch):
    counted_seeds(monkeypatch, "spectators")


def house_table() -> Table:
    return Table.objects.create(name="Gandengyan", slug="gandengyan", ruleset="gandengyan",
                                options=get_ruleset("gandengyan").parse_options({}),
                                bots_after=0)


def watchable_match(client, watchable=True, ruleset="gandengyan", seats=None):
    status, view = client.post("/matches/", {"ruleset": ruleset, "seats": seats or bots(3),
                                             "watchable": watchable})
    assert status == 201, view
    return view


@pytest.mark.django_db
def test_an_invite_match_is_watched_only_when_its_creator_says_so():
    owner, stranger = new_player(), new_player()
    hidden = create(owner, "gandengyan", {}, bots(3))
    assert hidden["watchable"] is False
    assert stranger.get(f"/matches/{hidden['id']}/")[0] == 404
    shown = watchable_match(owner)
    status, view = stranger.get(f"/matches/{shown['id']}/")
    assert status == 200, view
    assert view["you"] is None and view["legal_actions"] == [] and not view["your_turn"]
    assert "hand" not in view["state"]
    assert view["state"]["counts"] == shown["state"]["counts"]


@pytest.mark.django_db
def test_a_spectator_may_not_act_join_by_the_view_or_see_the_invite_code():
    owner, stranger = new_player(), new_player()
    waiting = watchable_match(owner, seats=TWO_PEOPLE)
    assert waiting["status"] == "waiting" and waiting["invite_code"]
    status, view = stranger.get(f"/matches/{waiting['id']}/")
    assert status == 200 and view["invite_code"] is None
    playing = watchable_match(owner)
    status, answer = stranger.post(f"/matches/{playing['id']}/act/",
                                   {"expected_version": playing["version"],
                                    "action": {"type": "pass"}})
    assert status == 404, answer


@pytest.mark.django_db
def test_a_table_says_whether_its_matches_are_watched():
    owner, stranger = new_player(), new_player()
    table = house_table()
    status, view = owner.post("/matches/", {"table": table.slug})
    assert status == 201 and view["watchable"] is True
    assert stranger.get(f"/matches/{view['id']}/")[0] == 200
    table.watchable = False
    table.save()
    status, view = owner.post("/matches/", {"table": table.slug})
    assert view["watchable"] is False
    assert stranger.get(f"/matches/{view['id']}/")[0] == 404
    status, view = owner.post("/matches/", {"table": table.slug, "watchable": True})
    assert view["watchable"] is True


@pytest.mark.django_db
def test_staff_watch_any_match(django_user_model):
    owner = new_player()
    view = create(owner, "gandengyan", {}, bots(3))
    staff = new_player()
    django_user_model.objects.filter(pk=staff.get("/auth/me/")[1]["id"]).update(is_staff=True)
    status, seen = staff.get(f"/matches/{view['id']}/")
    assert status == 200 and seen["you"] is None and "hand" not in seen["state"]


@pytest.mark.django_db
def test_the_watch_list_puts_matches_with_people_first_and_pages_by_keyset():
    owner, friend, viewer = new_player(), new_player(), new_player()
    alone = watchable_match(owner)
    create(owner, "gandengyan", {}, bots(3))  # not watchable: never listed
    two = watchable_match(owner, seats=TWO_PEOPLE)
    assert friend.post("/matches/join/", {"code": two["invite_code"]})[0] == 200
    later = watchable_match(owner)
    status, page = viewer.get("/watch/?limit=2")
    assert status == 200, page
    assert [m["id"] for m in page["results"]] == [two["id"], later["id"]]
    assert [m["people"] for m in page["results"]] == [2, 1]
    after = page["next"]
    status, rest = viewer.get(f"/watch/?limit=2&people={after['people']}"
                              f"&before={after['before']}")
    assert [m["id"] for m in rest["results"]] == [alone["id"]] and rest["next"] is None
    assert viewer.get("/watch/?people=1")[0] == 400
    Match.objects.filter(pk=later["id"]).update(status=Match.Status.FINISHED)
    assert later["id"] not in [m["id"] for m in viewer.get("/watch/")[1]["results"]]


@pytest.mark.django_db(transaction=True)
async def test_a_spectator_stream_shows_the_public_view_and_counts_them(monkeypatch):
    owner, viewer = await sync_to_async(new_player)(), await sync_to_async(new_player)()
    view = await sync_to_async(watchable_match)(owner)
    token = viewer.headers["Authorization"].split()[1]
    response = await AsyncClient().get(f"/api/v1/matches/{view['id']}/stream/",
                                       headers={"Authorization": f"Token {token}"})
    assert response.status_code == 200
    stream = Stream(response)
    try:
        first = (await stream.next())[0]
        assert first["event"] == "view" and first["data"]["you"] is None
        assert "hand" not in first["data"]["state"] and first["data"]["spectators"] == 1
        status, seen = await sync_to_async(owner.get)(f"/matches/{view['id']}/")
        assert seen["spectators"] == 1
    finally:
        await stream.close()


@pytest.mark.django_db(transaction=True)
async def test_a_spectator_is_counted_until_their_stream_ends_or_goes_stale(settings):
    owner, viewer = await sync_to_async(new_player)(), await sync_to_async(new_player)()
    view = await sync_to_async(watchable_match)(owner)
    me = await User.objects.aget(pk=(await sync_to_async(viewer.get)("/auth/me/"))[1]["id"])
    await sync_to_async(services.spectator_seen)(match_id=view["id"], user=me)
    # The server ends a stream's generator when its client goes (Django's ASGI handler cancels
    # it): here it is closed by hand, as the test client does not reach it.
    token = await AuthToken.objects.filter(user=me).afirst()
    messages = streams._match_messages(me, token, view["id"], None, True)
    assert b"event: view" in await anext(messages)
    assert (await sync_to_async(owner.get)(f"/matches/{view['id']}/"))[1]["spectators"] == 1
    await messages.aclose()
    assert (await sync_to_async(owner.get)(f"/matches/{view['id']}/"))[1]["spectators"] == 0
    await sync_to_async(services.spectator_seen)(match_id=view["id"], user=me)
    stale = timezone.now() - timedelta(seconds=4 * settings.STREAM_HEARTBEAT_SECONDS)
    await Spectator.objects.filter(match=view["id"]).aupdate(seen_at=stale)
    assert (await sync_to_async(owner.get)(f"/matches/{view['id']}/"))[1]["spectators"] == 0

@pytest.mark.django_db
def test_staff_start_an_exhibition_that_anyone_may_watch(staff):
    table = house_table()
    players = table.options["players"]
    url = f"/admin/games/table/{table.pk}/exhibition/"
    assert staff.get(url).status_code == 200
    form = {f"seat_{i}": level for i, level in
            zip(range(players), ["random", "normal", "hard", "normal"], strict=False)}
    response = staff.post(url, form)
    assert response.status_code == 302, response.content
    match = Match.objects.latest("pk")
    assert match.watchable and match.table == table
    assert [s.bot_level for s in match.seats.order_by("index")] == list(form.values())
    assert not match.seats.filter(user__isnull=False).exists()
    viewer = new_player()
    status, view = viewer.get(f"/matches/{match.pk}/")
    assert status == 200 and view["status"] in ("active", "finished")


@pytest.mark.django_db
def test_only_staff_with_the_permission_start_an_exhibition(django_user_model, client):
    table = house_table()
    clerk = django_user_model.objects.create_user("clerk", password="pw-for-tests-only",
                                                  is_staff=True)
    client.force_login(clerk)
    assert client.get(f"/admin/games/table/{table.pk}/exhibition/").status_code == 403
