// The table's screen: where each part is drawn. The main column holds the status, the seats,
// the felt and the person's side; the side column the scores and the log.

import { fill, h } from "../dom.js";
import { t } from "../i18n.js";

/**
 * Lays the table out in `root`; returns its parts, empty until drawn.
 * @param {HTMLElement} root
 */
export function tableLayout(root) {
  const parts = {
    header: h("header", { class: "bar" }),
    status: h("p", { class: "status", role: "status", "aria-live": "polite" }),
    invite: h("section", { class: "invite" }),
    seats: h("section", { class: "seats-area", "aria-label": t("table.turn_order") }),
    felt: h("section", { class: "felt" }),
    me: h("section", { class: "me" }),
    auto: h("div", { class: "autoplay" }),
    judge: h("p", { class: "judge", "aria-live": "polite" }),
    hand: h("div", { class: "hand", role: "group" }),
    actions: h("div", { class: "actions" }),
    listed: h("section", { class: "listed" }),
    scores: h("section", { class: "scores" }),
    log: h("section", { class: "log" }),
  };
  const player = h("section", { class: "player" }, parts.me, parts.auto, parts.judge, parts.hand, parts.actions, parts.listed);
  fill(root, h("div", { class: "table-screen" },
    parts.header,
    h("main", { class: "table-main" }, parts.status, parts.invite, parts.seats, parts.felt, player),
    h("aside", { class: "table-side" }, parts.scores, parts.log)));
  return { ...parts, player };
}
