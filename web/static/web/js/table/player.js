// The person's side of the table: 托管, the hand, the verdict on the selection, the actions the
// phase allows (cut, bid, play), and the plays the view lists.

import { cardButton, cardText, sortCards } from "../cards.js";
import { fill, h } from "../dom.js";
import { count, t } from "./words.js";
import { toBeat } from "../judge.js";
import { readingText } from "../words.js";

/**
 * @import { View, Action } from "../api.js"
 * @import { TableState } from "./state.js"
 * @import { Child } from "../dom.js"
 */

/**
 * What the person's controls do: the table's own functions, which change its state.
 * @typedef {object} Handlers
 * @property {(action: Action) => void} act
 * @property {() => void} playSelected
 * @property {() => void} hint
 * @property {(ids: Iterable<number>) => void} select
 * @property {(id: number) => void} toggle
 * @property {(i: number) => void} chooseReading
 * @property {(position: number) => void} setCut
 * @property {(on: boolean) => void} setAutoplay
 */

const FEW_CARDS = 9; // a hand this small is laid out without overlapping

/** @param {View|null} view */
export function canPass(view) {
  return !!view && view.your_turn && view.legal_actions.some((a) => a.type === "pass");
}

/**
 * The plays the view lists for the person (none when it is not their turn).
 * @param {View|null} view
 */
export function listed(view) {
  return view && view.your_turn ? view.legal_actions.filter((a) => a.type === "play") : [];
}

/** @param {HTMLElement} el @param {View} view @param {Handlers} on */
export function renderAutoplay(el, view, on) {
  const mine = view.you !== null && view.you !== undefined ? view.seats[view.you] : null;
  const paused = view.status === "paused";
  if (!mine || !(view.status === "active" || paused)) return fill(el);
  if (mine.autoplay || paused) {
    return fill(
      el,
      h("p", { class: "prompt" }, t(paused ? "autoplay.note.paused" : `autoplay.note.${mine.autoplay}`)),
      h("button", { type: "button", class: "primary", dataset: { action: "autoplay-off" }, onclick: () => on.setAutoplay(false) }, t("action.autoplay_off")),
    );
  }
  fill(el, h("button", { type: "button", dataset: { action: "autoplay-on" }, onclick: () => on.setAutoplay(true) }, t("action.autoplay_on")));
}

/** @param {HTMLElement} el @param {TableState} state @param {Handlers} on */
export function renderHand(el, state, on) {
  const view = state.view;
  const s = view && view.state;
  const hand = s && s.hand ? sortCards(s.hand) : []; // a spectator has none
  const active = document.activeElement;
  const focused = active instanceof HTMLElement ? active.dataset.id : undefined;
  el.setAttribute("aria-label", `${t("hand.title")} · ${count("hand.count", hand.length)}`);
  const myPlay = view && view.your_turn && s && s.phase === "play";
  el.dataset.size = hand.length <= FEW_CARDS ? "few" : "many";
  fill(
    el,
    hand.length
      ? hand.map((card) => cardButton(card, { selected: state.selected.has(card.id), dimmed: myPlay && !card.playable, onToggle: on.toggle }))
      : h("p", { class: "empty" }, t("hand.empty")),
  );
  if (focused !== undefined) {
    const again = el.querySelector(`[data-id="${focused}"]`);
    if (again instanceof HTMLElement) again.focus();
  }
}

/** @param {HTMLElement} el @param {TableState} state @param {Handlers} on */
export function renderJudge(el, state, on) {
  const { view, verdict } = state;
  /** @type {Child} */
  let content;
  const s = view.state;
  if (!s || s.phase !== "play") content = "";
  else if (verdict.kind === "empty") content = view.your_turn ? t("judge.pick") : "";
  else if (verdict.kind === "checking") content = t("judge.checking");
  else if (verdict.kind === "legal") {
    const plays = verdict.plays;
    const previous = toBeat(view);
    if (plays.length > 1) {
      content = [
        t("judge.choose"),
        h("span", { class: "readings", role: "radiogroup" }, plays.map((p, i) =>
          h("button", {
            type: "button",
            class: "chip",
            role: "radio",
            "aria-checked": String(i === state.chosenReading),
            onclick: () => on.chooseReading(i),
          }, readingText(p.reading)))),
      ];
    } else {
      const reading = readingText(plays[0].reading);
      content = previous
        ? t("judge.beats", { reading, previous: readingText(previous.reading) })
        : t("judge.legal", { reading });
    }
  } else content = verdict.text;
  el.className = `judge ${verdict.kind}`;
  el.dataset.verdict = verdict.kind;
  fill(el, content);
}

