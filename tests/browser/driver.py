"""Playing the web table as a person does: clicks on the page, waits on what it shows.

The page says what it shows in data-* attributes of #screen (screen, match, status, phase,
your-turn, busy, version), which is what these helpers wait on; never on time alone.
"""

import re
import time

SCREEN = "#screen"
# How long any one wait may last before the test fails: not what a step should take, a guard
# against a test that would hang (a loaded CI machine may be slow many times over).
WAIT_LIMIT_MS = 120_000
POLL_MS = 50

# The page waits for its person: your turn, a results dialog, or the match over.
READY = """() => {
  const s = document.getElementById('screen');
  return s.dataset.screen === 'table' && s.dataset.busy === 'false'
    && (s.dataset.yourTurn === 'true' || s.dataset.status === 'finished'
        || !!document.querySelector('dialog[open]'));
}"""


def until(page, done, what: str) -> None:
    """Waits for `done()` (which may look at several pages), looking again every POLL_MS."""
    deadline = time.monotonic() + WAIT_LIMIT_MS / 1000
    while not done():
        assert time.monotonic() < deadline, f"waited too long for {what}"
        page.wait_for_timeout(POLL_MS)


def screen(page, name: str) -> str:
    return page.locator(SCREEN).get_attribute(f"data-{name}")


def sign_in_as_guest(page) -> None:
    page.click("[data-action=guest]")


def start_match(page, ruleset: str, options: dict, seats: list[str]) -> int:
    """From the lobby: fill the new-game form and start; returns the match id."""
    page.wait_for_selector("#new-game [data-action=create]")
    page.check(f"input[name=ruleset][value='{ruleset}']")
    for name, value in options.items():
        field = page.locator(f"#new-game [name={name}]")
        if field.evaluate("el => el.tagName") == "SELECT":
            field.select_option(str(value))
        else:
            field.fill(str(value))
    for index, kind in enumerate(seats, start=1):
        page.select_option(f"select[name=seat-{index}]", kind)
    page.click("[data-action=create]")
    page.wait_for_selector(f"{SCREEN}[data-screen=table][data-status]")
    return int(screen(page, "match"))


def is_ready(page) -> bool:
    return page.evaluate(READY)


def wait_ready(page) -> None:
    page.wait_for_function(READY)


def wait_past_results(page) -> None:
    """Waits until the page waits on its person, dismissing any results that open meanwhile: a
    round may end on any action."""
    wait_ready(page)
    while screen(page, "status") != "finished" and close_results(page):
        wait_ready(page)


def back_to_lobby(page) -> None:
    """From a finished match: waits for the final results, then goes back to the lobby."""
    page.locator("dialog[open] .standings").wait_for()
    page.locator("dialog[open] [data-action=lobby]").click()


def close_results(page) -> bool:
    """Dismisses an open results dialog; True if there was one. The next round's may open at
    once (rounds that ended back to back): this one's going is what is waited for."""
    dialog = page.locator("dialog[open]")
    if not dialog.count():
        return False
    assert dialog.locator(".results-table").count() >= 1
    shown = dialog.element_handle()
    dialog.locator("[data-action=continue]").click()
    page.wait_for_function("dialog => !dialog.isConnected", arg=shown)
    return True


def pick_listed_play(page) -> list[str]:
    """Clicks, card by card, the cards of a listed play (the last listed: bigger plays end the
    round sooner) and waits until the page judges the selection legal."""
    ids = page.locator(".listed-play").last.get_attribute("data-cards").split(",")
    for card in ids:
        # Hand cards overlap: a person taps the corner that shows, so does this.
        page.click(f".hand [data-id='{card}']", position={"x": 8, "y": 12})
    page.wait_for_selector(".judge[data-verdict=legal]")
    return ids


