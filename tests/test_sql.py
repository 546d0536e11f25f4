"""games.sql against the ORM: each written-out statement reads or writes exactly what the ORM's
equivalent does. The unit suite runs these on SQLite, tests/integration/test_sql.py on
PostgreSQL."""

import random
from datetime import timedelta

import pytest
from django.db import transaction
from django.db.models.signals import post_init
from django.forms.models import model_to_dict
from django.utils import timezone

from accounts import tokens
from accounts.models import AuthToken
from games import hooks, services, sql
from games.engine.actions import action_from_dict
from games.engine.registry import get_ruleset
from games.models import Event, Match, Move, Seat, Spectator
from games.sql import EventRow, SeatInfo
from tests.matchplay import bots

pytestmark = pytest.mark.django_db(transaction=True)


def fields(obj, exclude=()) -> dict:
    return {f.attname: getattr(obj, f.attname) for f in obj._meta.concrete_fields
            if f.attname not in exclude}


@pytest.fixture
def match(django_user_model, monkeypatch) -> Match:
    """A gandengyan match a few moves in: rounds, events and seats with and without users (one
    with a display name). The test plays the bots' turns itself (none is announced to a
    worker)."""
    monkeypatch.setattr(hooks, "announce_server_turn", lambda *turn, **_: None)
    owner = django_user_model.objects.create_user("owner")
    seats = [{"type": "human"}, {"type": "human"}] + bots(2)[1:]
    match = services.match_create(owner=owner, ruleset="gandengyan", options={}, seats=seats)
    services.match_join(user=django_user_model.objects.create_user("guest", display_name="Lin"),
                        code=match.invite_code)
    rng = random.Random(1)
    for _ in range(6):
        match.refresh_from_db()
        if match.to_act is None:
            break
        engine = get_ruleset(match.ruleset)
        state = engine.from_json(match.snapshot)
        action = rng.choice(engine.legal_actions(state, match.to_act))
        services.action_submit(match_id=match.pk, seat=match.to_act, action=action,
                               expected_version=match.version, actor=Move.Actor.BOT)
    match.refresh_from_db()
    return match


@pytest.mark.parametrize("lock", [False, True])
def test_the_match_row_is_what_the_orm_reads(match, lock):
    with transaction.atomic():
        row = sql.match_row(match.pk, lock=lock)
    orm = Match.objects.get(pk=match.pk)
    assert fields(row.match, ("created_at", "updated_at")) == fields(orm, ("created_at",
                                                                        "updated_at"))
    assert (row.round_number, row.seed_hash) == (orm.current_round.number,
                                                 orm.current_round.seed_hash)
    seats = Seat.objects.filter(match=orm).select_related("user").order_by("index")
    assert row.seats == [SeatInfo.of(s) for s in seats]
    assert [s.name for s in row.seats[:2]] == ["owner", "Lin"]  # a display name, else username
    assert any(s.user_id is None for s in row.seats)
    assert row.events is None
    assert (row.match._state.adding, row.match._state.db) == (False, "default")
    assert row.match.created_at == orm.created_at  # deferred: loads on first use


def test_a_model_with_init_receivers_is_built_by_its_init(match):
    seen = []

    def receiver(sender, instance, **kwargs):
        seen.append(instance)

    post_init.connect(receiver, sender=Match)
    try:
        row = sql.match_row(match.pk)
    finally:
        post_init.disconnect(receiver, sender=Match)
    assert seen == [row.match]
    assert fields(row.match, ("created_at", "updated_at")) == fields(
        sql.match_row(match.pk).match, ("created_at", "updated_at"))


@pytest.mark.parametrize(("after", "recent", "limit"),
                         [(None, 3, 50), (0, 0, 500), (2, 0, 4), (None, 1000, 500), (10**6, 0, 5)])
