"""The API's renderer (games.api.renderers) writes what DRF's own JSONRenderer writes, byte for
byte, through orjson; games.fastjson reads and writes what the standard library does."""

import datetime
import json
from collections import namedtuple
from decimal import Decimal

import pytest
from django.utils.translation import gettext_lazy
from hypothesis import given
from hypothesis import strategies as st
from rest_framework.renderers import JSONRenderer as DRFRenderer

from games import fastjson
from games.api.renderers import JSONRenderer

Pair = namedtuple("Pair", "a b")

SAMPLES = [
    {"id": 1, "name": "王五", "ok": True, "none": None, "ratio": 0.25, "big": 10**18},
    {"at": datetime.datetime(2026, 12, 4, 21, 5, 7, 123456, tzinfo=datetime.UTC),
     "local": datetime.datetime(2026, 12, 4, 21, 5, 7, tzinfo=datetime.timezone(
         datetime.timedelta(hours=8))),
     "day": datetime.date(2026, 12, 4), "time": datetime.time(9, 30, 1, 500000)},
    {"lazy": gettext_lazy("Not found."), "decimal": Decimal("1.50"), "set": {3},
     "pair": Pair(1, [2]), "tuple": (1, 2)},
    {1: "int key", "line\u2028break": "para\u2029graph", "nested": [[{"x": []}]]},
    [], "text", 7,
]


@pytest.mark.parametrize("data", SAMPLES)
def test_same_bytes_as_drf(data):
    assert JSONRenderer().render(data) == DRFRenderer().render(data)


def test_indent_asked_for_is_honoured():
    out = JSONRenderer().render({"a": [1]}, "application/json; indent=2")
    assert out == DRFRenderer().render({"a": [1]}, "application/json; indent=2")
    assert b"\n" in out


def test_nothing_renders_empty():
    assert JSONRenderer().render(None) == b""


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-2**63, 2**63 - 1) | st.text()
    | st.floats(allow_nan=False, allow_infinity=False),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
    max_leaves=20)


@given(JSON_VALUES)
def test_any_json_value_renders_as_drf_would_read_back(value):
    body = [value]  # None alone renders as no body at all
    assert json.loads(JSONRenderer().render(body)) == json.loads(DRFRenderer().render(body))


@given(JSON_VALUES)
def test_fastjson_round_trips_as_the_standard_library(value):
    text = fastjson.dumps(value)
    assert fastjson.loads(text) == json.loads(text) == json.loads(json.dumps(value))


def test_fastjson_writes_named_tuples_and_int_keys_as_json_dumps_does():
    value = {1: Pair(1, (2, 3))}
    assert fastjson.loads(fastjson.dumps(value)) == json.loads(json.dumps(value))
