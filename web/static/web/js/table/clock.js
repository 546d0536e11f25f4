// Turn clocks: countdowns to the server's deadlines. The server's clock may differ from this
// device's: `offset` (the server's time minus this device's, in ms) corrects it.

import { h } from "../dom.js";
import { t } from "../i18n.js";

/**
 * @import { View } from "../api.js"
 */

/** @typedef {View} View */

const CLOCK_TICK_MS = 250;
const CLOCK_LOW_SECONDS = 5;

/**
 * The server's time minus this device's, from a view that carries the server's time.
 * @param {View} view
 * @param {number} offset  the last known one, kept when the view has no clock
 */
export function serverOffset(view, offset) {
  return view.clock ? Date.parse(view.clock.server_time) - Date.now() : offset;
}

/**
 * When the seat to act must have acted, if a clock runs.
 * @param {View} view
 */
export function deadline(view) {
  return view.status === "active" && view.clock ? view.clock.deadline : null;
}

/** @param {HTMLElement} el @param {number} offset */
function showClock(el, offset) {
  const left = Math.max(0, (Date.parse(el.dataset.clock) - (Date.now() + offset)) / 1000);
  const seconds = String(Math.ceil(left));
  if (el.dataset.seconds === seconds) return;
  el.textContent = t(el.dataset.words, { n: seconds });
  el.dataset.seconds = seconds;
  el.classList.toggle("low", left <= CLOCK_LOW_SECONDS);
}

/**
 * A countdown to `iso` (server time), kept up to date while `tickClocks` runs; `words`: its
 * text. Not read out each second inside the status line's live region.
 * @param {string} iso
 * @param {number} offset
 * @param {string} [words]
 * @param {string} [cls]
 */
export function clockView(iso, offset, words = "clock.left", cls = "") {
  const el = h("span", { class: `clock ${cls}`, role: "timer", "aria-live": "off", dataset: { clock: iso, words } });
  showClock(el, offset);
  return el;
}

/**
 * Keeps every countdown under `root` up to date; returns what stops it.
 * @param {HTMLElement} root
 * @param {() => number} offset
 */
export function tickClocks(root, offset) {
  const timer = setInterval(() => {
    for (const el of root.querySelectorAll("[data-clock]")) showClock(/** @type {HTMLElement} */ (el), offset());
  }, CLOCK_TICK_MS);
  return () => clearInterval(timer);
}
