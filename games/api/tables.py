"""Tables: the house's presets, listed for anyone, and the quick match that seats a person at
one (games.services.table_play)."""

from django.urls.converters import SlugConverter
from drf_spectacular.utils import OpenApiExample, OpenApiParameter, extend_schema
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.views import APIView

from games import presenters, selectors, services
from games.api.errors import ErrorSerializer
from games.api.matches import VIEW_EXAMPLES, seated_response
from games.api.serializers import MatchViewOutput, TableListOutput
from games.engine.registry import get_ruleset
from games.models import Table

# The URL takes a slug (any other is no URL) of a table's length.
SLUG = OpenApiParameter("slug", {"type": "string", "pattern": f"^{SlugConverter.regex}$",
                                 "maxLength": Table._meta.get_field("slug").max_length},
                        OpenApiParameter.PATH)


class TableListView(APIView):
    permission_classes = [AllowAny]
    authentication_classes = []

    @extend_schema(
        operation_id="tables_list",
        summary="The active tables in display order, options spelled out in English and Chinese",
        responses={200: TableListOutput},
        examples=[OpenApiExample("A 510k table", response_only=True, value={"results": [{
            "slug": "510k-base5-half-dry", "name": "510K, base 5, half-dry",
            "ruleset": "510k", "ruleset_title": {"en": "510K", "zh": "五十K"}, "players": 4,
            "options": get_ruleset("510k").parse_options({"base_score": 5, "dry": "half"}),
            "options_hash": "8f0c…",
            "options_described": [
                {"option": "base_score", "label": {"en": "Base score", "zh": "底分"},
                 "value": 5, "text": {"en": "5", "zh": "5"}},
                {"option": "dry", "label": {"en": "Dry levels", "zh": "干"}, "value": "half",
                 "text": {"en": "half-dry", "zh": "半干"}}],
            "allow_override": False, "bot_levels": ["normal", "normal", "hard"],
            "bots_after": 30, "turn_seconds": None}]})],
    )
    def get(self, request):
        return Response({"results": [presenters.table_view(t) for t in selectors.tables()]})


class TablePlayView(APIView):
    @extend_schema(
        operation_id="tables_play",
        summary="Quick match: a seat at a waiting match of this table (201: a new one, waiting "
        "for people until `bots_fill_at`)",
        parameters=[SLUG],
        request=None,
        responses={200: MatchViewOutput, 201: MatchViewOutput, 401: ErrorSerializer,
                   404: ErrorSerializer},
        examples=VIEW_EXAMPLES,
    )
    def post(self, request, slug: str):
        return seated_response(request.user, services.table_play(user=request.user, slug=slug))
