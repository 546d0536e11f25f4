// The seats: the others in turn order from yours, yours beside your hand, and the scores. A seat
// shows its name, cards, score, the shared badges (to act, its clock, 托管, eliminated) and the
// ruleset's own facts and badges.

import { fill, h } from "../dom.js";
import { count, t } from "../i18n.js";
import { seatDetail, seatName } from "../words.js";
import { clockView, deadline } from "./clock.js";

/**
 * @import { View } from "../api.js"
 * @import { Rules, Badge } from "../rules.js"
 */

/**
 * @param {View} view
 * @param {Rules} rules
 * @param {number} seat
 * @param {number} offset  the server's time minus this device's
 */
function badges(view, rules, seat, offset) {
  const s = view.state;
  if (!s) return [];
  const info = view.seats[seat];
  const ends = s.to_act === seat ? deadline(view) : null;
  const badge = (/** @type {Badge} */ b) => h("span", { class: `badge ${b.cls || ""}`, title: b.title || null }, b.text);
  return [
    s.to_act === seat && view.status === "active" ? badge({ text: t("badge.to_act"), cls: "to-act" }) : null,
    ends ? clockView(ends, offset, "clock.left", "badge") : null,
    info.autoplay ? badge({ text: t("badge.autoplay"), cls: "autoplay", title: t(`badge.autoplay.${info.autoplay}`) }) : null,
    info.eliminated ? badge({ text: t("badge.eliminated"), cls: "out" }) : null,
    rules.badges(view, seat).map(badge),
  ];
}

/**
 * @param {View} view
 * @param {Rules} rules
 * @param {number} seat
 * @param {number} offset
 * @param {string} [tag]
 */
function seatBox(view, rules, seat, offset, tag = "li") {
  const info = view.seats[seat];
  const s = view.state;
  const toAct = s && s.to_act === seat && view.status === "active";
  const own = s ? rules.seatClass(view, seat) : "";
  return h(
    tag,
    {
      class: `seat${toAct ? " to-act" : ""}${info.you ? " you" : ""}${own ? ` ${own}` : ""}`,
      dataset: { seat },
      "aria-current": toAct ? "true" : null,
    },
    h("div", { class: "seat-name" }, seatName(view, seat), seatDetail(info) ? h("small", {}, ` · ${seatDetail(info)}`) : null),
    h(
      "div",
      { class: "seat-facts" },
      s ? h("span", { class: "count", title: count("seat.cards", s.counts[seat]) }, h("span", { class: "card-back", "aria-hidden": "true" }), count("seat.cards", s.counts[seat])) : null,
      h("span", {}, t("seat.score", { n: info.score })),
      s ? rules.seatFacts(view, seat) : null,
    ),
    h("div", { class: "badges" }, badges(view, rules, seat, offset)),
  );
}

/**
 * The seats after yours in this round's turn order (all of them for an onlooker).
 * @param {View} view
 */
function turnOrder(view) {
  const seating = view.state ? view.state.seating : view.seats.map((s) => s.seat);
  const mine = seating.indexOf(view.you);
  return mine < 0 ? seating : seating.slice(mine + 1).concat(seating.slice(0, mine));
}

/** @param {HTMLElement} el @param {View} view @param {Rules} rules @param {number} offset */
export function renderSeats(el, view, rules, offset) {
  fill(
    el,
    h("h2", { class: "order-caption" }, `${t("table.turn_order")} →`),
    h("ol", { class: "seats" }, turnOrder(view).map((seat) => seatBox(view, rules, seat, offset))),
  );
}

/** @param {HTMLElement} el @param {View} view @param {Rules} rules @param {number} offset */
export function renderMe(el, view, rules, offset) {
  if (view.you === null || view.you === undefined) return fill(el);
  fill(el, seatBox(view, rules, view.you, offset, "div"));
}

/** @param {HTMLElement} el @param {View} view */
export function renderScores(el, view) {
  fill(
    el,
    h("h2", {}, t("scores.title")),
    h("ol", { class: "score-list" }, view.seats.map((seat) =>
      h("li", { class: seat.you ? "you" : "" },
        h("span", {}, seatName(view, seat.seat),
          seat.eliminated ? h("small", { class: "out" }, ` · ${t("badge.eliminated")}`) : null),
        h("strong", {}, String(seat.score))))),
  );
}
