// The table's rules at a glance: each of the match's options by its label and its value's (the
// words GET /rules/ gives), the turn clock and the bots' pace when there are; and the person's
// alerts for a turn that comes while the page is out of sight.

import { fill, h } from "../dom.js";
import { optionLabel, valueLabel } from "../rules.js";
import { alertSettings } from "./attention.js";
import { t } from "./words.js";

/**
 * @import { View } from "../api.js"
 * @import { Rules } from "../rules.js"
 */

/** @param {number} ms */
function seconds(ms) {
  return String(Math.round(ms / 100) / 10);
}

/**
 * [label, value] of each option, then the clock's and the pace's.
 * @param {View} view
 * @param {Rules} rules
 * @returns {[string, string][]}
 */
function optionLines(view, rules) {
  const info = rules.info;
  const names = info ? Object.keys(info.labels).filter((name) => name in view.options) : [];
  const rest = Object.keys(view.options).filter((name) => !names.includes(name));
  /** @type {[string, string][]} */
  const lines = names.concat(rest).map((name) => {
    const value = view.options[name];
    return info ? [optionLabel(info, name), valueLabel(info, name, value)] : [name, String(value)];
  });
  if (view.clock) lines.push([t("options.clock"), t("options.clock.n", { n: view.clock.turn_seconds })]);
  else lines.push([t("options.clock"), t("options.clock.none")]);
  const pace = view.server_pace_ms;
  if (typeof pace === "number") {
    lines.push([t("options.pace"), pace ? t("options.pace.n", { n: seconds(pace) }) : t("options.pace.none")]);
  }
  return lines;
}

/**
 * @param {HTMLElement} el
 * @param {View} view
 * @param {Rules} rules
 */
export function renderOptions(el, view, rules) {
  fill(
    el,
    h("h2", {}, t("options.title")),
    h("dl", { class: "table-options" }, optionLines(view, rules).map(([label, value]) =>
      h("div", {}, h("dt", {}, label), h("dd", {}, value)))),
    alertSettings(),
  );
}
