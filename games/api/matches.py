"""Match endpoints: one thin view per use case; the work is in games.services (writes) and
games.selectors (reads). Every response to a player is built from that player's view."""

from django.contrib.auth import get_user_model
from django.db import connections, router
from django.utils.translation import gettext as _
from drf_spectacular.drainage import set_override
from drf_spectacular.utils import OpenApiExample, OpenApiParameter, extend_schema
from rest_framework import authentication, exceptions, status
from rest_framework.exceptions import ValidationError
from rest_framework.response import Response
from rest_framework.settings import api_settings
from rest_framework.views import APIView

from games import selectors, services
from games.api.errors import ErrorSerializer
from games.api.serializers import (
    ActInput,
    ActionInput,
    EventsOutput,
    JoinInput,
    LeaveOutput,
    MatchCreateInput,
    MatchListOutput,
    MatchViewOutput,
    RoundDetailOutput,
    RoundOutput,
)
from games.models import Match, Move

ERRORS = {400: ErrorSerializer, 403: ErrorSerializer, 404: ErrorSerializer,
          409: ErrorSerializer, 413: ErrorSerializer}
MAX_PAGE = 100

VIEW_EXAMPLE = OpenApiExample(
    "Your turn in gandengyan",
    response_only=True,
    value={
        "id": 7, "ruleset": "gandengyan", "status": "active", "version": 12, "you": 0,
        "to_act": 0, "your_turn": True, "invite_code": None,
        "options": {"decks": 1, "players": 4, "starting_score": 500},
        "round": {"number": 1, "seed_hash": "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d"
                  "6c15b0f00a08"},
        "seats": [{"seat": 0, "kind": "human", "level": None, "player": "ada", "open": False,
                   "you": True, "score": 500, "eliminated": False},
                  {"seat": 1, "kind": "bot", "level": "normal", "player": None, "open": False,
                   "you": False, "score": 500, "eliminated": False}],
        "state": {"phase": "play", "to_act": 0,
                  "hand": [{"id": 20, "code": "8S", "playable": True},
                           {"id": 52, "code": "SJ", "playable": True}],
                  "counts": [2, 5, 5, 5], "pile": 28,
                  "table": [{"seat": 3, "cards": [{"id": 16, "code": "7S"}],
                             "reading": {"type": "single", "rank": "7", "length": 1},
                             "latest": True}]},
        "legal_actions": [
            {"type": "play", "cards": [20], "reading": {"type": "single", "rank": "8",
                                                         "length": 1}},
            {"type": "pass"}],
        "events": [{"seq": 30, "round": 1, "version": 12, "type": "play", "seat": 3,
                    "cards": [{"id": 16, "code": "7S"}]}],
        "last_event_seq": 30, "standings": None,
    },
)


class TokenAuthentication(authentication.TokenAuthentication):
    """DRF's token check, with the same answers, in one written-out query: the ORM's
    select_related query cost more to compile than the match endpoints' own work. Nothing is
    cached: a deleted token or a deactivated user is refused at once. The match views use it in
    place of DRF's own."""

    # What the match views use of the user; any other field loads on first use, as a deferred
    # field does.
    USER_FIELDS = ("id", "username", "is_active", "is_staff", "is_superuser")
    FLAGS = ("is_active", "is_staff", "is_superuser")  # SQLite gives them as 0 / 1

    def authenticate_credentials(self, key):
        model, user_model = self.get_model(), get_user_model()
        db = connections[router.db_for_read(user_model)]
        # Model.from_db takes the loaded fields in the model's order.
        names = [f.attname for f in user_model._meta.concrete_fields
                 if f.attname in self.USER_FIELDS]
        with db.cursor() as cursor:
            cursor.execute(
                f"SELECT {', '.join(f'u.{name}' for name in names)}"
                f" FROM {model._meta.db_table} t JOIN {user_model._meta.db_table} u"
                " ON u.id = t.user_id WHERE t.key = %s", [key])
            row = cursor.fetchone()
        if row is None:
            raise exceptions.AuthenticationFailed(_("Invalid token."))
        values = [bool(v) if name in self.FLAGS else v for name, v in zip(names, row, strict=True)]
        user = user_model.from_db(db.alias, names, values)
        if not user.is_active:
            raise exceptions.AuthenticationFailed(_("User inactive or deleted."))
        return user, model(key=key, user=user)  # request.auth: the token's key and user


