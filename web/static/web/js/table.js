// One match at the table, for a player or a spectator (a view with no seat: what everyone sees,
// no hand, nothing to act on). Every change arrives through the feed (feed.js); actions go to
// POST /matches/{id}/act/. What the table knows is one object (table/state.js), passed to the
// parts under table/ that draw it; this module changes it, through their handlers too.

import { api } from "./api.js";
import { h, fill } from "./dom.js";
import { t } from "./i18n.js";
import { openFeed } from "./feed.js";
import { rematchPanel } from "./rematch.js";
import { resultsInTurn } from "./results.js";
import { rulesFor, title } from "./rules.js";
import { errorText } from "./words.js";
import { sendAct } from "./table/act.js";
import { turnAlerts } from "./table/attention.js";
import { tickClocks } from "./table/clock.js";
import { feltView } from "./table/felt.js";
import { onKey } from "./table/keys.js";
import { tableLayout } from "./table/layout.js";
import { eventLog } from "./table/log.js";
import { renderOptions } from "./table/options.js";
import {
  canPass, listed, renderActions, renderAutoplay, renderHand, renderJudge, renderListed, updateButtons,
} from "./table/player.js";
import { renderMe, renderScores, renderSeats } from "./table/seats.js";
import { judgeSelection, stopJudging } from "./table/selection.js";
import { receiveView, tableState } from "./table/state.js";
import { renderHeader, renderInvite, renderStatus } from "./table/status.js";
import { renderTalk, showBubble } from "./table/talk.js";

/**
 * @import { View, Action, MatchEvent } from "./api.js"
 * @import { Handlers } from "./table/player.js"
 * @import { KeyActions } from "./table/keys.js"
 */

/**
 * @param {HTMLElement} root
 * @param {number} matchId
 * @param {{onLobby: () => void, onSignedOut: () => void}} how
 */
