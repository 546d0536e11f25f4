"""The project's hand-written SQL, all of it: the match read (locked for an act), the act's writes
and the token check. These run on every request of a match, where compiling the ORM's queries
cost more than the request's own work (bench/api.py). Every table and column name comes from the
models' metadata, quoted with the connection's `quote_name`; values are always parameters; values
read are converted by the fields' own converters. PostgreSQL and SQLite are supported;
tests/test_sql.py compares each statement's effect with the ORM's on both.
"""

import functools
import json
from collections.abc import Sequence
from typing import NamedTuple

from django.db import DatabaseError, connections, router, transaction
from django.db.models import DateTimeField, JSONField, Model

from games.models import Event, Match, Round, Seat

# One JSON array of arrays from a subquery's rows, per database.
JSON_ROWS = {
    "postgresql": "(SELECT json_agg(json_build_array({columns}){order})::text FROM {source})",
    "sqlite": "(SELECT json_group_array(json_array({columns})) FROM {source})",
}
# A JSON column's value embedded in such an array as JSON, not as a string.
EMBED_JSON = {"postgresql": "{}", "sqlite": "json({})"}


class SeatInfo(NamedTuple):
    """A seat as the read paths show it: plain values, read with the match."""

    index: int
    kind: str
    bot_level: str
    user_id: int | None
    username: str | None
    score: int
    eliminated: bool

    @classmethod
    def of(cls, seat: Model) -> "SeatInfo":
        """From a Seat row with its user."""
        return cls(seat.index, seat.kind, seat.bot_level, seat.user_id,
                   seat.user.username if seat.user_id else None, seat.score, seat.eliminated)


class EventRow(NamedTuple):
    seq: int
    round_number: int
    version: int
    data: dict


class MatchRow(NamedTuple):
    """The match row (created_at and updated_at deferred), its current round's number and seed
    hash, its seats and, when asked for, the events after a point."""

    match: Model
    round_number: int | None
    seed_hash: str | None
    seats: list[SeatInfo]
    events: list[EventRow] | None


def _db():
    return transaction.get_connection()


def _qn(db, name: str) -> str:
    return db.ops.quote_name(name)


def _column(db, model: type[Model], alias: str, name: str) -> str:
    return f"{alias}.{_qn(db, model._meta.get_field(name).column)}"


def _table(db, model: type[Model], alias: str) -> str:
    return f"{_qn(db, model._meta.db_table)} {alias}"


@functools.cache
def _loaded(model: type[Model]) -> tuple:
    """The fields the hot paths load, in the model's order (Model.from_db wants it so): every
    concrete field but the two times."""
    return tuple(f for f in model._meta.concrete_fields
                 if f.attname not in ("created_at", "updated_at"))


@functools.cache
def _converters(alias: str, field) -> tuple:
    """The converters the ORM applies to this field's values read from this database, each with
    the expression it is given (a column of the field's table)."""
    db = connections[alias]
    expression = field.get_col(field.model._meta.db_table)
    return tuple((c, expression) for c in
                 db.ops.get_db_converters(expression) + field.get_db_converters(db))


def _convert(db, fields, values) -> list:
    out = []
    for f, value in zip(fields, values, strict=True):
        for converter, expression in _converters(db.alias, f):
            value = converter(value, expression, db)
        out.append(value)
    return out


def _json_rows(db, columns: list[str], source: str, order: str = "") -> str:
    return JSON_ROWS[db.vendor].format(columns=", ".join(columns), source=source,
                                       order=f" ORDER BY {order}" if order else "")


def _seat_rows(db) -> str:
    user = Seat._meta.get_field("user").related_model
    s, u = "s", "u"
    columns = [_column(db, Seat, s, name) for name in
               ("index", "kind", "bot_level", "user")] + [
        _column(db, user, u, "username"), _column(db, Seat, s, "score"),
        _column(db, Seat, s, "eliminated")]
    source = (f"{_table(db, Seat, s)} LEFT JOIN {_table(db, user, u)}"
              f" ON {_column(db, user, u, 'id')} = {_column(db, Seat, s, 'user')}"
              f" WHERE {_column(db, Seat, s, 'match')} = {_column(db, Match, 'm', 'id')}")
    return _json_rows(db, columns, source)


def _event_rows(db) -> str:
    """The events after `since` (NULL: the last `recent`), at most `limit`: three parameters."""
    e = "e"
    names = ("seq", "round_number", "version", "data")
    seq = _column(db, Event, e, "seq")
    source = (f"(SELECT {', '.join(_column(db, Event, e, n) for n in names)}"
              f" FROM {_table(db, Event, e)}"
              f" WHERE {_column(db, Event, e, 'match')} = {_column(db, Match, 'm', 'id')}"
              f" AND {seq} > COALESCE(%s, {_column(db, Match, 'm', 'last_event_seq')} - %s)"
              f" ORDER BY {seq} LIMIT %s) {e}")
    columns = [_column(db, Event, e, n) for n in names[:3]]
    columns.append(EMBED_JSON[db.vendor].format(_column(db, Event, e, "data")))
    return _json_rows(db, columns, source, order=seq)


@functools.cache
def _match_sql(alias: str, lock: bool, events: bool) -> str:
    db = connections[alias]
    m, r = "m", "r"
    selected = [f"{m}.{_qn(db, f.column)}" for f in _loaded(Match)]
    selected += [_column(db, Round, r, "number"), _column(db, Round, r, "seed_hash"),
                 _seat_rows(db)]
    if events:
        selected.append(_event_rows(db))
    lock_clause = f" FOR UPDATE OF {m}" if lock and db.features.has_select_for_update else ""
    return (f"SELECT {', '.join(selected)} FROM {_table(db, Match, m)}"
            f" LEFT JOIN {_table(db, Round, r)}"
            f" ON {_column(db, Round, r, 'id')} = {_column(db, Match, m, 'current_round')}"
            f" WHERE {_column(db, Match, m, 'id')} = %s{lock_clause}")


