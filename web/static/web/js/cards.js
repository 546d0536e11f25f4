// Cards as the API sends them, {id, code}: the code is rank + suit (10H, QS), SJ/BJ the jokers.

import { h } from "./dom.js";
import { t } from "./i18n.js";

export const RANKS = ["3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A", "2"];
const SUITS = ["S", "H", "C", "D"];
const SUIT_SIGN = { S: "♠", H: "♥", C: "♣", D: "♦" };
const JOKERS = "JK"; // the rank both jokers share: wild in gandengyan

function isJoker(code) {
  return code === "SJ" || code === "BJ";
}

export function rankOf(code) {
  return isJoker(code) ? JOKERS : code.slice(0, -1);
}

function suitOf(code) {
  return isJoker(code) ? null : code.slice(-1);
}

// Low to high as both games rank them (3 … A, 2), jokers last, big after small; then by suit.
function order(card) {
  const code = card.code;
  if (isJoker(code)) return [RANKS.length + (code === "BJ" ? 1 : 0), 0, card.id];
  return [RANKS.indexOf(rankOf(code)), SUITS.indexOf(suitOf(code)), card.id];
}

export function sortCards(cards) {
  return [...cards].sort((a, b) => {
    const x = order(a);
    const y = order(b);
    return x[0] - y[0] || x[1] - y[1] || x[2] - y[2];
  });
}

function cardName(code) {
  if (isJoker(code)) return t(`card.${code}`);
  return t("card.name", { rank: rankOf(code), suit: t(`suit.${suitOf(code)}`) });
}

// A short text form for logs and labels: 8♥, 10♠, 小王 / small joker.
export function cardText(code) {
  return isJoker(code) ? t(`card.${code}`) : rankOf(code) + SUIT_SIGN[suitOf(code)];
}

function colour(code) {
  if (code === "BJ") return "red";
  if (code === "SJ") return "black";
  return suitOf(code) === "H" || suitOf(code) === "D" ? "red" : "black";
}

function face(code) {
  if (isJoker(code)) {
    return [
      h("span", { class: "corner", "aria-hidden": "true" }, h("b", { class: "joker-word" }, "JOKER")),
      h("span", { class: "pip", "aria-hidden": "true" }, code === "BJ" ? "★" : "☆"),
    ];
  }
  const sign = SUIT_SIGN[suitOf(code)];
  return [
    h("span", { class: "corner", "aria-hidden": "true" }, h("b", {}, rankOf(code)), h("i", {}, sign)),
    h("span", { class: "pip", "aria-hidden": "true" }, sign),
  ];
}

// A card to look at (trick, 明牌, results).
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

// A card of one's hand: a toggle button.
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

export function cardRow(cards, size = "small") {
  return h("span", { class: "card-row" }, cards.map((c) => cardView(c, size)));
}
