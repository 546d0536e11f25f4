// 510K at the table: the cut's 明牌, 包庄 bids, the sides and their points, places out, and a
// round's 进出分 and 喜分. Its view's own keys are in games/engine/rulesets/five_ten_k/views.py.

import { cardText, cardView } from "../cards.js";
import { h } from "../dom.js";
import { dictionary } from "../i18n.js";
import { about, seatName, seatNames, signed } from "../words.js";

/**
 * @import { View } from "../api.js"
 * @import { Badge, InfoItem, RulesetWeb, DealCheck } from "../rules.js"
 * @import { PyRandom } from "../pyrandom.js"
 * @import { RoundReplay } from "../replay.js"
 */

const words = dictionary({
  en: {
    "badge.banker": "Solo 包庄",
    "badge.banker.title": "包庄: plays alone against the three others, for a double stake",
    "badge.face_up.title": "明牌: the card turned face up at the cut; its holder speaks first",
    "badge.first.title": "上游: out first; their side gets 40 points more",
    "badge.face_up": "明牌",
    "badge.side": "Side {x}",
    "badge.defenders": "Defenders",
    "badge.place": "Out #{n}",
    "badge.first": "Out first 上游",
    "info.face_up": "Face-up card 明牌",
    "info.held_by": "held by {name}",
    "info.sides": "Sides",
    "info.side_points": "{points} pts",
    "info.bids": "包庄 bids",
    "info.bid_solo": "{name}: solo",
    "info.bid_no": "{name}: no",
    "info.cut": "Cut at",
    "seat.captured": "{n} pts",
    "cut.prompt": "You cut the pack: the card at the cut is turned up (明牌) and its holder starts.",
    "bid.prompt": "Go solo (包庄), you alone against the three others?",
    "bid.stake": "At stake: {each} with each of them, so you win or lose {total}{dry}; 喜分 apart.",
    "bid.stake.half": " ({half} if they are half-dry, 半干)",
    "bid.stake.full": " ({half} if they are half-dry, 半干; {full} full-dry, 全干)",
    "results.captured": "Points won",
    "results.place": "Place",
    "results.settlement": "进出分",
    "results.xi": "喜分",
    "results.settlement.title": "进出分: the stake the losing side pays the winners",
    "results.xi.title": "喜分: bonus points for a bomb of 5 or more of a rank (4 or more 2s), from every other player",
    "results.level": "Level: {level}, stake {stake}",
    "results.level.normal": "normal",
    "results.level.half_dry": "half-dry (半干)",
    "results.level.full_dry": "full-dry (全干)",
    "results.banker": "{name} went solo (包庄)",
    "results.banker.you": "You went solo (包庄)",
    "results.side_line": "{names}: {captured} pts won, {score} with the place bonus",
    "results.xi_bomb": "{count}×{rank}",
    "results.held": "held",
    "ev.cut": "{name} cuts at {position}: 明牌 {card}, held by {holder}",
    "ev.cut.you": "You cut at {position}: 明牌 {card}, held by {holder}",
    "ev.bid_solo": "{name} goes solo (包庄)",
    "ev.bid_solo.you": "You go solo (包庄)",
    "ev.bid_no": "{name} does not go solo",
    "ev.bid_no.you": "You do not go solo",
    "ev.teams_banker": "{name} plays alone against three",
    "ev.teams_banker.you": "You play alone against three",
    "ev.teams": "Sides: {a} against {b}",
    "ev.swapped": "{a} and {b} swap places",
    "ev.trick_won_points": "{name} wins the trick: +{points} pts",
    "ev.trick_won_points.you": "You win the trick: +{points} pts",
    "ev.finished": "{name} is out, place {place}",
    "ev.finished.you": "You are out, place {place}",
  },
  zh: {
    "badge.banker": "包庄",
    "badge.banker.title": "一个人打三家，注翻倍",
    "badge.face_up.title": "切牌时翻开的牌，拿到它的人先说话",
    "badge.first.title": "第一个出完，本方加40分",
    "badge.face_up": "明牌",
    "badge.side": "{x}方",
    "badge.defenders": "守方",
    "badge.place": "第{n}个出完",
    "badge.first": "上游",
    "info.face_up": "明牌",
    "info.held_by": "在{name}手中",
    "info.sides": "阵营",
    "info.side_points": "{points}分",
    "info.bids": "包庄",
    "info.bid_solo": "{name}：包庄",
    "info.bid_no": "{name}：不包",
    "info.cut": "切牌位置",
    "seat.captured": "{n}分",
    "cut.prompt": "由你切牌：切到的牌翻开（明牌），拿到它的人先出。",
    "bid.prompt": "要不要包庄（一个人打三家）？",
    "bid.stake": "输赢：和三家各{each}分，共{total}分{dry}，喜分另算。",
    "bid.stake.half": "（半干{half}分）",
    "bid.stake.full": "（半干{half}分，全干{full}分）",
    "results.captured": "得分",
    "results.place": "名次",
    "results.settlement": "进出分",
    "results.xi": "喜分",
    "results.settlement.title": "进出分：输的一方付给赢的一方的注",
    "results.xi.title": "喜分：同点数5张或以上（2为4张或以上）的炸弹，其他每人都要付",
    "results.level": "结果：{level}，注 {stake}",
    "results.level.normal": "普通",
    "results.level.half_dry": "半干",
    "results.level.full_dry": "全干",
    "results.banker": "{name}包庄",
    "results.side_line": "{names}：得{captured}分，算上名次{score}分",
    "results.xi_bomb": "{count}个{rank}",
    "results.held": "未出",
    "ev.cut": "{name}在{position}切牌：明牌{card}，在{holder}手中",
    "ev.bid_solo": "{name}包庄",
    "ev.bid_no": "{name}不包",
    "ev.teams_banker": "{name}一个人打三家",
    "ev.teams": "阵营：{a} 对 {b}",
    "ev.swapped": "{a}和{b}换座",
    "ev.trick_won_points": "{name}赢了这一轮：+{points}分",
    "ev.finished": "{name}出完了，第{place}名",
  },
});
const { t } = words;

