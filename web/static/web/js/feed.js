// How a table learns that its match moved on: the one module that knows the transport.
//
// The match's live stream (GET /matches/{id}/stream/, see stream.js): a whole view first, then
// an update per version with its events and what changed in the view. Where streams cannot
// open, it polls `GET /matches/{id}/` with `If-None-Match: "<version>"` instead. Either way the
// table only sees `onView(view, newEvents)`, in version order and never backwards (the next
// waits for the promise it returns), `onAlive()` when the server answered, `onError(err)`; it
// hands over the view an action answered with `accept(view)` and asks for the view at once with
// `refresh()`. A phrase said at the table comes on the stream only (`onTalk`): it is stored
// nowhere, so polling never sees one.

import { api } from "./api.js";
import { openStream } from "./stream.js";

/**
 * @import { View, MatchEvent, Said } from "./api.js"
 */

/**
 * @typedef {{code: string, status?: number, message?: string}} Trouble  a refusal or a network
 *   failure
 * @typedef {{accept: (view: View) => Promise<void>, refresh: () => Promise<void>,
 *   stop: () => void}} Feed
 */

const PACE_MS = { othersTurn: 1000, yourTurn: 3000, hidden: 5000 };
const BACKLOG = 300; // events read when a table opens: the log shows the recent past only
const EVENTS_PAGE = 500;
const OVER = ["finished", "aborted"];

/**
 * @param {number} matchId
 * @param {{onView: (view: View, events: MatchEvent[]) => Promise<void>|void,
 *   onError: (err: Trouble) => void, onAlive: () => void,
 *   onTalk: (said: Said) => void}} how
 * @returns {Feed}
 */
export function openFeed(matchId, { onView, onError, onAlive, onTalk }) {
  let version = -1;
  /** @type {number|null} */
  let lastSeq = null;
  /** @type {View|null} */
  let last = null;
  let stopped = false;
  /** @type {Promise<void>} */
  let queue = Promise.resolve();
  // The view as the stream knows it: each update's `changed` is relative to the stream's own
  // previous view, which may be older than one an action answered with.
  /** @type {View|null} */
  let streamed = null;
  /** @type {MatchEvent[]} */
  let unviewed = []; // events of versions whose view is still to come
  let polling = false;
  /** @type {ReturnType<typeof setTimeout>|undefined} */
  let timer;

  /** @param {View} view @returns {Promise<MatchEvent[]>} */
  async function missingEvents(view) {
    if (lastSeq === null) lastSeq = Math.max(0, view.last_event_seq - BACKLOG);
    let fresh = view.events.filter((e) => e.seq > lastSeq);
    if (view.last_event_seq > lastSeq && !(fresh.length && fresh[0].seq === lastSeq + 1)) {
      fresh = [];
      let since = lastSeq;
      while (since < view.last_event_seq) {
        const { data } = await api.get(
          `/matches/${matchId}/events/?since=${since}&limit=${EVENTS_PAGE}`,
        );
        if (!data.events.length) break;
        fresh.push(...data.events);
        since = data.events[data.events.length - 1].seq;
      }
    }
    if (fresh.length) lastSeq = fresh[fresh.length - 1].seq;
    return fresh;
  }

  // Views are taken one at a time and never backwards (the stream may tell of a version after
  // an action's answer did).
  /** @param {View} view */
  function accept(view) {
    queue = queue.then(async () => {
      if (stopped || view.version < version) return;
      const events = view.version === version ? [] : await missingEvents(view);
      version = view.version;
      last = view;
      await onView(view, events);
    }).catch((err) => {
      if (!stopped) onError(err);
    });
    return queue;
  }

  /** @param {View} view @returns {View} */
  function withEvents(view) {
    const seen = new Set(unviewed.map((e) => e.seq));
    const events = unviewed.concat(view.events.filter((e) => !seen.has(e.seq)));
    unviewed = [];
    return { ...view, events: events.sort((a, b) => a.seq - b.seq) };
  }

  /** @param {View} view */
  function onStreamView(view) {
    streamed = view;
    accept(withEvents(view));
  }

  /** @param {{version: number, events: MatchEvent[], changed?: Partial<View>}} update */
  function onStreamUpdate(update) {
    unviewed.push(...update.events);
    if (!update.changed || !streamed) return; // more versions of this batch follow
    const { state, ...top } = update.changed;
    streamed = {
      ...streamed,
      ...top,
      version: update.version,
      state: state ? { ...streamed.state, ...state } : streamed.state,
    };
    accept(withEvents({ ...streamed, events: [] }));
  }

  function over() {
    return [streamed, last].some((view) => view && OVER.includes(view.status));
  }

  // ---- polling, where streams cannot open ------------------------------------------------

  function delay() {
    if (document.hidden) return PACE_MS.hidden;
    return last && last.your_turn ? PACE_MS.yourTurn : PACE_MS.othersTurn;
  }

  function schedule() {
    clearTimeout(timer);
    if (polling && !stopped && !over()) timer = setTimeout(poll, delay());
  }

  async function poll() {
    try {
      const response = await api.get(`/matches/${matchId}/`, {
        etag: version >= 0 ? `"${version}"` : null,
      });
      onAlive();
      if (response.status === 200) await accept(response.data);
    } catch (err) {
      if (stopped) return;
      onError(err);
      if (err.status === 401 || err.status === 404) return; // no use asking again
    }
    schedule();
  }

  function onVisibility() {
    if (polling && !document.hidden) refresh();
  }

  function refresh() {
    clearTimeout(timer);
    return poll();
  }

  function startPolling() {
    polling = true;
    document.addEventListener("visibilitychange", onVisibility);
    refresh();
  }

  const stream = openStream(`/matches/${matchId}/stream/`, {
    on: { view: onStreamView, update: onStreamUpdate, talk: onTalk },
    onMessage: onAlive,
    onDown: () => onError({ code: "network" }),
    onRefused: onError,
    onUnsupported: startPolling,
    ended: over,
  });

  return {
    accept: (view) => accept(view).then(schedule),
    refresh,
    stop() {
      stopped = true;
      stream.stop();
      clearTimeout(timer);
      document.removeEventListener("visibilitychange", onVisibility);
    },
  };
}
