// The verdict on the selected cards: at once from the listed plays, else after a short pause
// from the rules endpoint (a newer selection makes an older answer moot).

import { t } from "../i18n.js";
import { evaluate, listedPlays, toBeat } from "../judge.js";
import { errorText, readingText } from "../words.js";

/**
 * @import { View, Action } from "../api.js"
 * @import { TableState } from "./state.js"
 */

/**
 * What the selection is: nothing to judge, on its way, plays one may make (one per reading), or
 * words saying why not (`illegal`) or what it would be (`info`).
 * @typedef {{kind: "empty"} | {kind: "checking"} | {kind: "legal", plays: Action[]}
 *   | {kind: "illegal", text: string} | {kind: "info", text: string}} Verdict
 */

const EVALUATE_DELAY_MS = 120;

/**
 * @param {View} view
 * @param {Awaited<ReturnType<typeof evaluate>>} answer
 * @param {number[]} ids
 * @returns {Verdict}
 */
function explain(view, answer, ids) {
  if (!answer.valid) return { kind: "illegal", text: t("judge.not_combo") };
  const reading = readingText(answer.readings[0]);
  const previous = toBeat(view);
  if (!view.your_turn) return { kind: "info", text: t("judge.waiting", { reading }) };
  if (previous && !answer.beats_previous) {
    return { kind: "illegal", text: t("judge.no_beat", { reading, previous: readingText(previous.reading) }) };
  }
  // Readable and beating, though not listed: the server has the last word when it is sent.
  const readings = previous ? answer.beating_readings : answer.readings;
  return { kind: "legal", plays: readings.map((r) => ({ type: "play", cards: ids, reading: r })) };
}

/**
 * Judges `state.selected` into `state.verdict`, calling `show()` each time the verdict changes.
 * @param {TableState} state
 * @param {() => void} show
 */
export function judgeSelection(state, show) {
  const judging = state.judging;
  clearTimeout(judging.timer);
  const ticket = ++judging.ticket;
  const view = state.view;
  const ids = [...state.selected];
  if (!view || !view.state || view.state.phase !== "play" || !ids.length) {
    state.verdict = { kind: "empty" };
    return show();
  }
  const plays = view.your_turn ? listedPlays(view, ids) : [];
  if (plays.length) {
    state.verdict = { kind: "legal", plays };
    return show();
  }
  state.verdict = { kind: "checking" };
  show();
  judging.timer = setTimeout(async () => {
    try {
      const answer = await evaluate(state.view, ids);
      if (ticket !== judging.ticket) return;
      state.verdict = explain(state.view, answer, ids);
    } catch (err) {
      if (ticket !== judging.ticket) return;
      state.verdict = { kind: "illegal", text: errorText(err) };
    }
    show();
  }, EVALUATE_DELAY_MS);
}

/**
 * No verdict is on its way any more.
 * @param {TableState} state
 */
export function stopJudging(state) {
  clearTimeout(state.judging.timer);
}
