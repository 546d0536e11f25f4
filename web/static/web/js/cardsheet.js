// The admin's replay page (games/templates/admin/games/match/replay.html): the view it shows as
// JSON, drawn with the table's own cards (cards.js): each hand (every one open, or the seat's),
// the trick, the bottom or the pile, the 明牌. The JSON stays below it for everything else.

import { cardRow, sortCards } from "./cards.js";
import { fill, h } from "./dom.js";

/**
 * @import { Card } from "./api.js"
 */

/** @param {string} label @param {Card[]} cards */
function line(label, cards) {
  return h("div", { class: "sheet-line" }, h("strong", {}, label), cardRow(sortCards(cards), "medium"));
}

const source = document.getElementById("replay-view");
const sheet = document.getElementById("replay-cards");
if (source && sheet) {
  const view = JSON.parse(source.textContent || "{}");
  const lines = [];
  if (view.hands) view.hands.forEach((/** @type {Card[]} */ hand, /** @type {number} */ seat) => lines.push(line(`seat ${seat}`, hand)));
  else if (view.hand) lines.push(line(`seat ${view.seat}`, view.hand));
  for (const play of view.trick || []) lines.push(line(`trick: seat ${play.seat}`, play.cards));
  if (view.bottom && view.bottom.length) lines.push(line("bottom", view.bottom));
  if (view.pile_cards && view.pile_cards.length) lines.push(line("pile", view.pile_cards));
  if (view.face_up) lines.push(line(`明牌: seat ${view.face_up.holder}`, [view.face_up.card]));
  fill(sheet, lines);
}
