// A finished match's replay (#/replay/<id>/<round>): round by round, move by move, forwards and
// backwards, every hand open, from the stored moves (GET /matches/{id}/replay/ and
// /replay/{round}/). Its deal check: the round's seed hashes (SHA-256) to the hash published when
// the round began, and this page deals the round again from the seed (pyrandom.js: Python's
// generator, and the ruleset module's `deal`) and finds the hands the replay shows. The link can
// be shared: a player, or anyone when the match was watchable, opens it.

import { api } from "./api.js";
import { cardRow, cardText, sortCards } from "./cards.js";
import { fill, h } from "./dom.js";
import { t } from "./i18n.js";
import { PyRandom } from "./pyrandom.js";
import { bothTitles, rulesFor } from "./rules.js";
import { errorText, seatName } from "./words.js";

/**
 * @import { View, ViewState, SeatSummary, Standing, Card } from "./api.js"
 * @import { Rules } from "./rules.js"
 */

/**
 * @typedef {{number: number, seed: string, seed_hash: string}} RoundRef  a round of the replay
 * @typedef {{id: number, ruleset: string, you: number|null, seats: SeatSummary[],
 *   standings: Standing[]|null, rounds: RoundRef[]}} Replay  GET /matches/{id}/replay/
 * @typedef {{seq: number, seat: number, actor: string, action: Record<string, any>,
 *   view: ViewState}} Step  a move, and every hand after it
 * @typedef {RoundRef & {start: ViewState, steps: Step[]}} RoundReplay  GET /replay/{round}/
 * @typedef {"pass"|"fail"|"none"|"unsafe"|"checking"} Verdict
 */

