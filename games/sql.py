"""The project's hand-written SQL, all of it: the match read (locked for an act), the act's writes
and the token check. These run on every request of a match, where compiling the ORM's queries
cost more than the request's own work (bench/api.py). Every table and column name comes from the
models' metadata, quoted with the connection's `quote_name`; values are always parameters; values
read are converted by the fields' own converters. PostgreSQL and SQLite are supported;
tests/test_sql.py compares each statement's effect with the ORM's on both.
"""

import functools
from collections.abc import Sequence
from datetime import datetime
from typing import NamedTuple

from django.db import DatabaseError, connections, router, transaction
from django.db.models import DateTimeField, JSONField, Model
from django.db.models.base import ModelState
from django.db.models.signals import post_init, pre_init
from django.utils import timezone
from psycopg.types.json import Jsonb

from games import fastjson
from games.models import Event, Match, Round, Seat, Spectator

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
    name: str | None  # the person's, as people read it: the display name, else the username
    score: int
    eliminated: bool

    @classmethod
    def of(cls, seat: Model) -> "SeatInfo":
        """From a Seat row with its user."""
        return cls(seat.index, seat.kind, seat.bot_level, seat.user_id,
                   seat.user.name if seat.user_id else None, seat.score, seat.eliminated)


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
    spectators: int | None = None
    token: Model | None = None  # the reader's, when a Reader was given (None: no such token)


class Reader(NamedTuple):
    """Who reads: their token is checked in the same query as the match (token_user's)."""

    token_model: type[Model]
    digest: str
    user_fields: tuple[str, ...]


def _db():
    return transaction.get_connection()


def _cursor(db):
    """On PostgreSQL a cursor that binds parameters on the server, so that psycopg prepares the
    statements run on every request (their plans are kept per connection: planning the match
    read cost more than running it); elsewhere the usual cursor. Wrapped like any Django cursor:
    errors are Django's and queries are logged as usual."""
    if db.vendor != "postgresql":
        return db.cursor()
    from django.db.backends.postgresql.base import ServerBindingCursor

    with db.wrap_database_errors:
        db.ensure_connection()
        db.validate_thread_sharing()
        raw = ServerBindingCursor(db.connection)
    return db.make_debug_cursor(raw) if db.queries_logged else db.make_cursor(raw)


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
    return tuple((_json_value if c == getattr(field, "from_db_value", None)
                  and _plain_json(field) else c, expression)
                 for c in db.ops.get_db_converters(expression) + field.get_db_converters(db))


def _plain_json(field) -> bool:
    """A JSONField with the standard library's encoding: its values read and written here go
    through orjson instead, the same JSON in a fraction of the time (decoding and encoding were
    a tenth of a match GET's and act's CPU)."""
    return type(field) is JSONField and field.encoder is None and field.decoder is None


def _json_value(value, expression, db):
    """JSONField.from_db_value for a plain JSONField, with orjson."""
    if value is None:
        return None
    try:
        return fastjson.loads(value)
    except fastjson.JSONDecodeError:
        return value  # as Django's: SQLite may hold a value that is not JSON text


# (alias, id of a fields tuple) -> (the tuple, its fields' converters by position, their
# attnames): looked up by identity, since hashing the fields themselves (Python code per field)
# cost a match read more than its converters (bench/request_cpu.py). The tuples are the
# module's cached ones.
_PLANS: dict[tuple[str, int], tuple] = {}


def _plan(db, fields: tuple) -> tuple:
    plan = _PLANS.get((db.alias, id(fields)))
    if plan is None or plan[0] is not fields:
        found = [(i, _converters(db.alias, f)) for i, f in enumerate(fields)]
        plan = _PLANS[db.alias, id(fields)] = (fields, [(i, c) for i, c in found if c],
                                               tuple(f.attname for f in fields))
    return plan


def _convert(db, fields: tuple, values) -> list:
    """`values` read for `fields`, through the converters the ORM applies (most fields have
    none)."""
    out = list(values)
    for i, converters in _plan(db, fields)[1]:
        value = out[i]
        for converter, expression in converters:
            value = converter(value, expression, db)
        out[i] = value
    return out


