"""Table talk (快捷语): the fixed phrases and emoji, and a player saying one at their seat; the
match's stream carries it to the seats and spectators (`event: talk`)."""

import logging

from drf_spectacular.utils import OpenApiExample, extend_schema
from redis.exceptions import RedisError
from rest_framework import status
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.throttling import UserRateThrottle
from rest_framework.views import APIView

from games import services, talk
from games.api.errors import ErrorSerializer
from games.api.serializers import PhraseListOutput, TalkOutput, request_schema
from games.engine.specs import Choice, Field, Obj, parse

logger = logging.getLogger(__name__)
TALK = Obj({"phrase": Field(Choice(talk.KEYS, "a key of GET /phrases/"))}, "a quick phrase")


class TalkThrottle(UserRateThrottle):
    """Phrases per person (settings: the `talk` rate), whichever match they are said at; let
    through when the cache is down, as the sign-in throttles are."""

    scope = "talk"

    def allow_request(self, request, view) -> bool:
        try:
            return super().allow_request(request, view)
        except (RedisError, OSError) as error:
            logger.warning("throttle talk not applied, the cache is unavailable: %r", error)
            return True


class PhraseListView(APIView):
    permission_classes = [AllowAny]
    authentication_classes = []

    @extend_schema(operation_id="phrases_list",
                   summary="The quick phrases and emoji a player may say at the table",
                   responses={200: PhraseListOutput})
    def get(self, request):
        return Response({"results": talk.catalogue()})


class TalkView(APIView):
    throttle_classes = [TalkThrottle]

    @extend_schema(
        operation_id="matches_talk",
        summary="Say a quick phrase at your seat: the match's stream tells its seats and "
        "spectators (`event: talk`); stored nowhere",
        request=request_schema(TALK),
        responses={202: TalkOutput, 400: ErrorSerializer, 403: ErrorSerializer,
                   404: ErrorSerializer, 409: ErrorSerializer, 429: ErrorSerializer},
        examples=[OpenApiExample("Nice play", request_only=True, value={"phrase": "nice_play"})],
    )
    def post(self, request, match_id: int):
        body = parse(TALK, request.data, "invalid_input")
        said = services.talk_send(user=request.user, match_id=match_id, phrase=body["phrase"])
        return Response(said, status=status.HTTP_202_ACCEPTED)
