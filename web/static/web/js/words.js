// What the table says in words: seat names, readings, events as log lines, refusals, and any
// value a ruleset sends that the page has no words of its own for.

import { RANKS, cardText } from "./cards.js";
import { count, has, t, words as shared } from "./i18n.js";

/**
 * @import { View, SeatSummary, Reading, MatchEvent, Standing } from "./api.js"
 * @import { Words, Params } from "./i18n.js"
 * @import { Rules } from "./rules.js"
 */

/** @param {View} view @param {number} seat */
export function seatName(view, seat) {
  const info = view.seats[seat];
  if (!info) return `#${seat}`;
  if (info.you) return t("seat.you");
  if (info.kind === "bot") return t("seat.bot", { n: seat });
  return info.player || t("seat.open");
}

/** @param {View} view @param {number[]} seats */
export function seatNames(view, seats) {
  return seats.map((s) => seatName(view, s)).join(" & ");
}

/** @param {SeatSummary} info */
export function seatDetail(info) {
  if (info.kind === "bot") return t(`level.${info.level}`);
  return null;
}

/** @param {string} from @param {number} units */
function span(from, units) {
  const start = RANKS.indexOf(from);
  return RANKS[start + units - 1] || from;
}

/**
 * {type, rank, length, triples?} as words: "pair of 8s", "straight 8–Q", "three 5s + 2".
 * @param {Reading|null|undefined} reading
 */
export function readingText(reading) {
  if (!reading) return "";
  const r = reading.rank;
  switch (reading.type) {
    case "single":
    case "pair":
      return t(`reading.${reading.type}`, { r });
    case "straight":
      return t("reading.straight", { from: r, to: span(r, reading.length) });
    case "pair_chain":
      return t("reading.pair_chain", { from: r, to: span(r, reading.length / 2) });
    case "bomb":
      return t("reading.bomb", { n: reading.length, count: numberWord(reading.length), r });
    case "triple":
      return withExtras(t("reading.triple", { r }), reading.length - 3);
    case "plane": {
      const triples = reading.triples || Math.floor(reading.length / 3);
      const low = RANKS[RANKS.indexOf(r) - triples + 1] || r;
      return withExtras(t("reading.plane", { from: low, to: r }), reading.length - 3 * triples);
    }
    default:
      return `${reading.type} ${r}`;
  }
}

/** @param {number} n */
function numberWord(n) {
  return has(`count.${n}`) ? t(`count.${n}`) : String(n);
}

/** @param {string} base @param {number} extras */
function withExtras(base, extras) {
  return extras > 0 ? t("reading.extras", { base, n: extras }) : base;
}

/** @param {number} n */
export function signed(n) {
  return n > 0 ? `+${n}` : String(n);
}

/**
 * A value of a ruleset's own that the page has no words for: cards as cards, a reading as
 * words, a list item by item, yes for true.
 * @param {any} value
 * @returns {string}
 */
export function valueText(value) {
  if (value === null || value === undefined) return "–";
  if (typeof value === "boolean") return value ? t("results.yes") : "";
  if (Array.isArray(value)) return value.map(valueText).join(" ");
  if (typeof value !== "object") return String(value);
  if (typeof value.code === "string") return cardText(value.code);
  if (value.type && value.rank) return readingText(value);
  return JSON.stringify(value);
}

/**
 * `key`, or its `.you` form when the sentence is about the reader ("You pass", not "You
 * passes"), in `words` (a ruleset's, or the shared ones).
 * @param {View} view
 * @param {number|null|undefined} seat
 * @param {string} key
 * @param {Params} [params]
 * @param {Words} [words]
 */
export function about(view, seat, key, params, words = shared) {
  const mine = seat !== undefined && seat !== null && view.seats[seat] && view.seats[seat].you;
  return words.t(mine && words.has(`${key}.you`) ? `${key}.you` : key, params);
}

// Why the server moved for a seat: its clock ran out, the seat is in 托管, or no other move.
/** @param {string|undefined} reason */
function autoText(reason) {
  return has(`ev.auto.${reason}`) ? t(`ev.auto.${reason}`) : t("ev.auto");
}

