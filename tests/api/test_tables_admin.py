"""House rules through the admin, as staff use it (Django's test client logged in as staff):
tables and site-wide defaults edited through the ruleset's own option rules, the settlement
preview, matches filtered by table and options, and aborting a stuck match."""

import random

import pytest
from django.contrib.admin.models import LogEntry
from django.contrib.auth.models import Permission
from django.test import Client as DjangoClient

from games.models import Event, Match, RulesetDefaults, Seat, Table, options_hash
from scoring.models import ScoreEntry
from tests.matchplay import Client, bots, counted_seeds, create, new_player, play_through

pytestmark = pytest.mark.django_db(transaction=True)

TABLE_FORM = {"name": "510K, base 5, half-dry", "slug": "base5-half", "ruleset": "510k",
              "active": "on", "position": "1", "bot_levels": "random", "bots_after": "0"}


@pytest.fixture(autouse=True)
def seeded(monkeypatch):
    counted_seeds(monkeypatch, "house-seed")


@pytest.fixture
def player() -> Client:
    return new_player()


def add_table(staff, **fields) -> Table:
    response = staff.post("/admin/games/table/add/", {**TABLE_FORM, **fields})
    assert response.status_code == 302, response.context["adminform"].form.errors
    return Table.objects.get(slug=fields.get("slug", TABLE_FORM["slug"]))


def change_table(staff, table: Table, **fields) -> None:
    data = {k: v for k, v in TABLE_FORM.items() if k not in ("ruleset",)}
    data.update({f"510k__{k}": v for k, v in table.options.items()})
    data["bot_levels"] = ", ".join(table.bot_levels)
    response = staff.post(f"/admin/games/table/{table.pk}/change/", {**data, **fields})
    assert response.status_code == 302, response.context["adminform"].form.errors


def form_errors(response) -> dict:
    assert response.status_code == 200
    form = response.context["adminform"].form
    return {name: [str(e) for e in errors] for name, errors in form.errors.items()}


def settle_facts(result: dict) -> dict:
    """A finished 510k round's facts, as the settle endpoint takes them."""
    summary = result["summary"]
    return {"banker": summary["banker"], "teams": summary["teams"],
            "finish_order": summary["finish_order"],
            "captured": [b["captured"] for b in result["breakdown"]],
            "xi_bombs": [[{"rank": b["rank"], "count": b["count"]} for b in seat]
                         for seat in result["xi_bombs"]]}


def test_staff_set_base_score_and_dry_and_the_next_match_settles_with_them(staff, player):
    table = add_table(staff, **{"510k__base_score": "5", "510k__dry": "half",
                                "510k__rounds": "3"})
    assert table.options == {"players": 4, "base_score": 5, "dry": "half",
                             "xi_mode": "multiplicative", "rounds": 3}
    status, view = player.post("/tables/base5-half/play/")
    assert status == 201 and view["options"] == table.options
    # Changing the table now changes nothing of the match already made from it.
    change_table(staff, table, **{"510k__base_score": "2", "510k__dry": "none"})
    assert Table.objects.get(pk=table.pk).options["base_score"] == 2
    view = play_through(player, view, random.Random(7))
    assert view["status"] == "finished" and view["options"]["base_score"] == 5
    changed_something = False
    for number in range(1, 4):
        status, rnd = player.get(f"/matches/{view['id']}/rounds/{number}/")
        assert status == 200 and rnd["over"]
        ledger = [e.delta for e in ScoreEntry.objects.filter(
            round__match_id=view["id"], round__number=number).order_by("seat")]
        assert ledger == rnd["deltas"]
        facts = settle_facts(rnd["result"])
        status, settled = player.post("/rules/510k/settle/",
                                      {"options": view["options"], **facts})
        assert status == 200 and settled["deltas"] == ledger
        plain = player.post("/rules/510k/settle/", {"options": {"players": 4}, **facts})[1]
        changed_something |= plain["deltas"] != ledger
    assert changed_something  # base 5 and half-dry are not the defaults' settlement