/** @param {string} text */
async function sha256(text) {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** @param {number[][]} lists */
function sorted(lists) {
  return lists.map((list) => [...list].sort((a, b) => a - b).join(","));
}

/**
 * The round dealt again from its seed, compared with what the replay shows.
 * @param {Rules} rules
 * @param {RoundReplay} round
 * @returns {Promise<{hash: Verdict, deal: Verdict}>}
 */
export async function checkDeal(rules, round) {
  if (!globalThis.crypto || !crypto.subtle) return { hash: "unsafe", deal: "unsafe" };
  const hash = (await sha256(round.seed)) === round.seed_hash ? "pass" : "fail";
  if (!rules.deal) return { hash, deal: "none" };
  const { cards, shown } = rules.deal(await PyRandom.fromText(round.seed), round);
  const same = sorted(cards).join("|") === sorted(shown).join("|");
  return { hash, deal: same ? "pass" : "fail" };
}

/**
 * An action as a line: who, and what (cards by their faces, read from the hands before it).
 * @param {View} named  a view whose seats name the players
 * @param {Step} step
 * @param {ViewState} before
 */
function moveText(named, step, before) {
  const action = step.action;
  let what;
  if (action.type === "play") {
    const codes = new Map((before.hands || []).flat().map((/** @type {Card} */ c) => [c.id, c.code]));
    what = t("replay.action.play", { cards: action.cards.map((/** @type {number} */ id) => cardText(codes.get(id) || "?")).join(" ") });
  } else if (action.type === "cut") {
    what = action.position === null ? t("replay.action.cut_random") : t("replay.action.cut", { position: action.position });
  } else if (action.type === "bid") {
    what = t(action.solo ? "replay.action.bid" : "replay.action.no_bid");
  } else what = t(`replay.action.${action.type}`);
  return t("replay.move", { name: seatName(named, step.seat), action: what });
}

/**
 * @param {HTMLElement} root
 * @param {number} matchId
 * @param {number|null} wanted  the round the address names
 * @param {{onSignedOut: () => void}} how
 */
export function openReplay(root, matchId, wanted, { onSignedOut }) {
  root.dataset.screen = "replay";
  root.dataset.match = String(matchId);
  /** @type {Replay|null} */
  let replay = null;
  /** @type {Rules|null} */
  let rules = null;
  /** @type {RoundReplay|null} */
  let round = null;
  let step = 0;
  /** @type {{hash: Verdict, deal: Verdict}} */
  let check = { hash: "checking", deal: "checking" };
  let message = "";
  let closed = false;

  /** @param {any} err */
  function refused(err) {
    if (err.status === 401) return onSignedOut();
    message = errorText(err);
    render();
  }

  /** @param {number} number */
  async function openRound(number) {
    try {
      const { data } = await api.get(`/matches/${matchId}/replay/${number}/`);
      if (closed) return;
      round = data;
      step = 0;
      check = { hash: "checking", deal: "checking" };
      history.replaceState(null, "", `#/replay/${matchId}/${number}`);
      render();
      check = await checkDeal(rules, data).catch(() => ({ hash: "fail", deal: "fail" }));
      if (!closed && round === data) render();
    } catch (err) {
      refused(err);
    }
  }

  async function start() {
    try {
      const { data } = await api.get(`/matches/${matchId}/replay/`);
      replay = data;
      rules = await rulesFor(data.ruleset);
      render();
      const numbers = data.rounds.map((/** @type {RoundRef} */ r) => r.number);
      if (numbers.length) openRound(numbers.includes(wanted) ? wanted : numbers[0]);
    } catch (err) {
      refused(err);
    }
  }

  /** @param {number} to */
  function go(to) {
    if (!round) return;
    step = Math.max(0, Math.min(round.steps.length, to));
    render();
  }

  /** The seats as a view names them (seatName). @returns {View} */
  function named() {
    return /** @type {View} */ (/** @type {unknown} */ ({ seats: replay.seats }));
  }

  function checkSection() {
    const lines = [h("p", { class: "seed" }, t("replay.seed", { seed: round.seed }))];
    if (check.hash === "pass") lines.push(h("p", {}, "✓ ", t("replay.hash_ok", { hash: round.seed_hash })));
    if (check.hash === "fail") lines.push(h("p", { class: "bad" }, "✗ ", t("replay.hash_bad", { hash: round.seed_hash })));
    const deal = { pass: ["✓ ", t("replay.deal_ok")], fail: ["✗ ", t("replay.deal_bad")], none: ["", t("replay.deal_none")],
      unsafe: ["", t("replay.deal_unsafe")], checking: ["", "…"] }[check.deal];
    lines.push(h("p", { class: check.deal === "fail" ? "bad" : "" }, ...deal));
    return h("section", { class: "panel deal-check", dataset: { hash: check.hash, deal: check.deal } },
      h("h2", {}, t("replay.check")), lines);
  }

  function board() {
    const view = step === 0 ? round.start : round.steps[step - 1].view;
    const names = named();
    const seats = (view.hands || []).map((/** @type {Card[]} */ hand, /** @type {number} */ seat) => h("li", {
      class: `replay-seat${view.to_act === seat ? " to-act" : ""}`,
      dataset: { seat },
    }, h("div", { class: "seat-name" }, seatName(names, seat), " · ", t("seat.score", { n: view.scores[seat] })),
    cardRow(sortCards(hand))));
    return h("section", { class: "panel replay-board", dataset: { step } },
      h("div", { class: "replay-steps" },
        h("button", { type: "button", dataset: { action: "first" }, disabled: step === 0, onclick: () => go(0) }, "« ", t("replay.first")),
        h("button", { type: "button", dataset: { action: "back" }, disabled: step === 0, onclick: () => go(step - 1) }, "◀ ", t("replay.back")),
        h("span", { class: "where" }, step === 0 ? t("replay.dealt") : t("replay.step", { n: step, m: round.steps.length })),
        h("button", { type: "button", dataset: { action: "forward" }, disabled: step === round.steps.length, onclick: () => go(step + 1) }, t("replay.forward"), " ▶"),
        h("button", { type: "button", dataset: { action: "last" }, disabled: step === round.steps.length, onclick: () => go(round.steps.length) }, t("replay.last"), " »")),
      h("p", { class: "replay-move", role: "status" },
        step === 0 ? "" : moveText(names, round.steps[step - 1], step === 1 ? round.start : round.steps[step - 2].view)),
      h("div", { class: "replay-trick" }, (view.trick || []).map((play) => h("span", { class: "trick-play" },
        h("small", {}, seatName(names, play.seat)), cardRow(play.cards, "medium")))),
      h("h3", {}, t("replay.hands")),
      h("ul", { class: "replay-hands" }, seats));
  }

  function render() {
    if (closed) return;
    const link = `${location.origin}${location.pathname}#/replay/${matchId}`;
    const share = h("button", {
      type: "button",
      dataset: { action: "share" },
      onclick: async () => {
        try {
          await navigator.clipboard.writeText(link);
          share.textContent = t("table.copied");
        } catch {
          // Clipboard refused: the address bar holds the link.
        }
      },
    }, t("replay.share"));
    fill(root, h("div", { class: "replay" },
      h("header", { class: "bar" },
        h("a", { class: "back", href: "#/" }, t("nav.lobby")),
        h("h1", {}, t("replay.title", { id: matchId })),
        replay && rules ? h("span", { class: "bar-facts" }, bothTitles(rules.info, replay.ruleset)) : null,
        share),
      message ? h("p", { class: "message", role: "alert" }, message) : null,
      replay ? h("nav", { class: "replay-rounds", "aria-label": t("replay.rounds") },
        replay.rounds.length ? replay.rounds.map((r) => h("button", {
          type: "button",
          dataset: { round: r.number },
          "aria-pressed": String(!!round && round.number === r.number),
          onclick: () => openRound(r.number),
        }, t("replay.round", { n: r.number }))) : h("p", {}, t("replay.none"))) : null,
      round ? checkSection() : null,
      round ? board() : null));
  }

  const keys = (/** @type {KeyboardEvent} */ e) => {
    if (e.key === "ArrowRight") go(step + 1);
    if (e.key === "ArrowLeft") go(step - 1);
  };
  document.addEventListener("keydown", keys);
  render();
  start();
  return {
    relabel: render,
    close() {
      closed = true;
      document.removeEventListener("keydown", keys);
    },
  };
}
