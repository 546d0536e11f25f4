"""The game routes under /api/v1/ (the auth routes are accounts.urls)."""

from django.urls import path, re_path, register_converter
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

from games.api import matches, rematch, replays, rules, streams, tables, talk, watch
from games.api.errors import no_such_url
from games.api.health import HealthView, ReadyView
from games.api.params import takes

MAX_ID_DIGITS = 18  # below 2**63: any longer number is no id, and no URL here (not an overflow)


class IdConverter:
    regex = f"[0-9]{{1,{MAX_ID_DIGITS}}}"

    def to_python(self, value: str) -> int:
        return int(value)

    def to_url(self, value: int) -> str:
        return str(value)


# config/settings.py describes it to the OpenAPI schema (PATH_CONVERTER_OVERRIDES).
register_converter(IdConverter, "id")

urlpatterns = [
    # First, being the most requested: a path is matched against the patterns in turn.
    path("matches/<id:match_id>/", matches.MatchDetailView.as_view(), name="match"),
    path("matches/<id:match_id>/act/", matches.MatchActView.as_view(), name="match-act"),
    path("health/", HealthView.as_view(), name="health"),
    path("health/ready/", ReadyView.as_view(), name="health-ready"),
    # drf-spectacular's views read these query parameters.
    path("schema/", takes("format", "lang", "version")(SpectacularAPIView.as_view()),
         name="schema"),
    # The split view serves its start-up script as a file (`?script`): the page needs no inline
    # script.
    path("docs/", takes("script", "lang", "version")(
        SpectacularSwaggerSplitView.as_view(url_name="schema")), name="docs"),
    path("rules/", rules.RulesetListView.as_view(), name="rules"),
    path("rules/<str:ruleset>/evaluate/", rules.EvaluateView.as_view(), name="rules-evaluate"),
    path("rules/<str:ruleset>/settle/", rules.SettleView.as_view(), name="rules-settle"),
    path("phrases/", talk.PhraseListView.as_view(), name="phrases"),
    path("tables/", tables.TableListView.as_view(), name="tables"),
    path("tables/<slug:slug>/play/", tables.TablePlayView.as_view(), name="table-play"),
    path("matches/", matches.MatchListCreateView.as_view(), name="matches"),
    path("matches/join/", matches.MatchJoinView.as_view(), name="matches-join"),
    path("watch/", watch.WatchListView.as_view(), name="watch"),
    path("matches/<id:match_id>/events/", matches.MatchEventsView.as_view(), name="match-events"),
    path("matches/<id:match_id>/rounds/", matches.MatchRoundsView.as_view(), name="match-rounds"),
    path("matches/<id:match_id>/rounds/<id:number>/", matches.MatchRoundDetailView.as_view(),
         name="match-round"),
    path("matches/<id:match_id>/talk/", talk.TalkView.as_view(), name="match-talk"),
    path("matches/<id:match_id>/replay/", replays.ReplayView.as_view(), name="match-replay"),
    path("matches/<id:match_id>/replay/<id:number>/", replays.RoundReplayView.as_view(),
         name="match-replay-round"),
    path("matches/<id:match_id>/join/", matches.MatchJoinByIdView.as_view(),
         name="match-join"),
    path("matches/<id:match_id>/leave/", matches.MatchLeaveView.as_view(), name="match-leave"),
    path("matches/<id:match_id>/autoplay/", matches.MatchAutoplayView.as_view(),
         name="match-autoplay"),
    path("matches/<id:match_id>/rematch/", rematch.RematchView.as_view(), name="match-rematch"),
    path("matches/<id:match_id>/rematch/decline/", rematch.RematchDeclineView.as_view(),
         name="match-rematch-decline"),
    path("matches/<id:match_id>/stream/", streams.match_stream, name="match-stream"),
    path("stream/", streams.account_stream, name="account-stream"),
    # Last: any other URL under /api/v1/ is a JSON 404, with DEBUG on too.
    re_path(r"", takes(anything=True)(no_such_url)),
]
