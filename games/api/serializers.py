"""Input and output shapes of the match endpoints. Inputs are strict (exact JSON types, no unknown
fields); outputs document the dicts the selectors build."""

from rest_framework import serializers

from bots.strategies import LEVELS as BOT_LEVELS
from games.engine.actions import Action, action_from_dict
from games.engine.registry import RULESETS

MAX_CARDS_PER_PLAY = 64


class StrictSerializer(serializers.Serializer):
    """Refuses fields it does not declare: a typo must not be silently ignored."""

    def to_internal_value(self, data):
        if isinstance(data, dict):
            unknown = sorted(set(data) - set(self.fields))
            if unknown:
                raise serializers.ValidationError({name: ["unknown field"] for name in unknown})
        return super().to_internal_value(data)


class StrictIntegerField(serializers.IntegerField):
    """A JSON number that is a whole number; "5" or true are wrong types, not 5 or 1."""

    def to_internal_value(self, data):
        if not isinstance(data, int) or isinstance(data, bool):
            self.fail("invalid")
        return super().to_internal_value(data)


class StrictBooleanField(serializers.BooleanField):
    def to_internal_value(self, data):
        if not isinstance(data, bool):
            self.fail("invalid", input=data)
        return data


class SeatInput(StrictSerializer):
    type = serializers.ChoiceField(choices=["human", "bot"])
    level = serializers.ChoiceField(choices=list(BOT_LEVELS), required=False)


class MatchCreateInput(StrictSerializer):
    ruleset = serializers.ChoiceField(choices=sorted(RULESETS))
    options = serializers.DictField(
        required=False, default=dict,
        help_text="gandengyan: decks 1|2, players 4..6, starting_score. 510k: players 4|2, "
        "base_score 1..10, dry none|half|full, xi_mode multiplicative|additive, rounds 1..100. "
        "`players` defaults to the number of seats.",
    )
    seats = SeatInput(
        many=True, required=False, max_length=6,
        help_text="seat 0 is yours (human); others human (joined by invite code) or bot. "
        "Default: you and bots of level normal.",
    )


class ReadingInput(StrictSerializer):
    type = serializers.CharField(max_length=20)
    rank = serializers.CharField(max_length=2)
    length = StrictIntegerField(min_value=1, max_value=MAX_CARDS_PER_PLAY)
    triples = StrictIntegerField(min_value=0, max_value=MAX_CARDS_PER_PLAY, required=False)


ACTION_FIELDS = {
    "play": ({"cards"}, {"cards", "reading", "extras"}),
    "pass": (set(), set()),
    "cut": (set(), {"position"}),
    "bid": ({"solo"}, {"solo"}),
}


class ActionInput(StrictSerializer):
    type = serializers.ChoiceField(choices=list(ACTION_FIELDS))
    cards = serializers.ListField(
        child=StrictIntegerField(), max_length=MAX_CARDS_PER_PLAY, required=False,
        help_text="card ids from your hand (the `id` of each card in your view)",
    )
    reading = ReadingInput(
        required=False, allow_null=True,
        help_text="name the reading when the cards can be read several ways",
    )
    extras = StrictIntegerField(
        required=False, min_value=0, max_value=MAX_CARDS_PER_PLAY,
        help_text="ignored: lets a client send a listed legal action back as it came; the "
        "cards sent are what is played",
    )
    position = StrictIntegerField(
        required=False, allow_null=True, help_text="where to cut; null: at random"
    )
    solo = StrictBooleanField(required=False, help_text="true: go solo (包庄)")

    def validate(self, attrs):
        required, allowed = ACTION_FIELDS[attrs["type"]]
        given = set(attrs) - {"type"}
        errors = {name: ["required for this action type"] for name in sorted(required - given)}
        errors.update(
            {name: ["not used by this action type"] for name in sorted(given - allowed)}
        )
        if errors:
            raise serializers.ValidationError(errors)
        return attrs

    @staticmethod
    def to_action(attrs: dict) -> Action:
        return action_from_dict(dict(attrs))


class ActInput(StrictSerializer):
    expected_version = StrictIntegerField(
        min_value=0, help_text="the `version` of the view you act on; 409 if it moved on"
    )
    action = ActionInput()
    seat = StrictIntegerField(
        required=False, min_value=0, help_text="optional: your seat, checked (403 if not yours)"
    )


    @classmethod
    def validated(cls, data) -> dict:
        """The body as the serializer would validate it. The everyday bodies (a pass, a play of
        card ids) are recognised by hand: building the nested serializer cost an act more than
        its engine work. Anything else, right or wrong, goes through the serializer, which also
        words the errors."""
        plain = _plain_act(data)
        if plain is not None:
            return plain
        serializer = cls(data=data)
        serializer.is_valid(raise_exception=True)
        return serializer.validated_data


def _small(value) -> bool:
    return type(value) is int and 0 <= value < 2**31


