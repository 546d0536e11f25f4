"""The game routes under /api/v1/ (the auth routes are accounts.urls)."""

from django.urls import path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

from games.api import matches, rules
from games.api.health import HealthView

urlpatterns = [
    path("health/", HealthView.as_view(), name="health"),
    path("schema/", SpectacularAPIView.as_view(), name="schema"),
    # The split view serves its start-up script as a file: the page needs no inline script.
    path("docs/", SpectacularSwaggerSplitView.as_view(url_name="schema"), name="docs"),
    path("rules/<str:ruleset>/evaluate/", rules.EvaluateView.as_view(), name="rules-evaluate"),
    path("rules/<str:ruleset>/settle/", rules.SettleView.as_view(), name="rules-settle"),
    path("matches/", matches.MatchListCreateView.as_view(), name="matches"),
    path("matches/join/", matches.MatchJoinView.as_view(), name="matches-join"),
    path("matches/<int:match_id>/", matches.MatchDetailView.as_view(), name="match"),
    path("matches/<int:match_id>/act/", matches.MatchActView.as_view(), name="match-act"),
    path("matches/<int:match_id>/events/", matches.MatchEventsView.as_view(), name="match-events"),
    path("matches/<int:match_id>/rounds/", matches.MatchRoundsView.as_view(), name="match-rounds"),
    path("matches/<int:match_id>/rounds/<int:number>/", matches.MatchRoundDetailView.as_view(),
         name="match-round"),
    path("matches/<int:match_id>/join/", matches.MatchJoinByIdView.as_view(),
         name="match-join"),
    path("matches/<int:match_id>/leave/", matches.MatchLeaveView.as_view(), name="match-leave"),
]
