"""Whatever a client sends to the act endpoint, the answer is a 4xx with the error shape (or a
200 for a legal action), never a 500, and a refused body changes nothing."""

import itertools
import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rest_framework.test import APIClient

from games import services
from games.api.serializers import ACT
from games.engine.actions import action_from_dict, action_from_parsed
from games.engine.errors import IllegalAction
from games.engine.specs import parse
from games.models import Event, Match, Move
from tests.matchplay import Client, bots, client_sender, create, sign_in

pytestmark = pytest.mark.django_db(transaction=True)

# JSON has no NaN or infinity: the test client could not even send them.
JSON_SCALARS = (st.none() | st.booleans() | st.integers()
                | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=8))
JSON_VALUES = st.recursive(JSON_SCALARS, lambda inner: st.lists(inner, max_size=4)
                           | st.dictionaries(st.text(max_size=8), inner, max_size=4),
                           max_leaves=12)
CARD_IDS = st.lists(st.integers(min_value=-(2**70), max_value=2**70) | st.sampled_from(
    [0, 1, 53, 54, 107, 108, 10**18]), max_size=6)
ACTIONS = st.one_of(
    st.fixed_dictionaries({"type": st.just("play"), "cards": CARD_IDS}),
    st.fixed_dictionaries({"type": st.just("play"), "cards": CARD_IDS,
                           "reading": st.fixed_dictionaries({
                               "type": st.sampled_from(["single", "pair", "bomb", "plane", "x"]),
                               "rank": st.sampled_from(["3", "10", "A", "2", "Z", ""]),
                               "length": st.integers(-3, 70)})}),
    st.fixed_dictionaries({"type": st.sampled_from(["pass", "cut", "bid", "fold", ""])},
                          optional={"position": JSON_VALUES, "solo": JSON_VALUES}),
    JSON_VALUES,
)


def fingerprint(match_id: int) -> tuple:
    match = Match.objects.get(pk=match_id)
    return (match.version, json.dumps(match.snapshot, sort_keys=True),
            Move.objects.filter(match=match).count(), Event.objects.filter(match=match).count())


@pytest.mark.parametrize("ruleset", ["gandengyan", "510k"])
def test_any_act_body_gets_a_4xx_or_a_200(ruleset, monkeypatch):
    counter = itertools.count()
    monkeypatch.setattr(services.progress, "new_seed", lambda: f"fuzz-{ruleset}-{next(counter)}")
    client = Client(client_sender(APIClient()))
    sign_in(client)
    view = create(client, ruleset, {}, bots(3))
    path = f"/matches/{view['id']}/act/"

    @settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
    @given(action=ACTIONS, version_shift=st.sampled_from([0, 0, 0, -1, 1]),
           extra=st.dictionaries(st.sampled_from(["seat", "x", "action2"]), JSON_VALUES,
                                 max_size=1))
    def check(action, version_shift, extra):
        current = client.get(f"/matches/{view['id']}/")[1]
        before = fingerprint(view["id"])
        body = {"expected_version": current["version"] + version_shift, "action": action, **extra}
        status, data = client.post(path, body)
        assert status in (200, 400, 403, 409), (status, data)
        if status != 200:
            assert set(data["error"]) == {"code", "message", "details", "request_id"}
            assert fingerprint(view["id"]) == before

    check()


SMALL = st.integers(-3, 2**31 + 3) | st.sampled_from([2**31 - 1, 2**31, 2**70, True, False])
EVERYDAY_ACTIONS = st.one_of(
    st.just({"type": "pass"}),
    st.fixed_dictionaries({"type": st.just("play"), "cards": st.lists(SMALL, max_size=66)}),
    st.fixed_dictionaries({"type": st.sampled_from(["play", "pass"])},
                          optional={"cards": st.lists(SMALL, max_size=3) | JSON_VALUES,
                                    "reading": JSON_VALUES, "x": JSON_VALUES}),
)


@settings(max_examples=300, deadline=None)
@given(version=SMALL | JSON_VALUES, action=EVERYDAY_ACTIONS | ACTIONS,
       extra=st.dictionaries(st.sampled_from(["seat", "x"]), SMALL | JSON_VALUES, max_size=2),
       drop_version=st.booleans())
def test_an_act_body_is_parsed_once_into_an_action_or_refused_with_invalid_input(
        version, action, extra, drop_version):
    body = {"action": action, **extra, **({} if drop_version else {"expected_version": version})}
    try:
        parsed = parse(ACT, body, "invalid_input")
    except IllegalAction as refused:
        assert refused.code == "invalid_input" and refused.details["field"] is not None
        return
    assert type(parsed["expected_version"]) is int and 0 <= parsed["expected_version"] < 2**31
    action = action_from_parsed(parsed["action"])
    assert action_from_dict(action.to_dict()) == action  # what the move log stores replays
