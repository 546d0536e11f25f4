// 510K at the table: the cut's 明牌, 包庄 bids, the sides and their points, places out, and a
// round's 进出分 and 喜分. Its view's own keys are in games/engine/rulesets/five_ten_k/views.py.

import { cardText, cardView } from "../cards.js";
import { h } from "../dom.js";
import { dictionary } from "../i18n.js";
import { about, seatName, seatNames, signed } from "../words.js";

/**
 * @import { View } from "../api.js"
 * @import { Badge, InfoItem, RulesetWeb } from "../rules.js"
 */

const words = dictionary({
  en: {
    "badge.banker": "Solo 包庄",
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
    "results.captured": "Points won",
    "results.place": "Place",
    "results.settlement": "进出分",
    "results.xi": "喜分",
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
    "results.captured": "得分",
    "results.place": "名次",
    "results.settlement": "进出分",
    "results.xi": "喜分",
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
  if (s.banker === seat) out.push({ text: t("badge.banker"), cls: "banker" });
  if (s.face_up && s.face_up.holder === seat) out.push({ text: t("badge.face_up"), cls: "face-up" });
  const side = sideOf(view, seat);
  if (side >= 0 && s.banker === null) out.push({ text: sideLabel(view, s.teams[side], side), cls: `side-${side}` });
  const place = (s.finished || []).indexOf(seat);
  if (place === 0) out.push({ text: t("badge.first"), cls: "place" });
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

/** @param {{rank: string, count: number, played: boolean}[]} bombs */
function xiBombs(bombs) {
  return (bombs || [])
    .map((b) => t("results.xi_bomb", { count: b.count, rank: b.rank }) + (b.played ? "" : ` (${t("results.held")})`))
    .join(", ");
}

/** @type {RulesetWeb} */
export default {
  words,
  rounds: (view) => view.state?.rounds ?? null,
  cutPositions: (view) => view.state?.cut_positions ?? 1,
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
