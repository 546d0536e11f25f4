// 干瞪眼 at the table: the pile, the round's bombs, the first round's dice, who holds only jokers or
// has not played yet, and a round's cards left and bomb factor. Its view's own keys are in
// games/engine/rulesets/gandengyan/views.py.

import { h } from "../dom.js";
import { dictionary } from "../i18n.js";
import { about, seatName } from "../words.js";

/**
 * @import { View } from "../api.js"
 * @import { Badge, InfoItem, RulesetWeb, EventWords, DealCheck } from "../rules.js"
 * @import { PyRandom } from "../pyrandom.js"
 * @import { RoundReplay } from "../replay.js"
 */

const words = dictionary({
  en: {
    "badge.forfeited": "Only jokers",
    "badge.not_played": "no card played yet (×2)",
    "info.pile": "Pile",
    "info.pile_cards": "{n} cards",
    "info.pile_cards.one": "{n} card",
    "info.bombs": "Bombs",
    "info.no_bombs": "none yet",
    "info.bomb_sizes": "{n} ({sizes} cards)",
    "info.dice": "Dice",
    "results.cards_left": "Cards left",
    "results.doubled": "×2",
    "results.bomb_factor": "Bomb factor",
    "results.winner": "{name} wins the round ({reason})",
    "results.winner.you": "You win the round ({reason})",
    "results.reason.empty_hand": "played out",
    "results.reason.last_holder": "the others forfeited",
    "results.bombs": "Bombs: {list}",
    "ev.draw": "{name} draws a card ({pile} left)",
    "ev.draw.you": "You draw a card ({pile} left)",
    "ev.forfeit": "{name} holds only jokers: out of this round",
    "ev.forfeit.you": "You hold only jokers: out of this round",
    "ev.eliminated": "{name} is eliminated",
    "ev.eliminated.you": "You are eliminated",
  },
  zh: {
    "badge.forfeited": "只剩王",
    "badge.not_played": "还没出过牌（×2）",
    "info.pile": "牌堆",
    "info.pile_cards": "{n}张",
    "info.bombs": "炸弹",
    "info.no_bombs": "暂无",
    "info.bomb_sizes": "{n}个（{sizes}张）",
    "info.dice": "骰子",
    "results.cards_left": "剩牌",
    "results.doubled": "×2",
    "results.bomb_factor": "炸弹倍数",
    "results.winner": "{name}赢了本局（{reason}）",
    "results.reason.empty_hand": "出完了牌",
    "results.reason.last_holder": "其他人弃权",
    "results.bombs": "炸弹：{list}",
    "ev.draw": "{name}摸一张牌（剩{pile}张）",
    "ev.forfeit": "{name}只剩王，本局弃权",
    "ev.eliminated": "{name}出局",
  },
});
const { t, count } = words;

/** @param {View} view @param {number} seat @returns {Badge[]} */
function badges(view, seat) {
  const s = view.state;
  /** @type {Badge[]} */
  const out = [];
  if (s.forfeited && s.forfeited[seat]) out.push({ text: t("badge.forfeited"), cls: "out" });
  if (s.played_any && s.phase === "play" && !s.played_any[seat] && !(s.eliminated && s.eliminated[seat])) {
    out.push({ text: t("badge.not_played"), cls: "quiet" });
  }
  return out;
}

/** @param {View} view @returns {InfoItem[]} */
function facts(view) {
  const s = view.state;
  /** @type {InfoItem[]} */
  const items = [
    [t("info.pile"), h("span", { class: "pile" }, h("span", { class: "card-back", "aria-hidden": "true" }), count("info.pile_cards", s.pile))],
    [t("info.bombs"), s.bombs.length ? t("info.bomb_sizes", { n: s.bombs.length, sizes: s.bombs.join(", ") }) : t("info.no_bombs")],
  ];
  if (s.dice && s.dice.length && s.round === 1) items.push([t("info.dice"), s.dice.join(", ")]);
  return items;
}

/** @type {(key: string) => EventWords} */
const seatEvent = (key) => (e, { view, name }) => about(view, e.seat, key, { name, pile: e.pile }, words);

const HAND_SIZE = 5;
const DIE_FACES = 6;

/** The pack of `decks` decks, jokers included, in the engine's order. @param {number} decks */
function pack(decks) {
  return Array.from({ length: decks }, (_, copy) => Array.from({ length: 54 }, (_, i) => copy * 54 + i)).flat();
}

/**
 * The round dealt again as games/engine/rulesets/gandengyan/flow.py deals it: the first round's
 * dice (thrown again while above the number of seats) choose the leader, the pack is sorted by
 * a random key per card, five cards go to each seat still in, and the leader draws the top of
 * the pile.
 * @param {PyRandom} rng
 * @param {RoundReplay} round
 * @returns {DealCheck}
 */
function deal(rng, round) {
  const start = round.start;
  const players = start.players;
  const dice = [];
  let leader = start.leader;
  if (start.round === 1) {
    while (!dice.length || dice[dice.length - 1] > players) dice.push(rng.randint(1, DIE_FACES));
    leader = dice[dice.length - 1] - 1;
  }
  const cards = pack(start.options.decks);
  const keys = cards.map(() => rng.random());
  const deck = cards.map((card, i) => [keys[i], card]).sort((a, b) => a[0] - b[0]).map((pair) => pair[1]);
  const hands = start.eliminated.map((/** @type {boolean} */ out) => (out ? [] : deck.splice(0, HAND_SIZE)));
  if (deck.length) hands[leader].push(deck.pop());
  const ids = (/** @type {{id: number}[]} */ list) => list.map((c) => c.id);
  return {
    cards: [...hands, deck, dice, [leader]],
    shown: [...start.hands.map(ids), ids(start.pile_cards), start.dice, [start.leader]],
  };
}

/** @type {RulesetWeb} */
export default {
  words,
  deal,
  badges,
  facts,
  events: {
    draw: seatEvent("ev.draw"),
    forfeit: seatEvent("ev.forfeit"),
    eliminated: seatEvent("ev.eliminated"),
  },
  columns: [
    ["results.cards_left", (b) => b.cards_left],
    ["results.doubled", (b) => (b.doubled ? t("results.yes") : "")],
    ["results.bomb_factor", (b) => `×${b.bomb_factor}`],
  ],
  summary(view, detail) {
    const result = detail.result || {};
    const lines = [];
    if (result.winner !== undefined && result.winner !== null) {
      lines.push(about(view, result.winner, "results.winner", {
        name: seatName(view, result.winner),
        reason: t(`results.reason.${result.reason}`),
      }, words));
    }
    if (result.bombs && result.bombs.length) {
      lines.push(t("results.bombs", { list: result.bombs.join(", ") }));
    }
    return lines;
  },
};
