// The public API under /api/v1/: JSON in and out, `Authorization: Token <key>`, every refusal
// {"error": {"code", "message", "details"}} turned into an ApiError. The shapes the page reads
// are typed here (docs/api.md is their contract).

/**
 * @typedef {{id: number, code: string, playable?: boolean}} Card  a card: its id (sent back in
 *   actions) and its code, rank + suit (10H, QS; SJ, BJ the jokers)
 * @typedef {{type: string, rank: string, length: number, triples?: number}} Reading  one way to
 *   read a play
 * @typedef {{seat: number, cards: Card[], reading: Reading, latest: boolean}} TrickPlay
 * @typedef {{type: string, cards?: number[], reading?: Reading, extras?: number,
 *   position?: number|null, solo?: boolean}} Action  a legal action, or one to send
 * @typedef {{seq: number, type: string, round: number|null, seat?: number, actor?: string,
 *   reason?: string, [key: string]: any}} MatchEvent  a public event of the match
 * @typedef {{seat: number, kind: string, level: string|null, player: string|null, open: boolean,
 *   you: boolean, score: number, eliminated: boolean, autoplay: string|null}} SeatSummary
 * @typedef {{seat: number, score: number, rank: number, eliminated?: boolean}} Standing
 */

/**
 * The state a ruleset shows a seat: the words every ruleset shares (games/engine/vocabulary.py),
 * then the ruleset's own keys, which only its module reads.
 * @typedef {{ruleset: string, options: Record<string, any>, phase: string, round: number,
 *   to_act: number|null, seat: number|null, players: number, counts: number[],
 *   seating: number[], trick: TrickPlay[], hand: Card[], [key: string]: any}} ViewState
 */

/**
 * A finished match's rematch (docs/api.md, "Play again"): each person's answer is accepted,
 * pending or bot; `yours` the reader's.
 * @typedef {{id: number, status: string, asked_by: number,
 *   seats: {seat: number, answer: string}[], yours: string|null}} Rematch
 */

/**
 * A match as its reader sees it (GET /matches/{id}/, the stream, an act's answer). `status`:
 * waiting, active, paused (every person away: it goes on when one takes their seat back),
 * finished or aborted.
 * @typedef {{id: number, ruleset: string, options: Record<string, any>, status: string,
 *   version: number, invite_code: string|null, bots_fill_at: string|null, you: number|null,
 *   to_act: number|null, your_turn: boolean, seats: SeatSummary[],
 *   clock: {turn_seconds: number, server_time: string, deadline: string|null}|null,
 *   state: ViewState|null, legal_actions: Action[], events: MatchEvent[],
 *   last_event_seq: number, standings: Standing[]|null, rematch?: Rematch|null,
 *   server_pace_ms?: number, watchable?: boolean, spectators?: number|null}} View  `you`
 *   null: a spectator (or staff), who sees what everyone sees
 */

/**
 * A quick phrase said at a seat (the match stream's `talk`; `phrase` a key of GET /phrases/).
 * @typedef {{seat: number, phrase: string, at: string}} Said
 * @typedef {{key: string, kind: string, text: Labels}} Phrase
 */

/**
 * A ruleset as GET /rules/ lists it. `labels` name each option and its choices for people.
 * @typedef {{en: string, zh: string}} Labels
 * @typedef {{name: string, title: Labels, players: number[],
 *   options: {properties: Record<string, any>},
 *   labels: Record<string, {label: Labels, values: Record<string, Labels>}>,
 *   how_to_play?: Labels}} RulesetInfo
 */

const BASE = "/api/v1";
const SESSION_KEY = "cardtable.session";

export class ApiError extends Error {
  /**
   * @param {number} status  0: the server could not be reached
   * @param {any} body
   */
  constructor(status, body) {
    const error = (body && body.error) || {};
    super(error.message || `HTTP ${status}`);
    this.status = status;
    /** @type {string} */
    this.code = error.code || (status ? `http_${status}` : "network");
    /** @type {Record<string, any>} */
    this.details = error.details || {};
  }
}

/**
 * @typedef {{token: string, user: {id: number, username: string, display_name?: string,
 *   name?: string, is_guest: boolean}}} Session  `name`: what others read (display name, else
 *   username)
 */

// The signed-in person, kept in localStorage, so a refresh or a new tab finds the same seat.
export const session = {
  /** @returns {Session|null} */
  read() {
    try {
      return JSON.parse(localStorage.getItem(SESSION_KEY)) || null;
    } catch {
      return null;
    }
  },
  /** @param {Session} data */
  save(data) {
    localStorage.setItem(SESSION_KEY, JSON.stringify({ token: data.token, user: data.user }));
  },
  clear() {
    localStorage.removeItem(SESSION_KEY);
  },
};

/**
 * A new Idempotency-Key: 32 hex digits (crypto.randomUUID needs a secure page; this does not).
 */
export function newKey() {
  return [...crypto.getRandomValues(new Uint8Array(16))].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/**
 * @param {string} method
 * @param {string} path
 * @param {{body?: any, etag?: string|null, key?: string}} [options]  `key`: the Idempotency-Key
 * @returns {Promise<{status: number, data: any, etag: string|null}>}
 */
async function request(method, path, { body, etag, key } = {}) {
  /** @type {Record<string, string>} */
  const headers = { Accept: "application/json" };
  const current = session.read();
  if (current) headers.Authorization = `Token ${current.token}`;
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (etag) headers["If-None-Match"] = etag;
  if (key) headers["Idempotency-Key"] = key;
  let response;
  try {
    response = await fetch(BASE + path, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      cache: "no-store",
    });
  } catch {
    throw new ApiError(0, { error: { code: "network", message: "network" } });
  }
  if (response.status === 304) return { status: 304, data: null, etag };
  const data = await response.json().catch(() => /** @type {any} */ (null));
  if (!response.ok) throw new ApiError(response.status, data);
  return { status: response.status, data, etag: response.headers.get("ETag") };
}

export const api = {
  /** @param {string} path @param {{etag?: string|null}} [options] */
  get: (path, options) => request("GET", path, options),
  /** @param {string} path @param {any} [body] @param {{key?: string}} [options] */
  post: (path, /** @type {any} */ body = {}, { key } = {}) => request("POST", path, { body, key }),
  /** @param {string} path @param {any} body */
  patch: (path, /** @type {any} */ body) => request("PATCH", path, { body }),
};