def test_the_events_read_with_the_match_are_what_the_orm_reads(match, after, recent, limit):
    row = sql.match_row(match.pk, events_after=after, recent=recent, limit=limit)
    since = match.last_event_seq - recent if after is None else after
    orm = Event.objects.filter(match=match, seq__gt=since).order_by("seq")[:limit]
    assert row.events == [EventRow(e.seq, e.round_number, e.version, e.data) for e in orm]


@pytest.mark.parametrize("events", [0, 50])
def test_the_spectators_counted_with_the_match_are_what_the_orm_counts(match, django_user_model,
                                                                      events):
    now = timezone.now()
    for i, seconds in enumerate((0, 10, 100)):
        Spectator.objects.create(match=match, seen_at=now - timedelta(seconds=seconds),
                                 user=django_user_model.objects.create_user(f"watcher{i}"))
    since = now - timedelta(seconds=30)
    row = sql.match_row(match.pk, spectators_since=since, events_after=None, recent=5,
                        limit=events)
    assert row.spectators == Spectator.objects.filter(match=match, seen_at__gte=since).count()
    assert row.spectators == 2
    assert (row.events is None) == (events == 0)
    assert sql.match_row(match.pk).spectators is None


def test_no_such_match_reads_as_none():
    assert sql.match_row(10**9) is None


def test_the_token_check_reads_the_token_and_user_the_orm_reads(match):
    issued = tokens.issue(match.owner)
    digest = tokens.digest(issued.key)
    token = sql.token_user(AuthToken, digest, ("id", "username", "is_active", "is_staff"))
    orm = AuthToken.objects.select_related("user").get(digest=digest)
    assert fields(token, ("digest", "created_at")) == {
        "id": orm.id, "user_id": orm.user_id, "expires_at": orm.expires_at}
    assert fields(token.user, ("password", "last_login", "date_joined", "first_name",
                               "last_name", "email", "is_superuser", "is_guest", "display_name",
                               "username_key", "name_key")) == {
        "id": orm.user.id, "username": orm.user.username, "is_active": orm.user.is_active,
        "is_staff": orm.user.is_staff}
    assert token.user.email == orm.user.email  # a field not read loads on first use
    assert token.created_at == orm.created_at
    assert sql.token_user(AuthToken, tokens.digest("no such key"), ("id",)) is None


def test_a_match_read_with_its_reader_holds_the_token_token_user_reads(match):
    digest = tokens.digest(tokens.issue(match.owner).key)
    fields_read = ("id", "username", "is_active")
    reader = sql.Reader(AuthToken, digest, fields_read)
    alone = sql.token_user(AuthToken, digest, fields_read)
    for events in (0, 5):
        row = sql.match_row(match.pk, recent=5, limit=events, reader=reader,
                            spectators_since=timezone.now())
        assert row._replace(token=None) == sql.match_row(match.pk, recent=5, limit=events,
                                                         spectators_since=timezone.now())
        assert (fields(row.token, ()), fields(row.token.user, ())) == (
            fields(alone, ()), fields(alone.user, ()))
    stranger = sql.Reader(AuthToken, tokens.digest("no such key"), fields_read)
    assert sql.match_row(match.pk, reader=stranger).token is None
    assert sql.match_row(10**9, reader=reader) is None


def copy_of(match: Match) -> Match:
    """Another match in the same state, with a round of its own."""
    copy = Match.objects.get(pk=match.pk)
    copy.pk, copy.invite_code = None, "COPY"
    copy.save()
    rnd = copy.current_round
    rnd.pk, rnd.match = None, copy
    rnd.save()
    copy.current_round = rnd
    copy.save()
    return copy


def progress(target: Match) -> tuple[list[dict], list[dict]]:
    """One act's changes to `target` (in place) and its new Move and Event rows."""
    target.version += 1
    target.last_event_seq += 1
    target.round_moves += 1
    target.to_act = (target.to_act or 0) + 1
    target.snapshot = {**target.snapshot, "marker": "written"}
    moves = [{"match_id": target.pk, "round_id": target.current_round_id,
              "seq": target.round_moves, "seat": 0,
              "action": action_from_dict({"type": "pass"}).to_dict(), "actor": "auto",
              "reason": "timeout", "idempotency_key": "", "version": target.version}]
    events = [{"match_id": target.pk, "seq": target.last_event_seq - 1 + i, "round_number": 1,
               "version": target.version, "data": {"type": "pass", "seat": i, "x": [1, "二"]}}
              for i in (1, 2)]
    target.last_event_seq += 1
    return moves, events


