"""Screens that said the wrong thing (issue 21): a match staff stopped, a match paused because
everyone is away, the final results of a match of many rounds, each round's scores, and an act
whose answer was lost on the way."""

import re

from tests.browser.conftest import ON_A_PHONE, SMALL_PHONE
from tests.browser.driver import (
    SCREEN,
    close_results,
    screen,
    sign_in_as_guest,
    start_match,
    take_turn,
    wait_past_results,
    wait_ready,
)

BOTS = ["bot:random"] * 3
ENDLESS = {"starting_score": 100_000}
ABORT = """
from django.db import transaction
from games.services.matches import match_abort
with transaction.atomic():
    match_abort(match_id={match}, reason="stuck in a test")
"""
# What the server does to a match whose every person is away, and undoes when one comes back.
SET_STATUS = """
from games.models import Match, Seat
Match.objects.filter(pk={match}).update(status="{status}", autoplay={{"0": "timeout"}})
Seat.objects.filter(match_id={match}).update(match_status="{status}")
"""


def lobby_item(page, match: int):
    page.click(".bar .back")
    item = page.locator(f".match-item[data-match='{match}']")
    item.wait_for()
    return item


def test_a_match_staff_stopped_says_why_and_offers_nothing_to_do(open_page, manage):
    page = open_page()
    sign_in_as_guest(page)
    match = start_match(page, "gandengyan", ENDLESS, BOTS)
    wait_past_results(page)
    manage("shell", "-c", ABORT.format(match=match))
    page.wait_for_selector(f"{SCREEN}[data-status=aborted]")
    assert page.locator(".status .aborted").inner_text() == \
        "This match was stopped: stuck in a test"
    assert page.locator(".status .your-turn, .badge.to-act, .actions button, .autoplay button") \
        .count() == 0
    item = lobby_item(page, match)
    assert "stopped" in item.inner_text()
    assert item.locator("button").inner_text() == "Open"


def test_a_paused_match_says_so_and_comes_back_when_its_person_takes_their_seat(open_page,
                                                                                manage):
    page = open_page()
    sign_in_as_guest(page)
    match = start_match(page, "gandengyan", ENDLESS, BOTS)
    wait_past_results(page)
    manage("shell", "-c", SET_STATUS.format(match=match, status="paused"))
    page.reload()
    page.wait_for_selector(f"{SCREEN}[data-status=paused]")
    assert page.locator(".status .paused").inner_text().startswith("Paused: everyone was away")
    assert page.locator("[data-action=autoplay-off]").inner_text() == "Take my seat back"
    assert page.locator(".actions button").count() == 0
    page.click("[data-action=language]")
    assert page.locator(".status .paused").inner_text().startswith("牌局已暂停")
    assert page.locator("[data-action=autoplay-off]").inner_text() == "取消托管"
    page.click("[data-action=language]")

    def comes_back(route):  # the server resumes the match as it takes the seat back
        manage("shell", "-c", SET_STATUS.format(match=match, status="active"))
        route.continue_()

    page.route(re.compile(r"/api/v1/matches/\d+/autoplay/$"), comes_back)
    item = lobby_item(page, match)
    assert "paused: everyone was away" in item.inner_text()
    with page.expect_request(re.compile(r"/autoplay/$")) as asked:
        item.locator("[data-action=take-seat]").click()
    assert asked.value.post_data_json == {"on": False}
    page.wait_for_selector(f"{SCREEN}[data-match='{match}'][data-status=active]")
    page.locator("[data-action=autoplay-on]").wait_for()  # the seat is the person's again


def results_rows(dialog) -> dict[str, tuple[int, int]]:
    """Each seat's (round's delta, score) in the dialog's round table."""
    rows = dialog.locator(".results-table:not(.standings) tbody tr")
    cells = rows.evaluate_all("""rows => rows.map(r => [
      r.querySelector('th').firstChild.textContent,
      ...[...r.querySelectorAll('td')].slice(-2).map(c => c.textContent)])""")
    return {name: (int(delta), int(score)) for name, delta, score in cells}


def test_the_final_results_show_the_standings_first_and_each_round_its_own_scores(open_page):
    page = open_page(viewport=SMALL_PHONE, **ON_A_PHONE)

    def a_later_round_listed(route):
        # The list of rounds may know a round the dialog's view does not (rounds that ended back
        # to back): it must change no score the dialog shows.
        listed = route.fetch().json()
        route.fulfill(json=listed + [{"number": 99, "over": True, "deltas": [50, -50]}])

    page.route(re.compile(r"/api/v1/matches/\d+/rounds/$"), a_later_round_listed)
    sign_in_as_guest(page)
    start_match(page, "highcard", {"players": 2, "rounds": 5}, ["bot:random"])
    scores = {"You": 0, "Bot 1": 0}

    def check_round(dialog) -> None:
        for name, (delta, score) in results_rows(dialog).items():
            scores[name] += delta
            assert score == scores[name], name

    dialog = page.locator("dialog[open]")
    while True:
        wait_ready(page)
        if screen(page, "status") == "finished":
            break
        if dialog.count():
            check_round(dialog)
            close_results(page)
        else:
            take_turn(page)
    dialog.locator(".standings").wait_for()
    check_round(dialog)  # the last round's, under the standings
    assert dialog.evaluate("d => d.scrollTop") == 0
    top, bottom = dialog.locator(".standings").evaluate(
        "t => [t.getBoundingClientRect().top, t.getBoundingClientRect().bottom]")
    assert 0 <= top and bottom <= SMALL_PHONE["height"]  # in sight as the dialog opens
    picker = dialog.locator("details.round-picker")
    assert picker.evaluate("d => d.open") is False  # the rounds wait behind one line
    standings = dialog.locator(".standings tbody tr").evaluate_all(
        "rows => rows.map(r => [r.querySelector('th').firstChild.textContent,"
        " Number(r.lastElementChild.textContent)])")
    assert dict(standings) == {name: score for name, score in scores.items()}
    width, viewport = page.evaluate("() => [document.documentElement.scrollWidth, innerWidth]")
    assert width == viewport
    picker.locator("summary").click()
    picker.locator("button[data-round='2']").click()
    dialog.locator("h2", has_text="Round 2").wait_for()


def test_an_act_whose_answer_was_lost_is_sent_again_with_the_same_key(open_page):
    page = open_page()
    sign_in_as_guest(page)
    start_match(page, "gandengyan", ENDLESS, BOTS)
    wait_past_results(page)
    keys = []

    def lose_the_first_answer(route):
        keys.append(route.request.headers.get("idempotency-key"))
        if len(keys) == 1:
            route.fetch()  # the server acts, and its answer is lost on the way
            route.abort("aborted")
        else:
            route.continue_()

    page.route(re.compile(r"/api/v1/matches/\d+/act/$"), lose_the_first_answer)
    with page.expect_response(re.compile(r"/act/$")) as answer:
        take_turn(page)
    assert answer.value.status == 200
    assert answer.value.headers.get("idempotent-replayed") == "true"
    assert len(keys) == 2 and keys[0] == keys[1] and re.fullmatch(r"[0-9a-f]{32}", keys[0])
    wait_past_results(page)
    assert page.locator(".status .message").count() == 0
