"""Match endpoints: one thin view per use case; the work is in games.services (writes),
games.selectors (reads) and games.presenters (response shapes). Bodies are parsed by specs, the
same descriptions the OpenAPI schema shows."""

from drf_spectacular.utils import OpenApiExample, OpenApiParameter, extend_schema
from rest_framework import status
from rest_framework.response import Response
from rest_framework.views import APIView

from games import presenters, selectors, services, sql
from games.api.errors import ErrorSerializer
from games.api.params import (
    IDEMPOTENCY_KEY_PARAMETER,
    QueryChoice,
    QueryInt,
    idempotency_key,
    takes,
)
from games.api.schema import example_view
from games.api.serializers import (
    ACT,
    AUTOPLAY,
    CREATE,
    STATUSES,
    WHOLE,
    EventsOutput,
    JoinInput,
    LeaveOutput,
    MatchListOutput,
    MatchViewOutput,
    RoundDetailOutput,
    RoundOutput,
    request_schema,
)
from games.engine.actions import action_from_parsed
from games.engine.registry import RULESETS
from games.engine.specs import parse

ERRORS = {400: ErrorSerializer, 403: ErrorSerializer, 404: ErrorSerializer,
          409: ErrorSerializer, 413: ErrorSerializer}
MAX_PAGE = 100
STATUS = QueryChoice("status", tuple(STATUSES))
PAGE_SIZE = QueryInt("limit", 1, MAX_PAGE, 20, "page size")
BEFORE = QueryInt("before", 1, 2**63 - 1, description="the `next` of the previous page")
SINCE = QueryInt("since", 0, WHOLE, 0, "the last event seq you have")
EVENTS = QueryInt("limit", 1, selectors.MAX_EVENTS, selectors.MAX_EVENTS,
                  "how many events at most")
VIEW_EXAMPLES = [
    OpenApiExample(f"Your turn in {ruleset.info.title['en']}", response_only=True,
                   value=example_view(ruleset))
    for ruleset in RULESETS.values()
]


def read_with_token(request) -> sql.MatchRow | None:
    """The match the view's `match_row` read with the token that authenticated the request (one
    query for both: accounts.authentication), if it did."""
    return getattr(request, "match_row", None)


def view_response(read, state=None, legal=None, code=status.HTTP_200_OK,
                  headers: dict | None = None) -> Response:
    return Response(presenters.match_view(read, state, legal), status=code, headers={
        "ETag": f'"{read.match.version}"', "Cache-Control": "private, no-cache", **(headers or {})})


def seated_response(user, seated: services.Seated) -> Response:
    """`user`'s view of the match they sat down at: 201 if it was opened for them, else 200."""
    read = services.match_read(user, seated.match.pk, events=selectors.RECENT_EVENTS)
    return view_response(read, code=status.HTTP_201_CREATED if seated.opened
                         else status.HTTP_200_OK)


class MatchListCreateView(APIView):
    @extend_schema(
        operation_id="matches_list",
        summary="My matches, newest first (filter by status to offer 'continue')",
        parameters=[STATUS.parameter(), PAGE_SIZE.parameter(), BEFORE.parameter()],
        responses={200: MatchListOutput, 400: ErrorSerializer},
    )
    @takes(STATUS, PAGE_SIZE, BEFORE)
    def get(self, request):
        wanted, limit = STATUS.parse(request), PAGE_SIZE.parse(request)
        before = BEFORE.parse(request)
        page = selectors.matches_of(request.user, wanted, before, limit + 1)
        more = len(page) > limit
        page = page[:limit]
        return Response({
            "results": [presenters.match_summary(m, request.user) for m in page],
            "next": page[-1].pk if more else None,
        })

    @extend_schema(
        operation_id="matches_create",
        summary="Create a match from a ruleset or a table; you take seat 0",
        request=request_schema(CREATE),
        responses={201: MatchViewOutput, **ERRORS},
        examples=[
            OpenApiExample(
                "Gandengyan, you against three bots", request_only=True,
                value={"ruleset": "gandengyan", "options": {"decks": 1, "starting_score": 500},
                       "seats": [{"type": "human"}, {"type": "bot", "level": "normal"},
                                 {"type": "bot", "level": "random"},
                                 {"type": "bot", "level": "hard"}]},
            ),
            OpenApiExample("At a table, against its bots", request_only=True,
                           value={"table": "510k-base5-half-dry"}),
            OpenApiExample(
                "510k, two rounds, a friend joins with the invite code", request_only=True,
                value={"ruleset": "510k", "options": {"rounds": 2},
                       "seats": [{"type": "human"}, {"type": "human"},
                                 {"type": "bot", "level": "normal"},
                                 {"type": "bot", "level": "normal"}]},
            ),
            *VIEW_EXAMPLES,
        ],
    )
    def post(self, request):
        body = parse(CREATE, request.data, "invalid_input")
        match = services.match_create(owner=request.user, ruleset=body["ruleset"],
                                      table=body["table"], options=body["options"],
                                      seats=body["seats"], watchable=body["watchable"])
        read = selectors.match_for(request.user, match.pk, events=selectors.MAX_EVENTS)
        return view_response(read, code=status.HTTP_201_CREATED)