def test_the_form_refuses_with_the_apis_own_messages(staff, player):
    response = staff.post("/admin/games/table/add/", {
        **TABLE_FORM, "510k__base_score": "11", "510k__dry": "wet", "510k__rounds": "x"})
    errors = form_errors(response)
    for option, value in (("base_score", 11), ("dry", "wet"), ("rounds", "x")):
        status, data = player.post("/matches/", {"ruleset": "510k", "options": {option: value}})
        assert status == 400 and data["error"]["code"] == "invalid_option"
        assert errors[f"510k__{option}"] == [data["error"]["message"]]
    assert not Table.objects.exists()


def test_the_form_checks_bot_levels_against_the_players(staff):
    response = staff.post("/admin/games/table/add/", {**TABLE_FORM, "bot_levels": "hard, god"})
    assert form_errors(response)["bot_levels"] == ["god: a level is one of random, normal, hard"]
    response = staff.post("/admin/games/table/add/", {**TABLE_FORM, "bot_levels": "hard, normal"})
    assert form_errors(response)["bot_levels"] == ["one level, or 3: one per seat after the "
                                                   "first"]
    table = add_table(staff, bot_levels="hard, normal, random")
    assert table.bot_levels == ["hard", "normal", "random"]
    response = staff.post("/admin/games/table/add/", {**TABLE_FORM, "slug": "long",
                                                      "bots_after": "3601"})
    assert "bots_after" in form_errors(response)


def test_only_the_chosen_rulesets_options_count(staff):
    page = staff.get("/admin/games/table/add/").content.decode()
    assert "Dry levels · 干" in page and "Decks · 几副牌" in page  # every ruleset's, to choose
    table = add_table(staff, **{"510k__base_score": "3", "gandengyan__decks": "7"})
    assert table.options["base_score"] == 3 and "decks" not in table.options
    gandengyan = add_table(staff, slug="gdy", ruleset="gandengyan",
                           **{"gandengyan__decks": "2", "510k__base_score": "99"})
    assert gandengyan.options == {"decks": 2, "players": 4, "starting_score": 500}


def test_the_table_page_shows_its_ruleset_options_and_a_settled_sample_round(staff):
    table = add_table(staff, **{"510k__base_score": "5"})
    page = staff.get(f"/admin/games/table/{table.pk}/change/").content.decode()
    assert "Base score · 底分" in page and "half-dry · 半干" in page
    assert "Decks" not in page  # another ruleset's option
    assert "A sample 4-player round" in page
    assert options_hash(table.options) in page
    # 510k's sample round: the stake (进出分) is 5 times the defaults', the 喜分 the same.
    assert "<td>0</td><td>+4</td><td>+0</td><td>settlement 5, xi -1</td>" in page
    assert "<td>3</td><td>-6</td><td>-2</td><td>settlement -5, xi -1</td>" in page
    duo = add_table(staff, slug="duo", **{"510k__players": "2"})
    page = staff.get(f"/admin/games/table/{duo.pk}/change/").content.decode()
    assert "A sample 4-player round" in page  # the sample keeps its own size
    listing = staff.get("/admin/games/table/").content.decode()
    assert "Base score 5" in listing and f"?table__id__exact={table.pk}" in listing


def test_site_wide_defaults_are_set_in_the_admin_and_used_without_options(staff, player):
    response = staff.post("/admin/games/rulesetdefaults/add/", {
        "ruleset": "510k", "510k__base_score": "4", "510k__xi_mode": "additive"})
    assert response.status_code == 302
    assert RulesetDefaults.objects.get().options["base_score"] == 4
    view = player.post("/matches/", {"ruleset": "510k"})[1]
    assert view["options"]["base_score"] == 4 and view["options"]["xi_mode"] == "additive"
    response = staff.post("/admin/games/rulesetdefaults/add/", {"ruleset": "510k"})
    assert response.status_code == 200  # one row per ruleset
    defaults = RulesetDefaults.objects.get()
    page = staff.get(f"/admin/games/rulesetdefaults/{defaults.pk}/change/").content.decode()
    assert "A sample 4-player round" in page


