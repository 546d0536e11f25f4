"""Staff review: every match, filtered by ruleset, status, table, options and date; a match page
with its table, frozen options, seats, rounds, settlement and read-only move log; a replay page
(any move, any seat's view or every hand open) rebuilt from the log; export as JSON. The one
write staff make on a match is aborting a stuck one (with a reason, logged).

Staff set the house rules here: tables (a ruleset with every option fixed, the bots of empty
seats, the quick match's wait) and the site-wide defaults of each ruleset, both edited through
the ruleset's own option rules and shown with a sample round settled."""

import json

from django import forms
from django.contrib import admin, messages
from django.contrib.admin.utils import flatten_fieldsets
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.db.models import Count
from django.http import Http404, JsonResponse
from django.shortcuts import redirect
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils.html import format_html, format_html_join

from games import presenters, selectors, services
from games.admin_base import CheckedSelection
from games.admin_options import (
    OptionsForm,
    TableForm,
    both,
    field_name,
    options_text,
    settlement_preview,
)
from games.engine.errors import Refusal
from games.engine.registry import RULESETS, get_ruleset
from games.engine.specs import Choice, Int
from games.models import (
    BOT_LEVELS,
    DEFAULT_BOT_LEVEL,
    Event,
    Match,
    Move,
    Round,
    RulesetDefaults,
    Seat,
    Table,
    options_hash,
)
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


MAX_OPTION_SETS = 50  # the options filter lists this many distinct sets at most


class OptionSetFilter(admin.SimpleListFilter):
    """Matches that played with exactly one set of options (by their options hash)."""

    title = "options (exact set)"
    parameter_name = "options_hash"

    def lookups(self, request, model_admin):
        rows = (Match.objects.order_by("ruleset", "options_hash")
                .values_list("ruleset", "options_hash", "options").distinct()[:MAX_OPTION_SETS])
        return [(h, f"{r}: {options_text(r, o)}") for r, h, o in rows]

    def queryset(self, request, queryset):
        return queryset.filter(options_hash=self.value()) if self.value() else queryset


def option_filter(option: str) -> type[admin.SimpleListFilter]:
    """A filter on one option's value, offered once a ruleset that has it is chosen."""

    class OptionFilter(admin.SimpleListFilter):
        title = option
        parameter_name = f"option_{option}"

        def _spec(self, request):
            name = request.GET.get("ruleset__exact") or request.GET.get("ruleset")
            ruleset = RULESETS.get(name)
            return None if ruleset is None else ruleset.info.options.fields.get(option)

        def lookups(self, request, model_admin):
            field = self._spec(request)
            if field is None:
                return []
            self.title = both(field.label, option)
            if isinstance(field.spec, Choice):
                return [(str(v), both(field.spec.labels.get(v, {}), str(v)))
                        for v in field.spec.values]
            found = (Match.objects.filter(options__has_key=option).order_by()
                     .values_list(f"options__{option}", flat=True).distinct())
            return [(str(v), str(v)) for v in sorted(found)]

        def queryset(self, request, queryset):
            field = self._spec(request)
            if self.value() is None or field is None:
                return queryset
            wanted = self.value()
            if isinstance(field.spec, Int) or (isinstance(field.spec, Choice) and all(
                    type(v) is int for v in field.spec.values)):
                wanted = int(wanted) if wanted.lstrip("-").isdigit() else None
            return queryset.filter(**{f"options__{option}": wanted})

    OptionFilter.__name__ = f"OptionFilter_{option}"
    return OptionFilter


OPTION_FILTERS = tuple(option_filter(o) for o in dict.fromkeys(
    o for r in RULESETS.values() for o in r.info.options.fields))


class AbortForm(forms.Form):
    reason = forms.CharField(widget=forms.Textarea(attrs={"rows": 3, "cols": 60}),
                             max_length=500, help_text="players see it in the match's events")