def stored(target: Match, moves: int, events: int) -> tuple:
    target.refresh_from_db()
    return (
        model_to_dict(target, exclude=["id", "invite_code", "updated_at", "current_round"]),
        [model_to_dict(m, exclude=["id", "match", "round"]) for m in
         Move.objects.filter(match=target).order_by("-round_id", "-seq")[:moves]],
        [model_to_dict(e, exclude=["id", "match"]) for e in
         Event.objects.filter(match=target).order_by("-seq")[:events]],
    )


@pytest.mark.parametrize("compare_and_set", [False, True])
def test_the_act_writes_are_what_the_orm_writes(match, compare_and_set):
    """The same progress written once by games.sql and once by the ORM, on two copies of the
    match: the rows are the same but for ids and times."""
    copy = copy_of(match)
    written = {}
    for target, by_sql in ((match, True), (copy, False)):
        expected = target.version
        moves, events = progress(target)
        with transaction.atomic():
            if not by_sql:
                Move.objects.bulk_create(Move(**row) for row in moves)
                Event.objects.bulk_create(Event(**row) for row in events)
                target.save(update_fields=services.PROGRESS_FIELDS)
            elif compare_and_set:
                assert sql.write_if_version(target, services.PROGRESS_FIELDS, "version",
                                            expected, (Move, moves), (Event, events))
            else:
                sql.write(target, services.PROGRESS_FIELDS, (Move, moves), (Event, events))
        written[by_sql] = stored(target, len(moves), len(events))
    assert written[True] == written[False]
    assert written[True][2][0]["data"]["x"] == [1, "二"]
    created = Event.objects.filter(match=match).order_by("-seq").first().created_at
    assert abs((created - timezone.now()).total_seconds()) < 60


def test_a_compare_and_set_on_a_stale_version_writes_nothing(match):
    before = stored(Match.objects.get(pk=match.pk), 3, 3)
    stale = match.version - 1
    moves, events = progress(match)
    assert not sql.write_if_version(match, services.PROGRESS_FIELDS, "version", stale,
                                    (Move, moves), (Event, events))
    assert stored(Match.objects.get(pk=match.pk), 3, 3) == before


def test_rows_changed_with_the_write_are_what_the_orm_writes(match):
    """Rows of other tables updated by primary key in the match's one write (a match's end
    updates its players' ratings): the same values as the ORM's update, times the write's."""
    from ratings.models import Rating

    made = Rating.objects.bulk_create(
        Rating(ruleset="gandengyan", bot_level=level, mu=25, sigma=8, ordinal=1)
        for level in ("random", "hard", "normal"))
    by_sql, by_orm, untouched = made
    names = ("mu", "sigma", "ordinal", "matches", "updated_at")
    new = {"mu": 26.5, "sigma": 7.25, "ordinal": 4.75, "matches": 3}
    before = Rating.objects.get(pk=untouched.pk).updated_at
    match.version += 1
    sql.write(match, services.PROGRESS_FIELDS,
              changed=[(Rating, names, [{"id": by_sql.pk, **new}])])
    Rating.objects.filter(pk=by_orm.pk).update(**new, updated_at=timezone.now())
    got = {r.pk: r for r in Rating.objects.all()}
    assert fields(got[by_sql.pk], ["id", "bot_level", "updated_at"]) == fields(
        got[by_orm.pk], ["id", "bot_level", "updated_at"])
    assert abs((got[by_sql.pk].updated_at - timezone.now()).total_seconds()) < 60
    assert got[untouched.pk].mu == 25 and got[untouched.pk].updated_at == before
    assert Match.objects.get(pk=match.pk).version == match.version
