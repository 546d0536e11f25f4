"""The ratings routes under /api/v1/ (config/urls.py puts them before the games routes, whose
last route answers every other URL)."""

from django.urls import path

import games.api.urls  # noqa: F401  (registers the `id` path converter)
from ratings import api

urlpatterns = [
    path("players/<id:user_id>/", api.ProfileView.as_view(), name="player-profile"),
    path("leaderboards/<str:ruleset>/", api.LeaderboardView.as_view(), name="leaderboard"),
]
