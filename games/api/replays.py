"""Replays for players: a finished match round by round, move by move, every hand open, from
the stored moves (games.selectors.round_replay rebuilds each round from its seed and the log).
Its players may replay it, anyone if it was watchable, staff any."""

from drf_spectacular.utils import extend_schema
from rest_framework.response import Response
from rest_framework.views import APIView

from games import presenters, selectors
from games.api.errors import ErrorSerializer
from games.api.serializers import ReplayOutput, RoundReplayOutput

REFUSALS = {404: ErrorSerializer, 409: ErrorSerializer}


class ReplayView(APIView):
    @extend_schema(
        operation_id="matches_replay",
        summary="A finished match's replay: seats, standings, and each round with its seed",
        responses={200: ReplayOutput, **REFUSALS},
    )
    def get(self, request, match_id: int):
        match = selectors.replay_for(request.user, match_id)
        return Response(presenters.match_replay(match, selectors.ended_rounds(match),
                                                request.user))


class RoundReplayView(APIView):
    @extend_schema(
        operation_id="matches_replay_round",
        summary="One round of a replay: the deal and every move, every hand open at each step",
        responses={200: RoundReplayOutput, **REFUSALS},
    )
    def get(self, request, match_id: int, number: int):
        match = selectors.replay_for(request.user, match_id)
        return Response(presenters.round_replay(selectors.round_replay(match, number)))
