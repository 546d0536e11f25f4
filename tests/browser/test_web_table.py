"""The web table in Chromium: whole games by clicking, two people through an invite link, a
refresh in the middle of a match."""

from tests.browser.driver import (
    SCREEN,
    back_to_lobby,
    invited,
    match_id_in_url,
    play_to_the_end,
    play_together,
    screen,
    sign_in_as_guest,
    start_match,
    take_turn,
    wait_past_results,
    wait_ready,
)

BOTS = ["bot:random", "bot:random", "bot:random"]


def hand_ids(page) -> list[str]:
    return sorted(page.locator(".hand [data-id]").evaluate_all("els => els.map(e => e.dataset.id)"))


def test_a_person_plays_a_whole_510k_round_against_bots(open_page):
    page = open_page()
    sign_in_as_guest(page)
    match = start_match(page, "510k", {"rounds": 1}, BOTS)
    assert match_id_in_url(page) == match
    wait_ready(page)
    assert screen(page, "phase") == "cut"
    take_turn(page, cut_position=17)  # the slider and "Cut here"
    assert page.locator(".info").inner_text().count("明牌")  # the face-up card is shown
    seen = play_to_the_end(page)
    assert "play" in seen["phases"]
    dialog = page.locator("dialog[open]")
    assert dialog.locator(".standings tbody tr").count() == 4
    assert dialog.locator(".results-table").nth(1).locator("th", has_text="进出分").count()


def test_a_person_plays_a_whole_gandengyan_match_against_bots(open_page):
    page = open_page()
    sign_in_as_guest(page)
    # A seat that can never beat the bots' plays passes by itself: such a deal may be over
    # before the person chose anything. Then another match, until the person played.
    for _ in range(3):
        start_match(page, "gandengyan", {"starting_score": 4}, BOTS)
        seen = play_to_the_end(page)
        if seen["turns"]:
            break
        back_to_lobby(page)
    assert seen["phases"] == {"play"}
    dialog = page.locator("dialog[open]")
    assert dialog.locator(".standings tbody tr").count() == 4
    assert dialog.locator("th", has_text="Cards left").count()
    assert page.locator(f"{SCREEN}[data-status=finished]").count()


def test_two_people_play_one_match_through_an_invite_link(open_page):
    host = open_page()
    sign_in_as_guest(host)
    # 510k: with 22 cards each, both people surely act (a gandengyan seat may only ever pass).
    match = start_match(host, "510k", {"rounds": 1}, ["human", "bot:random", "bot:random"])
    assert screen(host, "status") == "waiting"
    assert "#/join/" in host.locator(".invite-link").input_value()

    friend = invited(open_page, host)
    assert match_id_in_url(friend) == match
    host.wait_for_selector(f"{SCREEN}[data-status=active]")
    assert host.locator(".invite").is_hidden()

    turns = play_together({"host": host, "friend": friend})
    assert turns["host"] and turns["friend"]
    names = [host.locator(".score-list li").nth(i).inner_text() for i in range(4)]
    assert names[0].startswith("You") and names[1].startswith("guest-")


def test_a_refresh_in_the_middle_resumes_the_same_table(open_page):
    page = open_page()
    sign_in_as_guest(page)
    match = start_match(page, "gandengyan", {"starting_score": 50}, BOTS)
    for _ in range(2):
        wait_past_results(page)
        take_turn(page)
    wait_past_results(page)
    hand = hand_ids(page)
    version = screen(page, "version")
    log_lines = page.locator(".log-lines li").count()

    page.reload()
    wait_ready(page)
    assert match_id_in_url(page) == match
    assert screen(page, "match") == str(match)
    assert screen(page, "version") == version
    assert hand_ids(page) == hand
    assert page.locator(".log-lines li").count() >= log_lines
    take_turn(page)  # and play goes on

    # The lobby lists it to resume, too.
    wait_past_results(page)
    page.click(".bar .back")
    item = page.locator(f".match-item[data-match='{match}']")
    item.locator("[data-action=resume]").click()
    page.wait_for_selector(f"{SCREEN}[data-match='{match}'][data-status=active]")


def test_an_account_the_keyboard_the_rules_endpoint_and_chinese(open_page):
    page = open_page()
    page.fill("input[name=username]", "lin")
    page.fill("input[name=password]", "a long enough pass phrase")
    page.click("[data-action=register]")
    page.wait_for_selector("#new-game")
    page.click("[data-action=signout]")
    page.fill("input[name=username]", "lin")
    page.fill("input[name=password]", "a long enough pass phrase")
    page.click("[data-action=login]")
    page.wait_for_selector("#new-game")
    assert "lin" in page.locator(".topbar .who").inner_text()

    start_match(page, "gandengyan", {"starting_score": 50}, BOTS)
    wait_ready(page)
    assert screen(page, "your-turn") == "true"
    pressed = ".hand [aria-pressed=true]"

    page.keyboard.press("h")  # hint: the first listed play
    page.wait_for_selector(".judge[data-verdict=legal]")
    assert page.locator(pressed).count() >= 1
    page.keyboard.press("Escape")
    assert page.locator(pressed).count() == 0

    cards = page.locator(".hand [data-id]")
    cards.first.focus()
    page.keyboard.press("ArrowRight")
    second = cards.nth(1).get_attribute("data-id")
    assert page.evaluate("document.activeElement.dataset.id") == second
    page.keyboard.press("Space")
    assert page.locator(pressed).get_attribute("data-id") == second
    page.keyboard.press("Escape")

    # Two cards of two ranks, no joker: the rules endpoint says they are no combination.
    codes = cards.evaluate_all("els => els.map(e => [e.dataset.id, e.dataset.code])")
    by_rank = {code[:-1]: id_ for id_, code in codes if code not in ("SJ", "BJ")}
    assert len(by_rank) >= 2
    for id_ in list(by_rank.values())[:2]:
        page.click(f".hand [data-id='{id_}']", position={"x": 8, "y": 12})
    page.wait_for_selector(".judge[data-verdict=illegal]")
    assert page.locator(".judge").inner_text() == "Not a combination."
    assert page.locator("[data-action=play]").is_disabled()
    page.keyboard.press("Escape")

    page.click("[data-action=language]")
    assert page.evaluate("document.documentElement.lang") == "zh-CN"
    assert page.locator("[data-action=play]").inner_text() == "出牌"
    page.reload()
    wait_ready(page)
    assert page.locator("[data-action=pass]").inner_text() == "不要"  # the choice is kept

    version = screen(page, "version")
    page.keyboard.press("h")
    page.wait_for_selector(".judge[data-verdict=legal]")
    page.keyboard.press("p")  # play it from the keyboard
    page.wait_for_function("v => document.getElementById('screen').dataset.version !== v",
                           arg=version)
