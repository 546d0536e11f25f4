"""Public rules endpoints, the same for every registered ruleset: which rulesets there are and
their options, how the engine judges a set of cards, and how it settles a round from its facts,
without a match. Clients use them to preview a
selection and explain a score; auditors to check the rules (docs/api.md has the contract)."""

from drf_spectacular.utils import OpenApiExample, extend_schema
from rest_framework import serializers
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.views import APIView

from games import presenters
from games.api.errors import ErrorSerializer
from games.api.schema import one_of
from games.api.serializers import Labels
from games.engine.cards import cards_from_codes
from games.engine.combos import Reading
from games.engine.errors import IllegalAction
from games.engine.registry import RULESETS
from games.engine.specs import AnyObject, parse
from games.errors import NotFound

MAX_CARDS = 120
ERRORS = {400: ErrorSerializer, 404: ErrorSerializer}


def _ruleset(name: str):
    if name not in RULESETS:
        raise NotFound(f"unknown ruleset {name!r}", known=sorted(RULESETS))
    return RULESETS[name]


class PublicView(APIView):
    """Open to anyone: no token is read."""

    permission_classes = [AllowAny]
    authentication_classes = []


class OptionLabels(serializers.Serializer):
    label = Labels()
    values = serializers.DictField(child=Labels(), help_text="a choice's label by its value "
                                   "(as a string); a choice without one is named by its value")


class RulesetOutput(serializers.Serializer):
    name = serializers.CharField(help_text="what `ruleset` takes when creating a match")
    title = serializers.DictField(child=serializers.CharField(), help_text="{en, zh}")
    players = serializers.ListField(child=serializers.IntegerField(),
                                    help_text="the table sizes it plays")
    options = serializers.DictField(help_text="the JSON schema of its options: types, bounds, "
                                    "choices and defaults (also the <Ruleset>Options component)")
    labels = serializers.DictField(
        child=OptionLabels(), help_text="per option: its label and its choices' labels, for people")


class RulesetListView(PublicView):

    @extend_schema(
        operation_id="rules_list",
        summary="The rulesets, their titles, table sizes and options (to build a new-match form)",
        responses={200: RulesetOutput(many=True)},
    )
    def get(self, request):
        return Response([presenters.ruleset_info(r) for r in RULESETS.values()])


class ReadingSerializer(serializers.Serializer):
    type = serializers.CharField(max_length=20)
    rank = serializers.CharField(max_length=2)
    length = serializers.IntegerField(min_value=1, max_value=MAX_CARDS)
    triples = serializers.IntegerField(
        required=False, min_value=0, max_value=MAX_CARDS,
        help_text="510k planes only: how many triples the plane has",
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


class EvaluateView(PublicView):

    @extend_schema(
        operation_id="rules_evaluate",
        summary="How the rules read a set of cards, and whether it beats a previous play",
        request=EvaluateInput,
        responses={200: EvaluateOutput, **ERRORS},
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


class SettleOutput(serializers.Serializer):
    deltas = serializers.ListField(child=serializers.IntegerField(),
                                   help_text="points per seat; they sum to zero")
    breakdown = serializers.ListField(child=serializers.DictField(), required=False)
    settlement = serializers.ListField(child=serializers.IntegerField(), required=False)
    xi = serializers.ListField(child=serializers.IntegerField(), required=False)
    level = serializers.CharField(required=False)
    winner_seats = serializers.ListField(child=serializers.IntegerField(), required=False)


BODY = AnyObject("`options`, then the facts")


class SettleView(PublicView):

    @extend_schema(
        operation_id="rules_settle",
        summary="Settle one round from its facts, itemised (each ruleset's facts: its "
        "SettleInput component)",
        request={"application/json": one_of("SettleInput", "the ruleset's facts")},
        responses={200: SettleOutput, **ERRORS},
        examples=[OpenApiExample(f"{r.info.title['en']}", request_only=True,
                                 value=r.info.settle_example)
                  for r in RULESETS.values() if r.info.settle_example],
    )
    def post(self, request, ruleset: str):
        engine = _ruleset(ruleset)
        body = parse(BODY, request.data, "invalid_input")
        options = engine.parse_options(body.pop("options", {}))
        return Response(engine.settle(options, body))