def match_row(match_id: int, *, lock: bool = False, events_after: int | None = None,
              recent: int = 0, limit: int = 0) -> MatchRow | None:
    """The match with its current round and seats in one query; `lock`: the row stays locked
    until the transaction ends. With `limit`, the events after `events_after` (None: the last
    `recent`) come too, at most `limit`."""
    db = _db()
    with_events = limit > 0
    params = [events_after, recent, limit, match_id] if with_events else [match_id]
    with db.cursor() as cursor:
        cursor.execute(_match_sql(db.alias, lock, with_events), params)
        row = cursor.fetchone()
    if row is None:
        return None
    fields = _loaded(Match)
    values, rest = row[:len(fields)], row[len(fields):]
    match = Match.from_db(db.alias, [f.attname for f in fields], _convert(db, fields, values))
    number, seed_hash, seat_rows = rest[:3]
    seats = sorted(SeatInfo(i, kind, level, user, name, score, bool(out))
                   for i, kind, level, user, name, score, out in json.loads(seat_rows or "[]"))
    events = None
    if with_events:
        events = [EventRow(*e) for e in json.loads(rest[3] or "[]")]
    return MatchRow(match, number, seed_hash, seats, events)


def token_user(token_model: type[Model], digest: str, user_fields: Sequence[str]) -> Model | None:
    """The token whose key hashes to `digest` (its id, user and expiry loaded) with its user
    (only `user_fields` loaded; others load on first use, as deferred fields do), in one query;
    None if no token has this digest."""
    user_model = token_model._meta.get_field("user").related_model
    db = connections[router.db_for_read(user_model)]
    token_fields = [token_model._meta.get_field(name) for name in ("id", "user", "expires_at")]
    fields = [f for f in user_model._meta.concrete_fields if f.attname in user_fields]
    t, u = "t", "u"
    columns = [f"{t}.{_qn(db, f.column)}" for f in token_fields]
    columns += [f"{u}.{_qn(db, f.column)}" for f in fields]
    sql = (f"SELECT {', '.join(columns)}"
           f" FROM {_table(db, token_model, t)} JOIN {_table(db, user_model, u)}"
           f" ON {_column(db, user_model, u, 'id')} = {_column(db, token_model, t, 'user')}"
           f" WHERE {_column(db, token_model, t, 'digest')} = %s")
    with db.cursor() as cursor:
        cursor.execute(sql, [digest])
        row = cursor.fetchone()
    if row is None:
        return None
    split = len(token_fields)
    token = token_model.from_db(db.alias, [f.attname for f in token_fields],
                                _convert(db, token_fields, row[:split]))
    token.user = user_model.from_db(db.alias, [f.attname for f in fields],
                                    _convert(db, fields, row[split:]))
    return token


# -- writes ----------------------------------------------------------------------------------------

@functools.cache
def _written(model: type[Model], names: tuple[str, ...] | None = None) -> tuple:
    """(field, whether its value needs the field's conversion): JSON and times do; the other
    columns written here are whole numbers and strings the driver takes as they are."""
    fields = ([model._meta.get_field(name) for name in names] if names else
              [f for f in model._meta.concrete_fields if not f.primary_key])
    return tuple((f, isinstance(f, JSONField | DateTimeField)) for f in fields)


def _values(obj: Model, columns: tuple, adding: bool, db) -> list:
    # pre_save fills auto_now(_add) times as Model.save would.
    return [f.get_db_prep_save(f.pre_save(obj, adding), db) if convert else f.pre_save(obj, adding)
            for f, convert in columns]


def _insert(rows: Sequence[Model], db) -> tuple[str, list]:
    """One INSERT of new rows of one model, their ids not read back (nobody needs them)."""
    model = type(rows[0])
    columns = _written(model)
    row = "(" + ", ".join(["%s"] * len(columns)) + ")"
    sql = (f"INSERT INTO {_qn(db, model._meta.db_table)}"
           f" ({', '.join(_qn(db, f.column) for f, _ in columns)})"
           f" VALUES {', '.join([row] * len(rows))}")
    return sql, [value for obj in rows for value in _values(obj, columns, True, db)]


def _update(obj: Model, names: tuple[str, ...], db) -> tuple[str, list]:
    columns = _written(type(obj), names)
    sets = ", ".join(f"{_qn(db, f.column)} = %s" for f, _ in columns)
    return (f"UPDATE {_qn(db, obj._meta.db_table)} SET {sets}"
            f" WHERE {_qn(db, obj._meta.pk.column)} = %s",
            [*_values(obj, columns, False, db), obj.pk])


def write(obj: Model, fields: tuple[str, ...], *added: Sequence[Model]) -> None:
    """Insert each non-empty list of new rows in `added` and update `fields` of `obj`: on
    PostgreSQL in one statement (the INSERTs as data-modifying WITH queries), elsewhere one
    statement each."""
    db = _db()
    inserts = [_insert(rows, db) for rows in added if rows]
    sql, params = _update(obj, fields, db)
    with db.cursor() as cursor:
        if db.vendor == "postgresql" and inserts:
            sql = "WITH " + ", ".join(
                f"added_{i} AS ({insert})" for i, (insert, _) in enumerate(inserts)) + " " + sql
            params = [p for _, values in inserts for p in values] + params
        else:
            for insert, values in inserts:
                cursor.execute(insert, values)
        cursor.execute(sql, params)
        if cursor.rowcount != 1:
            raise DatabaseError(f"{obj._meta.label} {obj.pk}: the update changed no row")