# The schema's "tokenAuth" scheme describes both classes alike (the subclass matches DRF's
# scheme extension): tell drf-spectacular the shared name is no collision.
set_override(TokenAuthentication, "suppress_collision_warning", True)


class PlayerView(APIView):
    authentication_classes = [
        TokenAuthentication if cls is authentication.TokenAuthentication else cls
        for cls in api_settings.DEFAULT_AUTHENTICATION_CLASSES
    ]


def _view_response(match, seat, since=None, code=status.HTTP_200_OK, **known) -> Response:
    response = Response(selectors.match_view_for(match, seat, since, **known), status=code)
    response["ETag"] = f'"{match.version}"'
    response["Cache-Control"] = "private, no-cache"
    return response


class MatchListCreateView(PlayerView):
    @extend_schema(
        operation_id="matches_list",
        summary="My matches, newest activity first (filter by status to offer 'continue')",
        parameters=[
            OpenApiParameter("status", str, enum=["waiting", "active", "finished"]),
            OpenApiParameter("limit", int, description=f"page size, at most {MAX_PAGE}"),
            OpenApiParameter("offset", int),
        ],
        responses={200: MatchListOutput, 400: ErrorSerializer},
    )
    def get(self, request):
        wanted = request.query_params.get("status") or None
        if wanted is not None and wanted not in Match.Status.values:
            raise ValidationError({"status": ["waiting, active or finished"]})
        limit = _int_param(request, "limit", 20, 1, MAX_PAGE)
        offset = _int_param(request, "offset", 0, 0, 10**9)
        found = selectors.matches_of(request.user, wanted)
        page = found[offset:offset + limit]
        return Response({
            "count": found.count(),
            "results": [selectors.match_summary(m, request.user) for m in page],
        })

    @extend_schema(
        operation_id="matches_create",
        summary="Create a match; you take seat 0",
        request=MatchCreateInput,
        responses={201: MatchViewOutput, **ERRORS},
        examples=[
            OpenApiExample(
                "Gandengyan, you against three bots", request_only=True,
                value={"ruleset": "gandengyan", "options": {"decks": 1, "starting_score": 500},
                       "seats": [{"type": "human"}, {"type": "bot", "level": "normal"},
                                 {"type": "bot", "level": "random"},
                                 {"type": "bot", "level": "hard"}]},
            ),
            OpenApiExample(
                "510k, two rounds, a friend joins with the invite code", request_only=True,
                value={"ruleset": "510k", "options": {"rounds": 2, "base_score": 1, "dry": "full",
                                                      "xi_mode": "multiplicative"},
                       "seats": [{"type": "human"}, {"type": "human"},
                                 {"type": "bot", "level": "normal"},
                                 {"type": "bot", "level": "normal"}]},
            ),
            VIEW_EXAMPLE,
        ],
    )
    def post(self, request):
        data = MatchCreateInput(data=request.data)
        data.is_valid(raise_exception=True)
        body = data.validated_data
        match = services.match_create(
            owner=request.user, ruleset=body["ruleset"], options=body["options"],
            seats=[dict(s) for s in body["seats"]] if "seats" in body else None,
        )
        match, seat = selectors.match_for(request.user, match.pk)
        return _view_response(match, seat, code=status.HTTP_201_CREATED)


def _int_param(request, name: str, default: int, low: int, high: int) -> int:
    raw = request.query_params.get(name)
    if raw is None or raw == "":
        return default
    try:
        value = int(raw)
    except ValueError:
        value = low - 1
    if not low <= value <= high:
        raise ValidationError({name: [f"a whole number {low}..{high}"]})
    return value


