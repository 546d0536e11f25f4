"""The ledger: one entry per (round, seat), each round sums to zero, settling twice changes
nothing, and a match's entries add up to its seats' scores."""

import itertools
import random

import pytest
from django.db import IntegrityError
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rest_framework.test import APIClient

from games import services
from games.models import Match, Round
from scoring.models import ScoreEntry
from scoring.services import UnbalancedRound, round_settle
from tests.matchplay import Client, bots, client_sender, create, play_through, sign_in


@pytest.fixture
def a_round(django_user_model):
    owner = django_user_model.objects.create_user("owner", password="pw-owner-1")
    match = Match.objects.create(ruleset="gandengyan", options={}, owner=owner,
                                 invite_code="LEDGER0001")
    return Round.objects.create(match=match, number=1, seed="s", seed_hash="h")


def result(deltas, **extra):
    return {"deltas": deltas, "breakdown": [{"seat": i, "delta": d, **extra}
                                            for i, d in enumerate(deltas)]}


@pytest.mark.django_db
def test_settling_writes_one_itemised_entry_per_seat(a_round):
    entries = round_settle(round=a_round, result=result([12, -4, -8, 0], bomb_factor=4))
    assert [(e.seat, e.delta) for e in entries] == [(0, 12), (1, -4), (2, -8), (3, 0)]
    assert entries[1].breakdown == {"seat": 1, "delta": -4, "bomb_factor": 4}


@pytest.mark.django_db
def test_settling_twice_changes_nothing(a_round):
    first = round_settle(round=a_round, result=result([3, -3]))
    again = round_settle(round=a_round, result=result([5, -5]))
    assert [(e.pk, e.delta) for e in again] == [(e.pk, e.delta) for e in first]
    assert ScoreEntry.objects.count() == 2


@pytest.mark.django_db
def test_a_round_that_does_not_sum_to_zero_is_refused(a_round):
    with pytest.raises(UnbalancedRound):
        round_settle(round=a_round, result=result([3, -2]))
    assert not ScoreEntry.objects.exists()


@pytest.mark.django_db
def test_one_entry_per_round_and_seat(a_round):
    ScoreEntry.objects.create(round=a_round, seat=0, delta=1)
    with pytest.raises(IntegrityError):
        ScoreEntry.objects.create(round=a_round, seat=0, delta=-1)


@pytest.mark.django_db
def test_an_engine_result_without_breakdown_still_itemises_the_delta(a_round):
    entries = round_settle(round=a_round, result={"deltas": [2, -2]})
    assert [e.breakdown for e in entries] == [{"delta": 2}, {"delta": -2}]


@settings(max_examples=25, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.integers(-500, 500), min_size=1, max_size=5))
@pytest.mark.django_db
def test_any_balanced_round_settles_exactly(a_round, losses):
    a_round.score_entries.all().delete()  # the fixture's round is shared by the examples
    deltas = [-sum(losses), *losses]
    entries = round_settle(round=a_round, result=result(deltas))
    assert [e.delta for e in entries] == deltas and sum(e.delta for e in entries) == 0


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(("ruleset", "options", "bot_count"),
                         [("gandengyan", {"starting_score": 15}, 4), ("510k", {"rounds": 3}, 3)])
def test_a_matchs_ledger_adds_up_to_its_scores(ruleset, options, bot_count, monkeypatch):
    counter = itertools.count()
    monkeypatch.setattr(services.progress, "new_seed", lambda: f"ledger-{ruleset}-{next(counter)}")
    client = Client(client_sender(APIClient()))
    sign_in(client)
    view = play_through(client, create(client, ruleset, options, bots(bot_count)),
                        random.Random(ruleset))
    match = Match.objects.get(pk=view["id"])
    start = match.options.get("starting_score", 0)
    for rnd in match.rounds.all():
        entries = list(rnd.score_entries.all())
        assert len(entries) == bot_count + 1 and sum(e.delta for e in entries) == 0
        assert [e.delta for e in sorted(entries, key=lambda e: e.seat)] == rnd.result["deltas"]
    for seat in match.seats.all():
        ledger = ScoreEntry.objects.filter(round__match=match, seat=seat.index)
        assert seat.score == start + sum(e.delta for e in ledger)
    if ruleset == "510k":
        breakdown = ScoreEntry.objects.filter(round__match=match).first().breakdown
        assert {"settlement", "xi", "captured"} <= set(breakdown)