@admin.register(Match)
class MatchAdmin(CheckedSelection, ReadOnly, admin.ModelAdmin):
    list_display = ("id", "ruleset", "table", "options_used", "status", "owner", "round_number",
                    "version", "created_at", "updated_at")
    list_filter = ("ruleset", "status", "table", OptionSetFilter, *OPTION_FILTERS,
                   ("created_at", admin.DateFieldListFilter))
    search_fields = ("invite_code", "owner__username", "seats__user__username")
    date_hierarchy = "created_at"
    list_select_related = ("owner", "table")
    fields = ("ruleset", "table", "status", "owner", "options_used", "options", "options_hash",
              "invite_code", "bots_fill_at", "version", "round_number", "to_act", "created_at",
              "updated_at", "compacted_at", "settlement", "tools")
    readonly_fields = fields
    inlines = (SeatInline, RoundInline, MoveInline)
    actions = ("export_json",)

    @admin.display(description="options")
    def options_used(self, obj: Match) -> str:
        return options_text(obj.ruleset, obj.options)

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
        links = format_html(
            '<a href="{}">replay</a> · <a href="{}">export JSON</a>',
            reverse("admin:games_match_replay", args=[obj.pk]),
            reverse("admin:games_match_export", args=[obj.pk]),
        )
        if obj.status in Match.OPEN:
            links = format_html('{} · <a href="{}">abort…</a>', links,
                                reverse("admin:games_match_abort", args=[obj.pk]))
        return links

    @admin.action(description="Export the selected matches as JSON")
    def export_json(self, request, queryset):
        return _json_export(queryset.order_by("pk"))

    def get_urls(self):
        view = self.admin_site.admin_view
        return [
            path("<int:match_id>/replay/", view(self.replay_view), name="games_match_replay"),
            path("<int:match_id>/export/", view(self.export_view), name="games_match_export"),
            path("<int:match_id>/abort/", view(self.abort_view), name="games_match_abort"),
            *super().get_urls(),
        ]

    def abort_view(self, request, match_id: int):
        """Abort a stuck match: a reason, then `services.match_abort`; logged with who did it."""
        match = self._match(request, match_id)
        if not request.user.has_perm("games.abort_match"):
            raise PermissionDenied
        form = AbortForm(request.POST or None)
        if request.method == "POST" and form.is_valid():
            reason = form.cleaned_data["reason"]
            try:
                with transaction.atomic():
                    services.match_abort(match_id=match.pk, reason=reason)
                    self.log_change(request, match, f"Aborted: {reason}")
            except Refusal as refusal:
                self.message_user(request, refusal.message, messages.ERROR)
            else:
                self.message_user(request, f"{match} is aborted; its scores stay as they were.",
                                  messages.SUCCESS)
            return redirect("admin:games_match_change", match.pk)
        context = {
            **self.admin_site.each_context(request),
            "opts": self.model._meta,
            "title": f"Abort {match}",
            "match": match,
            "form": form,
        }
        return TemplateResponse(request, "admin/games/match/abort.html", context)

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
class RoundAdmin(CheckedSelection, ReadOnly, admin.ModelAdmin):
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
class EventAdmin(CheckedSelection, ReadOnly, admin.ModelAdmin):
    list_display = ("match", "seq", "round_number", "version", "data", "created_at")
    list_filter = ("match__ruleset",)
    readonly_fields = ("match", "seq", "round_number", "version", "data", "created_at")


class OptionsAdmin(CheckedSelection, admin.ModelAdmin):
    """The admin of a model with a ruleset and its options (games.admin_options.OptionsForm):
    the ruleset is chosen once, its options shown one field each, then a sample round settled
    with them."""

    form = OptionsForm
    head: tuple = ()

    def get_readonly_fields(self, request, obj=None):
        return ("ruleset", "hash_of_options", "settlement_preview") if obj else ()

    def formfield_for_dbfield(self, db_field, request, **kwargs):
        if db_field.name == "ruleset":
            return forms.ChoiceField(choices=[(name, both(r.info.title, name))
                                              for name, r in RULESETS.items()])
        return super().formfield_for_dbfield(db_field, request, **kwargs)

    def get_fieldsets(self, request, obj=None):
        rulesets = [get_ruleset(obj.ruleset)] if obj else list(RULESETS.values())
        fieldsets = list(self.head)
        fieldsets += [(f"{both(r.info.title, r.name)} options", {
            "fields": [field_name(r.name, o) for o in r.info.options.fields],
            "description": None if obj else f"used when the ruleset is {r.name}",
        }) for r in rulesets]
        if obj:
            fieldsets.append(("What the options do", {"fields": ("hash_of_options",
                                                                 "settlement_preview")}))
        return fieldsets

    def get_form(self, request, obj=None, change=False, **kwargs):
        # The option fields are the form's own (added per ruleset), not the model's.
        names = kwargs.get("fields") or flatten_fieldsets(self.get_fieldsets(request, obj))
        kwargs["fields"] = [n for n in names if "__" not in n]
        return super().get_form(request, obj, change, **kwargs)

    @admin.display(description="options")
    def options_text(self, obj) -> str:
        return options_text(obj.ruleset, obj.options)

    @admin.display(description="options hash (of matches made with these options)")
    def hash_of_options(self, obj) -> str:
        return options_hash(get_ruleset(obj.ruleset).parse_options(obj.options))

    @admin.display(description="settlement of a sample round")
    def settlement_preview(self, obj) -> str:
        return settlement_preview(obj.ruleset, obj.options)