class MatchDetailView(PlayerView):
    @extend_schema(
        operation_id="matches_view",
        summary="My view of a match (resume here); ETag = version, If-None-Match → 304",
        parameters=[OpenApiParameter("If-None-Match", str, OpenApiParameter.HEADER)],
        responses={200: MatchViewOutput, 304: None, 404: ErrorSerializer},
        examples=[VIEW_EXAMPLE],
    )
    def get(self, request, match_id: int):
        match, seat = selectors.match_for(request.user, match_id)
        etag = f'"{match.version}"'
        if request.headers.get("If-None-Match") == etag:
            return Response(status=status.HTTP_304_NOT_MODIFIED, headers={"ETag": etag})
        return _view_response(match, seat)


class MatchActView(PlayerView):
    @extend_schema(
        operation_id="matches_act",
        summary="Play, pass, cut or bid; 200 with your new view (bots' replies included)",
        request=ActInput,
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
                                            "message": "these cards can be read several ways",
                                            "details": {"readings": [
                                                {"type": "bomb", "rank": "3", "length": 3},
                                                {"type": "straight", "rank": "3",
                                                 "length": 3}]}}}),
            VIEW_EXAMPLE,
        ],
    )
    def post(self, request, match_id: int):
        body = ActInput.validated(request.data)
        done = services.action_submit(
            match_id=match_id, seat=body.get("seat"), player=request.user,
            action=ActionInput.to_action(body["action"]),
            expected_version=body["expected_version"], actor=Move.Actor.HUMAN,
        )
        since = done.events[0].seq - 1
        if done.bot_to_act:
            # Eager bots have replied by now (a worker may have): read what they did.
            match, seat = selectors.match_for(request.user, match_id)
            return _view_response(match, seat, since=since)
        done.match.seat_list = done.seats
        return _view_response(done.match, done.seats[done.seat], since=since, state=done.state,
                              events=selectors.event_dicts(done.events))


class MatchEventsView(PlayerView):
    @extend_schema(
        operation_id="matches_events",
        summary="Public events after sequence number `since` (poll with the last seq you saw)",
        parameters=[OpenApiParameter("since", int, description="default 0"),
                    OpenApiParameter("limit", int, description="at most 500")],
        responses={200: EventsOutput, 400: ErrorSerializer, 404: ErrorSerializer},
    )
    def get(self, request, match_id: int):
        match, _ = selectors.match_for(request.user, match_id)
        since = _int_param(request, "since", 0, 0, 10**9)
        limit = _int_param(request, "limit", selectors.MAX_EVENTS, 1, selectors.MAX_EVENTS)
        return Response({
            "version": match.version,
            "last_event_seq": match.last_event_seq,
            "events": selectors.events_since(match, since, limit),
        })


class MatchRoundsView(PlayerView):
    @extend_schema(
        operation_id="matches_rounds",
        summary="Every round so far: seed hash, and once over the seed and the deltas",
        responses={200: RoundOutput(many=True), 404: ErrorSerializer},
    )
    def get(self, request, match_id: int):
        match, _ = selectors.match_for(request.user, match_id)
        return Response(selectors.rounds_of(match))


class MatchRoundDetailView(PlayerView):
    @extend_schema(
        operation_id="matches_round",
        summary="One round; once over: itemised settlement, every hand, the bottom, the seed",
        responses={200: RoundDetailOutput, 404: ErrorSerializer},
    )
    def get(self, request, match_id: int, number: int):
        match, _ = selectors.match_for(request.user, match_id)
        return Response(selectors.round_of(match, number))


class MatchJoinView(PlayerView):
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
        match, seat = selectors.match_for(request.user, match.pk)
        return _view_response(match, seat)


class MatchJoinByIdView(MatchJoinView):
    @extend_schema(
        operation_id="matches_join_by_id",
        summary="Take an open human seat of this match with its invite code",
        request=JoinInput,
        responses={200: MatchViewOutput, **ERRORS},
    )
    def post(self, request, match_id: int):
        return super().post(request, match_id)


class MatchLeaveView(PlayerView):
    @extend_schema(
        operation_id="matches_leave",
        summary="Leave: the match stays saved as it is; GET the match later to resume",
        request=None,
        responses={200: LeaveOutput, 404: ErrorSerializer},
    )
    def post(self, request, match_id: int):
        selectors.match_for(request.user, match_id)
        match = services.match_leave(user=request.user, match_id=match_id)
        return Response({"id": match.pk, "status": match.status, "version": match.version})

