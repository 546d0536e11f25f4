"""Ruleset options in the admin: one form field per option of every ruleset, built from its spec
and judged by the ruleset's own parse (the API's messages, word for word); the options read
aloud; and a sample round settled with them."""

import json
from collections.abc import Mapping

from django import forms
from django.utils.html import format_html, format_html_join

from games.engine.errors import IllegalAction
from games.engine.registry import RULESETS, get_ruleset
from games.engine.ruleset import Ruleset
from games.engine.specs import Choice, Int
from games.models import BOT_LEVELS
from games.presenters import options_described


def field_name(ruleset: str, option: str) -> str:
    return f"{ruleset}__{option}"


def both(labels: Mapping, fallback: str) -> str:
    """A label in English and Chinese, once if they are the same."""
    return " · ".join(dict.fromkeys(v for v in (labels.get("en"), labels.get("zh")) if v)) \
        or fallback


def options_text(ruleset: str, options: Mapping) -> str:
    """"Base score 5 · Dry levels half-dry · ...", in English."""
    if ruleset not in RULESETS:
        return json.dumps(options)
    return " · ".join(f"{d['label']['en']} {d['text']['en']}"
                      for d in options_described(get_ruleset(ruleset), options))


class OptionField(forms.Field):
    """One option as typed: made the spec's JSON type where it can be; the ruleset judges it."""

    def __init__(self, spec, **kwargs):
        self.spec = spec
        super().__init__(required=False, **kwargs)

    def to_python(self, value):
        if value in self.empty_values:
            return None
        if isinstance(self.spec, Choice):
            return next((v for v in self.spec.values if str(v) == value), value)
        if isinstance(self.spec, Int):
            try:
                return int(value)
            except ValueError:
                return value
        return value


def option_fields(ruleset: Ruleset) -> dict[str, OptionField]:
    fields = {}
    for option, f in ruleset.info.options.fields.items():
        spec = f.spec
        if isinstance(spec, Choice):
            widget = forms.Select(choices=[(v, both(spec.labels.get(v, {}), str(v)))
                                           for v in spec.values])
        else:
            widget = forms.TextInput(attrs={"size": 8})
        help_text = "; ".join(filter(None, [spec.description, f"default {f.default}"]))
        fields[field_name(ruleset.name, option)] = OptionField(
            spec, label=both(f.label, option), help_text=help_text, initial=f.default,
            widget=widget)
    return fields


class OptionsForm(forms.ModelForm):
    """A model with a `ruleset` and its `options` (a table, the site-wide defaults), the options
    edited one field each. On a new one every ruleset's fields are there and those of the chosen
    ruleset count; afterwards the ruleset is fixed and only its fields are shown."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        chosen = self.instance.ruleset if self.instance.pk else None
        for ruleset in RULESETS.values():
            if chosen is not None and ruleset.name != chosen:
                continue
            for name, field in option_fields(ruleset).items():
                option = name.split("__", 1)[1]
                if chosen is not None:
                    field.initial = self.instance.options.get(option, field.initial)
                self.fields[name] = field

    @property
    def ruleset(self) -> Ruleset | None:
        name = self.instance.ruleset if self.instance.pk else self.cleaned_data.get("ruleset")
        return RULESETS.get(name)

    def clean(self):
        data = super().clean()
        ruleset = self.ruleset
        if ruleset is None:
            return data
        asked = {}
        for option in ruleset.info.options.fields:
            name = field_name(ruleset.name, option)
            value = data.get(name)
            if value is None:
                continue
            try:
                ruleset.parse_options({option: value})
            except IllegalAction as refusal:
                self.add_error(name, refusal.message)
            asked[option] = value
        if not self.errors:
            try:
                self.instance.options = ruleset.parse_options(asked)
            except IllegalAction as refusal:
                self.add_error(None, refusal.message)
        return data


class BotLevelsField(forms.CharField):
    """Bot levels typed as "normal" or "hard, normal, normal"."""

    def prepare_value(self, value):
        return ", ".join(value) if isinstance(value, list) else value

    def to_python(self, value) -> list[str]:
        return [v.strip() for v in (value or "").split(",") if v.strip()]

    def validate(self, value) -> None:
        if not value:
            raise forms.ValidationError("at least one level")
        wrong = [v for v in value if v not in BOT_LEVELS]
        if wrong:
            raise forms.ValidationError(f"{wrong[0]}: a level is one of {', '.join(BOT_LEVELS)}")


class TableForm(OptionsForm):
    bot_levels = BotLevelsField(
        initial=["normal"],
        help_text=f"the bots that take empty seats: one level for all, or one per seat after "
        f"the first, comma-separated ({', '.join(BOT_LEVELS)})")

    def clean(self):
        data = super().clean()
        levels = data.get("bot_levels")
        if levels and not self.errors:
            players = self.instance.options["players"]
            if len(levels) not in (1, players - 1):
                self.add_error("bot_levels", f"one level, or {players - 1}: one per seat after "
                               "the first")
        return data


def settlement_preview(ruleset_name: str, options: Mapping) -> str:
    """The ruleset's sample round settled with `options`, beside its settlement with the
    ruleset's own defaults: what the options change, per seat."""
    ruleset = get_ruleset(ruleset_name)
    facts = dict(ruleset.info.settle_example)
    players = facts.pop("options", {}).get("players", options.get("players"))
    # The sample is a round of its own size: the other options are these.
    try:
        settled = ruleset.settle(ruleset.parse_options({**options, "players": players}), facts)
        plain = ruleset.settle(ruleset.parse_options({"players": players}), facts)
    except IllegalAction as refusal:
        return f"The sample round cannot be settled with these options: {refusal.message}"
    per_seat = [k for k, v in settled.items() if k != "deltas" and isinstance(v, list)
                and len(v) == players and all(isinstance(x, int | str) for x in v)]
    breakdown = settled.get("breakdown") if isinstance(settled.get("breakdown"), list) else []
    rows = []
    for seat in range(players):
        items = [f"{k} {settled[k][seat]}" for k in per_seat]
        if seat < len(breakdown):
            items += [f"{k} {v}" for k, v in breakdown[seat].items() if k not in ("seat", "delta")]
        rows.append((seat, f"{settled['deltas'][seat]:+d}", f"{plain['deltas'][seat]:+d}",
                     ", ".join(items)))
    overall = ", ".join(f"{k} {v}" for k, v in settled.items()
                        if isinstance(v, int | str) and not isinstance(v, bool))
    return format_html(
        "<p>A sample {}-player round: <code>{}</code></p>"
        "<table><tr><th>seat</th><th>delta</th><th>with the ruleset's defaults</th>"
        "<th>itemised</th></tr>{}</table><p>{}</p>",
        players, json.dumps(facts, ensure_ascii=False),
        format_html_join("", "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>", rows),
        overall,
    )
