"""Staff review: every match, filtered by ruleset, status and date; a match page with its seats,
rounds, settlement and read-only move log; a replay page (any move, any seat's view or every hand
open) rebuilt from the log; export as JSON. Nothing here edits a match."""

import json

from django.contrib import admin
from django.http import Http404, JsonResponse
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils.html import format_html, format_html_join

from games import presenters, selectors
from games.engine.registry import get_ruleset
from games.models import Event, Match, Move, Round, Seat
from scoring.models import ScoreEntry


class ReadOnly:
    """Review only: the log is the truth, and nobody edits it by hand."""

    def has_add_permission(self, request, obj=None) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False


class ReadOnlyInline(ReadOnly, admin.TabularInline):
    extra = 0
    can_delete = False
    show_change_link = False


class SeatInline(ReadOnlyInline):
    model = Seat
    fields = ("index", "kind", "user", "bot_level", "score", "eliminated")
    readonly_fields = fields


class RoundInline(ReadOnlyInline):
    model = Round
    fields = ("number", "seed_hash", "started_at", "ended_at", "deltas")
    readonly_fields = fields
    show_change_link = True

    @admin.display(description="deltas")
    def deltas(self, obj: Round) -> str:
        return str([e.delta for e in obj.score_entries.order_by("seat")]) if obj.is_over else "-"


class MoveInline(ReadOnlyInline):
    model = Move
    fields = ("round_number", "seq", "seat", "actor", "action", "version", "created_at")
    readonly_fields = fields
    ordering = ("round__number", "seq")

    @admin.display(description="round")
    def round_number(self, obj: Move) -> int:
        return obj.round.number

    def get_queryset(self, request):
        return super().get_queryset(request).select_related("round")


class ScoreEntryInline(ReadOnlyInline):
    model = ScoreEntry
    fields = ("seat", "delta", "breakdown")
    readonly_fields = fields


def _json_export(matches) -> JsonResponse:
    data = [presenters.match_export(m) for m in matches]
    response = JsonResponse(data if len(data) != 1 else data[0], safe=False,
                            json_dumps_params={"ensure_ascii": False, "indent": 1})
    name = f"match-{data[0]['id']}" if len(data) == 1 else "matches"
    response["Content-Disposition"] = f'attachment; filename="{name}.json"'
    return response


@admin.register(Match)
class MatchAdmin(ReadOnly, admin.ModelAdmin):
    list_display = ("id", "ruleset", "status", "owner", "round_number", "version", "created_at",
                    "updated_at")
    list_filter = ("ruleset", "status", ("created_at", admin.DateFieldListFilter))
    search_fields = ("invite_code", "owner__username", "seats__user__username")
    date_hierarchy = "created_at"
    list_select_related = ("owner",)
    fields = ("ruleset", "status", "owner", "options", "invite_code", "version", "round_number",
              "to_act", "created_at", "updated_at", "settlement", "tools")
    readonly_fields = fields
    inlines = (SeatInline, RoundInline, MoveInline)
    actions = ("export_json",)

    @admin.display(description="settlement (points per round and seat)")
    def settlement(self, obj: Match) -> str:
        rows = [
            (r.number, ", ".join(f"{e.delta:+d}" for e in r.score_entries.order_by("seat")))
            for r in obj.rounds.filter(ended_at__isnull=False).order_by("number")
        ]
        if not rows:
            return "-"
        return format_html("<table>{}</table>", format_html_join(
            "", "<tr><td>round {}</td><td>{}</td></tr>", rows))

    @admin.display(description="review")
    def tools(self, obj: Match) -> str:
        return format_html(
            '<a href="{}">replay</a> · <a href="{}">export JSON</a>',
            reverse("admin:games_match_replay", args=[obj.pk]),
            reverse("admin:games_match_export", args=[obj.pk]),
        )

    @admin.action(description="Export the selected matches as JSON")
    def export_json(self, request, queryset):
        return _json_export(queryset.order_by("pk"))

    def get_urls(self):
        view = self.admin_site.admin_view
        return [
            path("<int:match_id>/replay/", view(self.replay_view), name="games_match_replay"),
            path("<int:match_id>/export/", view(self.export_view), name="games_match_export"),
            *super().get_urls(),
        ]

    def _match(self, request, match_id: int) -> Match:
        match = Match.objects.filter(pk=match_id).first()
        if match is None or not self.has_view_permission(request, match):
            raise Http404("no such match")
        return match

    def export_view(self, request, match_id: int):
        return _json_export([self._match(request, match_id)])

    def replay_view(self, request, match_id: int):
        """The match as it stood after move N, as one seat saw it or with every hand open."""
        match = self._match(request, match_id)
        moves = selectors.match_moves(match)
        try:
            upto = min(max(int(request.GET.get("move", len(moves))), 0), len(moves))
        except ValueError:
            upto = len(moves)
        seat_choice = request.GET.get("seat", "all")
        engine = get_ruleset(match.ruleset)
        state = selectors.match_replay(match, upto)
        players = match.seats.count()
        if seat_choice.isdigit() and int(seat_choice) < players:
            shown = engine.view(state, int(seat_choice))
        else:
            seat_choice = "all"
            shown = engine.full_view(state)
        full = selectors.match_replay(match)
        context = {
            **self.admin_site.each_context(request),
            "opts": self.model._meta,
            "title": f"Replay of {match}",
            "match": match,
            "upto": upto,
            "total": len(moves),
            "seat_choice": seat_choice,
            "seat_choices": [str(i) for i in range(players)],
            "move": moves[upto - 1][3] if upto else None,
            "shown": json.dumps(shown, indent=1, ensure_ascii=False),
            "log": [row for *_, row in moves[max(0, upto - 10):upto]],
            "snapshot_ok": json.loads(json.dumps(engine.to_json(full))) == match.snapshot,
        }
        return TemplateResponse(request, "admin/games/match/replay.html", context)


@admin.register(Round)
class RoundAdmin(ReadOnly, admin.ModelAdmin):
    list_display = ("id", "match", "number", "seed_hash", "started_at", "ended_at")
    list_filter = ("match__ruleset",)
    fields = ("match", "number", "seed_hash", "seed_if_over", "seating", "result", "started_at",
              "ended_at")
    readonly_fields = fields
    inlines = (ScoreEntryInline,)

    @admin.display(description="seed")
    def seed_if_over(self, obj: Round) -> str:
        return obj.seed if obj.is_over else "(secret while the round runs)"


@admin.register(Event)
class EventAdmin(ReadOnly, admin.ModelAdmin):
    list_display = ("match", "seq", "round_number", "version", "data", "created_at")
    list_filter = ("match__ruleset",)
    readonly_fields = ("match", "seq", "round_number", "version", "data", "created_at")
