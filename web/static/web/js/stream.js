// A live stream of the API (Server-Sent Events) that stays open: each connection opens with a
// one-use ticket (POST /auth/stream-ticket/: EventSource cannot send the token header), so when
// one drops the next takes a new ticket and resumes after the last message id it saw
// (`last_event_id`), after a pause that doubles with each failure in a row.
//
// openStream(path, {on: {event: handler(data)}, ...}) → {stop}. `onMessage()` after any
// message, `onDown()` when the connection dropped and a new one is on its way, `onRefused(err)`
// when the ticket is refused (401), `onUnsupported()` when streams cannot open here at all (no
// EventSource, no stream endpoint, or every try failed before a first message): the caller
// falls back to polling. `ended()`: true when nothing more will come (do not reconnect). A
// server that stops ends its streams with `restarting`: the stream comes back after the pause it
// asks for, a fresh start rather than a failure. A stream the server ends for good is not
// opened again: `revoked` (the token was logged out, revoked or expired) is a refusal, as a 401
// (the page shows the sign-in); `closed` (the account opened too many streams elsewhere) leaves
// the page to poll, as where streams cannot open.

import { api, ApiError } from "./api.js";

const FIRST_PAUSE_MS = 1000;
const LONGEST_PAUSE_MS = 30000;
const TRIES_BEFORE_GIVING_UP = 3; // failures in a row before any message: streams do not work

/**
 * @param {string} path
 * @param {{on: Record<string, (data: any) => void>, onMessage?: () => void, onDown?: () => void,
 *   onRefused: (err: ApiError) => void, onUnsupported: () => void,
 *   ended?: () => boolean}} how
 * @returns {{stop: () => void}}
 */
export function openStream(path, { on, onMessage, onDown, onRefused, onUnsupported, ended }) {
  /** @type {EventSource|null} */
  let source = null;
  /** @type {ReturnType<typeof setTimeout>|undefined} */
  let timer;
  let stopped = false;
  let failures = 0;
  let delivered = false;
  /** @type {string|null} */
  let lastId = null;

  function unsupported() {
    if (stopped) return;
    stop();
    onUnsupported();
  }

  async function open() {
    let ticket;
    try {
      ({ data: { ticket } } = await api.post("/auth/stream-ticket/"));
    } catch (err) {
      if (stopped) return;
      if (err.status === 401) return onRefused(err);
      if (err.status === 404 || err.status === 405) return unsupported();
      return retry();
    }
    if (stopped) return;
    const resume = lastId === null ? "" : `&last_event_id=${encodeURIComponent(lastId)}`;
    source = new EventSource(`/api/v1${path}?ticket=${encodeURIComponent(ticket)}${resume}`);
    for (const [name, handler] of Object.entries(on)) {
      source.addEventListener(name, (message) => {
        if (message.lastEventId) lastId = message.lastEventId;
        failures = 0;
        delivered = true;
        if (onMessage) onMessage();
        handler(JSON.parse(message.data));
      });
    }
    source.addEventListener("restarting", (message) => {
      source.close();
      source = null;
      failures = 0;
      if (onDown) onDown();
      timer = setTimeout(open, JSON.parse(message.data).retry_ms);
    });
    source.addEventListener("revoked", (message) => {
      stop();
      onRefused(new ApiError(401, { error: JSON.parse(message.data) }));
    });
    source.addEventListener("closed", unsupported);
    // The browser would reconnect by itself, with a ticket already used: we do it instead.
    source.onerror = () => {
      source.close();
      source = null;
      if (!stopped && !(ended && ended())) retry();
    };
  }

  function retry() {
    failures += 1;
    if (!delivered && failures >= TRIES_BEFORE_GIVING_UP) return unsupported();
    if (onDown) onDown();
    const pause = Math.min(LONGEST_PAUSE_MS, FIRST_PAUSE_MS * 2 ** (failures - 1));
    timer = setTimeout(open, pause * (0.75 + Math.random() / 2)); // spread a crowd's returns
  }

  function stop() {
    stopped = true;
    clearTimeout(timer);
    if (source) source.close();
    source = null;
  }

  if (typeof EventSource === "undefined") setTimeout(unsupported);
  else open();
  return { stop };
}