def test_matches_are_filtered_by_table_and_by_options(staff, player):
    table = add_table(staff, **{"510k__dry": "half", "510k__rounds": "1"})
    from_table = player.post("/matches/", {"table": table.slug})[1]["id"]
    plain = create(player, "510k", {"rounds": 1}, bots(3))["id"]
    other = create(player, "gandengyan", {}, bots(3))["id"]
    url = "/admin/games/match/"

    def listed(query: str) -> set[int]:
        response = staff.get(url + query)
        assert response.status_code == 200
        return {m.pk for m in response.context["cl"].result_list}

    assert listed(f"?table__id__exact={table.pk}") == {from_table}
    assert listed(f"?options_hash={options_hash(table.options)}") == {from_table}
    assert listed("?ruleset__exact=510k&option_dry=half") == {from_table}
    assert listed("?ruleset__exact=510k&option_rounds=1") == {from_table, plain}
    assert listed("?ruleset__exact=510k&option_players=4") == {from_table, plain}
    assert listed("?ruleset__exact=gandengyan&option_decks=1") == {other}
    page = staff.get(url + "?ruleset__exact=510k").content.decode()
    assert "Dry levels · 干" in page and "half-dry · 半干" in page
    assert "510k: Players 4 · Base score 1" in page  # the options filter's choices
    match_page = staff.get(f"{url}{from_table}/change/").content.decode()
    assert table.name in match_page and "Dry levels half-dry" in match_page
    assert options_hash(table.options) in match_page


# -- abort ---------------------------------------------------------------------------------------


def running_match(player) -> Match:
    view = play_through(player, create(player, "gandengyan", {"starting_score": 50}, bots(3)),
                        random.Random(3), acts=8)
    assert view["status"] == "active"
    return Match.objects.get(pk=view["id"])


def test_staff_abort_a_stuck_match_with_a_reason_scores_stay_and_it_is_logged(staff, player):
    match = running_match(player)
    scores = list(Seat.objects.filter(match=match).values_list("score", flat=True))
    entries = ScoreEntry.objects.filter(round__match=match).count()
    url = f"/admin/games/match/{match.pk}/abort/"
    assert "abort…" in staff.get(f"/admin/games/match/{match.pk}/change/").content.decode()
    assert staff.get(url).status_code == 200
    response = staff.post(url, {"reason": ""})
    assert response.status_code == 200 and Match.objects.get(pk=match.pk).status == "active"
    response = staff.post(url, {"reason": "a player's client is stuck"})
    assert response.status_code == 302
    aborted = Match.objects.get(pk=match.pk)
    assert aborted.status == "aborted" and aborted.version == match.version + 1
    assert list(Seat.objects.filter(match=match).values_list("score", flat=True)) == scores
    assert set(Seat.objects.filter(match=match).values_list("match_status", flat=True)) == {
        "aborted"}
    assert ScoreEntry.objects.filter(round__match=match).count() == entries
    event = Event.objects.filter(match=match).order_by("-seq").first()
    assert event.data == {"type": "match_aborted", "reason": "a player's client is stuck"}
    entry = LogEntry.objects.get(object_id=str(match.pk))
    assert entry.user.username == "staff" and "a player's client is stuck" in entry.change_message
    # The players see it; nobody acts in it again.
    view = player.get(f"/matches/{match.pk}/")[1]
    assert view["status"] == "aborted" and not view["your_turn"]
    assert player.get("/matches/?status=aborted")[1]["results"][0]["id"] == match.pk
    status, data = player.post(f"/matches/{match.pk}/act/", {
        "expected_version": view["version"], "action": {"type": "pass"}})
    assert status == 409 and data["error"]["code"] == "match_over"
    # Twice: refused, nothing changes.
    response = staff.post(url, {"reason": "again"}, follow=True)
    assert "aborted already" in response.content.decode()
    assert Match.objects.get(pk=match.pk).version == aborted.version


def test_aborting_needs_the_permission(player, django_user_model):
    match = running_match(player)
    clerk = django_user_model.objects.create_user("clerk", password="pw-clerk-1", is_staff=True)
    clerk.user_permissions.add(Permission.objects.get(codename="view_match"))
    client = DjangoClient()
    client.force_login(clerk)
    assert client.get(f"/admin/games/match/{match.pk}/change/").status_code == 200
    url = f"/admin/games/match/{match.pk}/abort/"
    assert client.post(url, {"reason": "no"}).status_code == 403
    assert Match.objects.get(pk=match.pk).status == "active"
    clerk.user_permissions.add(Permission.objects.get(codename="abort_match"))
    client.force_login(django_user_model.objects.get(pk=clerk.pk))
    assert client.post(url, {"reason": "stuck"}).status_code == 302
    assert Match.objects.get(pk=match.pk).status == "aborted"
