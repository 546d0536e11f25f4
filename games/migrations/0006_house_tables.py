"""A few house tables for each ruleset, so that a fresh install has tables to play at.

A data migration rather than a command run at each start: it runs once per database, so staff's
edits are never overwritten and a table staff deleted never comes back. It adds nothing to a
site that has tables already (staff chose its tables). Staff edit or retire these in the admin
like any other."""

from django.db import migrations

from games.engine.registry import RULESETS

# (slug, name, ruleset, options, seconds a quick match waits for people before bots sit down)
HOUSE_TABLES = [
    ("510k-casual", "510K, casual: 4 rounds", "510k", {"rounds": 4}, 20),
    ("510k-base5-half-dry", "510K, base 5, half-dry", "510k", {"base_score": 5, "dry": "half"},
     30),
    ("510k-two-players", "510K, two players", "510k", {"players": 2, "rounds": 4}, 20),
    ("gandengyan-casual", "干瞪眼, casual", "gandengyan", {}, 20),
    ("gandengyan-two-decks", "干瞪眼, 2 decks, 6 players", "gandengyan",
     {"decks": 2, "players": 6}, 30),
]


def house_tables(apps, schema_editor) -> None:
    """The house tables, on a site with no table yet; each as its ruleset parses its options
    (every option written out, as the admin keeps them)."""
    table = apps.get_model("games", "Table")
    if table.objects.exists():
        return
    table.objects.bulk_create(
        table(slug=slug, name=name, ruleset=ruleset, position=position, bots_after=wait,
              options=RULESETS[ruleset].parse_options(options), bot_levels=["normal"])
        for position, (slug, name, ruleset, options, wait) in enumerate(HOUSE_TABLES)
        if ruleset in RULESETS
    )


class Migration(migrations.Migration):

    dependencies = [
        ("games", "0005_move_idempotency_key"),
    ]

    operations = [
        migrations.RunPython(house_tables, migrations.RunPython.noop),
    ]
