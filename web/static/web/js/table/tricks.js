// The trick taken last, read from the events: the view holds only the trick in play, which is
// empty from the moment one is taken until the next lead. In the meantime the felt shows the last
// one, so that a trick the bots took and led after at once can still be read; and after a round's
// end, its last trick, until the next round's first lead (the play that went out is drawn, not
// only told in the round's results).

/**
 * @import { View, MatchEvent, TrickPlay } from "../api.js"
 */

/** @typedef {{plays: TrickPlay[], winner: number, round: number, ended: boolean}} TakenTrick */

// Events after which no earlier play belongs to the trick being read.
const TRICK_STARTS = new Set(["trick_won", "round_started", "round_settled"]);

/**
 * The trick last taken (or that ended the round) if nothing was led since: in this round, or in
 * the last one while this one has no lead yet.
 * @param {View} view
 * @param {MatchEvent[]} events  the recent ones, oldest first
 * @returns {TakenTrick|null}
 */
export function lastTrick(view, events) {
  const s = view.state;
  if (!s || s.trick.length) return null;
  let end = events.length - 1;
  while (end >= 0 && events[end].type !== "trick_won" && events[end].type !== "round_end") {
    if (events[end].type === "play") return null;
    end -= 1;
  }
  if (end < 0 || events[end].round < s.round - 1) return null;
  const ended = events[end].type === "round_end";
  // A ruleset that takes the last trick before the round ends says who took it.
  if (ended && end > 0 && events[end - 1].type === "trick_won") end -= 1;
  const winner = events[end].type === "trick_won" ? events[end].seat : events[end].winner;
  /** @type {TrickPlay[]} */
  const plays = [];
  for (let i = end - 1; i >= 0 && !TRICK_STARTS.has(events[i].type); i -= 1) {
    const e = events[i];
    if (e.type === "play") plays.unshift({ seat: e.seat, cards: e.cards, reading: e.reading, latest: false });
  }
  if (!plays.length) return null;
  plays[plays.length - 1].latest = true;
  return { plays, winner: winner ?? plays[plays.length - 1].seat, round: events[end].round, ended };
}
