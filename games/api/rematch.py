"""Play again: a finished match's rematch (games.services.rematch), asked for, accepted and
declined by its people."""

from drf_spectacular.utils import extend_schema
from rest_framework.views import APIView

from games import selectors, services
from games.api.errors import ErrorSerializer
from games.api.matches import VIEW_EXAMPLES, seated_response, view_response
from games.api.serializers import MatchViewOutput

ERRORS = {401: ErrorSerializer, 404: ErrorSerializer, 409: ErrorSerializer}


class RematchView(APIView):
    @extend_schema(
        operation_id="matches_rematch",
        summary="Play again: a rematch of this finished match, same options and seats (201: you "
        "opened it, the others' seats are kept for them; 200: you took your seat in it)",
        request=None,
        responses={200: MatchViewOutput, 201: MatchViewOutput, **ERRORS},
        examples=VIEW_EXAMPLES,
    )
    def post(self, request, match_id: int):
        return seated_response(request.user, services.rematch_accept(user=request.user,
                                                                     match_id=match_id))


class RematchDeclineView(APIView):
    @extend_schema(
        operation_id="matches_rematch_decline",
        summary="Decline the rematch: a bot takes the seat kept for you; 200 with your view of "
        "the finished match (its `rematch` says who answered what)",
        request=None,
        responses={200: MatchViewOutput, **ERRORS},
    )
    def post(self, request, match_id: int):
        services.rematch_decline(user=request.user, match_id=match_id)
        return view_response(services.match_read(request.user, match_id,
                                                 events=selectors.RECENT_EVENTS))
