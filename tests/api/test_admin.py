"""Staff review in the admin: lists and filters, the match page, replay, export; and the log
replayed rebuilds the stored snapshot, for finished and running matches."""

import itertools
import json
import random

import pytest
from django.contrib import admin
from django.test import Client as DjangoClient
from django.test import RequestFactory
from django.urls import reverse
from django.utils import timezone
from rest_framework.test import APIClient

from games import selectors, services
from games.engine.registry import get_ruleset
from games.models import Match, Move
from tests.matchplay import Client, bots, client_sender, create, play_through, sign_in

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def seeded(monkeypatch):
    counter = itertools.count()
    monkeypatch.setattr(services.progress, "new_seed", lambda: f"admin-seed-{next(counter):04d}")


@pytest.fixture
def matches() -> dict[str, int]:
    """A finished gandengyan match, a running 510k match (a few acts in), a 2-player 510k one."""
    client = Client(client_sender(APIClient()))
    sign_in(client)
    finished = play_through(client, create(client, "gandengyan", {"starting_score": 4}, bots(3)),
                            random.Random(1))
    running = play_through(client, create(client, "510k", {"rounds": 2}, bots(3)),
                           random.Random(2), acts=6)
    duo = create(client, "510k", {"rounds": 1, "players": 2}, bots(1))
    return {"finished": finished["id"], "running": running["id"], "duo": duo["id"]}


def snapshot_of(state, ruleset: str) -> dict:
    return json.loads(json.dumps(get_ruleset(ruleset).to_json(state)))


def test_replaying_the_log_rebuilds_the_stored_snapshot(matches):
    for match in Match.objects.filter(pk__in=matches.values()):
        assert snapshot_of(selectors.match_replay(match), match.ruleset) == match.snapshot


def test_replay_up_to_each_move_awaits_the_seat_that_made_the_next_one(matches):
    for key in ("running", "finished"):
        match = Match.objects.get(pk=matches[key])
        engine = get_ruleset(match.ruleset)
        moves = selectors.match_moves(match)
        for upto in range(1, len(moves), max(1, len(moves) // 25)):
            (round_now, *_), (round_next, seat_next, *_) = moves[upto - 1], moves[upto]
            if round_now == round_next:
                assert engine.to_act(selectors.match_replay(match, upto)) == seat_next


def test_match_list_filters(staff, matches):
    url = "/admin/games/match/"
    year = timezone.now().year
    for query in ("", "?ruleset=510k", "?status__exact=finished", f"?created_at__year={year}",
                  "?q=ADMIN"):
        assert staff.get(url + query).status_code == 200
    page = staff.get(url + "?status__exact=finished").content.decode()
    assert f">{matches['finished']}<" in page and f">{matches['running']}<" not in page


def test_match_page_shows_rounds_moves_and_settlement(staff, matches):
    page = staff.get(f"/admin/games/match/{matches['finished']}/change/").content.decode()
    assert "round 1" in page and "replay" in page and "export JSON" in page
    assert "Moves" in page and "Rounds" in page and "Seats" in page
    move = Move.objects.filter(match_id=matches["finished"]).first()
    assert staff.get(f"/admin/games/round/{move.round_id}/change/").status_code == 200
    assert staff.get(f"/admin/games/match/{matches['finished']}/delete/").status_code == 403


def test_replay_page_any_move_any_seat(staff, matches):
    url = f"/admin/games/match/{matches['running']}/replay/"
    total = Move.objects.filter(match_id=matches["running"]).count()
    for move, seat in ((0, "all"), (1, "0"), (total // 2, "2"), (total, "all"), ("x", "9")):
        response = staff.get(url, {"move": move, "seat": seat})
        assert response.status_code == 200
        assert "The stored snapshot matches" in response.content.decode()
    opened = staff.get(url, {"move": total, "seat": "all"}).context["shown"]
    one_seat = staff.get(url, {"move": total, "seat": "1"}).context["shown"]
    assert '"hands"' in opened and '"hands"' not in one_seat
    assert staff.get(f"/admin/games/match/{matches['duo']}/replay/").status_code == 200
    assert staff.get("/admin/games/match/999999/replay/").status_code == 404


def test_export_as_json_link_and_action(staff, matches):
    response = staff.get(f"/admin/games/match/{matches['finished']}/export/")
    data = json.loads(response.content)
    assert response["Content-Disposition"].endswith('.json"')
    assert data["status"] == "finished" and data["rounds"] and data["moves"] and data["events"]
    assert all(r["seed"] and sum(e["delta"] for e in r["settlement"]) == 0 for r in data["rounds"])
    response = staff.post("/admin/games/match/", {
        "action": "export_json", "_selected_action": list(matches.values())})
    assert sorted(m["id"] for m in json.loads(response.content)) == sorted(matches.values())


def test_admin_needs_staff(matches, django_user_model):
    client = DjangoClient()
    client.force_login(django_user_model.objects.create_user("plain", password="pw-plain-1"))
    url = f"/admin/games/match/{matches['finished']}/replay/"
    assert client.get(url).status_code == 302


@pytest.mark.parametrize("model", list(admin.site._registry), ids=lambda m: m._meta.label)
def test_an_action_on_a_selection_that_names_no_row_is_refused(staff, django_user_model, model):
    url = reverse(f"admin:{model._meta.app_label}_{model._meta.model_name}_changelist")
    request = RequestFactory().get(url)
    request.user = django_user_model.objects.get(username="staff")
    actions = admin.site._registry[model].get_actions(request)
    for action in actions or ["delete_selected"]:
        response = staff.post(url, {"action": action, "_selected_action": ["1", "abc"]})
        if actions:
            assert response.status_code == 400
            assert response.content.startswith(b"invalid_selection")
        else:  # a page with no actions (review only) shows the list, whatever is posted
            assert response.status_code == 200
