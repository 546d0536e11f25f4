// The table's top: the header (the game, the match, the round), the status line (whose turn,
// the clocks, the last message, the way to earlier results) and, until every seat is taken, the
// invitation.

import { fill, h } from "../dom.js";
import { guideButton } from "../guide.js";
import { bothTitles } from "../rules.js";
import { seatName } from "../words.js";
import { clockView, deadline } from "./clock.js";
import { count, t } from "./words.js";

/**
 * @import { View, MatchEvent } from "../api.js"
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
  const watching = view.you === null || view.you === undefined;
  const over = view.status === "finished" || view.status === "aborted";
  fill(
    el,
    h("a", { class: "back", href: "#/" }, t("nav.lobby")),
    h("h1", {}, bothTitles(rules.info, view.ruleset)),
    h("span", { class: "bar-facts" }, h("span", { class: "match-id" }, t("table.match", { id: view.id }), round ? " · " : ""), round),
    watching ? h("span", { class: "badge watching", title: t("watch.watching"), dataset: { watching: "true" } }, t("table.watching")) : null,
    typeof view.spectators === "number" && view.spectators > 0
      ? h("span", { class: "spectators", dataset: { spectators: view.spectators } }, count("table.spectators", view.spectators))
      : null,
    over ? h("a", { class: "replay-link", href: `#/replay/${view.id}`, dataset: { action: "replay" } }, t("table.replay")) : null,
    rules.info ? guideButton(() => rules.info) : null,
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
 * Why staff stopped the match, as its event says.
 * @param {MatchEvent[]} events
 */
function stopped(events) {
  const reason = [...events].reverse().find((e) => e.type === "match_aborted")?.reason;
  return reason ? t("table.aborted", { reason }) : t("table.aborted_plain");
}

/**
 * @param {HTMLElement} el
 * @param {View} view
 * @param {{message: string, offset: number, events: MatchEvent[],
 *   onResults: (round: number) => void}} how
 */
export function renderStatus(el, view, { message, offset, events, onResults }) {
  let text;
  if (view.status === "waiting") text = t("table.waiting_players");
  else if (view.status === "finished") text = t("table.finished");
  else if (view.status === "aborted") text = stopped(events);
  else if (view.status === "paused") text = t("table.paused");
  else if (view.your_turn) text = t("table.your_turn");
  else if (view.to_act !== null) text = t("table.to_act", { name: seatName(view, view.to_act) });
  else text = "";
  const ends = deadline(view);
  const past = lastOver(view);
  fill(
    el,
    h("span", { class: view.your_turn ? "your-turn" : view.status }, text),
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
