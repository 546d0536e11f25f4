"""The web table on a phone (issue 21), in both languages at 390×844 and 360×740: during a turn the
hand, the trick and the action buttons fit the screen without scrolling, no keyboard help shows on
a touch screen, and no screen is wider than the phone (sign-in, lobby and new game, the table, its
side's tabs, How to play)."""

import pytest

from tests.browser.conftest import ON_A_PHONE, PHONE, SMALL_PHONE
from tests.browser.driver import (
    screen,
    sign_in_as_guest,
    start_match,
    take_turn,
    wait_past_results,
)

MAX_TURNS = 20
# Where a part's bottom lies in the document, and how wide the document is.
BOTTOM = "el => el.getBoundingClientRect().bottom + window.scrollY"
WIDTH = "() => [document.documentElement.scrollWidth, window.innerWidth]"


def fits_across(page) -> None:
    width, viewport = page.evaluate(WIDTH)
    assert width == viewport


def to_play(page) -> None:
    """Takes the person's turns (510k's cut and bid) until they are to play a card."""
    for _ in range(MAX_TURNS):
        wait_past_results(page)
        if screen(page, "phase") == "play" and screen(page, "your-turn") == "true":
            return
        take_turn(page)
    raise AssertionError(f"no turn to play in {MAX_TURNS} turns")


@pytest.mark.parametrize("locale", ["en-US", "zh-CN"])
@pytest.mark.parametrize("viewport", [PHONE, SMALL_PHONE], ids=["390x844", "360x740"])
def test_a_turn_fits_a_phone_screen_and_no_screen_is_wider_than_it(open_page, viewport, locale):
    page = open_page(viewport=viewport, locale=locale, **ON_A_PHONE)
    page.wait_for_selector("[data-action=guest]")
    fits_across(page)
    sign_in_as_guest(page)
    page.wait_for_selector("#new-game [data-action=create]")
    fits_across(page)
    # 510K: 22 cards in hand, the most of any game here.
    start_match(page, "510k", {"rounds": 1, "turn_seconds": 60}, ["bot:normal"] * 3)
    to_play(page)
    fold = viewport["height"]
    for part in (".felt", ".hand", ".actions [data-action=play]"):
        assert page.locator(part).evaluate(BOTTOM) <= fold, part
    assert page.locator(".hand .card").count() >= 10
    assert page.locator(".keys").count() == 1 and page.locator(".keys").is_hidden()
    fits_across(page)

    side = page.locator(".table-side")
    for part in ("rules", "scores", "log"):
        page.click(f".side-tab[data-part={part}]")
        assert side.locator(f"#side-{part}").is_visible()
        assert side.locator(".side-part:visible").count() == 1
        fits_across(page)
    page.click(".side-tab[data-part=log]")  # pressed again: folded
    assert side.locator(".side-part:visible").count() == 0

    page.click(".bar [data-action=guide]")
    page.locator("dialog.guide[open]").wait_for()
    fits_across(page)
