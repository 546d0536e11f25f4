"""The web table in Chromium: whole games by clicking, two people through an invite link, a
refresh in the middle of a match."""

from tests.browser.driver import (
    SCREEN,
    close_results,
    is_ready,
    match_id_in_url,
    play_to_the_end,
    screen,
    sign_in_as_guest,
    start_match,
    take_turn,
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
    start_match(page, "gandengyan", {"starting_score": 4}, BOTS)
    seen = play_to_the_end(page)
    assert seen["phases"] == {"play"}
    dialog = page.locator("dialog[open]")
    assert dialog.locator(".standings tbody tr").count() == 4
    assert dialog.locator("th", has_text="Cards left").count()
    assert page.locator(f"{SCREEN}[data-status=finished]").count()


def test_two_people_play_one_match_through_an_invite_link(open_page):
    host = open_page()
    sign_in_as_guest(host)
    match = start_match(host, "gandengyan", {"starting_score": 2},
                        ["human", "bot:random", "bot:random"])
    assert screen(host, "status") == "waiting"
    link = host.locator(".invite-link").input_value()
    assert "#/join/" in link

    friend = open_page(path=link[link.index("/#"):])
    sign_in_as_guest(friend)  # on the invitation: start as a guest, then sit down
    friend.wait_for_selector(f"{SCREEN}[data-screen=table][data-status=active]")
    assert match_id_in_url(friend) == match
    host.wait_for_selector(f"{SCREEN}[data-status=active]")
    assert host.locator(".invite").is_hidden()

    turns = {"host": 0, "friend": 0}
    pages = {"host": host, "friend": friend}
    while not all(screen(p, "status") == "finished" for p in pages.values()):
        for name, page in pages.items():
            if screen(page, "status") != "finished" and is_ready(page):
                if not close_results(page):
                    take_turn(page)
                    turns[name] += 1
        host.wait_for_timeout(100)  # both pages poll the server; look again shortly
    assert turns["host"] and turns["friend"]
    for page in pages.values():
        page.wait_for_selector("dialog[open] .standings")
    names = [host.locator(".score-list li").nth(i).inner_text() for i in range(4)]
    assert names[0].startswith("You") and names[1].startswith("guest-")


def test_a_refresh_in_the_middle_resumes_the_same_table(open_page):
    page = open_page()
    sign_in_as_guest(page)
    match = start_match(page, "gandengyan", {"starting_score": 50}, BOTS)
    for _ in range(2):
        wait_ready(page)
        take_turn(page)
    wait_ready(page)
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
    page.click(".bar .back")
    item = page.locator(f".match-item[data-match='{match}']")
    item.locator("[data-action=resume]").click()
    page.wait_for_selector(f"{SCREEN}[data-match='{match}'][data-status=active]")
