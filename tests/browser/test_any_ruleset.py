"""A ruleset the web table has no module for is shown from what the server says of it. High card
(tests/rulesets/highcard/, which the tests' server registers) is played to the end: its title in
the header and the lobby, its options by their labels (in the form and at the table), How to play
it, its events in the log, its results from each round's breakdown. Nothing of the page names it:
so is any ruleset added as a folder."""

import re

from tests.browser.driver import (
    SCREEN,
    back_to_lobby,
    play_to_the_end,
    screen,
    sign_in_as_guest,
    start_match,
)

OTHER_GAMES = re.compile("干瞪眼|Gandengyan|510K|五十K")


def test_a_ruleset_without_a_module_of_its_own_plays_to_the_end(open_page):
    page = open_page()
    page.locator(".welcome", has_text="High card").wait_for()  # the games the server plays
    sign_in_as_guest(page)
    page.wait_for_selector("#new-game [name=rounds]")
    page.check("input[name=ruleset][value='highcard']")
    assert page.locator("label.option", has=page.locator("[name=rounds]")).inner_text() == "Rounds"

    match = start_match(page, "highcard", {"players": 3, "rounds": 2}, ["bot:random", "bot:hard"])
    assert page.locator(".bar h1").inner_text() == "High card · 比大"
    page.click(".bar [data-action=guide]")  # How to play, as the ruleset says it
    guide = page.locator("dialog.guide[open]")
    assert guide.locator("h2").inner_text() == "How to play High card"
    assert guide.locator("h3").all_inner_texts() == ["Play", "Scoring"]
    assert guide.locator("li").inner_text().startswith("Each trick you take")
    guide.locator("[data-action=close-guide]").click()
    options = page.locator(".table-options dt").all_inner_texts()
    # The pace is the match's own option, not the ruleset's; the tests' server plays at once.
    assert options == ["Players", "Rounds", "Turn clock", "Bots' pace"]
    assert page.locator(".table-options dd").last.inner_text() == "at once"
    seen = play_to_the_end(page)
    assert seen["turns"] >= 2 and seen["phases"] == {"play"}  # two choices a round at least
    assert not OTHER_GAMES.search(page.locator(SCREEN).inner_text())

    log = page.locator(".log-lines")
    assert log.locator("li[data-type=play]", has_text=re.compile(r"^R\d+You: single ")).count()
    assert log.locator("li[data-type=trick_won]").count() >= 6  # three tricks a round
    assert log.locator("li[data-type=round_settled]").count() == 2
    dialog = page.locator("dialog[open]")
    assert dialog.locator(".standings tbody tr").count() == 3
    tricks = dialog.locator(".results-table").nth(1).locator("tbody tr td:nth-child(2)")
    assert dialog.locator("th", has_text="tricks").count()
    assert sum(int(cell) for cell in tricks.all_inner_texts()) == 3

    back_to_lobby(page)
    item = page.locator(f".match-item[data-match='{match}'] strong")
    assert item.inner_text() == "High card"
    page.click("[data-action=language]")  # the list is read again, in Chinese
    page.locator(f".match-item[data-match='{match}'] strong", has_text="比大").wait_for()
    assert screen(page, "screen") == "lobby"
