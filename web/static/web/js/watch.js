// The lobby's Watch panel (观战): live matches anyone may watch (GET /watch/), those with more
// people seated first; Watch opens the table, where a spectator sees what everyone sees and no
// hand. "More" reads the next page (its keyset: people and id).

import { api } from "./api.js";
import { h } from "./dom.js";
import { count, t } from "./i18n.js";
import { rulesets, title } from "./rules.js";
import { errorText } from "./words.js";

/**
 * @import { SeatSummary, RulesetInfo } from "./api.js"
 */

/**
 * @typedef {{id: number, ruleset: string, table: string|null, round: number, people: number,
 *   spectators: number, seats: SeatSummary[]}} Watchable  a match as GET /watch/ lists it
 * @typedef {{people: number, before: number}} Page  where the next page starts
 */

const PAGE = 10;

/** @param {SeatSummary} seat */
function seatLabel(seat) {
  return seat.kind === "bot" ? `${t("seat.bot", { n: seat.seat })} · ${t(`level.${seat.level}`)}` : seat.player || t("seat.open");
}

/**
 * @param {Watchable} match
 * @param {RulesetInfo[]} infos
 * @param {(id: number) => void} onWatch
 */
function watchItem(match, infos, onWatch) {
  const facts = [t("table.match", { id: match.id })];
  if (match.round) facts.push(t("lobby.round", { n: match.round }));
  facts.push(match.people ? count("watch.people", match.people) : t("watch.bots_only"));
  if (match.spectators) facts.push(count("watch.spectators", match.spectators));
  return h("li", { class: "watch-item", dataset: { match: match.id, people: match.people } },
    h("div", {},
      h("strong", {}, title(infos.find((r) => r.name === match.ruleset), match.ruleset)), " ", facts.join(" · "),
      h("div", { class: "seat-list" }, match.seats.map(seatLabel).join(", "))),
    h("button", { type: "button", dataset: { action: "watch" }, onclick: () => onWatch(match.id) }, t("watch.button")));
}

/**
 * The panel, filled as its first page arrives.
 * @param {(id: number) => void} onWatch
 */
export function watchPanel(onWatch) {
  const list = h("ul", { class: "watch-list" });
  const message = h("p", { class: "message", role: "alert" });
  const more = h("button", { type: "button", hidden: true, dataset: { action: "more-watch" } }, t("lobby.more"));
  /** @type {Page|null} */
  let next = null;

  /** @param {boolean} adding */
  async function load(adding) {
    const after = adding && next ? `&people=${next.people}&before=${next.before}` : "";
    try {
      const [{ data }, infos] = await Promise.all([
        api.get(`/watch/?limit=${PAGE}${after}`),
        rulesets().catch(() => /** @type {RulesetInfo[]} */ ([])),
      ]);
      if (!adding) list.replaceChildren();
      list.append(...data.results.map((/** @type {Watchable} */ m) => watchItem(m, infos, onWatch)));
      if (!list.children.length) list.append(h("li", { class: "empty" }, t("watch.none")));
      next = data.next;
      more.hidden = !next;
      message.textContent = "";
    } catch (err) {
      message.textContent = errorText(err);
    }
  }
  more.addEventListener("click", () => load(true));
  load(false);
  return h("section", { class: "panel watch" },
    h("h2", {}, t("watch.title"),
      h("button", { type: "button", class: "link", dataset: { action: "refresh-watch" }, onclick: () => load(false) }, t("watch.refresh"))),
    message, list, more);
}
