// The felt: the trick (the latest play marked) and the ruleset's facts of the table beside it.

import { cardRow } from "../cards.js";
import { fill, h } from "../dom.js";
import { t } from "../i18n.js";
import { about, readingText, seatName } from "../words.js";

/**
 * @import { View } from "../api.js"
 * @import { Rules } from "../rules.js"
 */

/** @param {View} view @param {Rules} rules */
function infoPanel(view, rules) {
  if (!view.state) return null;
  const items = rules.facts(view).map(([label, ...value]) =>
    h("div", { class: "info-item" }, h("dt", {}, label), h("dd", {}, value)));
  return items.length ? h("dl", { class: "info" }, items) : null;
}

/** @param {HTMLElement} el @param {View} view @param {Rules} rules */
export function renderFelt(el, view, rules) {
  const s = view.state;
  const trick = s ? s.trick : [];
  fill(
    el,
    h("h2", { class: "visually-hidden" }, t("trick.title")),
    h(
      "div",
      { class: "trick", dataset: { plays: trick.length } },
      trick.length
        ? trick.map((play) =>
            h(
              "div",
              { class: `play${play.latest ? " latest" : ""}`, dataset: { seat: play.seat } },
              h("span", { class: "who" }, seatName(view, play.seat)),
              cardRow(play.cards, play.latest ? "medium" : "small"),
              h("span", { class: "reading" }, readingText(play.reading)),
              play.latest ? h("span", { class: "badge latest-tag" }, t("trick.latest")) : null,
            ),
          )
        : h(
            "p",
            { class: "empty" },
            s && s.phase === "play" && s.to_act !== null ? about(view, s.to_act, "trick.leads", { name: seatName(view, s.to_act) }) : t("trick.empty"),
          ),
    ),
    infoPanel(view, rules),
  );
}
