"""The shapes of the match endpoints. Request bodies are specs (games.engine.specs: one parse,
exact JSON types, no unknown fields, and the schema OpenAPI shows); responses are documented by
the serializers below, the ruleset views by the engine's own specs (games.api.schema)."""

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from games.api.schema import any_of, one_of
from games.engine.actions import ACTION
from games.engine.specs import (
    AnyObject,
    Bool,
    Choice,
    Field,
    Int,
    List,
    Nullable,
    Obj,
    Spec,
    Tagged,
    Text,
)
from games.engine.vocabulary import MAX_SEATS
from games.models import BOT_LEVELS, Match

WHOLE = 2**31 - 1

ACT = Obj({
    "expected_version": Field(Int(0, WHOLE, "the `version` of the view you act on; 409 if it "
                                  "moved on")),
    "action": Field(ACTION),
    "seat": Field(Nullable(Int(0, MAX_SEATS - 1, "optional: your seat, checked (403 if not "
                                                 "yours)")), None),
}, "one action on your turn")

SEAT = Tagged("type", {
    "human": Obj({"type": Field(Choice(("human",)))},
                 "a person: you at seat 0, else open until someone joins with the invite code"),
    "bot": Obj({"type": Field(Choice(("bot",))),
                "level": Field(Choice(BOT_LEVELS, "how well it plays"), "normal")}, "a bot"),
})

CREATE = Obj({
    "ruleset": Field(Nullable(Text(20, "a ruleset's name: gandengyan or 510k; required without "
                                   "a table")), None),
    "table": Field(Nullable(Text(50, "a table's slug (GET /tables/): its ruleset, options and "
                                 "bots")), None),
    "options": Field(AnyObject("the ruleset's options, and the match's turn clock "
                               "(`turn_seconds`); missing ones take the table's, else the "
                               "site-wide defaults, else the ruleset's; `players` defaults to "
                               "the number of seats; a table that fixes its options refuses "
                               "other values", any_of("MatchOptions", "")), {}),
    "seats": Field(Nullable(List(SEAT, MAX_SEATS, 1, "seat 0 is yours (human); default: you "
                                 "and `players - 1` bots (normal, or the table's)")), None),
    "watchable": Field(Nullable(Bool("anyone may watch it (public facts only) and replay it "
                                     "once finished; default: as its table says, false "
                                     "without a table")), None),
}, "a new match")


def request_schema(spec: Spec) -> dict:
    return {"application/json": spec.schema()}


AUTOPLAY = Obj({"on": Field(Bool("true: the server plays your seat (托管); false: you take "
                                 "it back"))}, "托管 on or off")


class JoinInput(serializers.Serializer):
    code = serializers.CharField(max_length=32, help_text="the invite code the creator shared")


class SeatOutput(serializers.Serializer):
    seat = serializers.IntegerField()
    kind = serializers.ChoiceField(choices=["human", "bot"])
    level = serializers.CharField(allow_null=True)
    player = serializers.CharField(allow_null=True, help_text="the person's name as people "
                                   "read it: their display name, else their username")
    open = serializers.BooleanField(help_text="a human seat nobody has joined yet")
    you = serializers.BooleanField()
    score = serializers.IntegerField()
    eliminated = serializers.BooleanField()
    autoplay = serializers.ChoiceField(
        choices=["timeout", "asked"], allow_null=True,
        help_text="托管: the server plays this person's seat (their clock ran out, or they "
        "asked) until they take it back")


class ClockOutput(serializers.Serializer):
    turn_seconds = serializers.IntegerField(help_text="seconds a person has for each decision")
    server_time = serializers.DateTimeField()
    deadline = serializers.DateTimeField(
        allow_null=True, help_text="when the person to act runs out of time (the server then "
        "plays for them and puts their seat in 托管); null while the server is to act")
    seconds_left = serializers.FloatField(allow_null=True)


class RoundRef(serializers.Serializer):
    number = serializers.IntegerField()
    seed_hash = serializers.CharField(help_text="SHA-256 of the round's secret seed")


@extend_schema_field(one_of("View", "the ruleset's view for your seat (see its component)"))
class RulesetView(serializers.DictField):
    pass


