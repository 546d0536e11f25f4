"""Screenshots of a 510k and a gandengyan table (a turn clock running), desktop (English) and phone
(Chinese, one screen: the turn fits it), taken in the middle of a round with a selection judged.
`make screenshots` writes them to docs/screenshots/ (SCREENSHOTS_DIR); otherwise they go to a
temporary folder."""

import os
from pathlib import Path

import pytest

from tests.browser.conftest import DESKTOP, ON_A_PHONE, PHONE
from tests.browser.driver import (
    back_to_lobby,
    pick_listed_play,
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
