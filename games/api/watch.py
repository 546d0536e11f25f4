"""The watch list: live matches anyone may watch (GET /matches/{id}/ and its stream then serve
them the spectator's view)."""

from drf_spectacular.utils import extend_schema
from rest_framework.response import Response
from rest_framework.views import APIView

from games import presenters, selectors
from games.api.errors import ErrorSerializer
from games.api.matches import BEFORE, PAGE_SIZE
from games.api.params import QueryInt, invalid_query, takes
from games.api.serializers import WatchListOutput
from games.engine.vocabulary import MAX_SEATS

PEOPLE = QueryInt("people", 0, MAX_SEATS, description="the `next.people` of the previous page "
                  "(with `before`)")


def _after(request) -> tuple[int, int] | None:
    """Where the previous page ended: (people, before), both or neither."""
    people, before = PEOPLE.parse(request), BEFORE.parse(request)
    if (people is None) != (before is None):
        raise invalid_query("people" if people is None else "before",
                            "`people` and `before` go together")
    return None if before is None else (people, before)


class WatchListView(APIView):
    @extend_schema(
        operation_id="watch_list",
        summary="Live matches you may watch: those with more people seated first, then newest",
        parameters=[PAGE_SIZE.parameter(), PEOPLE.parameter(), BEFORE.parameter()],
        responses={200: WatchListOutput, 400: ErrorSerializer},
    )
    @takes(PAGE_SIZE, PEOPLE, BEFORE)
    def get(self, request):
        limit, after = PAGE_SIZE.parse(request), _after(request)
        page = selectors.watch_list(after, limit + 1)
        more = len(page) > limit
        page = page[:limit]
        return Response({
            "results": [presenters.watch_summary(m) for m in page],
            "next": {"people": page[-1].people, "before": page[-1].pk} if more else None,
        })
