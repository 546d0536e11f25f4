// Your turn while the page is out of sight (another tab, another window): the title and the icon
// say so until the page is seen again; a sound plays if the person turned it on (remembered), and
// a notification shows if they allowed them (the browser is asked only when they click).

import { applyToDocument } from "../i18n.js";
import { h } from "../dom.js";
import { t } from "./words.js";

/**
 * @import { View } from "../api.js"
 */

const SOUND_KEY = "cardtable.turn_sound";
const BEEP_HZ = 660;
const BEEP_SECONDS = 0.18;

export function soundOn() {
  return localStorage.getItem(SOUND_KEY) === "on";
}

/** @param {boolean} on */
function setSound(on) {
  localStorage.setItem(SOUND_KEY, on ? "on" : "off");
}

function beep() {
  try {
    const audio = new AudioContext();
    const tone = audio.createOscillator();
    const gain = audio.createGain();
    gain.gain.setValueAtTime(0.15, audio.currentTime);
    gain.gain.exponentialRampToValueAtTime(0.001, audio.currentTime + BEEP_SECONDS);
    tone.frequency.value = BEEP_HZ;
    tone.connect(gain).connect(audio.destination);
    tone.start();
    tone.stop(audio.currentTime + BEEP_SECONDS);
    tone.onended = () => audio.close();
  } catch {
    // No sound where the browser allows none (no audio device, autoplay refused).
  }
}

function icon() {
  return /** @type {HTMLLinkElement|null} */ (document.querySelector("link[rel=icon]"));
}

/**
 * Watches the person's turns for one table: `update(view, game)` with each view, `stop()` when
 * the table closes.
 */
export function turnAlerts() {
  const link = icon();
  const normalIcon = link ? link.getAttribute("href") : "";
  let announced = -1; // the version last announced
  let raised = false;

  function lower() {
    if (!raised) return;
    raised = false;
    applyToDocument();
    if (link) link.setAttribute("href", normalIcon);
  }

  /** @param {View} view @param {string} game */
  function raise(view, game) {
    raised = true;
    document.title = `${t("turn.title")} · ${document.title}`;
    if (link && link.dataset.turn) link.setAttribute("href", link.dataset.turn);
    if (soundOn()) beep();
    if ("Notification" in window && Notification.permission === "granted") {
      const note = new Notification(t("turn.title"), { body: t("turn.body", { game, id: view.id }), tag: `match-${view.id}` });
      note.onclick = () => { window.focus(); note.close(); };
    }
  }

  function onVisibility() {
    if (document.visibilityState === "visible") lower();
  }
  document.addEventListener("visibilitychange", onVisibility);

  return {
    /** @param {View} view @param {string} game  its title, for the notification */
    update(view, game) {
      if (!view.your_turn) return lower();
      if (document.visibilityState !== "hidden" || view.version <= announced || raised) return;
      announced = view.version;
      raise(view, game);
    },
    stop() {
      lower();
      document.removeEventListener("visibilitychange", onVisibility);
    },
  };
}

/** The person's choices: a sound, and notifications (asked for on a click only). */
export function alertSettings() {
  const sound = h("input", { type: "checkbox", name: "turn-sound", checked: soundOn(), onchange: (/** @type {Event} */ e) => setSound(/** @type {HTMLInputElement} */ (e.target).checked) });
  const status = h("span", { class: "hint" });
  /** @type {HTMLElement|null} */
  let ask = null;
  const showPermission = () => {
    const permission = Notification.permission;
    if (ask) ask.hidden = permission !== "default";
    status.textContent = permission === "granted" ? t("alerts.notify.on") : permission === "denied" ? t("alerts.notify.denied") : "";
  };
  if ("Notification" in window) {
    ask = h("button", { type: "button", class: "chip", dataset: { action: "notify" }, onclick: () => Notification.requestPermission().then(showPermission) }, t("alerts.notify"));
    showPermission();
  }
  return h("div", { class: "alerts" },
    h("h3", {}, t("alerts.title")),
    h("label", { class: "check" }, sound, ` ${t("alerts.sound")}`),
    ask, status);
}