class MatchDetailView(APIView):
    @staticmethod
    def match_row(match_id: int, reader: sql.Reader) -> sql.MatchRow | None:
        """What get() reads first, with the reader's token (accounts.authentication)."""
        return selectors.row_of(match_id, events=selectors.RECENT_EVENTS, reader=reader)

    @extend_schema(
        operation_id="matches_view",
        summary="My view of a match (resume here); ETag = version, If-None-Match → 304",
        parameters=[OpenApiParameter("If-None-Match", str, OpenApiParameter.HEADER)],
        responses={200: MatchViewOutput, 304: None, 404: ErrorSerializer},
        examples=VIEW_EXAMPLES,
    )
    def get(self, request, match_id: int):
        read = services.match_read(request.user, match_id, events=selectors.RECENT_EVENTS,
                                   row=read_with_token(request))
        etag = f'"{read.match.version}"'
        if request.headers.get("If-None-Match") == etag:
            return Response(status=status.HTTP_304_NOT_MODIFIED, headers={"ETag": etag})
        return view_response(read)


class MatchActView(APIView):
    @staticmethod
    def match_row(match_id: int, reader: sql.Reader) -> sql.MatchRow | None:
        """What post() reads first, with the reader's token (accounts.authentication)."""
        return sql.match_row(match_id, reader=reader)

    @extend_schema(
        operation_id="matches_act",
        summary="Play, pass, cut or bid; 200 with your new view (bots' replies included)",
        parameters=[IDEMPOTENCY_KEY_PARAMETER],
        request=request_schema(ACT),
        responses={200: MatchViewOutput, **ERRORS},
        examples=[
            OpenApiExample("Play two cards", request_only=True,
                           value={"expected_version": 12,
                                  "action": {"type": "play", "cards": [20, 52]}}),
            OpenApiExample("Name the reading of an ambiguous play", request_only=True,
                           value={"expected_version": 12,
                                  "action": {"type": "play", "cards": [0, 52, 53],
                                             "reading": {"type": "straight", "rank": "3",
                                                         "length": 3}}}),
            OpenApiExample("Pass", request_only=True,
                           value={"expected_version": 13, "action": {"type": "pass"}}),
            OpenApiExample("Cut at random (510k)", request_only=True,
                           value={"expected_version": 1,
                                  "action": {"type": "cut", "position": None}}),
            OpenApiExample("Go solo (510k)", request_only=True,
                           value={"expected_version": 2, "action": {"type": "bid", "solo": True}}),
            OpenApiExample("Stale version", response_only=True, status_codes=["409"],
                           value={"error": {"code": "stale_version",
                                            "message": "The match has changed since it was "
                                            "loaded: reload it and try again.",
                                            "details": {"expected": 12, "current": 14}}}),
            OpenApiExample("Ambiguous play", response_only=True, status_codes=["400"],
                           value={"error": {"code": "ambiguous_play",
                                            "message": "those cards can be read several ways: "
                                            "name one",
                                            "details": {"readings": [
                                                {"type": "bomb", "rank": "3", "length": 3},
                                                {"type": "straight", "rank": "3",
                                                 "length": 3}]}}}),
            *VIEW_EXAMPLES,
        ],
    )
    def post(self, request, match_id: int):
        body = parse(ACT, request.data, "invalid_input")
        answer = services.player_act(
            user=request.user, match_id=match_id, seat=body["seat"],
            action=action_from_parsed(body["action"]),
            expected_version=body["expected_version"], idempotency_key=idempotency_key(request),
            row=read_with_token(request))
        replayed = {"Idempotent-Replayed": "true"} if answer.replayed else {}
        return view_response(answer.read, answer.state, headers=replayed)