/**
 * The play and clear buttons follow the selection without being rebuilt (focus stays put).
 * @param {HTMLElement} el  the actions
 * @param {TableState} state
 */
export function updateButtons(el, state) {
  const enabled = {
    play: state.view.your_turn && state.verdict.kind === "legal",
    clear: state.selected.size > 0,
  };
  for (const [action, on] of Object.entries(enabled)) {
    const button = el.querySelector(`[data-action=${action}]`);
    if (button instanceof HTMLButtonElement) button.disabled = state.busy || !on;
  }
}

/** @param {HTMLElement} el @param {TableState} state @param {Handlers} on */
export function renderActions(el, state, on) {
  const { view, rules, busy } = state;
  const s = view.state;
  const mine = view.your_turn && view.status === "active";
  const button = (/** @type {string} */ action, /** @type {string} */ label, /** @type {() => void} */ onclick, { primary = false, disabled = false } = {}) =>
    h("button", { type: "button", class: primary ? "primary" : "", dataset: { action }, disabled: disabled || busy, onclick }, label);
  if (s && s.phase === "cut" && mine) {
    const last = rules.cutPositions(view) - 1;
    const out = h("output", { class: "cut-value" }, String(state.cutPosition));
    return fill(
      el,
      h("p", { class: "prompt" }, rules.prompt(view)),
      h("label", { class: "cut" }, t("cut.position"), " ",
        h("input", {
          type: "range", min: 0, max: last, value: state.cutPosition, name: "cut-position",
          oninput: (/** @type {Event} */ e) => {
            on.setCut(Number(/** @type {HTMLInputElement} */ (e.target).value));
            out.textContent = String(state.cutPosition);
          },
        }), " ", out),
      button("cut", t("action.cut"), () => on.act({ type: "cut", position: state.cutPosition }), { primary: true }),
      button("cut-random", t("action.cut_random"), () => on.act({ type: "cut", position: null })),
    );
  }
  if (s && s.phase === "bid" && mine) {
    return fill(
      el,
      h("p", { class: "prompt" }, rules.prompt(view)),
      button("bid-solo", t("action.bid_solo"), () => on.act({ type: "bid", solo: true })),
      button("bid-no", t("action.bid_no"), () => on.act({ type: "bid", solo: false }), { primary: true }),
    );
  }
  if (!s || s.phase !== "play" || view.status !== "active") return fill(el);
  fill(
    el,
    button("play", t("action.play"), on.playSelected, { primary: true }),
    button("pass", t("action.pass"), () => on.act({ type: "pass" }), { disabled: !canPass(view) }),
    button("hint", t("action.hint"), on.hint, { disabled: !listed(view).length }),
    button("clear", t("action.clear"), () => on.select([])),
    h("p", { class: "keys" }, t("keys.help")),
  );
  updateButtons(el, state);
}

/** @param {HTMLElement} el @param {TableState} state @param {Handlers} on */
export function renderListed(el, state, on) {
  const view = state.view;
  const plays = listed(view);
  if (!plays.length) return fill(el);
  const byId = new Map(view.state.hand.map((c) => [c.id, c]));
  fill(
    el,
    h("h2", {}, t("listed.title", { n: plays.length })),
    h("ul", { class: "listed-plays" }, plays.map((play) =>
      h("li", {}, h("button", {
        type: "button",
        class: "chip listed-play",
        dataset: { cards: play.cards.join(",") },
        disabled: state.busy,
        onclick: () => on.select(play.cards),
      }, readingText(play.reading), play.extras ? ` (+≤${play.extras})` : "",
      h("small", {}, ` ${play.cards.map((id) => cardText(byId.get(id).code)).join(" ")}`))))),
  );
}