// Keys every event has, or that the generic words say otherwise: not listed as its fields.
const NOT_FIELDS = new Set(["seq", "round", "version", "type", "seat", "actor", "reason"]);

/**
 * An event the page has no words for: its type and fields as they are.
 * @param {MatchEvent} event
 * @param {string} name
 */
function genericEvent(event, name) {
  const fields = Object.entries(event)
    .filter(([key]) => !NOT_FIELDS.has(key))
    .map(([key, value]) => `${key.replace(/_/g, " ")} ${valueText(value)}`);
  const what = event.type.replace(/_/g, " ");
  return `${name ? `${name}: ` : ""}${what}${fields.length ? ` (${fields.join(", ")})` : ""}`;
}

/**
 * One event as a line of the log; null for events a reader need not see. The ruleset's module
 * words its own events; the rest have shared words, or generic ones.
 * @param {View} view
 * @param {MatchEvent} event
 * @param {Rules} rules
 * @returns {string|null}
 */
export function eventText(view, event, rules) {
  const name = event.seat === undefined ? "" : seatName(view, event.seat);
  const auto = event.actor === "auto" ? ` ${autoText(event.reason)}` : "";
  const own = rules.events[event.type];
  const text = own ? own(event, { view, name, auto }) : undefined;
  if (text !== undefined) return text;
  /** @type {(key: string, params: Params) => string} */
  const say = (key, params) => about(view, event.seat, key, params);
  switch (event.type) {
    case "play":
      return say("ev.play", { name, reading: readingText(event.reading) }) + auto;
    case "pass":
      return say("ev.pass", { name }) + auto;
    case "trick_won":
      return say("ev.trick_won", { name });
    case "round_started":
    case "round_settled":
      return say(`ev.${event.type}`, {
        round: event.round,
        deltas: (event.deltas || []).map((/** @type {number} */ d, /** @type {number} */ s) =>
          `${seatName(view, s)} ${signed(d)}`).join(", "),
      });
    case "match_finished":
      return say("ev.match_finished", {
        standings: (event.standings || [])
          .map((/** @type {Standing} */ s) =>
            `${s.rank}. ${seatName(view, s.seat)} ${s.score}`)
          .join(", "),
      });
    case "match_created":
    case "match_started":
    case "player_joined":
    case "player_left":
      return say(`ev.${event.type}`, { name });
    case "autoplay_on":
      return say(`ev.autoplay_on.${event.reason === "timeout" ? "timeout" : "asked"}`, { name });
    case "autoplay_off":
      return say("ev.autoplay_off", { name });
    case "bots_joined":
      return say("ev.bots_joined", {});
    case "match_aborted":
      return say("ev.match_aborted", { reason: event.reason });
    case "match_paused":
      return say("ev.match_paused", {});
    case "match_resumed":
      return say("ev.match_resumed", { name });
    case "round_end":
    case "match_end":
      return null; // round_settled and match_finished say the same, with names
    default:
      return genericEvent(event, name) + auto;
  }
}

/**
 * A refusal of the API for people: our words for the codes we know, else the server's message.
 * @param {{code: string, message?: string, details?: Record<string, any>}} err
 */
export function errorText(err) {
  if (err.code === "network") return t("err.network");
  if (err.code === "throttled" && err.details && err.details.wait_seconds) {
    return t("err.throttled_wait", { wait: waitText(err.details.wait_seconds) });
  }
  if (err.code === "stale_version") return t("err.stale");
  if (err.code === "not_found") return t("err.not_found");
  return has(`err.code.${err.code}`) ? t(`err.code.${err.code}`) : err.message || err.code;
}

/**
 * How long to wait, in words: seconds under two minutes, else minutes (rounded up).
 * @param {number} seconds
 */
function waitText(seconds) {
  if (seconds < 120) return count("wait.seconds", Math.ceil(seconds));
  return count("wait.minutes", Math.ceil(seconds / 60));
}

/**
 * A refused form: the server's words for each field it names (invalid_input), else the
 * refusal's.
 * @param {{code: string, message?: string, details?: Record<string, any>}} err
 */
export function refusalText(err) {
  if (err.code !== "invalid_input") return errorText(err);
  const said = Object.values(err.details || {}).flat().filter((v) => typeof v === "string");
  return said.join(" ") || errorText(err);
}
