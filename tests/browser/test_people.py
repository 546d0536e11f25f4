"""Who plays, and playing again: a guest names itself, renames, and makes itself an account
from the page (keeping its matches) after the warning a guest gets before signing out; a
throttled sign-in says how long to wait; two people (two browser contexts) play again at the end
of a match, one asking, the other accepting the offer that reaches their results dialog, or
declining it from the lobby (a bot takes the seat)."""

from tests.browser.driver import (
    SCREEN,
    invited,
    match_id_in_url,
    play_together,
    screen,
    sign_in_as_guest,
    start_match,
)

HIGH_CARD = {"players": 2, "rounds": 1}


def test_a_guest_names_itself_and_keeps_its_matches_as_an_account(open_page):
    page = open_page()
    page.fill(".sign-in input[name=display_name]", "Lin")
    sign_in_as_guest(page)
    page.locator(".who", has_text="Lin").wait_for()
    match = start_match(page, "highcard", HIGH_CARD, ["bot:random"])
    page.click(".bar .back")

    page.fill("[data-form=name] input[name=display_name]", "Lin Wei")
    page.click("[data-form=name] button[type=submit]")
    page.locator(".who", has_text="Lin Wei").wait_for()

    page.click("[data-action=signout]")  # a guest is warned first, and stays
    page.locator("dialog[data-dialog=signout]", has_text="lost").wait_for()
    page.click("[data-action=keep-matches]")
    page.fill("[data-form=upgrade] input[name=username]", "linwei")  # reads as its own name
    page.fill("[data-form=upgrade] input[name=password]", "a long enough pass phrase")
    page.click("[data-form=upgrade] button[type=submit]")
    page.locator(".account", has_text="Your account is ready").wait_for()

    page.click("[data-action=signout]")  # an account signs out at once: it can come back
    assert not page.locator("dialog[data-dialog=signout]").count()
    page.fill(".login input[name=username]", "linwei")
    page.fill(".login input[name=password]", "a long enough pass phrase")
    page.click("[data-action=login]")
    page.locator(f".match-item[data-match='{match}']").wait_for()
    assert page.locator(".who").inner_text().endswith("Lin Wei")


def test_a_throttled_sign_in_says_how_long_to_wait(open_page):
    page = open_page()
    said = page.evaluate("""async () => {
      const { errorText } = await import('/static/web/js/words.js');
      return [150, 61, 1].map((wait_seconds) =>
        errorText({ code: 'throttled', details: { wait_seconds } }));
    }""")
    assert said == [f"Too many tries from here just now: try again in {wait}." for wait in
                    ("3 minutes", "61 seconds", "1 second")]


def test_an_offer_stays_in_the_lobby_until_it_is_answered(open_page):
    host = open_page()
    host.fill(".sign-in input[name=display_name]", "Asker")
    sign_in_as_guest(host)
    first = start_match(host, "highcard", HIGH_CARD, ["human"])
    friend = invited(open_page, host)
    play_together({"host": host, "friend": friend})
    host.click("dialog[open] [data-action=rematch]")
    host.wait_for_selector(f"{SCREEN}[data-screen=table][data-status=waiting]")

    friend.locator("dialog[open] .rematch", has_text="Asker wants to play again").wait_for()
    friend.click("dialog[open] [data-action=lobby]")
    offer = friend.locator(f".match-item[data-match='{first}'] .rematch")
    offer.locator("[data-action=rematch-decline]").click()
    offer.wait_for(state="detached")  # answered: the list is read again, without it
    host.wait_for_selector(f"{SCREEN}[data-status=active]")  # a bot took the seat
    assert host.locator(".score-list li").nth(1).inner_text().startswith("Bot")


def test_two_people_play_again_one_asks_and_the_other_accepts(open_page):
    host = open_page()
    host.fill(".sign-in input[name=display_name]", "Host")
    sign_in_as_guest(host)
    first = start_match(host, "highcard", HIGH_CARD, ["human"])
    friend = invited(open_page, host, "Friend")
    play_together({"host": host, "friend": friend})

    host.click("dialog[open] [data-action=rematch]")
    host.wait_for_selector(f"{SCREEN}[data-screen=table][data-status=waiting]")
    rematch = match_id_in_url(host)
    assert rematch != first

    offer = friend.locator("dialog[open] .rematch", has_text="Host wants to play again")
    offer.locator("[data-action=rematch-accept]").click()
    friend.wait_for_selector(f"{SCREEN}[data-match='{rematch}'][data-status=active]")
    host.wait_for_selector(f"{SCREEN}[data-status=active]")
    assert host.locator(".score-list li").nth(1).inner_text().startswith("Friend")
    assert screen(friend, "match") == str(rematch)
