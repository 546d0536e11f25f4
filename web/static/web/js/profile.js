// A person's public profile (战绩), #/players/<id>: their name, rating per game with its
// latest changes, matches played and won, average score and recent matches
// (GET /players/{id}/). Public: no sign-in needed.

import { api } from "./api.js";
import { h, fill } from "./dom.js";
import { t } from "./i18n.js";
import { provisionalBadge, ratingText } from "./leaderboard.js";
import { rulesets, title } from "./rules.js";
import { errorText } from "./words.js";

/**
 * @import { RulesetInfo } from "./api.js"
 * @import { Figures } from "./leaderboard.js"
 */

/**
 * @typedef {{match: number, at: string, mu: number, sigma: number, ordinal: number,
 *   delta: number}} Change
 * @typedef {Figures & {ruleset: string, average_score: number|null, history: Change[]}} RulesetRating
 * @typedef {{match: number, ruleset: string, at: string, place: number, sides: number,
 *   won: boolean, left: boolean, points: number, delta: number}} Recent
 * @typedef {{id: number, name: string, guest: boolean, joined: string, matches: number,
 *   wins: number, ratings: RulesetRating[], recent: Recent[]}} Profile
 */

/** @param {number} delta */
function signed(delta) {
  return `${delta >= 0 ? "+" : "−"}${Math.abs(delta).toFixed(1)}`;
}

/** @param {string} when */
function day(when) {
  return new Date(when).toLocaleDateString();
}

/**
 * @param {RulesetRating} rating
 * @param {RulesetInfo[]} infos
 */
function ratingPanel(rating, infos) {
  const game = title(infos.find((i) => i.name === rating.ruleset), rating.ruleset);
  const average = rating.average_score === null ? "–" : rating.average_score.toFixed(1);
  return h("section", { class: "panel rating", dataset: { ruleset: rating.ruleset } },
    h("h3", {}, game, " ", h("a", { href: `#/leaderboard/${rating.ruleset}` }, t("board.link"))),
    h("p", {}, ratingText(rating), " ", provisionalBadge(rating)),
    h("p", {}, t("profile.record", { matches: rating.matches, wins: rating.wins, average })),
    h("ol", { class: "history", "aria-label": t("profile.history") },
      rating.history.map((c) => h("li", {}, t("profile.change", {
        match: c.match, day: day(c.at), ordinal: c.ordinal.toFixed(1), delta: signed(c.delta),
      })))));
}

/**
 * @param {Recent} recent
 * @param {RulesetInfo[]} infos
 */
function recentItem(recent, infos) {
  const game = title(infos.find((i) => i.name === recent.ruleset), recent.ruleset);
  const place = t("profile.place", { place: recent.place, sides: recent.sides });
  return h("li", { class: recent.won ? "won" : "", dataset: { match: recent.match } },
    [game, t("table.match", { id: recent.match }), day(recent.at), place,
      t("profile.points", { points: recent.points }), signed(recent.delta)].join(" · "),
    recent.won ? h("span", { class: "badge won" }, t("profile.won")) : null,
    recent.left ? h("span", { class: "badge left" }, t("profile.left")) : null);
}

/**
 * @param {HTMLElement} root
 * @param {number} id
 */
export function openProfile(root, id) {
  root.dataset.screen = "profile";
  /** @type {Profile|null} */
  let profile = null;
  /** @type {RulesetInfo[]} */
  let infos = [];

  function render() {
    if (!profile) return;
    fill(root, h("div", { class: "lobby" },
      h("section", { class: "panel profile", dataset: { player: profile.id } },
        h("h2", {}, profile.name, profile.guest ? h("span", { class: "badge guest" }, t("rating.guest")) : null),
        h("p", {}, t("profile.totals", { matches: profile.matches, wins: profile.wins })),
        profile.ratings.length ? null : h("p", { class: "empty" }, t("profile.unrated"))),
      profile.ratings.map((r) => ratingPanel(r, infos)),
      profile.recent.length ? h("section", { class: "panel recent" },
        h("h3", {}, t("profile.recent")),
        h("ul", {}, profile.recent.map((r) => recentItem(r, infos)))) : null,
      h("p", {}, h("a", { href: "#/" }, t("nav.lobby")))));
  }

  Promise.all([api.get(`/players/${id}/`), rulesets().catch(() => /** @type {RulesetInfo[]} */ ([]))])
    .then(([{ data }, found]) => {
      profile = data;
      infos = found;
      render();
    }, (err) => { fill(root, h("p", { class: "message", role: "alert" }, errorText(err))); });
  return { relabel: render, close() {} };
}