/** @param {View} view @param {number} seat */
function sideOf(view, seat) {
  return (view.state?.teams || []).findIndex((/** @type {number[]} */ team) => team.includes(seat));
}

/** @param {View} view @param {number[]} team @param {number} i */
function sideLabel(view, team, i) {
  const banker = view.state?.banker;
  if (banker === null || banker === undefined) return t("badge.side", { x: "AB"[i] });
  return team.includes(banker) ? t("badge.banker") : t("badge.defenders");
}

/** @param {View} view @param {number} seat @returns {Badge[]} */
function badges(view, seat) {
  const s = view.state;
  /** @type {Badge[]} */
  const out = [];
  if (s.banker === seat) out.push({ text: t("badge.banker"), cls: "banker", title: t("badge.banker.title") });
  if (s.face_up && s.face_up.holder === seat) out.push({ text: t("badge.face_up"), cls: "face-up", title: t("badge.face_up.title") });
  const side = sideOf(view, seat);
  if (side >= 0 && s.banker === null) out.push({ text: sideLabel(view, s.teams[side], side), cls: `side-${side}` });
  const place = (s.finished || []).indexOf(seat);
  if (place === 0) out.push({ text: t("badge.first"), cls: "place", title: t("badge.first.title") });
  else if (place > 0) out.push({ text: t("badge.place", { n: place + 1 }), cls: "place" });
  return out;
}

/** @param {View} view @returns {InfoItem[]} */
function facts(view) {
  const s = view.state;
  /** @type {InfoItem[]} */
  const items = [];
  if (s.face_up) {
    items.push([t("info.face_up"), cardView(s.face_up.card, "small"), " ", t("info.held_by", { name: seatName(view, s.face_up.holder) })]);
  }
  if (s.cut_position !== undefined && s.cut_position !== null) items.push([t("info.cut"), String(s.cut_position)]);
  if (s.bids && s.bids.length && s.phase === "bid") {
    items.push([t("info.bids"), s.bids.map((/** @type {{seat: number, solo: boolean}} */ b) =>
      t(b.solo ? "info.bid_solo" : "info.bid_no", { name: seatName(view, b.seat) })).join(", ")]);
  }
  if (s.teams && s.teams.length) {
    items.push([
      t("info.sides"),
      h("ul", { class: "sides" }, s.teams.map((/** @type {number[]} */ team, /** @type {number} */ i) =>
        h("li", { class: `side-${i}` },
          h("span", { class: `badge side-${i}` }, sideLabel(view, team, i)),
          ` ${seatNames(view, team)}: `,
          h("strong", {}, t("info.side_points", { points: (s.side_captured || [])[i] ?? 0 }))))),
    ]);
  }
  return items;
}

// What going solo stakes: the base score, doubled for 包庄, with each of the three defenders;
// doubled again for each dry level the options allow (settle.py).
/** @param {View} view */
function soloStake(view) {
  const each = 2 * (view.options.base_score ?? 1);
  const dry = view.options.dry ?? "full";
  const total = 3 * each;
  const levels = { half: total * 2, full: total * 4 };
  return t("bid.stake", {
    each,
    total,
    dry: dry === "none" ? "" : t(`bid.stake.${dry}`, levels),
  });
}

/** @param {{rank: string, count: number, played: boolean}[]} bombs */
function xiBombs(bombs) {
  return (bombs || [])
    .map((b) => t("results.xi_bomb", { count: b.count, rank: b.rank }) + (b.played ? "" : ` (${t("results.held")})`))
    .join(", ");
}

