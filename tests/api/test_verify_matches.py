"""`manage.py verify_matches` finds a whole match whole, and each kind of damage."""

import io
import random

import pytest
from django.core.management import CommandError, call_command

from games.models import Event, Match, Move
from tests.matchplay import bots, choose, counted_seeds, create, new_player

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def played(monkeypatch) -> int:
    counted_seeds(monkeypatch, "verify")
    player = new_player()
    view = create(player, "gandengyan", {"starting_score": 30}, bots(3))
    rng = random.Random(4)
    for _ in range(12):
        if view["status"] != "active":
            break
        view = player.post(f"/matches/{view['id']}/act/",
                           {"expected_version": view["version"],
                            "action": choose(view, rng)})[1]
    return view["id"]


def verify(*ids) -> str:
    out = io.StringIO()
    call_command("verify_matches", *map(str, ids), stdout=out)
    return out.getvalue()


def test_a_whole_match_is_whole(played):
    assert verify(played) == "1 matches whole\n"


@pytest.mark.parametrize("damage", ["snapshot", "event", "move"])
def test_each_kind_of_damage_is_named(played, damage):
    match = Match.objects.get(pk=played)
    if damage == "snapshot":
        match.snapshot = {**match.snapshot, "scores": [1, 2, 3, 4]}
        match.save(update_fields=["snapshot"])
    elif damage == "event":
        Event.objects.filter(match=match, seq=2).delete()
    else:
        first = Move.objects.filter(match=match, actor="bot").first()
        Move.objects.filter(pk=first.pk).update(version=first.version + 1)
    with pytest.raises(CommandError):
        verify(played)