class ExhibitionForm(forms.Form):
    """One bot level per seat of the table."""

    def __init__(self, *args, players: int, **kwargs):
        super().__init__(*args, **kwargs)
        for seat in range(players):
            self.fields[f"seat_{seat}"] = forms.ChoiceField(
                label=f"seat {seat}", choices=[(level, level) for level in BOT_LEVELS],
                initial=DEFAULT_BOT_LEVEL)

    def levels(self) -> list[str]:
        return [self.cleaned_data[name] for name in self.fields]


@admin.register(Table)
class TableAdmin(OptionsAdmin):
    form = TableForm
    head = (
        (None, {"fields": ("name", "slug", "ruleset", "active", "watchable", "position")}),
        ("Seats", {"fields": ("bot_levels", "bots_after", "turn_seconds", "server_pace_ms",
                              "allow_override")}),
    )
    list_display = ("name", "slug", "ruleset", "options_text", "bots_after", "allow_override",
                    "watchable", "active", "position", "matches", "exhibition")
    list_editable = ("active", "position")
    list_filter = ("ruleset", "active")
    search_fields = ("name", "slug")
    prepopulated_fields = {"slug": ("name",)}

    def get_queryset(self, request):
        return super().get_queryset(request).annotate(match_count=Count("matches"))

    def get_prepopulated_fields(self, request, obj=None):
        return {} if obj else self.prepopulated_fields

    @admin.display(description="matches", ordering="match_count")
    def matches(self, obj: Table) -> str:
        url = reverse("admin:games_match_changelist") + f"?table__id__exact={obj.pk}"
        return format_html('<a href="{}">{}</a>', url, obj.match_count)

    @admin.display(description="exhibition")
    def exhibition(self, obj: Table) -> str:
        return format_html('<a href="{}">bots only…</a>',
                           reverse("admin:games_table_exhibition", args=[obj.pk]))

    def get_urls(self):
        view = self.admin_site.admin_view
        return [path("<int:table_id>/exhibition/", view(self.exhibition_view),
                     name="games_table_exhibition"), *super().get_urls()]

    def exhibition_view(self, request, table_id: int):
        """An all-bot match at this table, at the levels staff choose, for people to watch (a
        house rule shown, a bot level watched); logged with who started it."""
        if not request.user.has_perm("games.start_exhibition"):
            raise PermissionDenied
        table = Table.objects.filter(pk=table_id).first()
        if table is None:
            raise Http404("no such table")
        players = get_ruleset(table.ruleset).parse_options(table.options)["players"]
        form = ExhibitionForm(request.POST or None, players=players)
        if request.method == "POST" and form.is_valid():
            with transaction.atomic():
                match = services.exhibition_open(staff=request.user, table=table,
                                                 levels=form.levels())
                self.log_addition(request, match, f"Exhibition at {table.slug}: "
                                  f"{', '.join(form.levels())}")
            self.message_user(request, format_html(
                '{} started; watch it at <a href="/#/match/{}">/#/match/{}</a>.', match,
                match.pk, match.pk), messages.SUCCESS)
            return redirect("admin:games_match_change", match.pk)
        context = {**self.admin_site.each_context(request), "opts": self.model._meta,
                   "title": f"An exhibition match at {table}", "table": table, "form": form}
        return TemplateResponse(request, "admin/games/table/exhibition.html", context)


@admin.register(RulesetDefaults)
class RulesetDefaultsAdmin(OptionsAdmin):
    head = ((None, {"fields": ("ruleset",),
                    "description": "A match created without a table starts from these options "
                    "(the client's own over them)."}),)
    list_display = ("ruleset", "options_text", "updated_at")
