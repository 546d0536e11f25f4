"""Public rules endpoints: how the engine judges a set of cards and settles a round, without a
match. Clients use them to preview a selection and explain a score; auditors to check the rules
(see ../shared/conformance/CONTRACT.md)."""

from django.http import Http404
from drf_spectacular.utils import OpenApiExample, extend_schema, extend_schema_view
from rest_framework import serializers
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.views import APIView

from games.engine.cards import RANK_INDEX, cards_from_codes
from games.engine.combos import Reading
from games.engine.errors import IllegalAction
from games.engine.registry import RULESETS
from scoring.rules import SettlementError, five_ten_k_settle, gandengyan_settle

RULESET_NAMES = "gandengyan or 510k"
MAX_CARDS = 120


def _ruleset(name: str):
    if name not in RULESETS:
        raise Http404(f"unknown ruleset {name!r}: {RULESET_NAMES}")
    return RULESETS[name]


class ReadingSerializer(serializers.Serializer):
    type = serializers.CharField()
    rank = serializers.CharField()
    length = serializers.IntegerField()
    triples = serializers.IntegerField(
        required=False, help_text="510k planes only: how many triples the plane has"
    )


class CardCodes(serializers.ListField):
    child = serializers.CharField(max_length=3)

    def __init__(self, **kwargs):
        super().__init__(max_length=MAX_CARDS, **kwargs)


class EvaluateInput(serializers.Serializer):
    options = serializers.DictField(required=False, default=dict)
    cards = CardCodes()
    previous = CardCodes(required=False, allow_null=True)
    previous_reading = ReadingSerializer(required=False, allow_null=True)


class EvaluateOutput(serializers.Serializer):
    valid = serializers.BooleanField()
    readings = ReadingSerializer(many=True)
    beats_previous = serializers.BooleanField(allow_null=True)
    beating_readings = ReadingSerializer(
        many=True, help_text="the readings that may be played on `previous`"
    )


def _previous_reading(ruleset, options, codes, named) -> Reading:
    readings = ruleset.readings(options, cards_from_codes(codes, ruleset.pack(options)))
    if not readings:
        raise IllegalAction("invalid_previous", "`previous` is not a combination", previous=codes)
    if named is not None:
        wanted = Reading.from_dict(named)
        readings = [r for r in readings if r.named_by(wanted)]
        if not readings:
            raise IllegalAction(
                "invalid_previous", "`previous_reading` is not a reading of `previous`",
                reading=named,
            )
    if len(readings) > 1:
        raise IllegalAction(
            "ambiguous_previous", "`previous` has several readings: name one in "
            "`previous_reading`", readings=[r.to_dict() for r in readings],
        )
    return readings[0]


class EvaluateView(APIView):
    permission_classes = [AllowAny]
    authentication_classes = []

    @extend_schema(
        operation_id="rules_evaluate",
        summary="How the rules read a set of cards, and whether it beats a previous play",
        request=EvaluateInput,
        responses={200: EvaluateOutput},
        examples=[
            OpenApiExample(
                "8 + joker on a pair of 7s",
                request_only=True,
                value={"options": {"decks": 1}, "cards": ["8H", "SJ"], "previous": ["7S", "7D"]},
            ),
            OpenApiExample(
                "A pair of 8s beats a pair of 7s",
                response_only=True,
                value={"valid": True, "readings": [{"type": "pair", "rank": "8", "length": 2}],
                       "beats_previous": True,
                       "beating_readings": [{"type": "pair", "rank": "8", "length": 2}]},
            ),
        ],
    )
    def post(self, request, ruleset: str):
        engine = _ruleset(ruleset)
        data = EvaluateInput(data=request.data)
        data.is_valid(raise_exception=True)
        body = data.validated_data
        options = engine.parse_options(body["options"])
        cards = cards_from_codes(body["cards"], engine.pack(options))
        readings = engine.readings(options, cards)
        beats_previous = None
        beating = []
        if body.get("previous") is not None:
            previous = _previous_reading(
                engine, options, body["previous"], body.get("previous_reading")
            )
            beating = [r for r in readings if engine.beats(options, r, previous)]
            beats_previous = bool(beating)
        return Response(
            {
                "valid": bool(readings),
                "readings": [r.to_dict() for r in readings],
                "beats_previous": beats_previous,
                "beating_readings": [r.to_dict() for r in beating],
            }
        )


class GandengyanSettleInput(serializers.Serializer):
    options = serializers.DictField(required=False, default=dict)
    winner = serializers.IntegerField(min_value=0)
    remaining = serializers.ListField(child=serializers.IntegerField(min_value=0), max_length=6)
    played_any = serializers.ListField(child=serializers.BooleanField(), max_length=6)
    forfeited = serializers.ListField(child=serializers.BooleanField(), max_length=6)
    bombs = serializers.ListField(
        child=serializers.IntegerField(), required=False, default=list, max_length=64
    )


