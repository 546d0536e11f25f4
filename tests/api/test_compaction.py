"""Compaction: a finished match's moves and events leave their tables for one compressed archive
row per round, and every read of them (the match's view and events, its stream's resume, the
rounds endpoints, replay, export, verify_matches) answers exactly as before; restore puts the
rows back."""

import json
import random
from datetime import timedelta

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.utils import timezone

from games import selectors
from games.engine.registry import get_ruleset
from games.models import Event, Match, Move, RoundArchive
from games.services import compaction
from games.tasks import compact_matches
from tests.matchplay import Client, bots, counted_seeds, create, new_player, play_through

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def seeded(monkeypatch):
    counted_seeds(monkeypatch, "compact-seed")


@pytest.fixture
def player() -> Client:
    return new_player()


@pytest.fixture
def finished(player) -> int:
    """A gandengyan match of several rounds, played to its end."""
    view = play_through(player, create(player, "gandengyan", {"starting_score": 4}, bots(3)),
                        random.Random(3))
    assert view["status"] == "finished"
    return view["id"]


def reads(player, staff, match_id: int) -> dict:
    """Everything that shows a match's moves and events."""
    match = Match.objects.get(pk=match_id)
    return {
        "view": player.get(f"/matches/{match_id}/")[1],
        "events": player.get(f"/matches/{match_id}/events/?since=0&limit=500")[1],
        "events_since": player.get(f"/matches/{match_id}/events/?since=7&limit=5")[1],
        "rounds": player.get(f"/matches/{match_id}/rounds/")[1],
        "round": player.get(f"/matches/{match_id}/rounds/1/")[1],
        "export": json.loads(staff.get(f"/admin/games/match/{match_id}/export/").content),
        "replay": json.dumps(get_ruleset(match.ruleset).to_json(selectors.match_replay(match))),
        "admin_replay": staff.get(f"/admin/games/match/{match_id}/replay/", {"move": 5}
                                  ).context["shown"],
    }


def test_a_compacted_match_reads_as_before(player, staff, finished):
    before = reads(player, staff, finished)
    moves, events = (Move.objects.filter(match_id=finished).count(),
                     Event.objects.filter(match_id=finished).count())
    assert compaction.match_compact(finished)
    assert not Move.objects.filter(match_id=finished).exists()
    assert not Event.objects.filter(match_id=finished).exists()
    archives = RoundArchive.objects.filter(match_id=finished)
    rounds = Match.objects.get(pk=finished).round_number
    assert archives.count() == rounds + 1  # round 0: the events before the first deal
    assert sum(a.moves for a in archives) == moves and sum(a.events for a in archives) == events
    after = reads(player, staff, finished)
    assert after.pop("view") | {"server_time": None} == before.pop("view") | {"server_time": None}
    assert after == before
    call_command("verify_matches", str(finished))


def test_compacting_twice_or_a_match_in_play_does_nothing(player, finished):
    running = play_through(player, create(player, "510k", {"rounds": 2}, bots(3)),
                           random.Random(4), acts=3)
    assert compaction.match_compact(finished)
    assert not compaction.match_compact(finished)
    assert not compaction.match_compact(running["id"])
    assert Move.objects.filter(match_id=running["id"]).exists()


def test_only_matches_over_for_long_enough_are_compacted(finished, settings):
    settings.COMPACT_AFTER_DAYS = 7
    assert compact_matches() == 0
    Match.objects.filter(pk=finished).update(updated_at=timezone.now() - timedelta(days=8))
    assert compact_matches() == 1
    assert Match.objects.get(pk=finished).compacted_at is not None
    assert compact_matches() == 0


def test_restore_puts_the_rows_back_as_they_were(finished):
    def rows():
        return (list(Move.objects.filter(match_id=finished).order_by("id").values(
                    "round_id", "seq", "seat", "action", "actor", "reason", "version",
                    "idempotency_key", "created_at")),
                list(Event.objects.filter(match_id=finished).order_by("seq").values(
                    "seq", "round_number", "version", "data", "created_at")))

    before = rows()
    call_command("compact_matches", "--days", "0")
    assert Match.objects.get(pk=finished).compacted_at is not None
    call_command("compact_matches", "--restore", str(finished))
    assert rows() == before
    assert not RoundArchive.objects.filter(match_id=finished).exists()
    assert Match.objects.get(pk=finished).compacted_at is None
    with pytest.raises(CommandError, match="not compacted"):
        call_command("compact_matches", "--restore", str(finished))


def test_the_archive_keeps_every_column_of_a_move_and_an_event():
    from games import archive

    def kept(model, given):
        return {f.attname for f in model._meta.concrete_fields} - {"id", *given}

    assert kept(Move, ("match_id", "round_id")) == set(archive.MOVE_FIELDS)
    assert kept(Event, ("match_id",)) == set(archive.EVENT_FIELDS)
