// What the table knows, in one object: the match as last received, how its ruleset is shown,
// the log's events, the person's selection and choices, and the results still to show. It
// changes here when a view arrives, in table.js's handlers, and in selection.js (the verdict);
// the parts that draw it only read it.

import { t } from "../i18n.js";
import { serverOffset } from "./clock.js";
import { LOG_LINES } from "./log.js";

/**
 * @import { View, MatchEvent } from "../api.js"
 * @import { Rules } from "../rules.js"
 * @import { Verdict } from "./selection.js"
 */

/**
 * `view` and `rules` are set together when the first view arrives, before anything is drawn.
 * @typedef {object} TableState
 * @property {View} view  the match as last received
 * @property {Rules} rules  how its ruleset is shown
 * @property {MatchEvent[]} events  the recent events: the log's lines
 * @property {Set<number>} selected  the selected cards' ids
 * @property {Verdict} verdict  what the selection is
 * @property {number} chosenReading  which of the verdict's plays Play sends
 * @property {number} hintIndex  which listed play Hint selects next
 * @property {number} cutPosition
 * @property {boolean} busy  an action is on its way
 * @property {string} message  the last refusal or trouble, for people
 * @property {number} offset  the server's time minus this device's, in ms
 * @property {{ticket: number, timer: ReturnType<typeof setTimeout>|undefined}} judging  the
 *   latest verdict asked of the server
 * @property {{open: boolean, loading: boolean, pending: number[]}} results  the rounds whose
 *   results are to show, one dialog at a time (`loading`: one is on its way)
 */

/** @returns {TableState} */
export function tableState() {
  return {
    view: null,
    rules: null,
    events: [],
    selected: new Set(),
    verdict: { kind: "empty" },
    chosenReading: 0,
    hintIndex: 0,
    cutPosition: 0,
    busy: false,
    message: "",
    offset: 0,
    judging: { ticket: 0, timer: undefined },
    results: { open: false, loading: false, pending: [] },
  };
}

/**
 * A person whose seat the server plays (托管) is not stopped by each round's results, only by
 * the final ones; the others stay behind the Results button.
 * @param {TableState} state
 * @param {boolean} first  the table's first view: its rounds' results are not news
 * @param {MatchEvent[]} fresh
 */
function queueResults(state, first, fresh) {
  const view = state.view;
  const pending = state.results.pending;
  const away = view.you !== null && view.you !== undefined && !!view.seats[view.you].autoplay;
  for (const e of fresh) {
    if (first || e.type !== "round_settled") continue;
    if (!away || (view.status === "finished" && e.round === view.state.round)) pending.push(e.round);
  }
  if (first && view.status === "finished" && view.state) pending.push(view.state.round);
}

/**
 * The state once `next` arrived with the events new since the last view.
 * @param {TableState} state
 * @param {View} next
 * @param {MatchEvent[]} fresh
 */
export function receiveView(state, next, fresh) {
  const previous = state.view;
  const roundChanged = previous && previous.state && next.state && previous.state.round !== next.state.round;
  // An act's answer does not count spectators (null): the count the table had stands.
  if ((next.spectators === null || next.spectators === undefined) && previous) next.spectators = previous.spectators;
  state.view = next;
  state.offset = serverOffset(next, state.offset);
  if (state.message && state.message !== t("err.stale")) state.message = "";
  state.events = state.events.concat(fresh).slice(-LOG_LINES);
  const hand = new Set((next.state?.hand || []).map((c) => c.id));
  state.selected = new Set([...state.selected].filter((id) => hand.has(id)));
  if (roundChanged || !next.your_turn) state.hintIndex = 0;
  if (next.state && next.state.phase === "cut") {
    state.cutPosition = Math.min(state.cutPosition, state.rules.cutPositions(next) - 1);
  }
  queueResults(state, previous === null, fresh);
}
