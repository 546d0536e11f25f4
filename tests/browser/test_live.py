"""The web table live: another person's move shows through the match's stream (no polling, one
stream per page), the lobby follows the account's stream, the turn clock counts down and runs
out into 托管, a seat is handed over and taken back, a quick match from the Tables panel, and
signing out elsewhere ends the table's stream into the sign-in, for good."""

import re
import urllib.request

import pytest

from tests.browser.driver import (
    SCREEN,
    close_results,
    is_ready,
    screen,
    sign_in_as_guest,
    start_match,
    take_turn,
    until,
    wait_past_results,
    wait_ready,
)

QUICK_TABLE = "quick-gandengyan"
BOTS_AFTER = 2
# A person's requests that read the match's view: what a polling page would send.
VIEW_READ = re.compile(r"/api/v1/matches/\d+/(\?.*)?$")


def watch_requests(page) -> list[tuple[str, str]]:
    seen = []
    page.on("request", lambda r: seen.append((r.method, r.url)))
    return seen


def streams(seen) -> list[str]:
    return [url for _, url in seen if "/stream/" in url]


def tickets(seen) -> list[str]:
    return [url for _, url in seen if url.endswith("/auth/stream-ticket/")]


def view_reads(seen) -> list[str]:
    return [url for method, url in seen if method == "GET" and VIEW_READ.search(url)]


def version(page) -> int:
    return int(screen(page, "version"))


def wait_version(page, at_least: int) -> None:
    page.wait_for_function("v => Number(document.getElementById('screen').dataset.version) >= v",
                           arg=at_least)


def drive_until(page, done) -> None:
    """Plays the page's turns as they come (its clock runs too) until `done()`."""
    def played_until_done():
        if done():
            return True
        if is_ready(page) and not close_results(page) and screen(page, "your-turn") == "true":
            take_turn(page)
        return False

    until(page, played_until_done, "the page's turns to lead there")


def test_a_move_of_another_person_shows_through_the_stream(open_page):
    host = open_page()
    sign_in_as_guest(host)
    # Two rounds: if the host and a bot finish the first while the friend is away, the match
    # goes on, and the friend's turn comes again.
    match = start_match(host, "510k", {"rounds": 2}, ["human", "bot:random", "bot:random"])
    link = host.locator(".invite-link").input_value()
    friend = open_page(path=link[link.index("/#"):])
    seen = watch_requests(friend)
    sign_in_as_guest(friend)
    friend.wait_for_selector(f"{SCREEN}[data-screen=table][data-status=active]")

    # Each person's move shows on the other's page by itself: neither page reads the view.
    moved = {"host": 0, "friend": 0}
    pages = {"host": host, "friend": friend}

    def both_moved_twice():
        for name, page in pages.items():
            other = friend if page is host else host
            if screen(page, "your-turn") == "true" and screen(page, "busy") == "false":
                take_turn(page)
                moved[name] += 1
                wait_version(other, version(page))
        return min(moved.values()) >= 2

    until(host, both_moved_twice, "two moves of each person")
    assert view_reads(seen) == []
    assert len(streams(seen)) == 1  # one stream for the table, open all along

    # In the lobby, the account's stream tells the friend when it is their turn again. The
    # friend leaves while the host is to act: nothing moves until the host does.
    drive_until(friend, lambda: screen(host, "your-turn") == "true")
    friend.click(".bar .back")
    item = friend.locator(f".match-item[data-match='{match}']")
    item.wait_for()
    assert item.get_attribute("data-your-turn") == "false"
    drive_until(host, lambda: item.get_attribute("data-your-turn") == "true")
    assert item.locator(".badge.to-act").is_visible()
    assert any(url.split("?")[0].endswith("/api/v1/stream/") for url in streams(seen))
    item.locator("[data-action=resume]").click()
    wait_ready(friend)
    take_turn(friend)


