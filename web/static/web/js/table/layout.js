// The table's screen: where each part is drawn. The main column holds the status, the seats,
// the felt and the person's side; the side column the table's rules, the scores and the log. On
// a narrow screen the side column's parts fold behind tabs, so that the main column fits.

import { fill, h } from "../dom.js";
import { t } from "./words.js";

const SIDE_PARTS = ["rules", "scores", "log"];

/**
 * Tabs that open one of the side's parts at a time, or none (a second press closes it).
 * @param {HTMLElement} side
 */
function sideTabs(side) {
  const tabs = SIDE_PARTS.map((name) => h("button", {
    type: "button",
    class: "side-tab",
    dataset: { part: name },
    "aria-expanded": "false",
    "aria-controls": `side-${name}`,
    onclick: () => {
      side.dataset.open = side.dataset.open === name ? "" : name;
      for (const tab of tabs) tab.setAttribute("aria-expanded", String(side.dataset.open === tab.dataset.part));
    },
  }, t(`side.${name}`)));
  return { nav: h("nav", { class: "side-tabs" }, tabs), relabel: () => tabs.forEach((tab) => { tab.textContent = t(`side.${tab.dataset.part}`); }) };
}

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
    talk: h("div", { class: "talk" }),
    judge: h("p", { class: "judge", "aria-live": "polite" }),
    hand: h("div", { class: "hand", role: "group" }),
    actions: h("div", { class: "actions" }),
    listed: h("section", { class: "listed" }),
    options: h("section", { class: "side-part options", id: "side-rules" }),
    scores: h("section", { class: "side-part scores", id: "side-scores" }),
    log: h("section", { class: "side-part log", id: "side-log" }),
  };
  const player = h("section", { class: "player" }, h("div", { class: "player-head" }, parts.me, parts.auto, parts.talk),
    parts.judge, parts.hand, parts.actions, parts.listed);
  const side = h("aside", { class: "table-side", dataset: { open: "" } });
  const tabs = sideTabs(side);
  fill(side, tabs.nav, parts.options, parts.scores, parts.log);
  fill(root, h("div", { class: "table-screen" },
    parts.header,
    h("main", { class: "table-main" }, parts.status, parts.invite, parts.seats, parts.felt, player),
    side));
  return { ...parts, player, relabelTabs: tabs.relabel };
}