const HAND_SIZE = 22;
// The pack: two decks of 5 to 2 (rank indexes 2..12), no jokers; a card id is copy * 54 + rank * 4
// + suit (games/engine/cards.py).
const PACK = [0, 1].flatMap((copy) => Array.from({ length: 11 * 4 }, (_, i) => copy * 54 + 8 + i));

/**
 * The round dealt again as games/engine/rulesets/five_ten_k/round.py deals it: the pack shuffled,
 * the random cut and the seat the deal starts at drawn, then the cut's cards dealt one by one
 * from the seat after the cutter (in the round's seating) on.
 * @param {PyRandom} rng
 * @param {RoundReplay} round
 * @returns {DealCheck}
 */
function deal(rng, round) {
  const start = round.start;
  const players = start.players;
  const size = HAND_SIZE * players;
  const deck = rng.shuffle([...PACK]);
  const randomCut = rng.randrange(size);
  const first = 1 + rng.randrange(players);
  const cut = round.steps[0];
  const position = cut.action.position ?? randomCut;
  const seating = start.seating;
  /** @type {number[][]} */
  const hands = Array.from({ length: players }, () => /** @type {number[]} */ ([]));
  deck.slice(0, size).forEach((card, k) => {
    hands[seating[(seating.indexOf(cut.seat) + k + first) % seating.length]].push(card);
  });
  const dealt = cut.view;
  const ids = (/** @type {{id: number}[]} */ cards) => cards.map((c) => c.id);
  return {
    cards: [...hands, deck.slice(size), [deck[position]]],
    shown: [...dealt.hands.map(ids), ids(dealt.bottom || []), [dealt.face_up.card.id]],
  };
}

/** @type {RulesetWeb} */
export default {
  words,
  deal,
  rounds: (view) => view.state?.rounds ?? null,
  cutPositions: (view) => view.state?.cut_positions ?? 1,
  prompt: (view) => (view.state.phase === "bid"
    ? [t("bid.prompt"), " ", h("span", { class: "stake" }, soloStake(view))]
    : t(`${view.state.phase}.prompt`)),
  badges,
  seatFacts: (view, seat) => view.state?.captured
    ? [h("span", { class: "points" }, t("seat.captured", { n: view.state.captured[seat] }))]
    : [],
  seatClass: (view, seat) => (sideOf(view, seat) >= 0 ? `side-${sideOf(view, seat)}` : ""),
  facts,
  events: {
    cut: (e, { view, name, auto }) => about(view, e.seat, "ev.cut", {
      name,
      position: e.position,
      card: cardText(e.face_up.code),
      holder: seatName(view, e.holder),
    }, words) + auto,
    bid: (e, { view, name, auto }) => about(view, e.seat, e.solo ? "ev.bid_solo" : "ev.bid_no", { name }, words) + auto,
    teams: (e, { view }) => {
      if (e.banker !== null && e.banker !== undefined) {
        return about(view, e.banker, "ev.teams_banker", { name: seatName(view, e.banker) }, words);
      }
      const line = about(view, e.seat, "ev.teams", { a: seatNames(view, e.teams[0]), b: seatNames(view, e.teams[1]) }, words);
      if (!e.swapped) return line;
      const [a, b] = e.swapped;
      return `${line}; ${about(view, e.seat, "ev.swapped", { a: seatName(view, a), b: seatName(view, b) }, words)}`;
    },
    finished: (e, { view, name }) => about(view, e.seat, "ev.finished", { name, place: e.place }, words),
    trick_won: (e, { view, name }) => e.points
      ? about(view, e.seat, "ev.trick_won_points", { name, points: e.points }, words)
      : undefined,
  },
  columns: [
    ["results.captured", (b) => b.captured],
    ["results.place", (b) => b.place ?? "–"],
    ["results.settlement", (b) => signed(b.settlement)],
    ["results.xi", (b) => `${signed(b.xi)}${b.xi_bombs && b.xi_bombs.length ? ` (${xiBombs(b.xi_bombs)})` : ""}`],
  ],
  summary(view, detail) {
    const result = detail.result || {};
    const summary = result.summary || {};
    const lines = [];
    if (summary.banker !== null && summary.banker !== undefined) {
      lines.push(about(view, summary.banker, "results.banker", { name: seatName(view, summary.banker) }, words));
    }
    (summary.teams || []).forEach((/** @type {number[]} */ team, /** @type {number} */ i) => {
      lines.push(t("results.side_line", {
        names: seatNames(view, team),
        captured: (summary.side_captured || [])[i],
        score: (summary.side_scores || [])[i],
      }));
    });
    if (summary.level) {
      lines.push(t("results.level", {
        level: t(`results.level.${summary.level}`),
        stake: (result.settlement || {}).stake ?? "",
      }));
    }
    return lines;
  },
};