def _built(db, model: type[Model], fields: tuple, values) -> Model:
    """The instance Model.from_db makes of `values` read for `fields` (the model's other fields
    deferred), without Model.__init__'s work per field when no pre_init or post_init receiver
    is listening (else from_db itself): __init__ cost a match read a tenth of its CPU (26
    fields). The values go through the fields' converters (_convert)."""
    if pre_init.has_listeners(model) or post_init.has_listeners(model):
        return model.from_db(db.alias, list(_plan(db, fields)[2]), _convert(db, fields, values))
    instance = model.__new__(model)
    instance.__dict__.update(zip(_plan(db, fields)[2], _convert(db, fields, values), strict=True))
    state = instance._state = ModelState()
    state.adding, state.db = False, db.alias
    return instance


def _json_rows(db, columns: list[str], source: str, order: str = "") -> str:
    return JSON_ROWS[db.vendor].format(columns=", ".join(columns), source=source,
                                       order=f" ORDER BY {order}" if order else "")


def _seat_rows(db) -> str:
    user = Seat._meta.get_field("user").related_model
    s, u = "s", "u"
    name = (f"COALESCE(NULLIF({_column(db, user, u, 'display_name')}, ''),"
            f" {_column(db, user, u, 'username')})")
    columns = [_column(db, Seat, s, field) for field in
               ("index", "kind", "bot_level", "user")] + [
        name, _column(db, Seat, s, "score"), _column(db, Seat, s, "eliminated")]
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


def _spectator_count(db) -> str:
    """How many people watch: their stream was seen since a time (one parameter)."""
    s = "w"
    return (f"(SELECT COUNT(*) FROM {_table(db, Spectator, s)}"
            f" WHERE {_column(db, Spectator, s, 'match')} = {_column(db, Match, 'm', 'id')}"
            f" AND {_column(db, Spectator, s, 'seen_at')} >= %s)")


@functools.cache
def _match_sql(alias: str, lock: bool, events: bool, spectators: bool = False,
               reader: tuple | None = None) -> str:
    """`reader`: (token model, user fields) of the token read with the match (one parameter, its
    digest, before the match's id)."""
    db = connections[alias]
    m, r = "m", "r"
    selected = [f"{m}.{_qn(db, f.column)}" for f in _loaded(Match)]
    selected += [_column(db, Round, r, "number"), _column(db, Round, r, "seed_hash"),
                 _seat_rows(db)]
    if spectators:
        selected.append(_spectator_count(db))
    if events:
        selected.append(_event_rows(db))
    token_join = ""
    if reader is not None:
        columns, source, digest = _token_sql(alias, *reader)
        selected += columns
        token_join = f" LEFT JOIN ({source}) ON {digest} = %s"
    lock_clause = f" FOR UPDATE OF {m}" if lock and db.features.has_select_for_update else ""
    return (f"SELECT {', '.join(selected)} FROM {_table(db, Match, m)}"
            f" LEFT JOIN {_table(db, Round, r)}"
            f" ON {_column(db, Round, r, 'id')} = {_column(db, Match, m, 'current_round')}"
            f"{token_join} WHERE {_column(db, Match, m, 'id')} = %s{lock_clause}")