export function openTable(root, matchId, { onLobby, onSignedOut }) {
  const state = tableState();
  const parts = tableLayout(root);
  root.dataset.screen = "table";
  root.dataset.match = String(matchId);
  root.dataset.busy = "true";
  const log = eventLog(parts.log);
  const felt = feltView(parts.felt);
  const alerts = turnAlerts();

  const feed = openFeed(matchId, {
    // How the ruleset is shown is loaded with the first view (the feed waits for it).
    onView: async (next, fresh) => {
      state.rules ??= await rulesFor(next.ruleset);
      receive(next, fresh);
    },
    onError: showError,
    onAlive: () => {
      if (state.message !== t("err.network")) return;
      state.message = "";
      renderStatusLine();
    },
    onTalk: (said) => showBubble(root, said),
  });
  const stopClocks = tickClocks(root, () => state.offset);

  /** @param {any} err */
  function showError(err) {
    if (err.status === 401) return onSignedOut();
    state.message = errorText(err);
    if (state.view && state.rules) renderStatusLine();
    else fill(parts.status, h("span", { class: "message" }, state.message));
  }

  /** @param {View} next @param {MatchEvent[]} fresh */
  function receive(next, fresh) {
    const first = !state.view;
    receiveView(state, next, fresh);
    if (first) renderOptions(parts.options, next, state.rules);
    render();
    log.add(next, state.rules, fresh);
    alerts.update(next, title(state.rules.info, next.ruleset));
    judge();
    nextResults();
  }

  const nextResults = resultsInTurn(state, {
    onLobby,
    onBusy: markBusy,
    // A player may play again; a spectator may replay what they watched.
    final: (dialog) => (state.view.you === null || state.view.you === undefined
      ? h("a", { class: "button", href: `#/replay/${matchId}`, dataset: { action: "replay" } }, t("table.replay"))
      : rematchPanel(state.view, dialog)),
    onError: (err) => {
      state.message = errorText(err);
      renderStatusLine();
    },
  });

  // ---- acting ---------------------------------------------------------------------------

  /** @param {Action} action */
  async function act(action) {
    if (state.busy || !state.view || !state.view.your_turn) return;
    state.busy = true;
    state.message = "";
    renderControls();
    try {
      const data = await sendAct(matchId, state.view.version, action);
      state.selected = new Set();
      state.verdict = { kind: "empty" };
      await feed.accept(data);
    } catch (err) {
      if (err.status === 401) return onSignedOut();
      state.message = errorText(err);
      if (err.code === "stale_version") feed.refresh();
    } finally {
      state.busy = false;
      render();
    }
  }

  // 托管: the server plays your seat (on) or you take it back (off). The page is not busy
  // meanwhile: where the server plays its turns within the request (no worker), the answer to
  // "on" may come only after many moves, and taking the seat back must stay possible.
  /** @param {boolean} on */
  async function setAutoplay(on) {
    try {
      const { data } = await api.post(`/matches/${matchId}/autoplay/`, { on });
      await feed.accept(data);
    } catch (err) {
      showError(err);
    }
  }

  /** @param {Iterable<number>} ids */
  function select(ids) {
    state.selected = new Set(ids);
    state.chosenReading = 0;
    renderHand(parts.hand, state, handlers);
    judge();
  }

  /** @type {Handlers & KeyActions} */
  const handlers = {
    act,
    setAutoplay,
    select,
    playSelected() {
      const verdict = state.verdict;
      if (verdict.kind !== "legal") return;
      act(verdict.plays[Math.min(state.chosenReading, verdict.plays.length - 1)]);
    },
    pass() {
      if (canPass(state.view)) act({ type: "pass" });
    },
    hint() {
      const plays = listed(state.view);
      if (!plays.length) return;
      select(plays[state.hintIndex % plays.length].cards);
      state.hintIndex += 1;
    },
    toggle(id) {
      const next = new Set(state.selected);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      select(next);
    },
    chooseReading(i) {
      state.chosenReading = i;
      showVerdict();
    },
    setCut(position) {
      state.cutPosition = position;
    },
  };

  function judge() {
    judgeSelection(state, showVerdict);
  }

  // ---- drawing --------------------------------------------------------------------------

  function render() {
    const view = state.view;
    if (!view) return;
    Object.assign(root.dataset, {
      status: view.status,
      phase: view.state ? view.state.phase : "waiting",
      yourTurn: String(view.your_turn),
      version: String(view.version),
      round: String(view.state ? view.state.round : 0),
    });
    // Until every seat is taken there is nothing to show but the seats and the invitation.
    const dealt = view.status !== "waiting";
    parts.felt.hidden = !dealt;
    parts.player.hidden = !dealt || view.you === null || view.you === undefined; // a spectator has no hand
    renderHeader(parts.header, view, state.rules);
    renderStatusLine();
    renderInvite(parts.invite, view);
    renderSeats(parts.seats, view, state.rules, state.offset);
    felt.render(view, state.rules, state.events);
    renderMe(parts.me, view, state.rules, state.offset);
    renderHand(parts.hand, state, handlers);
    showVerdict();
    renderControls();
    renderScores(parts.scores, view);
    renderTalk(parts.talk, view, (message) => {
      state.message = message;
      renderStatusLine();
    });
  }

  function renderStatusLine() {
    renderStatus(parts.status, state.view, {
      message: state.message,
      offset: state.offset,
      events: state.events,
      onResults: (round) => {
        state.results.pending.push(round);
        nextResults();
      },
    });
  }

  function showVerdict() {
    if (!state.view) return;
    renderJudge(parts.judge, state, handlers);
    updateButtons(parts.actions, state);
  }

  function markBusy() {
    root.dataset.busy = String(state.busy || state.results.loading);
  }

  function renderControls() {
    markBusy();
    renderAutoplay(parts.auto, state.view, handlers);
    renderActions(parts.actions, state, handlers);
    renderListed(parts.listed, state, handlers);
  }

  const keys = (/** @type {KeyboardEvent} */ e) => onKey(e, parts.hand, handlers);
  document.addEventListener("keydown", keys);

  return {
    relabel() {
      parts.relabelTabs();
      if (!state.view) return;
      renderOptions(parts.options, state.view, state.rules);
      render();
      log.rebuild(state.view, state.rules, state.events);
      judge();
    },
    close() {
      feed.stop();
      stopJudging(state);
      stopClocks();
      alerts.stop();
      document.removeEventListener("keydown", keys);
      for (const dialog of document.querySelectorAll("dialog.results, dialog.guide")) dialog.remove();
    },
  };
}
