"""JSON for the hot paths, through orjson: the match read and the act's writes (games.sql) and
every API response (games.api.renderers). The same JSON as the standard library's, several
times faster (a view encoded about ten times, a snapshot decoded about twice): encoding and
decoding had been about a tenth of a match GET's and act's CPU (bench/request_cpu.py).
Everything else keeps the standard library."""

import orjson

JSONDecodeError = orjson.JSONDecodeError
loads = orjson.loads


def _as_json(value):
    """What orjson leaves to its caller: named tuples are arrays, as json.dumps writes them."""
    if isinstance(value, tuple):
        return list(value)
    raise TypeError(f"{type(value).__name__} is not JSON serializable")


def dumps(value) -> bytes:
    """UTF-8 JSON text; keys that are not strings are written as strings (json.dumps does)."""
    return orjson.dumps(value, default=_as_json, option=orjson.OPT_NON_STR_KEYS)
