// Play again: a finished match's rematch (POST /matches/{id}/rematch/ and .../decline/). The
// final results dialog offers it; while it is open the account stream tells of an offer someone
// else made, and the lobby lists the offers still open. Accepting goes to the rematch's table.

import { api } from "./api.js";
import { h, fill } from "./dom.js";
import { dictionary } from "./i18n.js";
import { openStream } from "./stream.js";
import { errorText, seatName } from "./words.js";

/**
 * @import { View, SeatSummary, Rematch } from "./api.js"
 */

const words = dictionary({
  en: {
    "rematch.ask": "Play again",
    "rematch.asked": "{name} wants to play again.",
    "rematch.accept": "Play again",
    "rematch.decline": "No, thanks",
    "rematch.open": "Go to the rematch",
    "rematch.waiting": "You are in: waiting for the others.",
    "rematch.bot": "A bot took your seat in the rematch.",
  },
  zh: {
    "rematch.ask": "再来一局",
    "rematch.asked": "{name}想再来一局。",
    "rematch.accept": "再来一局",
    "rematch.decline": "不了，谢谢",
    "rematch.open": "去新牌局",
    "rematch.waiting": "你已加入，等其他人。",
    "rematch.bot": "新牌局里你的座位由机器人坐了。",
  },
});

/** @param {number} id */
function openMatch(id) {
  location.hash = `#/match/${id}`;
}

/**
 * Ask for the rematch or accept it (the same request), then sit down at it.
 * @param {number} matchId  the finished match
 */
async function accept(matchId) {
  const { data } = await api.post(`/matches/${matchId}/rematch/`);
  openMatch(data.id);
}

/**
 * What a person of the finished match may do about its rematch: ask, accept or decline, or go
 * to it. `onDeclined()` once they declined.
 * @param {number} matchId
 * @param {Rematch|null} rematch
 * @param {string} asker  who asked, as the reader calls them
 * @param {() => void} onDeclined
 */
export function rematchChoices(matchId, rematch, asker, onDeclined) {
  const note = h("span", { class: "message", role: "status" });
  /** @param {string} action @param {string} label @param {() => Promise<void>} run @param {string} [cls] */
  const button = (action, label, run, cls) => h("button", {
    type: "button",
    class: cls,
    dataset: { action },
    onclick: () => run().catch((err) => { note.textContent = errorText(err); }),
  }, label);
  const decline = async () => {
    await api.post(`/matches/${matchId}/rematch/decline/`);
    onDeclined();
  };
  let choices;
  if (!rematch) choices = [button("rematch", words.t("rematch.ask"), () => accept(matchId), "primary")];
  else if (rematch.yours === "accepted") {
    choices = [words.t("rematch.waiting"), " ", button("rematch-open", words.t("rematch.open"), async () => openMatch(rematch.id), "primary")];
  } else if (rematch.yours === "pending" && rematch.status === "waiting") {
    choices = [words.t("rematch.asked", { name: asker }), " ",
      button("rematch-accept", words.t("rematch.accept"), () => accept(matchId), "primary"),
      button("rematch-decline", words.t("rematch.decline"), decline)];
  } else choices = [words.t("rematch.bot")];
  return h("div", { class: "rematch", dataset: { rematch: rematch ? rematch.yours || "" : "none" } }, choices, note);
}

/**
 * The final results dialog's part: the choices for the finished `view`, kept up to date from
 * the account stream (someone else asks) while the dialog is shown.
 * @param {View} view
 * @param {HTMLDialogElement} dialog
 */
export function rematchPanel(view, dialog) {
  const part = h("div", { class: "rematch-part" });
  let drawn = ""; // what the choices were drawn from: a button is not swapped for the same one
  // under the person's finger (a click that lands across the swap is lost)
  const render = (/** @type {View} */ current) => {
    const asker = current.rematch ? seatName(current, current.rematch.asked_by) : "";
    const now = JSON.stringify([current.rematch, asker]);
    if (now === drawn) return;
    drawn = now;
    fill(part, rematchChoices(current.id, current.rematch, asker, refresh));
  };
  async function refresh() {
    const { data } = await api.get(`/matches/${view.id}/`);
    render(data);
  }
  const stream = openStream("/stream/", {
    on: {
      // The stream's first message, on each connection: from now on it hears offers; one made
      // while it was connecting is only in the match, read again.
      matches: refresh,
      rematch_offered: (/** @type {{match: number}} */ offer) => { if (offer.match === view.id) refresh(); },
    },
    onRefused: () => {},
    onUnsupported: () => {},
  });
  // The dialog closes, or the page goes elsewhere (a new address is a new screen, whose
  // dialogs are removed without closing).
  dialog.addEventListener("close", () => stream.stop());
  window.addEventListener("hashchange", () => stream.stop(), { once: true });
  render(view);
  return part;
}

/**
 * A lobby entry's offer: a finished match whose rematch still waits for the reader's answer.
 * @param {{id: number, seats: SeatSummary[], rematch: Rematch|null}} match
 * @param {() => void} onAnswered
 */
export function rematchOffer(match, onAnswered) {
  const rematch = match.rematch;
  if (!rematch || rematch.yours !== "pending" || rematch.status !== "waiting") return null;
  const seat = match.seats[rematch.asked_by];
  return rematchChoices(match.id, rematch, (seat && seat.player) || "", onAnswered);
}
