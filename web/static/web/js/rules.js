// What the page knows of a ruleset: the server's description of it (GET /rules/: titles, table
// sizes, options and their labels) and, when there is one, the ruleset's own module
// (rulesets/<name>.js) for the facts of its view only it knows how to show. The page lists those
// modules (<link rel="modulepreload" data-ruleset>, with the URL production hashes). A ruleset
// without one is shown by the defaults here: the shared words of its view, its events in generic
// words, its results from each round's deltas and breakdown.

import { api } from "./api.js";
import { local, words } from "./i18n.js";

/**
 * @import { View, MatchEvent, RulesetInfo, Card } from "./api.js"
 * @import { Child } from "./dom.js"
 * @import { Words } from "./i18n.js"
 * @import { PyRandom } from "./pyrandom.js"
 * @import { RoundReplay } from "./replay.js"
 */

/**
 * @typedef {{text: string, cls?: string, title?: string|null}} Badge  a word beside a seat
 * @typedef {[string, ...Child[]]} InfoItem  a fact of the table: its label, then its value
 * @typedef {(event: MatchEvent, context: {view: View, name: string, auto: string})
 *   => string|null|undefined} EventWords  an event as a line of the log (null: not shown,
 *   undefined: the shared words say it)
 * @typedef {[string, (entry: Record<string, any>) => Child]} Column  a column of the round's
 *   results: its word's key, and the cell from a seat's breakdown
 * @typedef {{number: number, settlement?: {seat: number, delta: number,
 *   breakdown: Record<string, any>}[], result?: Record<string, any>, scores?: number[]|null,
 *   hands?: Card[][]|null}} RoundDetail  GET /matches/{id}/rounds/{n}/: `scores` as this
 *   round left them
 */

/**
 * A ruleset's own module: the default export of rulesets/<name>.js, every part optional. The
 * parts that take a view are asked only of a view with a `state`.
 * @typedef {object} RulesetWeb
 * @property {Words} [words]  its words, over the shared ones
 * @property {(view: View) => number|null} [rounds]  how many rounds the match plays, if known
 * @property {(view: View) => number} [cutPositions]  how many positions a cut may name
 * @property {(view: View) => Child} [prompt]  the words above the person's buttons in a phase
 *   before play (cut, bid); default: its words' "<phase>.prompt"
 * @property {(view: View, seat: number) => Badge[]} [badges]  after the shared ones
 * @property {(view: View, seat: number) => Child[]} [seatFacts]  after the seat's score
 * @property {(view: View, seat: number) => string} [seatClass]  a class of the seat's box
 * @property {(view: View) => InfoItem[]} [facts]  facts of the table beside the trick
 * @property {Record<string, EventWords>} [events]  by event type
 * @property {Column[]} [columns]  the round results' columns (default: the breakdown's keys)
 * @property {(view: View, detail: RoundDetail) => Child[]} [summary]  lines above them
 * @property {((rng: PyRandom, round: RoundReplay) => DealCheck)|null} [deal]  the round dealt
 *   again from its seed (`rng`: Python's generator seeded with it, as the server's), beside what
 *   the replay shows of that deal (null: the page cannot deal this game)
 */

/**
 * A deal rebuilt from the seed: each list of card ids (`cards`: hands, a pile, a bottom) and the
 * same lists as the replay shows them (`shown`); the check compares them, order aside.
 * @typedef {{cards: number[][], shown: number[][]}} DealCheck
 */

/**
 * How the page shows a ruleset: what the server says of it (`info`), its module's parts over the
 * generic ones.
 * @typedef {Required<RulesetWeb> & {info: RulesetInfo | undefined}} Rules
 */

/** @type {Omit<Required<RulesetWeb>, "prompt">} */
const GENERIC = {
  words,
  rounds: () => null,
  cutPositions: () => 1,
  badges: () => [],
  seatFacts: () => [],
  seatClass: () => "",
  facts: () => [],
  events: {},
  columns: [],
  summary: () => [],
  deal: null,
};

/** @type {Promise<RulesetInfo[]>|null} */
let listing = null;

/** Every ruleset the server plays (GET /rules/, read once). */
export function rulesets() {
  listing ??= api.get("/rules/").then(({ data }) => data, (err) => {
    listing = null; // asked again next time
    throw err;
  });
  return listing;
}

/** @param {string} name */
async function ownModule(name) {
  const link = [...document.querySelectorAll("link[data-ruleset]")]
    .find((l) => l instanceof HTMLLinkElement && l.dataset.ruleset === name);
  if (!(link instanceof HTMLLinkElement)) return {};
  /** @type {{default: RulesetWeb}} */
  const module = await import(link.href);
  return module.default;
}

/** @type {Map<string, Promise<Rules>>} */
const loaded = new Map();

/**
 * How the page shows ruleset `name`: its module's parts over the generic ones.
 * @param {string} name
 * @returns {Promise<Rules>}
 */
export function rulesFor(name) {
  if (!loaded.has(name)) {
    const rules = Promise.all([rulesets(), ownModule(name)]).then(([infos, own]) => {
      const its = own.words || words;
      return {
        ...GENERIC,
        prompt: (/** @type {View} */ view) => its.t(`${view.state.phase}.prompt`),
        ...own,
        info: infos.find((r) => r.name === name),
      };
    });
    loaded.set(name, rules);
    rules.catch(() => loaded.delete(name));
  }
  return /** @type {Promise<Rules>} */ (loaded.get(name));
}

/**
 * A ruleset's title in the page's language; its name if the server has none.
 * @param {RulesetInfo|undefined} info
 * @param {string} name
 */
export function title(info, name) {
  return info ? local(info.title) : name;
}

/**
 * Both titles, the page's language first ("High card · 比大").
 * @param {RulesetInfo|undefined} info
 * @param {string} name
 */
export function bothTitles(info, name) {
  if (!info) return name;
  const first = local(info.title);
  const other = Object.values(info.title).find((text) => text !== first);
  return other ? `${first} · ${other}` : first;
}

/**
 * An option's label in the page's language.
 * @param {RulesetInfo} info
 * @param {string} option
 */
export function optionLabel(info, option) {
  const labels = info.labels[option];
  return labels ? local(labels.label) : option;
}

/**
 * A choice of an option as people read it: its label, or the value itself.
 * @param {RulesetInfo} info
 * @param {string} option
 * @param {string|number} value
 */
export function valueLabel(info, option, value) {
  const text = info.labels[option]?.values[String(value)];
  return text ? local(text) : String(value);
}
