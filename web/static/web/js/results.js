// A round's itemised settlement (GET /matches/{id}/rounds/{n}/) and the standings, in a dialog.
// The columns and the lines above them are the ruleset's module's; without one, a column per key
// of the round's breakdown.

import { api } from "./api.js";
import { cardText } from "./cards.js";
import { append, fill, h } from "./dom.js";
import { t } from "./i18n.js";
import { seatName, signed, valueText } from "./words.js";

/**
 * @import { View } from "./api.js"
 * @import { Rules, Column, RoundDetail } from "./rules.js"
 */

/**
 * @typedef {{number: number, over: boolean, deltas: number[]|null}} RoundSummary
 */

// Each seat's breakdown says its seat and round total: the table has columns of its own for them.
const SHOWN_ELSEWHERE = new Set(["seat", "delta"]);

/**
 * A column per key of the breakdown, named by the key.
 * @param {RoundDetail} detail
 * @returns {Column[]}
 */
function breakdownColumns(detail) {
  const keys = new Set((detail.settlement || []).flatMap((entry) => Object.keys(entry.breakdown || {})));
  return [...keys].filter((key) => !SHOWN_ELSEWHERE.has(key))
    .map((key) => [key.replace(/_/g, " "), (b) => valueText(b[key])]);
}

/**
 * Scores change only when a round is settled: today's score less every later round's delta.
 * @param {View} view
 * @param {RoundSummary[]} rounds
 * @param {number} number
 */
function scoresAfter(view, rounds, number) {
  return view.seats.map((seat) => {
    let score = seat.score;
    for (const r of rounds) {
      if (r.number > number && r.deltas) score -= r.deltas[seat.seat];
    }
    return score;
  });
}

/**
 * @param {View} view
 * @param {Rules} rules
 * @param {RoundDetail} detail
 * @param {RoundSummary[]} rounds
 */
function roundTable(view, rules, detail, rounds) {
  const columns = rules.columns.length ? rules.columns : breakdownColumns(detail);
  const scores = scoresAfter(view, rounds, detail.number);
  const hands = detail.hands || [];
  return [
    h("ul", { class: "results-summary" }, rules.summary(view, detail).map((line) => h("li", {}, line))),
    h(
      "div",
      { class: "table-wrap" },
      h(
        "table",
        { class: "results-table" },
        h(
          "thead",
          {},
          h(
            "tr",
            {},
            h("th", { scope: "col" }, t("results.seat")),
            columns.map(([key]) => h("th", { scope: "col" }, rules.words.t(key))),
            h("th", { scope: "col" }, t("results.delta")),
            h("th", { scope: "col" }, t("results.score")),
          ),
        ),
        h(
          "tbody",
          {},
          (detail.settlement || []).map((entry) =>
            h(
              "tr",
              { class: view.seats[entry.seat]?.you ? "you" : "" },
              h(
                "th",
                { scope: "row" },
                seatName(view, entry.seat),
                hands[entry.seat] && hands[entry.seat].length
                  ? h("small", { class: "left-cards" }, hands[entry.seat].map((c) => cardText(c.code)).join(" "))
                  : null,
              ),
              columns.map(([, cell]) => h("td", {}, cell(entry.breakdown))),
              h("td", { class: entry.delta >= 0 ? "gain" : "loss" }, signed(entry.delta)),
              h("td", {}, scores[entry.seat]),
            ),
          ),
        ),
      ),
    ),
  ];
}

/** @param {View} view */
function standingsTable(view) {
  return h(
    "table",
    { class: "results-table standings" },
    h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("results.rank")), h("th", { scope: "col" }, t("results.seat")), h("th", { scope: "col" }, t("results.score")))),
    h(
      "tbody",
      {},
      (view.standings || []).map((s) =>
        h(
          "tr",
          { class: view.seats[s.seat]?.you ? "you" : "" },
          h("td", {}, s.rank),
          h("th", { scope: "row" }, seatName(view, s.seat), s.eliminated ? h("small", {}, ` ${t("results.eliminated")}`) : null),
          h("td", {}, s.score),
        ),
      ),
    ),
  );
}

/**
 * Shows round `number` (and the final standings once the match is over); calls `onShown()` once
 * it is open and resolves when it is closed. `final(dialog)`: what the final dialog offers
 * besides the lobby (play again).
 * @param {View} view
 * @param {Rules} rules
 * @param {number} number
 * @param {{onLobby: () => void, onShown: () => void,
 *   final?: (dialog: HTMLDialogElement) => HTMLElement}} handlers
 * @returns {Promise<void>}
 */
export async function showResults(view, rules, number, { onLobby, onShown, final }) {
  const [{ data: detail }, { data: rounds }] = await Promise.all([
    api.get(`/matches/${view.id}/rounds/${number}/`),
    api.get(`/matches/${view.id}/rounds/`),
  ]);
  const over = rounds.filter((/** @type {RoundSummary} */ r) => r.over).map((/** @type {RoundSummary} */ r) => r.number);
  const dialog = /** @type {HTMLDialogElement} */ (h("dialog", { class: "results", "aria-labelledby": "results-title" }));
  const body = h("div", { class: "results-body" });
  const show = async (/** @type {number} */ n) => {
    const { data } = n === detail.number ? { data: detail } : await api.get(`/matches/${view.id}/rounds/${n}/`);
    fill(
      body,
      h("h2", { id: "results-title" }, view.status === "finished" && n === number ? t("results.match") : t("results.round", { n })),
      view.status === "finished" && n === number ? standingsTable(view) : null,
      view.status === "finished" && n === number ? h("h3", {}, t("results.round", { n })) : null,
      roundTable(view, rules, data, rounds),
    );
  };
  await show(number);
  const close = h("button", { type: "button", class: "primary", dataset: { action: "continue" }, onclick: () => dialog.close() }, t("results.continue"));
  append(dialog, [
    body,
    over.length > 1
      ? h("nav", { class: "round-picker", "aria-label": t("results.past") }, over.map((/** @type {number} */ n) =>
          h("button", { type: "button", class: "chip", onclick: () => show(n) }, t("table.round", { n }))))
      : null,
    h(
      "div",
      { class: "dialog-actions" },
      view.status === "finished" && final ? final(dialog) : null,
      view.status === "finished"
        ? h("button", { type: "button", dataset: { action: "lobby" }, onclick: () => { dialog.close(); onLobby(); } }, t("results.lobby"))
        : null,
      close,
    ),
  ]);
  document.body.append(dialog);
  return new Promise((resolve) => {
    dialog.addEventListener("close", () => {
      dialog.remove();
      resolve();
    });
    dialog.showModal();
    close.focus();
    onShown();
  });
}