def _plain_act(data) -> dict | None:
    """A body the serializer would accept unchanged, or None (not necessarily wrong)."""
    if type(data) is not dict or not data.keys() <= {"expected_version", "action", "seat"}:
        return None
    action = data.get("action")
    if not _small(data.get("expected_version")) or not _small(data.get("seat", 0)) or (
        type(action) is not dict
    ):
        return None
    if action == {"type": "pass"}:
        return data
    cards = action.get("cards")
    if (action.get("type") == "play" and action.keys() == {"type", "cards"}
            and type(cards) is list and len(cards) <= MAX_CARDS_PER_PLAY
            and all(_small(card) for card in cards)):
        return data
    return None


class JoinInput(StrictSerializer):
    code = serializers.CharField(max_length=32, help_text="the invite code the creator shared")


class SeatOutput(serializers.Serializer):
    seat = serializers.IntegerField()
    kind = serializers.ChoiceField(choices=["human", "bot"])
    level = serializers.CharField(allow_null=True)
    player = serializers.CharField(allow_null=True, help_text="username of a human seat")
    open = serializers.BooleanField(help_text="a human seat nobody has joined yet")
    you = serializers.BooleanField()
    score = serializers.IntegerField()
    eliminated = serializers.BooleanField()


class RoundRef(serializers.Serializer):
    number = serializers.IntegerField()
    seed_hash = serializers.CharField(help_text="SHA-256 of the round's secret seed")


class MatchViewOutput(serializers.Serializer):
    id = serializers.IntegerField()
    ruleset = serializers.CharField()
    options = serializers.DictField()
    status = serializers.ChoiceField(choices=["waiting", "active", "finished"])
    version = serializers.IntegerField(help_text="send it back as `expected_version`")
    invite_code = serializers.CharField(allow_null=True, help_text="while seats are open")
    you = serializers.IntegerField(allow_null=True, help_text="your seat")
    to_act = serializers.IntegerField(allow_null=True)
    your_turn = serializers.BooleanField()
    round = RoundRef(allow_null=True)
    seats = SeatOutput(many=True)
    state = serializers.DictField(
        allow_null=True,
        help_text="the engine's view for your seat: your hand [{id, code, playable}], the "
        "others' card counts, the table (latest play marked), and the ruleset's public facts",
    )
    legal_actions = serializers.ListField(
        child=serializers.DictField(), help_text="what you may send now; plays list card ids, "
        "their reading and, in 510k, how many `extras` (带牌) you may add",
    )
    events = serializers.ListField(child=serializers.DictField())
    last_event_seq = serializers.IntegerField()
    standings = serializers.ListField(child=serializers.DictField(), allow_null=True)


class MatchSummaryOutput(serializers.Serializer):
    id = serializers.IntegerField()
    ruleset = serializers.CharField()
    status = serializers.CharField()
    version = serializers.IntegerField()
    round = serializers.IntegerField()
    you = serializers.IntegerField(allow_null=True)
    to_act = serializers.IntegerField(allow_null=True)
    your_turn = serializers.BooleanField()
    seats = SeatOutput(many=True)
    created_at = serializers.DateTimeField()
    updated_at = serializers.DateTimeField()


class MatchListOutput(serializers.Serializer):
    count = serializers.IntegerField()
    results = MatchSummaryOutput(many=True)


class EventsOutput(serializers.Serializer):
    version = serializers.IntegerField()
    last_event_seq = serializers.IntegerField()
    events = serializers.ListField(
        child=serializers.DictField(), help_text="public facts after `since`, oldest first"
    )


class RoundOutput(serializers.Serializer):
    number = serializers.IntegerField()
    seed_hash = serializers.CharField()
    over = serializers.BooleanField()
    started_at = serializers.DateTimeField()
    ended_at = serializers.DateTimeField(allow_null=True)
    seed = serializers.CharField(allow_null=True, help_text="revealed once the round is over")
    seating = serializers.ListField(child=serializers.IntegerField())
    deltas = serializers.ListField(child=serializers.IntegerField(), allow_null=True)


class RoundDetailOutput(RoundOutput):
    settlement = serializers.ListField(
        child=serializers.DictField(), required=False,
        help_text="one ledger entry per seat: delta and itemised breakdown",
    )
    result = serializers.DictField(required=False, help_text="the engine's round result")
    hands = serializers.ListField(
        child=serializers.ListField(child=serializers.DictField()), required=False,
        allow_null=True, help_text="every hand at the round's end",
    )
    bottom = serializers.ListField(
        child=serializers.DictField(), required=False, allow_null=True,
        help_text="2-player 510k: the 44 cards set aside",
    )


class LeaveOutput(serializers.Serializer):
    id = serializers.IntegerField()
    status = serializers.CharField()
    version = serializers.IntegerField(help_text="unchanged: leaving changes nothing in play")
