// Whether the selected cards are a play one may make now, and how they read.
//
// First against the listed legal actions: instant, and exact, since every ruleset lists one play
// per reading and set of ranks (suits never matter; jokers are one wild rank), and a play that
// may carry extra cards (带牌) says how many. A selection that is not listed is then explained by
// the rules endpoint: what it reads as, and whether it beats the play on the table.

import { api } from "./api.js";
import { rankOf } from "./cards.js";

/**
 * @import { View, Card, Action, TrickPlay } from "./api.js"
 */

/** @param {Card[]} cards @returns {Map<string, number>} */
function counts(cards) {
  const found = new Map();
  for (const card of cards) found.set(rankOf(card.code), (found.get(rankOf(card.code)) || 0) + 1);
  return found;
}

/**
 * selection minus core, rank by rank; null when core is not inside the selection.
 * @param {Map<string, number>} selection
 * @param {Map<string, number>} core
 */
function minus(selection, core) {
  const rest = new Map(selection);
  for (const [rank, n] of core) {
    const left = (rest.get(rank) || 0) - n;
    if (left < 0) return null;
    if (left === 0) rest.delete(rank);
    else rest.set(rank, left);
  }
  return rest;
}

const MAX_OF_A_RANK_AS_EXTRAS = 3; // four of a rank would be a bomb, never an extra

/**
 * @param {Map<string, number>} core
 * @param {Map<string, number>} extras
 * @param {number} allowed
 */
function extrasFit(core, extras, allowed) {
  let n = 0;
  for (const [rank, count] of extras) {
    if (core.has(rank) || count > MAX_OF_A_RANK_AS_EXTRAS) return -1;
    n += count;
  }
  return n >= 1 && n <= allowed ? n : -1;
}

/**
 * The listed plays these cards make: [{type: "play", cards: ids, reading}], as they would be sent.
 * @param {View} view
 * @param {number[]} selected  card ids
 * @returns {Action[]}
 */
export function listedPlays(view, selected) {
  const byId = new Map((view.state?.hand || []).map((c) => [c.id, c]));
  const cardsOf = (/** @type {number[]} */ ids) =>
    /** @type {Card[]} */ (ids.map((id) => byId.get(id)).filter(Boolean));
  const chosen = cardsOf(selected);
  if (!chosen.length) return [];
  const wanted = counts(chosen);
  const found = new Map();
  for (const action of view.legal_actions) {
    if (action.type !== "play") continue;
    const core = counts(cardsOf(action.cards || []));
    const rest = minus(wanted, core);
    if (rest === null) continue;
    let reading = action.reading;
    if (rest.size) {
      const extras = extrasFit(core, rest, action.extras || 0);
      if (extras < 0) continue;
      reading = { ...reading, length: reading.length + extras };
    }
    found.set(JSON.stringify(reading), { type: "play", cards: chosen.map((c) => c.id), reading });
  }
  return [...found.values()];
}

/**
 * The play on the table to beat: the trick's latest (none on a free lead: an empty trick).
 * @param {View} view
 * @returns {TrickPlay|null}
 */
export function toBeat(view) {
  return (view.state?.trick || []).find((p) => p.latest) || null;
}

/**
 * The rules endpoint's word on cards that are not listed.
 * @param {View} view
 * @param {number[]} selected
 * @returns {Promise<{valid: boolean, readings: Reading[], beats_previous: boolean|null,
 *   beating_readings: Reading[]}>}
 */
export async function evaluate(view, selected) {
  const byId = new Map((view.state?.hand || []).map((c) => [c.id, c]));
  /** @type {Record<string, any>} */
  const body = { options: view.options, cards: selected.map((id) => byId.get(id)?.code) };
  const previous = toBeat(view);
  if (previous) {
    body.previous = previous.cards.map((c) => c.code);
    body.previous_reading = previous.reading;
  }
  const { data } = await api.post(`/rules/${view.ruleset}/evaluate/`, body);
  return data;
}