def match_row(match_id: int, *, lock: bool = False, events_after: int | None = None,
              recent: int = 0, limit: int = 0, spectators_since: datetime | None = None,
              reader: Reader | None = None) -> MatchRow | None:
    """The match with its current round and seats in one query; `lock`: the row stays locked
    until the transaction ends. With `limit`, the events after `events_after` (None: the last
    `recent`) come too, at most `limit`; with `spectators_since`, how many spectators were seen
    since then; with a `reader`, their token as token_user reads it."""
    db = _db()
    with_events, counted = limit > 0, spectators_since is not None
    params = [db.ops.adapt_datetimefield_value(spectators_since)] if counted else []
    params += [events_after, recent, limit] if with_events else []
    params += [match_id] if reader is None else [reader.digest, match_id]
    token_key = None if reader is None else (reader.token_model, tuple(reader.user_fields))
    with _cursor(db) as cursor:
        cursor.execute(_match_sql(db.alias, lock, with_events, counted, token_key), params)
        row = cursor.fetchone()
    if row is None:
        return None
    fields = _loaded(Match)
    values, rest = row[:len(fields)], row[len(fields):]
    match = _built(db, Match, fields, values)
    number, seed_hash, seat_rows = rest[:3]
    rest = rest[3:]
    seats = sorted(SeatInfo(i, kind, level, user, name, score, bool(out))
                   for i, kind, level, user, name, score, out in fastjson.loads(seat_rows or "[]"))
    watching = None
    if counted:
        watching, rest = rest[0], rest[1:]
    events = None
    if with_events:
        events, rest = [EventRow(*e) for e in fastjson.loads(rest[0] or "[]")], rest[1:]
    token = None if reader is None else _token_of(db, *token_key, rest)
    return MatchRow(match, number, seed_hash, seats, events, watching, token)


def token_user(token_model: type[Model], digest: str, user_fields: Sequence[str]) -> Model | None:
    """The token whose key hashes to `digest` (its id, user and expiry loaded) with its user
    (only `user_fields` loaded; others load on first use, as deferred fields do), in one query;
    None if no token has this digest."""
    user_model = token_model._meta.get_field("user").related_model
    db = connections[router.db_for_read(user_model)]
    columns, source, column = _token_sql(db.alias, token_model, tuple(user_fields))
    with _cursor(db) as cursor:
        cursor.execute(f"SELECT {', '.join(columns)} FROM {source} WHERE {column} = %s", [digest])
        row = cursor.fetchone()
    return None if row is None else _token_of(db, token_model, tuple(user_fields), row)


@functools.cache
def _token_fields(token_model: type[Model], user_fields: tuple[str, ...]) -> tuple:
    """The token's fields read, the user's, and the user model."""
    user_model = token_model._meta.get_field("user").related_model
    return (tuple(token_model._meta.get_field(name) for name in ("id", "user", "expires_at")),
            tuple(f for f in user_model._meta.concrete_fields if f.attname in user_fields),
            user_model)


@functools.cache
def _token_sql(alias: str, token_model: type[Model], user_fields: tuple[str, ...]) -> tuple:
    """The token's and its user's columns, the join of their tables, and the digest's column."""
    db = connections[alias]
    token_fields, fields, user_model = _token_fields(token_model, user_fields)
    t, u = "t", "u"
    columns = [f"{t}.{_qn(db, f.column)}" for f in token_fields]
    columns += [f"{u}.{_qn(db, f.column)}" for f in fields]
    source = (f"{_table(db, token_model, t)} JOIN {_table(db, user_model, u)}"
              f" ON {_column(db, user_model, u, 'id')} = {_column(db, token_model, t, 'user')}")
    return columns, source, _column(db, token_model, t, "digest")


def _token_of(db, token_model: type[Model], user_fields: tuple[str, ...],
              values: Sequence) -> Model | None:
    """The token with its user from _token_sql's columns' values (None: all NULL, no token)."""
    if values[0] is None:
        return None
    token_fields, fields, user_model = _token_fields(token_model, user_fields)
    split = len(token_fields)
    token = _built(db, token_model, token_fields, values[:split])
    token.user = _built(db, user_model, fields, values[split:])
    return token


# -- writes ----------------------------------------------------------------------------------------
#
# New rows come as dicts by field name (attname); auto_now(_add) times are the write's time.
# On PostgreSQL all of a model's new rows are one parameter, a JSON array that
# jsonb_populate_recordset turns into rows of the table's own column types: the statement's text
# does not depend on how many rows there are, so it is prepared once per connection.

Rows = tuple[type[Model], Sequence[dict]]


def _auto_time(f) -> bool:
    return isinstance(f, DateTimeField) and (f.auto_now or f.auto_now_add)


