"""Public reads: a person's profile (战绩) and a ruleset's leaderboard (段位), for anyone, no
token needed."""

from drf_spectacular.utils import OpenApiExample, extend_schema
from rest_framework import serializers
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.views import APIView

from games.api.errors import ErrorSerializer
from games.api.params import QueryInt, takes
from games.engine.registry import RULESETS
from games.errors import NotFound
from ratings import presenters, selectors

MAX_PAGE = 100
PAGE_SIZE = QueryInt("limit", 1, MAX_PAGE, 50, "page size")
AFTER = QueryInt("after", 1, 2**63 - 1, description="`next.after` of the previous page: the "
                 "rating it ended with")
RANK = QueryInt("rank", 0, 2**63 - 1, 0, "`next.rank` of the previous page: the rank of "
                "`after`, so that this page's ranks go on from it")


class FiguresOutput(serializers.Serializer):
    mu = serializers.FloatField(help_text="the skill estimate (openskill's Plackett-Luce; a "
                                "new player starts at 25)")
    sigma = serializers.FloatField(help_text="its uncertainty (starts at 25/3, shrinks with "
                                   "matches)")
    ordinal = serializers.FloatField(help_text="mu - 3 sigma: what the leaderboard orders by")
    provisional = serializers.BooleanField(help_text="fewer rated matches than the site's "
                                           "threshold (10 by default)")
    matches = serializers.IntegerField(help_text="rated matches: finished ones")
    wins = serializers.IntegerField(help_text="rated matches its side came first in")


class PlayerOutput(serializers.Serializer):
    id = serializers.IntegerField(allow_null=True, help_text="a person's id (their profile); "
                                  "null for a bot")
    name = serializers.CharField(allow_null=True, help_text="a person's name; null for a bot")
    guest = serializers.BooleanField(help_text="a guest account: rated, but flagged")
    bot_level = serializers.CharField(allow_null=True, help_text="a bot: every bot of this "
                                      "level is one player")


class BoardEntryOutput(FiguresOutput):
    rank = serializers.IntegerField(help_text="place on the board: 1 the best")
    rating = serializers.IntegerField(help_text="the rating's id (`after` of a next page)")
    player = PlayerOutput()


class NextOutput(serializers.Serializer):
    after = serializers.IntegerField()
    rank = serializers.IntegerField()


class LeaderboardOutput(serializers.Serializer):
    ruleset = serializers.CharField()
    results = BoardEntryOutput(many=True)
    next = NextOutput(allow_null=True, help_text="the query of the next page; null: the last")


class ChangeOutput(serializers.Serializer):
    match = serializers.IntegerField()
    at = serializers.DateTimeField()
    mu = serializers.FloatField()
    sigma = serializers.FloatField()
    ordinal = serializers.FloatField()
    delta = serializers.FloatField(help_text="what the match changed the ordinal by")


class ProfileRatingOutput(FiguresOutput):
    ruleset = serializers.CharField()
    average_score = serializers.FloatField(allow_null=True, help_text="points per rated match")
    history = ChangeOutput(many=True, help_text="the latest changes, newest first (20 at most)")


class RecentOutput(serializers.Serializer):
    match = serializers.IntegerField()
    ruleset = serializers.CharField()
    at = serializers.DateTimeField(help_text="when it finished")
    place = serializers.IntegerField(help_text="the place of the person's side, 1 the best")
    sides = serializers.IntegerField(help_text="how many sides it had")
    won = serializers.BooleanField()
    left = serializers.BooleanField(help_text="counted last: their clock had run out and they "
                                    "had not come back")
    points = serializers.IntegerField(help_text="the person's points in the match")
    delta = serializers.FloatField(help_text="what it changed their ordinal by")


class ProfileOutput(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    guest = serializers.BooleanField()
    joined = serializers.DateTimeField()
    matches = serializers.IntegerField(help_text="rated matches, every ruleset")
    wins = serializers.IntegerField()
    ratings = ProfileRatingOutput(many=True, help_text="one per ruleset played")
    recent = RecentOutput(many=True, help_text="the latest rated matches (10 at most)")


class PublicView(APIView):
    """Anyone may read it, no token needed (one sent is not even read)."""

    permission_classes = [AllowAny]
    authentication_classes = []


class ProfileView(PublicView):
    @extend_schema(
        operation_id="players_profile",
        summary="A person's public profile: name, rating per ruleset with its history, matches "
        "played and won, average score, recent matches",
        responses={200: ProfileOutput, 404: ErrorSerializer},
    )
    def get(self, request, user_id: int):
        return Response(presenters.profile_view(selectors.profile(user_id)))


class LeaderboardView(PublicView):
    @extend_schema(
        operation_id="leaderboards_page",
        summary="A ruleset's leaderboard, best first (ordinal, then the later rating), paged by "
        "keyset: pass the previous page's `next` as `after` and `rank`",
        parameters=[PAGE_SIZE.parameter(), AFTER.parameter(), RANK.parameter()],
        responses={200: LeaderboardOutput, 400: ErrorSerializer, 404: ErrorSerializer},
        examples=[OpenApiExample("The top of 510K", response_only=True, value={
            "ruleset": "510k", "results": [
                {"rank": 1, "rating": 31, "player": {"id": 7, "name": "Ann", "guest": False,
                                                     "bot_level": None},
                 "mu": 31.2, "sigma": 2.1, "ordinal": 24.9, "provisional": False,
                 "matches": 42, "wins": 25},
                {"rank": 2, "rating": 2, "player": {"id": None, "name": None, "guest": False,
                                                    "bot_level": "hard"},
                 "mu": 27.5, "sigma": 1.2, "ordinal": 23.9, "provisional": False,
                 "matches": 380, "wins": 170}],
            "next": {"after": 2, "rank": 2}})],
    )
    @takes(PAGE_SIZE, AFTER, RANK)
    def get(self, request, ruleset: str):
        if ruleset not in RULESETS:
            raise NotFound("no such ruleset")
        limit, after, rank = PAGE_SIZE.parse(request), AFTER.parse(request), RANK.parse(request)
        page = selectors.leaderboard(ruleset, after, limit + 1)
        more = len(page) > limit
        page = page[:limit]
        return Response({
            "ruleset": ruleset,
            "results": [presenters.board_entry(r, rank + i) for i, r in enumerate(page, 1)],
            "next": {"after": page[-1].pk, "rank": rank + len(page)} if more else None,
        })
