// The table's top: the header (the game, the match, the round), the status line (whose turn,
// the clocks, the last message, the way to earlier results) and, until every seat is taken, the
// invitation.

import { fill, h } from "../dom.js";
import { t } from "../i18n.js";
import { bothTitles } from "../rules.js";
import { seatName } from "../words.js";
import { clockView, deadline } from "./clock.js";

/**
 * @import { View } from "../api.js"
 * @import { Rules } from "../rules.js"
 */

/** @param {HTMLElement} el @param {View} view @param {Rules} rules */
export function renderHeader(el, view, rules) {
  const state = view.state;
  const rounds = state ? rules.rounds(view) : null;
  const round = state && state.round
    ? rounds
      ? t("table.round_of", { n: state.round, m: rounds })
      : t("table.round", { n: state.round })
    : "";
  fill(
    el,
    h("a", { class: "back", href: "#/" }, t("nav.lobby")),
    h("h1", {}, bothTitles(rules.info, view.ruleset)),
    h("span", { class: "bar-facts" }, t("table.match", { id: view.id }), round ? ` · ${round}` : ""),
  );
}

/**
 * The round whose results the Results button opens: the last one over.
 * @param {View} view
 * @returns {number|null}
 */
function lastOver(view) {
  if (view.status === "waiting" || !view.state) return null;
  const round = view.state.round;
  if (view.status === "finished") return round > 0 ? round : null;
  return round > 1 ? round - 1 : null;
}

/**
 * @param {HTMLElement} el
 * @param {View} view
 * @param {{message: string, offset: number, onResults: (round: number) => void}} how
 */
export function renderStatus(el, view, { message, offset, onResults }) {
  let text;
  if (view.status === "waiting") text = t("table.waiting_players");
  else if (view.status === "finished") text = t("table.finished");
  else if (view.your_turn) text = t("table.your_turn");
  else if (view.to_act !== null) text = t("table.to_act", { name: seatName(view, view.to_act) });
  else text = "";
  const ends = deadline(view);
  const past = lastOver(view);
  fill(
    el,
    h("span", { class: view.your_turn ? "your-turn" : "" }, text),
    ends ? clockView(ends, offset, view.your_turn ? "clock.you" : "clock.left", "status-clock") : null,
    view.status === "waiting" && view.bots_fill_at ? clockView(view.bots_fill_at, offset, "clock.bots") : null,
    message ? h("span", { class: "message" }, message) : null,
    past === null
      ? null
      : h("button", { type: "button", class: "link", dataset: { action: "results" }, onclick: () => onResults(past) }, t("table.results")),
  );
}

/** @param {HTMLElement} el @param {View} view */
export function renderInvite(el, view) {
  if (!view.invite_code) {
    el.hidden = true;
    return;
  }
  el.hidden = false;
  const link = `${location.origin}${location.pathname}#/join/${view.invite_code}`;
  const input = h("input", { class: "invite-link", readonly: true, value: link, "aria-label": t("table.invite"), onfocus: (/** @type {Event} */ e) => /** @type {HTMLInputElement} */ (e.target).select() });
  const copy = h("button", {
    type: "button",
    dataset: { action: "copy-invite" },
    onclick: async () => {
      input.select();
      try {
        await navigator.clipboard.writeText(link);
        copy.textContent = t("table.copied");
      } catch {
        // Clipboard refused (no permission or not a secure page): the link stays selected.
      }
    },
  }, t("table.copy"));
  fill(el, h("h2", {}, t("table.invite")), h("p", {}, t("table.share")), h("div", { class: "invite-row" }, input, copy), h("p", { class: "code" }, t("join.code", { code: view.invite_code })));
}
