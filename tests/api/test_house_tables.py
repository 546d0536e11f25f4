"""The house tables a fresh install gets (games/migrations/0006_house_tables.py): a few for
each ruleset, valid as staff's tables are, made once. tests/test_serve.py finds them on a freshly
migrated database."""

import importlib

import pytest
from django.apps import apps

from games.admin_options import field_name
from games.engine.registry import get_ruleset
from games.models import Table

pytestmark = pytest.mark.django_db

house = importlib.import_module("games.migrations.0006_house_tables")


def made() -> dict[str, Table]:
    house.house_tables(apps, None)
    return {t.slug: t for t in Table.objects.all()}


def test_each_ruleset_gets_a_few_tables_with_every_option_written_out():
    tables = made()
    assert [t.slug for t in Table.objects.order_by("position")] == [
        slug for slug, *_ in house.HOUSE_TABLES]
    for ruleset in ("510k", "gandengyan"):
        mine = [t for t in tables.values() if t.ruleset == ruleset]
        assert len(mine) >= 2
        for table in mine:
            assert table.options == get_ruleset(ruleset).parse_options(table.options)
            assert table.active and table.bot_levels == ["normal"]


def test_staff_edit_each_of_them_in_the_admin(staff):
    for table in made().values():
        data = {"name": f"{table.name} (ours)", "slug": table.slug, "bot_levels": "hard",
                "bots_after": table.bots_after, "active": "on", "position": table.position,
                **{field_name(table.ruleset, k): v for k, v in table.options.items()}}
        response = staff.post(f"/admin/games/table/{table.pk}/change/", data)
        assert response.status_code == 302, (table.slug, response.context["adminform"].form.errors)
        table.refresh_from_db()
        assert table.name.endswith("(ours)") and table.bot_levels == ["hard"]


def test_made_again_changes_nothing_and_brings_no_deleted_table_back():
    tables = made()
    edited = tables["510k-casual"]
    edited.name, edited.options = "Our casual table", {**edited.options, "rounds": 2}
    edited.save()
    tables["gandengyan-casual"].delete()
    before = list(Table.objects.order_by("pk").values())
    made()
    assert list(Table.objects.order_by("pk").values()) == before


def test_a_site_with_tables_of_its_own_gets_none():
    Table.objects.create(name="Ours", slug="ours", ruleset="510k",
                         options=get_ruleset("510k").parse_options({}))
    assert list(made()) == ["ours"]
