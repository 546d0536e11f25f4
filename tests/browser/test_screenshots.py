"""Screenshots of a 510k and a gandengyan table (a turn clock running), desktop (English) and phone
(Chinese, one screen: the turn fits it), taken in the middle of a round with a selection judged;
and, at a desktop, a 510k table as a spectator sees it and a finished match's replay with its
deal checked. `make screenshots` writes them to docs/screenshots/ (SCREENSHOTS_DIR); otherwise
they go to a temporary folder."""

import os
from pathlib import Path

import pytest

from tests.browser.conftest import DESKTOP, ON_A_PHONE, PHONE
from tests.browser.driver import (
    SCREEN,
    back_to_lobby,
    pick_listed_play,
    played_by_the_server,
    screen,
    sign_in_as_guest,
    start_match,
    take_turn,
    wait_past_results,
)

MAX_TURNS = 60
TABLES = {"510k": {"rounds": 1, "turn_seconds": 60},
          "gandengyan": {"starting_score": 100, "turn_seconds": 60}}
SIZES = {"desktop": (DESKTOP, "en-US", {}), "phone": (PHONE, "zh-CN", ON_A_PHONE)}


@pytest.fixture
def folder(tmp_path) -> Path:
    wanted = os.environ.get("SCREENSHOTS_DIR")
    return Path(wanted) if wanted else tmp_path


def answering_in_play(page) -> bool:
    """Your turn to answer a play on the table: the moment that shows the most."""
    return (screen(page, "phase") == "play" and screen(page, "your-turn") == "true"
            and page.locator(".trick .play").count() > 0
            and page.locator(".listed-play").count() > 0)


def reach_an_answer(page) -> bool:
    """Takes turns until the person answers a play; False if the match ended first."""
    for _ in range(MAX_TURNS):
        wait_past_results(page)
        if screen(page, "status") == "finished":
            return False
        if answering_in_play(page):
            return True
        take_turn(page)
    raise AssertionError(f"no play to answer in {MAX_TURNS} turns")


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("ruleset", TABLES)
def test_a_table_mid_round(open_page, folder, ruleset, size):
    viewport, locale, device = SIZES[size]
    page = open_page(viewport=viewport, locale=locale, **device)
    sign_in_as_guest(page)
    # Deals are not seeded: a match may end before the person answers a play. Then another.
    for _ in range(3):
        start_match(page, ruleset, TABLES[ruleset], ["bot:normal"] * 3)
        if reach_an_answer(page):
            break
        back_to_lobby(page)
    assert answering_in_play(page)
    pick_listed_play(page)
    page.evaluate("() => window.scrollTo(0, 0)")
    page.wait_for_function(  # the plays that arrived last have slid in
        "() => document.getAnimations().every(a => a.playState === 'finished')")
    page.screenshot(path=folder / f"{ruleset}-{size}.png")
    assert page.evaluate("document.documentElement.lang") == ("zh-CN" if size == "phone" else "en")


def settled(page) -> None:
    page.evaluate("() => window.scrollTo(0, 0)")
    page.wait_for_function("() => document.getAnimations().every(a => a.playState === 'finished')")


def test_a_watched_table_and_a_replay(open_page, folder):
    player = open_page()
    sign_in_as_guest(player)
    player.wait_for_selector("#new-game [data-action=create]")
    player.check("#new-game input[name=watchable]")
    match = start_match(player, "510k", {"rounds": 1}, ["bot:normal"] * 3)
    assert reach_an_answer(player)
    viewer = open_page()
    sign_in_as_guest(viewer)
    viewer.locator(f".watch-item[data-match='{match}'] [data-action=watch]").click()
    viewer.wait_for_selector(f"{SCREEN}[data-screen=table][data-status=active]")
    take_turn(player)
    viewer.locator(".felt .card").first.wait_for()  # a trick, or the one taken last
    settled(viewer)
    viewer.screenshot(path=folder / "510k-watching.png")

    finished = played_by_the_server(viewer, "gandengyan", {"players": 4, "starting_score": 10})
    viewer.goto(f"/#/replay/{finished}/1")
    viewer.locator(".deal-check[data-deal=pass]").wait_for()
    for _ in range(6):  # a few moves in, a trick on the table
        if viewer.locator("[data-action=forward][disabled]").count():
            break
        viewer.click("[data-action=forward]")
    settled(viewer)
    viewer.screenshot(path=folder / "replay-desktop.png")
