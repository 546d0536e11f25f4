"""Every event a client reads, whoever caused it (a person, a bot, the server, a quick match's
wait, staff), is one that games.events allows for its match's ruleset: a type or a field it does
not name fails. The hidden-information scan checks the events of whole matches the same way."""

import random
from datetime import timedelta

import pytest
from django.utils import timezone

from games import events, presenters, services
from games.engine.registry import get_ruleset
from games.engine.specs import parse
from games.models import Event, Match, Table
from tests.matchplay import counted_seeds, create, new_player, played_out

pytestmark = pytest.mark.django_db(transaction=True)
OPTIONS = {"players": 3, "rounds": 1}


def events_read(match_id: int) -> set[str]:
    """The match's events as clients read them, each checked against the spec; their types."""
    spec = events.spec(get_ruleset(Match.objects.get(pk=match_id).ruleset))
    read = presenters.event_dicts(Event.objects.filter(match_id=match_id).order_by("seq"))
    for event in read:
        parse(spec, event, "bad_event")
    return {event["type"] for event in read}


def quick_match_left_and_filled() -> int:
    """People wait at a table, one leaves, the wait ends and bots take the open seats."""
    Table.objects.create(name="quick", slug="quick", ruleset="highcard", bots_after=30,
                         options=get_ruleset("highcard").parse_options(OPTIONS))
    first, second = new_player(), new_player()
    match_id = first.post("/tables/quick/play/")[1]["id"]
    second.post("/tables/quick/play/")
    second.post(f"/matches/{match_id}/leave/")
    past = timezone.now() - timedelta(seconds=1)
    Match.objects.filter(pk=match_id).update(bots_fill_at=past, due_at=past)
    assert first.get(f"/matches/{match_id}/")[1]["status"] == "active"
    return match_id


def two_people_played_out() -> int:
    """Two people join by invite code; one hands the seat to the server and takes it back; once
    it is over one asks for a rematch, which the other declines."""
    first, second = new_player(), new_player()
    view = create(first, "highcard", OPTIONS, [{"type": "human"}] * 2 + [{"type": "bot"}])
    second.post("/matches/join/", {"code": view["invite_code"]})
    second.post(f"/matches/{view['id']}/autoplay/", {"on": True})
    second.post(f"/matches/{view['id']}/autoplay/", {"on": False})
    played_out([first, second], view["id"], random.Random(1))
    assert first.post(f"/matches/{view['id']}/rematch/")[0] == 201
    assert second.post(f"/matches/{view['id']}/rematch/decline/")[0] == 200
    return view["id"]


def aborted() -> int:
    view = create(new_player(), "highcard", OPTIONS, [{"type": "human"}, {"type": "bot"},
                                                     {"type": "bot"}])
    services.match_abort(match_id=view["id"], reason="stuck, by staff")
    return view["id"]


def paused_resumed_abandoned() -> int:
    """A person alone with bots lets their clock run out (the match pauses), comes back, is away
    again, and nobody comes back in time (the server abandons it)."""
    person = new_player()
    view = create(person, "highcard", {**OPTIONS, "rounds": 3, "turn_seconds": 10},
                  [{"type": "human"}, {"type": "bot"}, {"type": "bot"}])

    def away():
        while True:
            view = person.get(f"/matches/{view_id}/")[1]
            if view["status"] != "active":
                return view["status"]
            if view["your_turn"]:  # the clock runs out
                past = timezone.now() - timedelta(seconds=1)
                Match.objects.filter(pk=view_id).update(deadline_at=past, due_at=past)

    view_id = view["id"]
    assert away() == "paused"
    person.post(f"/matches/{view_id}/autoplay/", {"on": False})
    assert away() == "paused"
    Match.objects.filter(pk=view_id).update(due_at=timezone.now())
    assert person.get(f"/matches/{view_id}/")[1]["status"] == "aborted"
    return view_id


def test_every_event_of_every_kind_of_match_is_in_its_spec(monkeypatch):
    counted_seeds(monkeypatch, "events")
    seen = set()
    for match_id in (quick_match_left_and_filled(), two_people_played_out(), aborted(),
                     paused_resumed_abandoned()):
        seen |= events_read(match_id)
    assert seen >= set(events.SERVICE.variants) | set(get_ruleset("highcard").info.events
                                                        .variants)
