// How a table learns that its match moved on: the one module that knows the transport.
//
// Today it polls `GET /matches/{id}/` with `If-None-Match: "<version>"` (a 304 costs the server
// two small queries) and reads the events it has not seen from the view, or from `/events/` when
// the view's recent ones leave a gap. A live stream would replace `poll` and the timer here; the
// table only sees `onView(view, newEvents)`, in version order, `onAlive()` when the server
// answered, `onError(err)`, and calls `accept(view)` with the view an action answered.

import { api } from "./api.js";

const PACE_MS = { othersTurn: 1000, yourTurn: 3000, hidden: 5000 };
const BACKLOG = 300; // events read when a table opens: the log shows the recent past only
const EVENTS_PAGE = 500;

export function openFeed(matchId, { onView, onError, onAlive }) {
  let version = -1;
  let lastSeq = null;
  let last = null;
  let timer = null;
  let stopped = false;
  let queue = Promise.resolve();

  function delay() {
    if (document.hidden) return PACE_MS.hidden;
    return last && last.your_turn ? PACE_MS.yourTurn : PACE_MS.othersTurn;
  }

  function schedule() {
    clearTimeout(timer);
    if (!stopped && !(last && last.status === "finished")) timer = setTimeout(poll, delay());
  }

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

  // Views are taken one at a time and never backwards (a poll may answer after an action).
  function accept(view) {
    queue = queue.then(async () => {
      if (stopped || view.version < version) return;
      const events = view.version === version ? [] : await missingEvents(view);
      version = view.version;
      last = view;
      onView(view, events);
    }).catch((err) => {
      if (!stopped) onError(err);
    });
    return queue;
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
    if (!document.hidden) pollNow();
  }

  function pollNow() {
    clearTimeout(timer);
    poll();
  }

  document.addEventListener("visibilitychange", onVisibility);
  pollNow();

  return {
    accept: (view) => accept(view).then(schedule),
    pollNow,
    stop() {
      stopped = true;
      clearTimeout(timer);
      document.removeEventListener("visibilitychange", onVisibility);
    },
  };
}
