// A ruleset's leaderboard (段位), #/leaderboard/<ruleset>: players best first with their rank,
// rating and its uncertainty, a page at a time (GET /leaderboards/{ruleset}/). Public: no
// sign-in needed. People link to their profiles; each bot level is one player.

import { api } from "./api.js";
import { h, fill } from "./dom.js";
import { t } from "./i18n.js";
import { rulesets, title } from "./rules.js";
import { errorText } from "./words.js";

/**
 * @import { RulesetInfo } from "./api.js"
 */

/**
 * A rating as the server gives it (docs/api.md, "Ratings and profiles").
 * @typedef {{mu: number, sigma: number, ordinal: number, provisional: boolean,
 *   matches: number, wins: number}} Figures
 * @typedef {{id: number|null, name: string|null, guest: boolean, bot_level: string|null}} Player
 * @typedef {Figures & {rank: number, rating: number, player: Player}} BoardEntry
 * @typedef {{ruleset: string, results: BoardEntry[],
 *   next: {after: number, rank: number}|null}} BoardPage
 */

const PAGE = 50;

/** @param {Figures} figures  the rating, and what it is worth: mu ± sigma, provisional */
export function ratingText(figures) {
  return t("rating.figures", { ordinal: figures.ordinal.toFixed(1), mu: figures.mu.toFixed(1), sigma: figures.sigma.toFixed(1) });
}

/** @param {Figures} figures */
export function provisionalBadge(figures) {
  return figures.provisional ? h("span", { class: "badge provisional", title: t("rating.provisional_hint") }, t("rating.provisional")) : null;
}

/** @param {Player} player */
function playerCell(player) {
  if (player.id === null) return h("span", { class: "bot" }, t("board.bot", { level: t(`level.${player.bot_level}`) }));
  return h("span", {},
    h("a", { href: `#/players/${player.id}`, dataset: { player: player.id } }, player.name),
    player.guest ? h("span", { class: "badge guest" }, t("rating.guest")) : null);
}

/** @param {BoardEntry} entry */
function row(entry) {
  return h("tr", { dataset: { rating: entry.rating } },
    h("td", { class: "rank" }, entry.rank),
    h("td", {}, playerCell(entry.player)),
    h("td", {}, ratingText(entry), " ", provisionalBadge(entry)),
    h("td", { class: "number" }, entry.matches),
    h("td", { class: "number" }, entry.wins));
}

/**
 * @param {HTMLElement} root
 * @param {string|null} wanted  a ruleset's name; null: the first the server lists
 */
export function openLeaderboard(root, wanted) {
  root.dataset.screen = "leaderboard";
  const message = h("p", { class: "message", role: "alert" });
  const body = h("tbody", {});
  const more = h("button", { type: "button", hidden: true, dataset: { action: "more" } }, t("lobby.more"));
  /** @type {RulesetInfo[]} */
  let infos = [];
  /** @type {BoardPage["next"]} */
  let next = null;
  let ruleset = wanted;

  /** @param {boolean} adding */
  async function load(adding) {
    const query = adding && next ? `&after=${next.after}&rank=${next.rank}` : "";
    try {
      const { data } = await api.get(`/leaderboards/${encodeURIComponent(ruleset)}/?limit=${PAGE}${query}`);
      const page = /** @type {BoardPage} */ (data);
      if (!adding) body.replaceChildren();
      body.append(...page.results.map(row));
      if (!body.children.length) body.append(h("tr", { class: "empty" }, h("td", { colspan: 5 }, t("board.none"))));
      next = page.next;
      more.hidden = !next;
    } catch (err) {
      message.textContent = errorText(err);
    }
  }
  more.addEventListener("click", () => load(true));

  function render() {
    const tabs = infos.map((info) => h("a", {
      href: `#/leaderboard/${info.name}`, class: info.name === ruleset ? "tab current" : "tab",
      "aria-current": info.name === ruleset ? "page" : null,
    }, title(info, info.name)));
    fill(root, h("div", { class: "lobby" },
      h("section", { class: "panel leaderboard", dataset: { ruleset } },
        h("h2", {}, t("board.title", { game: title(infos.find((i) => i.name === ruleset), ruleset) })),
        h("nav", { class: "tabs" }, tabs),
        message,
        h("table", { class: "board" },
          h("thead", {}, h("tr", {},
            h("th", {}, t("board.rank")), h("th", {}, t("board.player")), h("th", {}, t("board.rating")),
            h("th", {}, t("board.matches")), h("th", {}, t("board.wins")))),
          body),
        more,
        h("p", { class: "hint" }, t("rating.explained")),
        h("p", {}, h("a", { href: "#/" }, t("nav.lobby"))))));
  }

  rulesets().then((found) => {
    infos = found;
    ruleset ??= infos.length ? infos[0].name : "";
    render();
    load(false);
  }, (err) => {
    fill(root, h("p", { class: "message", role: "alert" }, errorText(err)));
  });
  return { relabel: () => { render(); load(false); }, close() {} };
}