def test_the_clock_runs_out_into_autoplay_and_the_seat_comes_back(open_page):
    # Two people, so that the table waits for the friend while the server plays the host's seat.
    host = open_page()
    sign_in_as_guest(host)
    start_match(host, "510k", {"rounds": 2, "turn_seconds": 5},
                ["human", "bot:random", "bot:random"])
    link = host.locator(".invite-link").input_value()
    friend = open_page(path=link[link.index("/#"):])
    sign_in_as_guest(friend)
    drive_until(friend, lambda: screen(host, "your-turn") == "true")

    clock = host.locator(".status .clock")
    assert re.fullmatch(r"[1-5] s left", clock.inner_text())
    assert host.locator(".me .badge.clock").count() == 1
    before = int(clock.get_attribute("data-seconds"))
    drive_until(friend, lambda: int(clock.get_attribute("data-seconds")) < before)

    # The host does nothing: at the deadline the server plays for them and keeps the seat (托管).
    autoplay = host.locator(".me .badge.autoplay")
    drive_until(friend, autoplay.is_visible)
    moves = host.locator(".log-lines li:is([data-type=play], [data-type=pass], [data-type=cut],"
                         " [data-type=bid])")
    assert moves.filter(has_text="You").filter(has_text="(time ran out)").count() == 1
    assert host.locator(".log-lines li", has_text="Your time ran out").count() == 1
    assert "time ran out" in host.locator(".autoplay .prompt").inner_text()
    seat = friend.locator(".seats .seat[data-seat='0'] .badge.autoplay")
    drive_until(friend, seat.is_visible)  # the friend sees it too
    host.click("[data-action=autoplay-off]")
    autoplay.wait_for(state="detached")
    assert host.locator(".log-lines li", has_text="You take your seat back").count() == 1

    # Handed over by choice: the server plays the seat's turns at once, until taken back.
    host.click("[data-action=autoplay-on]")
    autoplay.wait_for()
    drive_until(friend, lambda: moves.filter(has_text="You").filter(has_text="(托管)").count() > 0)
    host.click("[data-action=language]")
    assert moves.filter(has_text="（超时）").count() == 1
    assert host.locator(".autoplay .prompt").inner_text() == "系统正在替你出牌（托管）。"
    host.click("[data-action=autoplay-off]")
    autoplay.wait_for(state="detached")
    assert host.locator("[data-action=autoplay-on]").inner_text() == "托管"


@pytest.fixture(scope="module")
def quick_table(manage):
    manage("shell", "-c", f"""
from games.models import Table
Table.objects.create(name="Quick gandengyan", slug="{QUICK_TABLE}", ruleset="gandengyan",
                     options={{"decks": 1, "players": 4, "starting_score": 50}},
                     bot_levels=["random"], bots_after={BOTS_AFTER}, turn_seconds=0)
""")
    return QUICK_TABLE


def test_a_quick_match_from_the_tables_panel(open_page, quick_table):
    page = open_page()
    sign_in_as_guest(page)
    row = page.locator(f".tables .table-item[data-table='{quick_table}']")
    assert "Starting score 50" in row.inner_text()
    assert f"bots join after {BOTS_AFTER} s" in row.inner_text()
    assert "no turn clock" in row.inner_text()
    row.locator("[data-action=quick-play]").click()
    page.wait_for_selector(f"{SCREEN}[data-screen=table][data-status=waiting]")
    assert "bots join in" in page.locator(".status .clock").inner_text()
    # The bots sit down at bots_fill_at and the first round is dealt, without a reload.
    page.wait_for_selector(f"{SCREEN}[data-status=active]")
    assert page.locator(".log-lines li", has_text="Bots take the open seats").count() == 1
    wait_past_results(page)  # a bot may end the round before the person's first turn
    take_turn(page)


