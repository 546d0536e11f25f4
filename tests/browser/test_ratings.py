"""Ratings in the web table: after a match, the leaderboard (a link from the lobby) lists the
players of the test, a person by name and the bot by its level, and a person's name opens their
profile with the match just played."""

from tests.browser.driver import (
    SCREEN,
    back_to_lobby,
    play_to_the_end,
    sign_in_as_guest,
    start_match,
)


def test_the_leaderboard_lists_the_players_of_the_test(open_page):
    page = open_page()
    page.fill(".sign-in input[name=display_name]", "Ranked")
    sign_in_as_guest(page)
    match = start_match(page, "highcard", {"players": 2, "rounds": 1}, ["bot:hard"])
    play_to_the_end(page)
    back_to_lobby(page)

    page.click("[data-link=leaderboard]")
    page.wait_for_selector(f"{SCREEN}[data-screen=leaderboard]")
    page.locator(".tabs a", has_text="High card").click()
    board = page.locator(".leaderboard[data-ruleset=highcard] .board tbody")
    board.locator("tr", has_text="Ranked").wait_for()
    assert board.locator("tr", has_text="Bot · hard").count() == 1
    rows = board.locator("tr").all_inner_texts()
    assert len(rows) == 2 and [row.split()[0] for row in rows] == ["1", "2"]
    assert all("provisional" in row for row in rows)
    assert "guest" in next(row for row in rows if "Ranked" in row)

    board.locator("a", has_text="Ranked").click()
    page.wait_for_selector(f"{SCREEN}[data-screen=profile]")
    profile = page.locator(".profile")
    profile.locator("h2", has_text="Ranked").wait_for()
    assert "1 rated matches" in profile.inner_text()
    assert page.locator(f".recent [data-match='{match}']").count() == 1
    assert page.locator(".rating[data-ruleset=highcard] .history li").count() == 1