def take_turn(page, cut_position: int | None = None) -> str:
    """One action on your turn, by clicking; waits until the page shows its outcome."""
    version = screen(page, "version")
    phase = screen(page, "phase")
    if phase == "cut":
        if cut_position is None:
            page.click("[data-action=cut-random]")
        else:
            page.fill("input[name=cut-position]", str(cut_position))
            page.click("[data-action=cut]")
    elif phase == "bid":
        page.click("[data-action=bid-no]")
    elif page.locator(".listed-play").count():
        pick_listed_play(page)
        page.click("[data-action=play]")
    else:
        page.click("[data-action=pass]")
    page.wait_for_function(
        "v => document.getElementById('screen').dataset.version !== v"
        " || !!document.querySelector('dialog[open]')", arg=version)
    return phase


def play_to_the_end(page, max_turns: int = 2000) -> dict:
    """Plays every turn until the match is over; returns what happened on the way."""
    seen = {"turns": 0, "phases": set(), "results": 0}
    for _ in range(max_turns):
        wait_ready(page)
        if screen(page, "status") == "finished":
            break
        if close_results(page):
            seen["results"] += 1
            continue
        seen["phases"].add(take_turn(page))
        seen["turns"] += 1
    # The final results open by themselves once the match is over.
    page.wait_for_selector("dialog[open] .standings")
    return seen


def api_get(page, path: str):
    """GET /api/v1<path> as the page's person (their token)."""
    return page.evaluate("""async path => {
      const token = JSON.parse(localStorage.getItem('cardtable.session')).token;
      const answer = await fetch('/api/v1' + path, {headers: {Authorization: `Token ${token}`}});
      return answer.json();
    }""", path)


def match_id_in_url(page) -> int:
    return int(re.search(r"#/match/(\d+)$", page.url).group(1))


def play_together(pages: dict) -> dict:
    """People at one table (`pages` by name) each play on their turn until the match is over;
    the turns each took."""
    turns = dict.fromkeys(pages, 0)

    def played_to_the_end():
        for name, page in pages.items():
            if screen(page, "status") != "finished" and is_ready(page):
                if not close_results(page):
                    take_turn(page)
                    turns[name] += 1
        return all(screen(p, "status") == "finished" for p in pages.values())

    until(next(iter(pages.values())), played_to_the_end, "the match to end on every page")
    for page in pages.values():
        page.wait_for_selector("dialog[open] .standings")
    return turns


def invited(open_page, host, name: str | None = None):
    """A friend who opens the host's invite link, starts as a guest (named `name`) and sits
    down; the friend's page once the match is on."""
    link = host.locator(".invite-link").input_value()
    friend = open_page(path=link[link.index("/#"):])
    if name:
        friend.fill(".sign-in input[name=display_name]", name)
    sign_in_as_guest(friend)  # on the invitation: start as a guest, then sit down
    friend.wait_for_selector(f"{SCREEN}[data-screen=table][data-status=active]")
    return friend


def played_by_the_server(page, ruleset: str, options: dict) -> int:
    """A match of the page's person against random bots that the server plays to its end (托管
    from the start, as bots play theirs); its id once it is finished. The test sends these
    requests itself (Playwright's API client, with the person's token), not the page: the page's
    watch counts only what the table sends."""
    token = page.evaluate("JSON.parse(localStorage.getItem('cardtable.session')).token")
    headers = {"Authorization": f"Token {token}"}
    bot = {"type": "bot", "level": "random"}
    seats = [{"type": "human"}] + [bot] * (options["players"] - 1)
    created = page.request.post("/api/v1/matches/", headers=headers,
                                data={"ruleset": ruleset, "options": options, "seats": seats})
    assert created.status == 201, created.text()
    match = created.json()["id"]
    asked = page.request.post(f"/api/v1/matches/{match}/autoplay/", headers=headers,
                              data={"on": True})
    # The bots can end the match before the person's first choice (a seat that cannot answer
    # passes by itself): then the server has nothing left to play for them.
    assert asked.ok or asked.json()["error"]["code"] == "match_over", asked.text()
    until(page, lambda: api_get(page, f"/matches/{match}/")["status"] == "finished",
          "the server to play the match to its end")
    return match