STATUSES = Match.Status.values
ANSWERS = ["accepted", "pending", "bot"]


class RematchAnswer(serializers.Serializer):
    seat = serializers.IntegerField()
    answer = serializers.ChoiceField(
        choices=ANSWERS, help_text="accepted: seated; pending: the seat is kept for its person; "
        "bot: a bot took it (declined, or no answer in time)")


class RematchOutput(serializers.Serializer):
    id = serializers.IntegerField(help_text="the rematch: a match of its own")
    status = serializers.ChoiceField(choices=STATUSES)
    bots_fill_at = serializers.DateTimeField(
        allow_null=True, help_text="while it waits: when bots take the seats still open")
    asked_by = serializers.IntegerField(help_text="the seat of the person who asked for it")
    seats = RematchAnswer(many=True, help_text="each person's seat of the finished match")
    yours = serializers.ChoiceField(choices=ANSWERS, allow_null=True,
                                    help_text="your answer (null: staff looking on)")


REMATCH = RematchOutput(allow_null=True, help_text="a finished match played again by its "
                        "people (POST /matches/{id}/rematch/); null: nobody asked")


class MatchViewOutput(serializers.Serializer):
    id = serializers.IntegerField()
    ruleset = serializers.CharField()
    options = serializers.DictField(help_text="frozen at creation")
    options_hash = serializers.CharField(
        help_text="SHA-256 of `options` as canonical JSON (keys sorted, no spaces, UTF-8)")
    status = serializers.ChoiceField(choices=STATUSES)
    version = serializers.IntegerField(help_text="send it back as `expected_version`")
    invite_code = serializers.CharField(allow_null=True, help_text="while seats are open")
    bots_fill_at = serializers.DateTimeField(
        allow_null=True, help_text="a waiting quick match or rematch: when bots take the open "
        "seats")
    you = serializers.IntegerField(allow_null=True, help_text="your seat")
    to_act = serializers.IntegerField(allow_null=True)
    your_turn = serializers.BooleanField()
    round = RoundRef(allow_null=True)
    seats = SeatOutput(many=True)
    clock = ClockOutput(allow_null=True, help_text="null: no turn clock")
    server_pace_ms = serializers.IntegerField(
        help_text="milliseconds between the server's consecutive moves (bots, 托管), twice as "
        "long after a trick is taken and before a round; 0: at once")
    state = RulesetView(allow_null=True)
    legal_actions = serializers.ListField(
        child=serializers.DictField(), help_text="what you may send now; plays list card ids, "
        "their reading and, in 510k, how many `extras` (带牌) you may add",
    )
    events = serializers.ListField(child=serializers.DictField())
    last_event_seq = serializers.IntegerField()
    standings = serializers.ListField(child=serializers.DictField(), allow_null=True)
    rematch = REMATCH
    watchable = serializers.BooleanField(
        help_text="anyone may watch it and replay it once finished (its players and staff "
        "always may)")
    spectators = serializers.IntegerField(
        allow_null=True, help_text="how many people watch it now (their stream is open); null "
        "in an act's answer")


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
    rematch = REMATCH
    created_at = serializers.DateTimeField()
    updated_at = serializers.DateTimeField()


class MatchListOutput(serializers.Serializer):
    results = MatchSummaryOutput(many=True)
    next = serializers.IntegerField(allow_null=True, help_text="pass it as `before` for the "
                                    "next page; null on the last")


class WatchSummaryOutput(serializers.Serializer):
    id = serializers.IntegerField()
    ruleset = serializers.CharField()
    table = serializers.CharField(allow_null=True, help_text="its table's slug, if any")
    round = serializers.IntegerField()
    people = serializers.IntegerField(help_text="people seated (the others are bots)")
    spectators = serializers.IntegerField(help_text="how many watch it now")
    seats = SeatOutput(many=True)
    created_at = serializers.DateTimeField()


class WatchPage(serializers.Serializer):
    people = serializers.IntegerField()
    before = serializers.IntegerField()


