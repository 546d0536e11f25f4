// The felt: the trick (the latest play marked), or while nothing is led the trick taken last (or
// the one that ended the round), dimmed; and the ruleset's facts of the table beside it. A play
// that arrives slides in from its seat (CSS, none when the person asks for reduced motion); when
// many arrive at once (the page catching up), only the last few do, one after another.

import { cardRow } from "../cards.js";
import { fill, h } from "../dom.js";
import { language } from "../i18n.js";
import { about, readingText, seatName } from "../words.js";
import { lastTrick } from "./tricks.js";
import { t, words } from "./words.js";

/**
 * @import { View, MatchEvent, TrickPlay } from "../api.js"
 * @import { Rules } from "../rules.js"
 */

const ANIMATED_AT_ONCE = 3;
const STAGGER_MS = 90;

/** @param {View} view @param {Rules} rules */
function infoPanel(view, rules) {
  if (!view.state) return null;
  const items = rules.facts(view).map(([label, ...value]) =>
    h("div", { class: "info-item" }, h("dt", {}, label), h("dd", {}, value)));
  return items.length ? h("dl", { class: "info" }, items) : null;
}

/** @param {TrickPlay} play */
function playKey(play) {
  return `${play.seat}:${play.cards.map((c) => c.id).join(",")}`;
}

/** @param {View} view @param {TrickPlay} play @param {boolean} marked */
function playView(view, play, marked) {
  const latest = marked && play.latest;
  return h(
    "div",
    { class: `play${latest ? " latest" : ""}`, dataset: { seat: play.seat, key: playKey(play) } },
    h("span", { class: "who" }, seatName(view, play.seat)),
    cardRow(play.cards, latest ? "medium" : "small"),
    h("span", { class: "reading" }, readingText(play.reading)),
    latest ? h("span", { class: "badge latest-tag" }, t("trick.latest")) : null,
  );
}

/** @param {View} view */
function leads(view) {
  const s = view.state;
  if (s && s.phase === "play" && s.to_act !== null) {
    return about(view, s.to_act, "trick.leads", { name: seatName(view, s.to_act) });
  }
  return t("trick.empty");
}

/**
 * Slides each play in `arriving` from its seat's box to where it lies.
 * @param {HTMLElement} scope  where the seats are
 * @param {HTMLElement[]} arriving  oldest first
 */
function slideIn(scope, arriving) {
  arriving.slice(-ANIMATED_AT_ONCE).forEach((el, i) => {
    const seat = scope.querySelector(`.seat[data-seat="${el.dataset.seat}"]`);
    if (seat) {
      const from = seat.getBoundingClientRect();
      const to = el.getBoundingClientRect();
      el.style.setProperty("--from-x", `${from.left + from.width / 2 - (to.left + to.width / 2)}px`);
      el.style.setProperty("--from-y", `${from.top + from.height / 2 - (to.top + to.height / 2)}px`);
    }
    el.style.animationDelay = `${i * STAGGER_MS}ms`;
    el.classList.add("arriving");
  });
}

/**
 * The felt in `el`; `render` draws it again.
 * @param {HTMLElement} el
 */
export function feltView(el) {
  /** @type {Set<string>|null} */
  let shown = null; // the plays on the felt last time: null until first drawn (nothing arrives)
  let drawn = ""; // what it was drawn from: drawn again only when that changed (an animation
  // would start over)

  /** @param {View} view @param {Rules} rules @param {MatchEvent[]} events */
  function render(view, rules, events) {
    if (drawn === `${view.version} ${language()}`) return;
    drawn = `${view.version} ${language()}`;
    const trick = view.state ? view.state.trick : [];
    const taken = lastTrick(view, events);
    fill(
      el,
      h("h2", { class: "visually-hidden" }, t("trick.title")),
      h("div", { class: "trick", dataset: { plays: trick.length } },
        trick.length ? trick.map((play) => playView(view, play, true)) : h("p", { class: "empty" }, leads(view))),
      taken
        ? h("div", { class: "taken-trick", dataset: { winner: taken.winner, ended: taken.ended } },
          h("span", { class: "taken-caption" }, taken.ended
            ? t("trick.round_last", { round: taken.round })
            : about(view, taken.winner, "trick.taken", { name: seatName(view, taken.winner) }, words)),
          h("div", { class: "taken-plays" }, taken.plays.map((play) => playView(view, play, false))))
        : null,
      infoPanel(view, rules),
    );
    const row = el.querySelector(".trick");
    row.scrollLeft = row.scrollWidth; // a narrow screen scrolls the trick: its latest play in sight
    const plays = /** @type {HTMLElement[]} */ ([...row.querySelectorAll(".play")]);
    if (shown) slideIn(el.parentElement, plays.filter((p) => !shown.has(p.dataset.key)));
    shown = new Set(plays.map((p) => p.dataset.key));
  }

  return { render };
}
