"""A card room, not only a table (issue 22), in Chromium: a second person watches a live match
from the lobby's Watch panel and sees its moves but no hand; a player replays a finished match
and the page's deal check passes (the seed's hash, and the deal rebuilt from the seed); two
people at one table exchange quick phrases."""

import pytest

from tests.browser.driver import (
    SCREEN,
    invited,
    played_by_the_server,
    screen,
    sign_in_as_guest,
    start_match,
    take_turn,
    until,
    wait_ready,
)


def watchable_match(page, ruleset: str, options: dict, seats: list[str]) -> int:
    page.wait_for_selector("#new-game [data-action=create]")
    page.check("#new-game input[name=watchable]")
    return start_match(page, ruleset, options, seats)


def test_a_second_person_watches_a_live_match_and_sees_moves_but_no_hand(open_page):
    host = open_page()
    host.fill(".sign-in input[name=display_name]", "Watched Lin")
    sign_in_as_guest(host)
    match = watchable_match(host, "highcard", {"players": 2, "rounds": 3}, ["bot:random"])
    wait_ready(host)

    viewer = open_page()
    sign_in_as_guest(viewer)
    item = viewer.locator(f".watch-item[data-match='{match}']")
    item.locator("[data-action=watch]").click()
    viewer.wait_for_selector(f"{SCREEN}[data-screen=table][data-match='{match}'][data-status=active]")
    viewer.locator("[data-watching=true]").wait_for()
    assert viewer.locator(".seat", has_text="Watched Lin").count() >= 1
    assert viewer.locator(".hand button.card").count() == 0  # no hand: not theirs, nobody's
    assert viewer.locator("[data-action=talk]").count() == 0

    before = int(screen(viewer, "version"))
    take_turn(host)
    until(viewer, lambda: int(screen(viewer, "version")) > before, "the move on the watcher's page")
    viewer.locator(".log-lines li").first.wait_for(state="attached")  # the moves, in the log
    assert viewer.locator(".hand button.card").count() == 0
    # The players see that someone watches (a view read after the watcher came counts them).
    wait_ready(host)
    take_turn(host)
    host.locator(".spectators[data-spectators='1']").wait_for()


@pytest.mark.parametrize(("ruleset", "options"), [
    ("510k", {"players": 2, "rounds": 1}), ("gandengyan", {"players": 4, "starting_score": 10})])
def test_a_player_replays_a_finished_match_and_the_deal_check_passes(open_page, ruleset,
                                                                      options):
    page = open_page()
    sign_in_as_guest(page)
    page.wait_for_selector("#new-game [data-action=create]")
    match = played_by_the_server(page, ruleset, options)
    page.reload()
    page.locator(f".match-item[data-match='{match}'] [data-action=replay]").click()
    page.wait_for_selector(f"{SCREEN}[data-screen=replay][data-match='{match}']")
    check = page.locator(".deal-check[data-hash=pass][data-deal=pass]")
    check.wait_for()
    assert "the same hands" in check.inner_text()

    board = page.locator(".replay-board")
    assert board.get_attribute("data-step") == "0"
    page.click("[data-action=forward]")
    page.locator(".replay-board[data-step='1']").wait_for()
    assert page.locator(".replay-move").inner_text()
    page.click("[data-action=last]")
    page.locator(".replay-board [data-action=forward][disabled]").wait_for()
    page.click("[data-action=back]")
    page.locator(".replay-board [data-action=forward]:not([disabled])").wait_for()
    assert page.locator(".replay-hands .card").count() > 0  # every hand open

    shared = page.url  # the link opens the replay for anyone, once signed in, if watchable
    assert f"#/replay/{match}/" in shared


def test_two_people_exchange_a_phrase(open_page):
    host = open_page()
    host.fill(".sign-in input[name=display_name]", "Talker")
    sign_in_as_guest(host)
    start_match(host, "highcard", {"players": 2, "rounds": 3}, ["human"])
    friend = invited(open_page, host, "Listener")
    host.wait_for_selector(f"{SCREEN}[data-status=active]")

    host.click("[data-action=talk]")
    host.click(".talk-menu [data-phrase=nice_play]")
    friend.locator(".seat[data-seat='0'] .bubble[data-phrase=nice_play]",
                   has_text="Nice play!").wait_for()
    friend.click("[data-action=talk]")
    friend.click(".talk-menu [data-phrase=thumbs_up]")
    host.locator(".seat[data-seat='1'] .bubble[data-phrase=thumbs_up]", has_text="👍").wait_for()


def test_staff_start_an_exhibition_and_its_admin_replay_shows_cards_as_cards(open_page,
                                                                            manage):
    manage("shell", "-c", "from django.contrib.auth import get_user_model; "
           "get_user_model().objects.filter(username='curator').exists() or "
           "get_user_model().objects.create_superuser('curator', password='pw-for-tests-only')")
    page = open_page(path="/admin/login/")
    page.fill("input[name=username]", "curator")
    page.fill("input[name=password]", "pw-for-tests-only")
    page.click("input[type=submit]")
    page.goto("/admin/games/table/")
    page.locator("a", has_text="bots only…").first.click()
    page.click("input[type=submit][value='Start the exhibition']")
    page.locator(".messagelist", has_text="watch it at").wait_for()
    page.locator("a", has_text="replay").first.click()
    page.locator("#replay-cards .sheet-line .card").first.wait_for()
    assert page.locator("#replay-cards .sheet-line", has_text="seat").count() >= 2  # each hand
    assert page.locator("#replay-cards .card[data-code][aria-label]").count() > 0
