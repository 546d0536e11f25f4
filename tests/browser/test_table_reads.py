"""The table reads well (issue 21): a play slides in from its seat (not when the person asks for
less motion), the trick taken last stays on the felt until the next lead, the table shows its
options, How to play and what going solo stakes, and a turn that comes while the page is hidden
changes its title and icon (and notifies, when the person allowed it)."""

import pytest

from tests.browser.driver import (
    SCREEN,
    api_get,
    screen,
    sign_in_as_guest,
    start_match,
    take_turn,
    wait_past_results,
    wait_ready,
)

BOTS = ["bot:random"] * 3
MAX_TURNS = 80
ENDLESS = {"starting_score": 100_000}  # gandengyan: nobody is out before the test is done
# Playwright cannot put a page in the background: the page is told it is hidden, as a browser
# tells it when its tab is.
HIDE = """hidden => {
  Object.defineProperty(document, 'visibilityState',
                        {configurable: true, get: () => hidden ? 'hidden' : 'visible'});
  Object.defineProperty(document, 'hidden', {configurable: true, get: () => hidden});
  document.dispatchEvent(new Event('visibilitychange'));
}"""
# Notifications the page makes, kept where the test reads them.
NOTIFICATIONS_SEEN = """(() => {
  const Native = window.Notification;
  window.notified = [];
  window.Notification = class extends Native {
    constructor(title, options) { super(title, options); window.notified.push(title); }
  };
})()"""


def taken_in_the_log(events: list[dict]) -> list[str]:
    """The cards of the trick last taken, as the events tell it."""
    won = max(i for i, e in enumerate(events) if e["type"] == "trick_won")
    cards = []
    for event in reversed(events[:won]):
        if event["type"] in ("trick_won", "round_started", "round_settled"):
            break
        if event["type"] == "play":
            cards = [card["code"] for card in event["cards"]] + cards
    return cards


def play_until(page, done) -> None:
    for _ in range(MAX_TURNS):
        wait_past_results(page)
        if done():
            return
        take_turn(page)
    raise AssertionError(f"not done in {MAX_TURNS} turns")


def arriving(page):
    return page.locator(".trick[data-plays] .play.arriving")


def test_the_trick_taken_last_stays_on_the_felt_until_the_next_lead(open_page):
    page = open_page()
    sign_in_as_guest(page)
    match = start_match(page, "gandengyan", ENDLESS, BOTS)
    # The others passed on the person's play: the trick is theirs, and theirs to lead.
    play_until(page, lambda: page.locator(".taken-trick[data-winner='0'][data-ended=false]").count()
               > 0)
    taken = page.locator(".taken-trick")
    assert taken.locator(".taken-caption").inner_text() == "Last trick, taken by you"
    assert float(taken.evaluate("el => getComputedStyle(el).opacity")) < 1  # dimmed
    assert page.locator(".trick[data-plays='0'] .empty").inner_text() == "You lead"
    events = api_get(page, f"/matches/{match}/events/?since=0&limit=500")["events"]
    assert taken.locator(".card").evaluate_all("els => els.map(e => e.dataset.code)") \
        == taken_in_the_log(events)
    take_turn(page)  # the lead: the trick on the felt is a new one
    wait_past_results(page)
    if page.locator(".trick[data-plays] .play").count():
        assert page.locator(".taken-trick").count() == 0


@pytest.mark.parametrize("motion", ["no-preference", "reduce"])
def test_a_play_slides_in_from_its_seat_unless_the_person_wants_less_motion(open_page, motion):
    page = open_page(reduced_motion=motion)
    sign_in_as_guest(page)
    start_match(page, "gandengyan", ENDLESS, BOTS)
    wait_ready(page)
    play_until(page, lambda: arriving(page).count() > 0)
    play = arriving(page).last
    animation = play.evaluate("el => getComputedStyle(el).animationName")
    assert animation == ("none" if motion == "reduce" else "play-arrive")
    assert play.evaluate("el => el.style.getPropertyValue('--from-y')").endswith("px")


def test_the_table_shows_its_options_how_to_play_and_what_going_solo_stakes(open_page):
    page = open_page()
    sign_in_as_guest(page)
    # Whether the person bids depends on the deal (a bot before them may go solo): then another.
    for _ in range(3):
        start_match(page, "510k", {"rounds": 1, "base_score": 3, "dry": "half",
                                   "turn_seconds": 60}, ["bot:normal"] * 3)
        play_until(page, lambda: screen(page, "phase") != "cut")
        if screen(page, "phase") == "bid":
            break
        page.click(".bar .back")
    assert screen(page, "phase") == "bid"
    assert page.locator(".actions .stake").inner_text() == (
        "At stake: 6 with each of them, so you win or lose 18 (36 if they are half-dry, 半干);"
        " 喜分 apart.")
    options = page.locator(".table-options")
    shown = dict(zip(options.locator("dt").all_inner_texts(),
                     options.locator("dd").all_inner_texts(), strict=True))
    assert {key: shown[key] for key in ("Base score", "Dry levels", "Rounds", "Turn clock")} \
        == {"Base score": "3", "Dry levels": "half-dry", "Rounds": "1", "Turn clock": "60 s"}
    assert "明牌:" in page.locator(".badge.face-up").first.get_attribute("title")

    page.click(".bar [data-action=guide]")
    guide = page.locator("dialog.guide[open]")
    assert guide.locator("h2").inner_text() == "How to play 510K"
    glossary = guide.locator("h3:text-is('Glossary') + ul > li").all_inner_texts()
    assert {"进出分", "喜分", "包庄", "明牌", "半干 / 全干", "上游"} \
        <= {item.split(" (")[0] for item in glossary}
    assert "托管" in guide.locator(".glossary-autoplay").inner_text()
    guide.locator("[data-action=close-guide]").click()
    page.click("[data-action=language]")
    page.click(".bar [data-action=guide]")
    assert page.locator("dialog.guide[open] h2").inner_text() == "五十K玩法"
    page.locator("dialog.guide[open] [data-action=close-guide]").click()
    assert page.locator(".table-options dt", has_text="底分").count() == 1


def icon(page) -> str:
    return page.locator("link[rel=icon]").get_attribute("href")


def test_a_turn_that_comes_while_the_page_is_hidden_changes_its_title_and_icon(open_page):
    page = open_page(permissions=["notifications"])
    page.add_init_script(NOTIFICATIONS_SEEN)
    page.reload()
    sign_in_as_guest(page)
    start_match(page, "gandengyan", ENDLESS, BOTS)
    wait_ready(page)
    title, normal_icon = page.title(), icon(page)
    assert page.locator("[data-action=notify]").is_hidden()  # allowed already: nothing to ask
    page.check("[name=turn-sound]")

    page.evaluate(HIDE, True)
    wait_past_results(page)
    take_turn(page)
    page.wait_for_function("() => document.title.startsWith('▶ Your turn')")
    assert icon(page).endswith("favicon-turn.svg")
    assert page.evaluate("window.notified") == ["▶ Your turn"]
    page.evaluate(HIDE, False)  # the person comes back
    page.wait_for_function("t => document.title === t", arg=title)
    assert icon(page) == normal_icon

    page.reload()  # the sound stays on
    page.wait_for_selector(f"{SCREEN}[data-status=active]")
    assert page.locator("[name=turn-sound]").is_checked()