class XiBombSerializer(serializers.Serializer):
    rank = serializers.ChoiceField(choices=list(RANK_INDEX))
    count = serializers.IntegerField()


class FiveTenKSettleInput(serializers.Serializer):
    options = serializers.DictField(required=False, default=dict)
    banker = serializers.IntegerField(allow_null=True, required=False, default=None)
    teams = serializers.ListField(
        child=serializers.ListField(child=serializers.IntegerField(), max_length=4),
        required=False, default=list, max_length=4,
    )
    finish_order = serializers.ListField(child=serializers.IntegerField(), max_length=4)
    captured = serializers.ListField(child=serializers.IntegerField(), max_length=4)
    xi_bombs = serializers.ListField(
        child=serializers.ListField(child=XiBombSerializer(), max_length=32),
        required=False, max_length=4,
    )


class SettleOutput(serializers.Serializer):
    deltas = serializers.ListField(child=serializers.IntegerField())
    breakdown = serializers.ListField(child=serializers.DictField(), required=False)
    settlement = serializers.ListField(child=serializers.IntegerField(), required=False)
    xi = serializers.ListField(child=serializers.IntegerField(), required=False)
    level = serializers.CharField(required=False)
    winner_seats = serializers.ListField(child=serializers.IntegerField(), required=False)


def _settle_gandengyan(engine, body) -> dict:
    options = engine.parse_options(body["options"])
    players = options["players"]
    for field in ("remaining", "played_any", "forfeited"):
        if len(body[field]) != players:
            raise SettlementError(f"{field} needs one entry per seat ({players})", field=field)
    return gandengyan_settle(
        winner=body["winner"], remaining=body["remaining"], played_any=body["played_any"],
        forfeited=body["forfeited"], bombs=body["bombs"], decks=options["decks"],
    )


def _settle_five_ten_k(engine, body) -> dict:
    options = engine.parse_options(body["options"])
    players = options["players"]
    xi_bombs = body.get("xi_bombs") or [[] for _ in range(players)]
    return five_ten_k_settle(
        players=players, base_score=options["base_score"], dry=options["dry"],
        xi_mode=options["xi_mode"], banker=None if players == 2 else body["banker"],
        teams=body["teams"], finish_order=body["finish_order"], captured=body["captured"],
        xi_bombs=[[(RANK_INDEX[b["rank"]], b["count"]) for b in bombs] for bombs in xi_bombs],
    )


class _SettleView(APIView):
    permission_classes = [AllowAny]
    authentication_classes = []
    ruleset: str
    input_class: type[serializers.Serializer]
    settle: staticmethod  # (engine, validated body) -> settlement dict

    def post(self, request):
        engine = RULESETS[self.ruleset]
        data = self.input_class(data=request.data)
        data.is_valid(raise_exception=True)
        return Response(self.settle(engine, data.validated_data))


@extend_schema_view(post=extend_schema(
    operation_id="rules_gandengyan_settle",
    summary="Settle one gandengyan round from its facts, with an itemised breakdown",
    request=GandengyanSettleInput,
    responses={200: SettleOutput},
    examples=[
        OpenApiExample(
            "Two bombs multiply by 8",
            request_only=True,
            value={"options": {"players": 4, "decks": 1}, "winner": 0,
                   "remaining": [0, 2, 5, 1], "played_any": [True, True, True, False],
                   "forfeited": [False, False, False, False], "bombs": [3, 4]},
        ),
    ],
))
class GandengyanSettleView(_SettleView):
    ruleset = "gandengyan"
    input_class = GandengyanSettleInput
    settle = staticmethod(_settle_gandengyan)


@extend_schema_view(post=extend_schema(
    operation_id="rules_510k_settle",
    summary="Settle one 510k round from its facts: settlement, 喜分, level, winners",
    request=FiveTenKSettleInput,
    responses={200: SettleOutput},
    examples=[
        OpenApiExample(
            "2 against 2 with a 5-card bomb",
            request_only=True,
            value={"options": {"players": 4, "base_score": 1, "dry": "full",
                               "xi_mode": "multiplicative"},
                   "banker": None, "teams": [[0, 2], [1, 3]], "finish_order": [0, 1, 2],
                   "captured": [60, 40, 50, 50],
                   "xi_bombs": [[], [{"rank": "8", "count": 5}], [], []]},
        ),
    ],
))
class FiveTenKSettleView(_SettleView):
    ruleset = "510k"
    input_class = FiveTenKSettleInput
    settle = staticmethod(_settle_five_ten_k)