@functools.cache
def _inserted(model: type[Model]) -> tuple:
    return tuple(f for f in model._meta.concrete_fields if not f.primary_key)


@functools.cache
def _given(model: type[Model]) -> tuple[tuple[str, str], ...]:
    """(column, attname) of the inserted fields whose values the rows give (not the times the
    database fills in)."""
    return tuple((f.column, f.attname) for f in _inserted(model) if not _auto_time(f))


@functools.cache
def _insert_sql(alias: str, model: type[Model], rows: int) -> str:
    db = connections[alias]
    fields = _inserted(model)
    columns = ", ".join(_qn(db, f.column) for f in fields)
    if db.vendor == "postgresql":
        table = _qn(db, model._meta.db_table)
        picked = ", ".join("now()" if _auto_time(f) else f"r.{_qn(db, f.column)}" for f in fields)
        return (f"INSERT INTO {table} ({columns}) SELECT {picked}"
                f" FROM jsonb_populate_recordset(NULL::{table}, %s) AS r")
    row = "(" + ", ".join(["%s"] * len(fields)) + ")"
    return f"INSERT INTO {_qn(db, model._meta.db_table)} ({columns}) VALUES " + ", ".join(
        [row] * rows)


def _insert_params(db, model: type[Model], rows: Sequence[dict]) -> list:
    if db.vendor == "postgresql":
        given = _given(model)
        return [Jsonb([{column: row[name] for column, name in given} for row in rows],
                      fastjson.dumps)]
    now = timezone.now()
    return [f.get_db_prep_save(now if _auto_time(f) else row[f.attname], db)
            for row in rows for f in _inserted(model)]


def _insert(db, added: Rows) -> tuple[str, list]:
    model, rows = added
    return _insert_sql(db.alias, model, 1 if db.vendor == "postgresql" else len(rows)), \
        _insert_params(db, model, rows)


# Rows updated by primary key: (model, the fields written, one dict per row by attname, the
# primary key's too). On PostgreSQL all of them are one parameter, as new rows are.
Changed = tuple[type[Model], tuple[str, ...], Sequence[dict]]


@functools.cache
def _change_sql(alias: str, model: type[Model], names: tuple[str, ...]) -> str:
    db = connections[alias]
    table, pk = _qn(db, model._meta.db_table), _qn(db, model._meta.pk.column)
    fields = [model._meta.get_field(name) for name in names]
    if db.vendor == "postgresql":
        sets = ", ".join(f"{_qn(db, f.column)} = " + ("now()" if _auto_time(f) else
                                                       f"r.{_qn(db, f.column)}") for f in fields)
        return (f"UPDATE {table} AS t SET {sets} FROM jsonb_populate_recordset(NULL::{table}, "
                f"%s) AS r WHERE t.{pk} = r.{pk}")
    sets = ", ".join(f"{_qn(db, f.column)} = %s" for f in fields)
    return f"UPDATE {table} SET {sets} WHERE {pk} = %s"


def _change_params(db, changed: Changed) -> list:
    """One parameter (PostgreSQL), else one list of parameters per row."""
    model, names, rows = changed
    pk = model._meta.pk
    fields = [model._meta.get_field(name) for name in names]
    if db.vendor == "postgresql":
        given = [f for f in fields if not _auto_time(f)]
        return [Jsonb([{pk.column: row[pk.attname], **{f.column: row[f.attname] for f in given}}
                       for row in rows], fastjson.dumps)]
    now = timezone.now()
    return [[f.get_db_prep_save(now if _auto_time(f) else row[f.attname], db) for f in fields]
            + [row[pk.attname]] for row in rows]


@functools.cache
def _updated(model: type[Model], names: tuple[str, ...]) -> tuple:
    """(field, how its value is converted): "json" (a plain JSONField), "field" (the field's own
    conversion: other JSON and times) or None (whole numbers and strings, which the driver takes
    as they are)."""
    return tuple((f, "json" if _plain_json(f) else
                  "field" if isinstance(f, JSONField | DateTimeField) else None)
                 for f in (model._meta.get_field(name) for name in names))