class MatchEventsView(APIView):
    @extend_schema(
        operation_id="matches_events",
        summary="Public events after sequence number `since` (poll with the last seq you saw)",
        parameters=[SINCE.parameter(), EVENTS.parameter()],
        responses={200: EventsOutput, 400: ErrorSerializer, 404: ErrorSerializer},
    )
    @takes(SINCE, EVENTS)
    def get(self, request, match_id: int):
        since, limit = SINCE.parse(request), EVENTS.parse(request)
        read = services.match_read(request.user, match_id, events_after=since, events=limit)
        return Response({
            "version": read.match.version,
            "last_event_seq": read.match.last_event_seq,
            "events": presenters.event_dicts(read.events),
        })


class MatchRoundsView(APIView):
    @extend_schema(
        operation_id="matches_rounds",
        summary="Every round so far: seed hash, and once over the seed and the deltas",
        responses={200: RoundOutput(many=True), 404: ErrorSerializer},
    )
    def get(self, request, match_id: int):
        read = services.match_read(request.user, match_id)
        return Response([presenters.round_summary(r) for r in selectors.rounds_of(read.match)])


class MatchRoundDetailView(APIView):
    @extend_schema(
        operation_id="matches_round",
        summary="One round; once over: itemised settlement, every hand, the bottom, the seed",
        responses={200: RoundDetailOutput, 404: ErrorSerializer},
    )
    def get(self, request, match_id: int, number: int):
        read = services.match_read(request.user, match_id)
        return Response(presenters.round_detail(selectors.round_of(read.match, number)))


class MatchJoinView(APIView):
    @extend_schema(
        operation_id="matches_join",
        summary="Take an open human seat with an invite code",
        request=JoinInput,
        responses={200: MatchViewOutput, **ERRORS},
        examples=[OpenApiExample("Join", request_only=True, value={"code": "K7QX2MZP4D"})],
    )
    def post(self, request, match_id: int | None = None):
        data = JoinInput(data=request.data)
        data.is_valid(raise_exception=True)
        match = services.match_join(
            user=request.user, code=data.validated_data["code"], match_id=match_id
        )
        return view_response(selectors.match_for(request.user, match.pk,
                                                 events=selectors.RECENT_EVENTS))


class MatchJoinByIdView(MatchJoinView):
    @extend_schema(
        operation_id="matches_join_by_id",
        summary="Take an open human seat of this match with its invite code",
        request=JoinInput,
        responses={200: MatchViewOutput, **ERRORS},
    )
    def post(self, request, match_id: int):
        return super().post(request, match_id)


class MatchAutoplayView(APIView):
    @extend_schema(
        operation_id="matches_autoplay",
        summary="托管: let the server play your seat, or take it back (either brings a paused "
                "match back); 200 with your view",
        request=request_schema(AUTOPLAY),
        responses={200: MatchViewOutput, **ERRORS},
        examples=[OpenApiExample("Take my seat back", request_only=True, value={"on": False})],
    )
    def post(self, request, match_id: int):
        body = parse(AUTOPLAY, request.data, "invalid_input")
        services.autoplay_set(user=request.user, match_id=match_id, on=body["on"])
        return view_response(services.match_read(request.user, match_id,
                                                  events=selectors.RECENT_EVENTS))


class MatchLeaveView(APIView):
    @extend_schema(
        operation_id="matches_leave",
        summary="Leave: the match stays saved as it is; GET the match later to resume",
        request=None,
        responses={200: LeaveOutput, 404: ErrorSerializer},
    )
    def post(self, request, match_id: int):
        services.match_read(request.user, match_id)
        match = services.match_leave(user=request.user, match_id=match_id)
        return Response({"id": match.pk, "status": match.status, "version": match.version})
