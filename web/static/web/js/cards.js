// Cards as the API sends them, {id, code}: the code is rank + suit (10H, QS), SJ/BJ the jokers.

import { h } from "./dom.js";
import { t } from "./i18n.js";

/**
 * @import { Card } from "./api.js"
 */

/** @typedef {Card} Card */

export const RANKS = ["3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A", "2"];
const SUITS = ["S", "H", "C", "D"];
const SUIT_SIGN = { S: "♠", H: "♥", C: "♣", D: "♦" };
const JOKERS = "JK"; // the rank both jokers share

/** @param {string} code */
function isJoker(code) {
  return code === "SJ" || code === "BJ";
}

/** @param {string} code */
export function rankOf(code) {
  return isJoker(code) ? JOKERS : code.slice(0, -1);
}

/** @param {string} code @returns {"S"|"H"|"C"|"D"|null} */
function suitOf(code) {
  return isJoker(code) ? null : /** @type {"S"|"H"|"C"|"D"} */ (code.slice(-1));
}

// Low to high as the engine ranks them (3 … A, 2), jokers last, big after small; then by suit.
/** @param {Card} card */
function order(card) {
  const code = card.code;
  if (isJoker(code)) return [RANKS.length + (code === "BJ" ? 1 : 0), 0, card.id];
  return [RANKS.indexOf(rankOf(code)), SUITS.indexOf(suitOf(code) || ""), card.id];
}

/** @param {Card[]} cards */
export function sortCards(cards) {
  return [...cards].sort((a, b) => {
    const x = order(a);
    const y = order(b);
    return x[0] - y[0] || x[1] - y[1] || x[2] - y[2];
  });
}

/** @param {string} code */
function cardName(code) {
  if (isJoker(code)) return t(`card.${code}`);
  return t("card.name", { rank: rankOf(code), suit: t(`suit.${suitOf(code)}`) });
}

// A short text form for logs and labels: 8♥, 10♠, 小王 / small joker.
/** @param {string} code */
export function cardText(code) {
  return isJoker(code) ? t(`card.${code}`) : rankOf(code) + sign(code);
}

/** @param {string} code */
function sign(code) {
  const suit = suitOf(code);
  return suit ? SUIT_SIGN[suit] : "";
}

/** @param {string} code */
function colour(code) {
  if (code === "BJ") return "red";
  if (code === "SJ") return "black";
  return suitOf(code) === "H" || suitOf(code) === "D" ? "red" : "black";
}

/** @param {string} code */
function face(code) {
  if (isJoker(code)) {
    return [
      h("span", { class: "corner", "aria-hidden": "true" }, h("b", { class: "joker-word" }, "JOKER")),
      h("span", { class: "pip", "aria-hidden": "true" }, code === "BJ" ? "★" : "☆"),
    ];
  }
  return [
    h("span", { class: "corner", "aria-hidden": "true" }, h("b", {}, rankOf(code)), h("i", {}, sign(code))),
    h("span", { class: "pip", "aria-hidden": "true" }, sign(code)),
  ];
}

/**
 * A card to look at (the trick, a ruleset's facts, results).
 * @param {Card} card
 * @param {"small"|"medium"} [size]
 */
export function cardView(card, size = "small") {
  return h(
    "span",
    {
      class: `card ${size} ${colour(card.code)}${isJoker(card.code) ? " joker" : ""}`,
      role: "img",
      "aria-label": cardName(card.code),
      dataset: { code: card.code },
    },
    face(card.code),
  );
}

/**
 * A card of one's hand: a toggle button.
 * @param {Card} card
 * @param {{selected: boolean, dimmed: boolean, onToggle: (id: number) => void}} how
 */
export function cardButton(card, { selected, dimmed, onToggle }) {
  return h(
    "button",
    {
      type: "button",
      class: `card hand-card ${colour(card.code)}${isJoker(card.code) ? " joker" : ""}${
        dimmed ? " dimmed" : ""
      }`,
      "aria-pressed": selected ? "true" : "false",
      "aria-label": cardName(card.code),
      dataset: { id: card.id, code: card.code },
      onclick: () => onToggle(card.id),
    },
    face(card.code),
  );
}

/** @param {Card[]} cards @param {"small"|"medium"} [size] */
export function cardRow(cards, size = "small") {
  return h("span", { class: "card-row" }, cards.map((c) => cardView(c, size)));
}
