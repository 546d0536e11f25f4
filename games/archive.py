"""Compacted rounds: a finished match's moves and events kept as one zlib-compressed JSON document
per round (RoundArchive) instead of a row each. This module packs them and reads them back as the
live tables' rows would read; games.selectors falls back to it for a compacted match, and
games.services.compaction writes it.
"""

import json
import zlib
from collections.abc import Iterable

from django.utils.dateparse import parse_datetime

from games.models import Move, RoundArchive
from games.sql import EventRow

# What is kept of each row (everything but its id and round, which the archive row gives).
MOVE_FIELDS = ("seq", "seat", "action", "actor", "reason", "version", "idempotency_key",
               "created_at")
EVENT_FIELDS = ("seq", "round_number", "version", "data", "created_at")
LEVEL = 6  # zlib's default: level 9 saved 2% more here for twice the time


def _row(values: dict, fields: tuple[str, ...]) -> list:
    return [values[f].isoformat() if f == "created_at" else values[f] for f in fields]


def pack(moves: Iterable[dict], events: Iterable[dict]) -> bytes:
    """One round's moves and events (dicts by field name) as the archive's document."""
    document = {"moves": [_row(m, MOVE_FIELDS) for m in moves],
                "events": [_row(e, EVENT_FIELDS) for e in events]}
    text = json.dumps(document, ensure_ascii=False, separators=(",", ":"))
    return zlib.compress(text.encode(), LEVEL)


def unpack(data: bytes | memoryview) -> tuple[list[dict], list[dict]]:
    """The moves and events of a packed round, as dicts by field name (times as datetimes)."""
    document = json.loads(zlib.decompress(bytes(data)))

    def rows(items: list[list], fields: tuple[str, ...]) -> list[dict]:
        found = [dict(zip(fields, item, strict=True)) for item in items]
        for row in found:
            row["created_at"] = parse_datetime(row["created_at"])
        return found

    return rows(document["moves"], MOVE_FIELDS), rows(document["events"], EVENT_FIELDS)


def documents(match_id: int) -> list[tuple[int, list[dict], list[dict]]]:
    """Each archived round of the match in order: (number, moves, events) as `unpack` gives."""
    archives = RoundArchive.objects.filter(match_id=match_id).order_by("number")
    return [(number, *unpack(data)) for number, data in archives.values_list("number", "data")]


def moves(match_id: int) -> list[tuple[int, Move]]:
    """The archived moves in order, (round number, an unsaved Move as the table held it)."""
    return [(number, Move(match_id=match_id, **move))
            for number, found, _ in documents(match_id) for move in found]


def events(match_id: int) -> list[EventRow]:
    """The archived events in order."""
    found = [EventRow(e["seq"], e["round_number"], e["version"], e["data"])
             for _, _, archived in documents(match_id) for e in archived]
    return sorted(found)