@functools.cache
def _update_sql(alias: str, model: type[Model], names: tuple[str, ...],
                version_field: str | None) -> str:
    db = connections[alias]
    sets = ", ".join(f"{_qn(db, f.column)} = %s" for f, _ in _updated(model, names))
    sql = (f"UPDATE {_qn(db, model._meta.db_table)} SET {sets}"
           f" WHERE {_qn(db, model._meta.pk.column)} = %s")
    if version_field is not None:
        sql += f" AND {_qn(db, model._meta.get_field(version_field).column)} = %s"
    return sql


def _update_params(db, obj: Model, names: tuple[str, ...]) -> list:
    params = []
    for f, how in _updated(type(obj), names):
        value = f.pre_save(obj, False)  # fills auto_now times as Model.save would
        if how == "json" and db.vendor == "postgresql":
            value = None if value is None else Jsonb(value, fastjson.dumps)
        elif how is not None:
            value = f.get_db_prep_save(value, db)
        params.append(value)
    return params + [obj.pk]


@functools.cache
def _cas_sql(alias: str, update: str, inserts: tuple[str, ...]) -> str:
    parts = [f"updated AS ({update} RETURNING 1)"] + [
        f"added_{i} AS ({insert} WHERE EXISTS (SELECT 1 FROM updated))"
        for i, insert in enumerate(inserts)]
    return f"WITH {', '.join(parts)} SELECT count(*) FROM updated"


def write_if_version(obj: Model, fields: tuple[str, ...], version_field: str, expected: int,
                     *added: Rows) -> bool:
    """Compare and set: update `fields` of `obj` and insert the `added` rows only if the row's
    `version_field` still holds `expected`; False (nothing written) otherwise. On PostgreSQL one
    statement, atomic on its own, so it needs no transaction round trips: the rows are inserted
    only when the UPDATE matched. Elsewhere the same in a transaction."""
    db = _db()
    update = _update_sql(db.alias, type(obj), fields, version_field)
    params = _update_params(db, obj, fields) + [expected]
    inserts = [_insert(db, rows) for rows in added if rows[1]]
    if db.vendor != "postgresql":
        with transaction.atomic(), db.cursor() as cursor:
            cursor.execute(update, params)
            if cursor.rowcount != 1:
                return False
            for insert, values in inserts:
                cursor.execute(insert, values)
        return True
    sql = _cas_sql(db.alias, update, tuple(insert for insert, _ in inserts))
    with _cursor(db) as cursor:
        cursor.execute(sql, [*params, *(v for _, values in inserts for v in values)])
        return cursor.fetchone()[0] == 1


def write(obj: Model, fields: tuple[str, ...], *added: Rows, changed: Sequence[Changed] = ()
          ) -> None:
    """Insert the `added` rows, update the `changed` ones and `fields` of `obj`: on PostgreSQL
    in one statement (the INSERTs and the other UPDATEs as data-modifying WITH queries),
    elsewhere one statement each."""
    db = _db()
    inserts = [_insert(db, rows) for rows in added if rows[1]]
    changes = [(_change_sql(db.alias, model, names), _change_params(db, (model, names, rows)))
               for model, names, rows in changed if rows]
    sql = _update_sql(db.alias, type(obj), fields, None)
    params = _update_params(db, obj, fields)
    with _cursor(db) as cursor:
        if db.vendor == "postgresql" and (inserts or changes):
            parts = [f"added_{i} AS ({insert})" for i, (insert, _) in enumerate(inserts)] + [
                f"changed_{i} AS ({change})" for i, (change, _) in enumerate(changes)]
            sql = "WITH " + ", ".join(parts) + " " + sql
            params = [p for _, values in (*inserts, *changes) for p in values] + params
        else:
            for insert, values in inserts:
                cursor.execute(insert, values)
            for change, rows in changes:
                cursor.executemany(change, rows)
        cursor.execute(sql, params)
        if cursor.rowcount != 1:
            raise DatabaseError(f"{obj._meta.label} {obj.pk}: the update changed no row")