def test_without_streams_the_table_polls(open_page):
    page = open_page()
    page.add_init_script("delete window.EventSource")  # a browser that cannot hold a stream
    page.reload()
    seen = watch_requests(page)
    sign_in_as_guest(page)
    start_match(page, "gandengyan", {"starting_score": 50}, ["bot:random"] * 3)
    for _ in range(2):
        wait_past_results(page)  # random bots go out fast: a round may end before our turn
        take_turn(page)
    assert streams(seen) == []
    assert view_reads(seen)  # If-None-Match reads of the view instead


def first_message(url: str) -> str:
    """The first message of a stream, read from the server itself (its ticket is then used)."""
    lines = []
    with urllib.request.urlopen(url, timeout=10) as stream:
        for raw in stream:
            line = raw.decode().rstrip("\n")
            if not line and any(part.startswith("data:") for part in lines):
                break
            lines.append(line)
    return "\n".join(lines) + "\n\n"


def test_a_dropped_stream_resumes_after_its_last_event(open_page):
    page = open_page()
    opened = []

    def cut_short(route):
        # The first connection drops right after its first message (the whole view).
        opened.append(route.request.url)
        if len(opened) > 1:
            return route.continue_()
        route.fulfill(status=200, content_type="text/event-stream",
                      body=first_message(route.request.url))

    page.route(re.compile(r"/api/v1/matches/\d+/stream/"), cut_short)
    seen = watch_requests(page)
    sign_in_as_guest(page)
    start_match(page, "gandengyan", {"starting_score": 50}, ["bot:random"] * 3)
    until(page, lambda: len(opened) >= 2, "the stream to be opened again")
    turns = 0
    while turns < 3:  # a round may end meanwhile (random bots go out fast)
        wait_ready(page)
        if not close_results(page):
            take_turn(page)
            turns += 1
    assert len(opened) == 2
    resumed = re.search(r"last_event_id=(\d+)", opened[1])
    assert resumed and int(resumed.group(1)) > 0
    assert view_reads(seen) == []
    seqs = page.locator(".log-lines li").evaluate_all("els => els.map(e => e.dataset.seq)")
    assert len(seqs) == len(set(seqs))  # nothing twice


def test_a_seat_handed_over_among_bots_is_taken_back_at_once(open_page):
    # Without a worker the server plays its turns within the request: with every other seat a
    # bot, handing the seat over plays on and on, and the page must let the person take it back.
    page = open_page()
    sign_in_as_guest(page)
    start_match(page, "gandengyan", {"starting_score": 100_000}, ["bot:random"] * 3)
    wait_past_results(page)
    page.click("[data-action=autoplay-on]")
    autoplay = page.locator(".me .badge.autoplay")
    autoplay.wait_for()
    page.click("[data-action=autoplay-off]")
    autoplay.wait_for(state="detached")
    # The rounds the server played meanwhile show their results (each queued as its view
    # arrives), then the turn is ours: once it is, the server plays no more.
    wait_past_results(page)
    assert screen(page, "your-turn") == "true"
    take_turn(page)


def test_signing_out_everywhere_on_another_device_ends_the_tables_stream_into_the_sign_in(
        open_page, server):
    page = open_page()
    seen = watch_requests(page)
    sign_in_as_guest(page)
    start_match(page, "gandengyan", {"starting_score": 50}, ["bot:random"] * 3)
    wait_ready(page)
    until(page, lambda: streams(seen) and len(tickets(seen)) == len(streams(seen)),
          "the page's streams to be open")  # not one with a ticket still on its way
    opened = len(streams(seen))
    token = page.evaluate("JSON.parse(localStorage.getItem('cardtable.session')).token")
    logout = urllib.request.Request(f"{server}/api/v1/auth/logout/", method="POST",
                                    data=b'{"everywhere": true}',
                                    headers={"Authorization": f"Token {token}",
                                             "Content-Type": "application/json"})
    with urllib.request.urlopen(logout, timeout=30) as answer:
        assert answer.status == 204
    page.wait_for_selector("[data-action=guest]")  # the sign-in, after `event: revoked`
    page.wait_for_selector("[role=alert]")  # saying the session ended
    assert len(streams(seen)) == opened  # and the stream was not opened again
