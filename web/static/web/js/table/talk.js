// Table talk (快捷语): a player's picker of the fixed phrases and emoji (GET /phrases/, read
// once), sent with POST /matches/{id}/talk/; what anyone at the table says shows as a short
// bubble at their seat, for seats and spectators alike (the stream's `talk`).

import { api } from "../api.js";
import { fill, h } from "../dom.js";
import { local } from "../i18n.js";
import { errorText } from "../words.js";
import { t } from "./words.js";

/**
 * @import { View, Said, Phrase } from "../api.js"
 */

const BUBBLE_MS = 4000;

/** @type {Promise<Phrase[]>|null} */
let phrases = null;

function phraseList() {
  phrases ??= api.get("/phrases/").then(({ data }) => data.results, (err) => {
    phrases = null;
    throw err;
  });
  return phrases;
}

/**
 * The picker, for a player of a match in play (a spectator, or a match over, has none).
 * @param {HTMLElement} el
 * @param {View} view
 * @param {(message: string) => void} onRefused
 */
export function renderTalk(el, view, onRefused) {
  const playing = view.you !== null && view.you !== undefined && ["waiting", "active", "paused"].includes(view.status);
  if (!playing) return fill(el);
  if (el.dataset.match === String(view.id) && el.childElementCount) return; // drawn already
  el.dataset.match = String(view.id);
  const menu = h("div", { class: "talk-menu", role: "menu", hidden: true, "aria-label": t("talk.label") });
  const toggle = h("button", {
    type: "button",
    dataset: { action: "talk" },
    "aria-haspopup": "menu",
    "aria-expanded": "false",
    onclick: () => {
      menu.hidden = !menu.hidden;
      toggle.setAttribute("aria-expanded", String(!menu.hidden));
    },
  }, t("talk.say"));
  /** @param {Phrase} phrase */
  const say = async (phrase) => {
    menu.hidden = true;
    toggle.setAttribute("aria-expanded", "false");
    try {
      await api.post(`/matches/${view.id}/talk/`, { phrase: phrase.key });
    } catch (err) {
      onRefused(err.code === "throttled" ? t("talk.throttled") : errorText(err));
    }
  };
  phraseList().then((list) => {
    fill(menu, list.map((phrase) => h("button", {
      type: "button",
      role: "menuitem",
      class: phrase.kind,
      dataset: { phrase: phrase.key },
      onclick: () => say(phrase),
    }, local(phrase.text))));
  }, (err) => onRefused(errorText(err)));
  fill(el, toggle, menu);
}

/**
 * A bubble at the seat of whoever spoke, gone after a few seconds.
 * @param {HTMLElement} root  the table's screen
 * @param {Said} said
 */
export async function showBubble(root, said) {
  const list = await phraseList().catch(() => /** @type {Phrase[]} */ ([]));
  const phrase = list.find((p) => p.key === said.phrase);
  const seat = root.querySelector(`.seat[data-seat="${said.seat}"]`);
  if (!seat || !phrase) return;
  const bubble = h("span", { class: `bubble ${phrase.kind}`, role: "status", dataset: { phrase: said.phrase } }, local(phrase.text));
  for (const old of seat.querySelectorAll(".bubble")) old.remove();
  seat.append(bubble);
  setTimeout(() => bubble.remove(), BUBBLE_MS);
}
