"""Paced play and absent players at the web table (issue 21): the bots' plays land on the felt one
at a time, at least about the match's pace apart and in the order they were played; a table whose
only person let their clock run out pauses at the end of the round, says so at the table and in
the lobby, and goes on when the person takes their seat back."""

from tests.browser.driver import (
    SCREEN,
    api_get,
    close_results,
    screen,
    sign_in_as_guest,
    start_match,
    take_turn,
    until,
    wait_past_results,
)

PACE_MS = 800
SERVER_PLAYS = 8  # seen land before the test looks at them

# Every play as it lands on the felt: its key, its seat and when; a render that shows two new
# plays at once records both with the same time. A play that took the trick at once (everyone
# else had to pass) lands among the trick taken last.
WATCH_THE_FELT = """() => {
  window.landed = [];
  const seen = new Set();
  new MutationObserver(() => {
    const now = performance.now();
    for (const play of document.querySelectorAll('.trick .play, .taken-plays .play')) {
      if (seen.has(play.dataset.key)) continue;
      seen.add(play.dataset.key);
      window.landed.push({key: play.dataset.key, seat: Number(play.dataset.seat), at: now});
    }
  }).observe(document.body, {childList: true, subtree: true});
}"""


def create_match(page, body: dict) -> int:
    """A match created over the API as the page's person (options the form does not offer)."""
    created = page.evaluate("""async body => {
      const token = JSON.parse(localStorage.getItem('cardtable.session')).token;
      const answer = await fetch('/api/v1/matches/', {method: 'POST', body: JSON.stringify(body),
        headers: {Authorization: `Token ${token}`, 'Content-Type': 'application/json'}});
      return answer.json();
    }""", body)
    return created["id"]


def test_the_bots_plays_land_one_at_a_time_at_the_matchs_pace(open_page):
    page = open_page()
    sign_in_as_guest(page)
    page.wait_for_selector("#new-game [data-action=create]")
    match = create_match(page, {
        "ruleset": "gandengyan", "options": {"starting_score": 100_000, "server_pace_ms": PACE_MS},
        "seats": [{"type": "human"}] + [{"type": "bot", "level": "random"}] * 3})
    page.goto(f"/#/match/{match}")
    page.wait_for_selector(f"{SCREEN}[data-screen=table][data-match='{match}']")
    page.locator(".table-options", has_text="0.8 s between moves").wait_for(state="attached")
    page.evaluate(WATCH_THE_FELT)

    def server_plays() -> int:
        return page.evaluate("() => window.landed.filter(p => p.seat !== 0).length")

    while server_plays() < SERVER_PLAYS:
        until(page, lambda: screen(page, "your-turn") == "true" or server_plays() >= SERVER_PLAYS
              or page.locator("dialog[open]").count() > 0, "a turn or the bots' plays")
        if close_results(page):
            continue
        if screen(page, "your-turn") == "true":
            # The round's results may still be on their way when the next round's turn shows:
            # act once the page shows the match as it is (the server waits on the person) and
            # any results that came with it are dismissed.
            until(page, lambda: screen(page, "version")
                  == str(api_get(page, f"/matches/{match}/")["version"]), "the page to catch up")
            wait_past_results(page)
            if screen(page, "your-turn") == "true":
                take_turn(page)
    landed = page.evaluate("() => window.landed")
    server = [i for i, play in enumerate(landed) if play["seat"] != 0]
    gaps = [landed[i]["at"] - landed[i - 1]["at"] for i in server if i > 0]
    # The server waits its pace after each write; the page may only show a move late, never
    # two of them together or one on the heels of the last.
    assert min(gaps) >= 0.75 * PACE_MS, gaps
    events = api_get(page, f"/matches/{match}/events/?since=0")["events"]
    # Every play lands, in the order it was played (a round's last play with the new round, as
    # the trick that ended it). The page watcher keeps a play's first landing only: so does this.
    played = list(dict.fromkeys(
        f"{e['seat']}:{','.join(str(card['id']) for card in e['cards'])}"
        for e in events if e["type"] == "play"))
    assert [p["key"] for p in landed] == played[:len(landed)]


def test_a_table_everyone_left_pauses_and_goes_on_when_its_person_is_back(open_page):
    page = open_page()
    sign_in_as_guest(page)
    match = start_match(page, "highcard", {"players": 2, "rounds": 3, "turn_seconds": 5},
                        ["bot:random"])
    # The person does nothing: their clock runs out, the server plays the round out for them
    # and the match waits at its end.
    page.wait_for_selector(f"{SCREEN}[data-status=paused]")
    assert page.locator(".status .paused").inner_text().startswith("Paused: everyone was away")
    assert page.locator(".log-lines li", has_text="Everyone was away").count() == 1
    assert page.locator(".actions button").count() == 0
    page.click(".bar .back")
    item = page.locator(f".match-item[data-match='{match}']")
    assert "paused: everyone was away" in item.inner_text()
    item.locator("[data-action=take-seat]").click()
    page.wait_for_selector(f"{SCREEN}[data-match='{match}'][data-status=active]")
    page.locator("[data-action=autoplay-on]").wait_for()  # the seat is the person's again
    assert page.locator(".log-lines li", has_text="You are back").count() == 1
    until(page, lambda: api_get(page, f"/matches/{match}/")["round"]["number"] == 2,
          "the next round")
