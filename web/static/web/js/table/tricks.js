// The trick taken last, read from the events: the view holds only the trick in play, which is
// empty from the moment one is taken until the next lead. In the meantime the felt shows the last
// one, so that a trick the bots took and led after at once can still be read.

/**
 * @import { View, MatchEvent, TrickPlay } from "../api.js"
 */

/** @typedef {{plays: TrickPlay[], winner: number}} TakenTrick */

// Events after which no earlier play belongs to the trick being read.
const TRICK_STARTS = new Set(["trick_won", "round_started", "round_settled"]);

/**
 * The trick last taken in this round, if nothing was led since.
 * @param {View} view
 * @param {MatchEvent[]} events  the recent ones, oldest first
 * @returns {TakenTrick|null}
 */
export function lastTrick(view, events) {
  const s = view.state;
  if (!s || s.trick.length) return null;
  let taken = events.length - 1;
  while (taken >= 0 && events[taken].type !== "trick_won") {
    const type = events[taken].type;
    if (type === "play" || type === "round_started") return null;
    taken -= 1;
  }
  if (taken < 0 || events[taken].round !== s.round) return null;
  /** @type {TrickPlay[]} */
  const plays = [];
  for (let i = taken - 1; i >= 0 && !TRICK_STARTS.has(events[i].type); i -= 1) {
    const e = events[i];
    if (e.type === "play") plays.unshift({ seat: e.seat, cards: e.cards, reading: e.reading, latest: false });
  }
  if (!plays.length) return null;
  plays[plays.length - 1].latest = true;
  return { plays, winner: events[taken].seat };
}