class WatchListOutput(serializers.Serializer):
    results = WatchSummaryOutput(many=True)
    next = WatchPage(allow_null=True, help_text="pass both as query parameters for the next "
                     "page; null on the last")


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
    scores = serializers.ListField(
        child=serializers.IntegerField(), required=False, allow_null=True,
        help_text="every seat's match score once this round was settled",
    )
    hands = serializers.ListField(
        child=serializers.ListField(child=serializers.DictField()), required=False,
        allow_null=True, help_text="every hand at the round's end",
    )
    bottom = serializers.ListField(
        child=serializers.DictField(), required=False, allow_null=True,
        help_text="2-player 510k: the 44 cards set aside",
    )


class ReplayOutput(serializers.Serializer):
    id = serializers.IntegerField()
    ruleset = serializers.CharField()
    options = serializers.DictField()
    options_hash = serializers.CharField()
    status = serializers.ChoiceField(choices=STATUSES, help_text="finished or aborted")
    watchable = serializers.BooleanField(help_text="anyone may replay it")
    you = serializers.IntegerField(allow_null=True, help_text="your seat, if you played")
    seats = SeatOutput(many=True)
    standings = serializers.ListField(child=serializers.DictField(), allow_null=True)
    rounds = RoundOutput(many=True, help_text="the rounds played to their end (an aborted "
                         "match's last is not), each with its seed")


class ReplayStepOutput(serializers.Serializer):
    seq = serializers.IntegerField()
    seat = serializers.IntegerField()
    actor = serializers.ChoiceField(choices=["human", "bot", "auto"])
    reason = serializers.CharField(allow_null=True, help_text="why the server played it")
    action = serializers.DictField()
    events = serializers.ListField(child=serializers.DictField(),
                                   help_text="the ruleset's events the move caused")
    view = serializers.DictField(help_text="the full view after it: every hand open")


class RoundReplayOutput(RoundDetailOutput):
    start = serializers.DictField(help_text="the full view as the round was dealt (510k: "
                                  "before the cut deals the hands)")
    steps = ReplayStepOutput(many=True)


class LeaveOutput(serializers.Serializer):
    id = serializers.IntegerField()
    status = serializers.CharField()
    version = serializers.IntegerField(help_text="unchanged: leaving changes nothing in play")


class Labels(serializers.Serializer):
    en = serializers.CharField()
    zh = serializers.CharField()


class OptionDescribed(serializers.Serializer):
    option = serializers.CharField(help_text="its key in `options`")
    label = Labels()
    value = serializers.JSONField()
    text = Labels(help_text="the value as people read it")


class TableOutput(serializers.Serializer):
    slug = serializers.CharField(help_text="send it as `table`, or play at /tables/{slug}/play/")
    name = serializers.CharField()
    ruleset = serializers.CharField()
    ruleset_title = Labels()
    players = serializers.IntegerField()
    options = serializers.DictField(help_text="what a match from this table plays with")
    options_hash = serializers.CharField(help_text="the `options_hash` its matches have")
    options_described = OptionDescribed(many=True)
    allow_override = serializers.BooleanField(
        help_text="a match created with this table may change its options")
    bot_levels = serializers.ListField(child=serializers.CharField(),
                                       help_text="the bots of seats 1, 2...")
    bots_after = serializers.IntegerField(
        help_text="seconds a quick match waits for people before bots take the open seats")
    turn_seconds = serializers.IntegerField(
        allow_null=True, help_text="seconds a person has for each decision; 0: no clock; null: "
        "none when one person plays against bots, 30 when people share the table")
    server_pace_ms = serializers.IntegerField(
        help_text="milliseconds between the server's consecutive moves in its matches")
    watchable = serializers.BooleanField(help_text="anyone may watch its matches")


class PhraseOutput(serializers.Serializer):
    key = serializers.CharField(help_text="what a player sends, and the stream's `phrase`")
    kind = serializers.ChoiceField(choices=["phrase", "emoji"])
    text = Labels()


class PhraseListOutput(serializers.Serializer):
    results = PhraseOutput(many=True)


class TalkOutput(serializers.Serializer):
    seat = serializers.IntegerField(help_text="who said it")
    phrase = serializers.CharField()
    at = serializers.DateTimeField()


class TableListOutput(serializers.Serializer):
    results = TableOutput(many=True)
