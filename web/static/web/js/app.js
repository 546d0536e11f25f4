// The page: a top bar (who, language) and one screen chosen by the address:
// #/ the lobby, #/match/<id> a table (a player's seat, or watching), #/join/<code> an
// invitation, #/replay/<id>[/<round>] a finished match's replay, #/leaderboard/<ruleset> a
// leaderboard, #/players/<id> a person's profile (these two need no sign-in).

import { nameOf, signOut } from "./account.js";
import { api, session } from "./api.js";
import { h, fill } from "./dom.js";
import { applyToDocument, language, setLanguage, t } from "./i18n.js";
import { openLeaderboard } from "./leaderboard.js";
import { openLobby } from "./lobby.js";
import { openProfile } from "./profile.js";
import { openReplay } from "./replay.js";
import { signInPanel } from "./signin.js";
import { openTable } from "./table.js";
import { errorText } from "./words.js";

/** @typedef {{relabel: () => void, close: () => void}} Screen */

const root = document.getElementById("app");
const top = h("header", { class: "topbar" });
const screenRoot = h("div", { id: "screen" });
/** @type {Screen|null} */
let screen = null;
let notice = "";

/** @param {string} hash */
function go(hash) {
  if (location.hash === hash) route();
  else location.hash = hash;
}

function signedOut() {
  session.clear();
  notice = t("err.signed_out");
  go("#/");
}

function renderTop() {
  const who = session.read();
  fill(
    top,
    h("a", { class: "brand", href: "#/" }, h("span", { lang: "zh" }, "牌桌"), " Card table"),
    h("span", { class: "spacer" }),
    who ? h("span", { class: "who" }, t("auth.signed_in", { name: nameOf(who.user) })) : null,
    who ? h("button", { type: "button", class: "link", dataset: { action: "signout" }, onclick: () => signOut(() => { session.clear(); go("#/"); }, keepMatches) }, t("auth.signout")) : null,
    h("button", {
      type: "button",
      class: "lang",
      dataset: { action: "language" },
      "aria-label": t("lang.other_label"),
      onclick: () => {
        setLanguage(language() === "zh" ? "en" : "zh");
        renderTop();
        if (screen) screen.relabel();
      },
    }, t("lang.other")),
  );
}

// A guest who would rather keep their matches: the lobby's account panel, its form ready.
function keepMatches() {
  go("#/");
  const field = /** @type {HTMLInputElement|null} */ (document.querySelector('[data-form="upgrade"] input'));
  if (field) field.focus();
}

/** @param {string} code @returns {Screen} */
function openJoin(code) {
  screenRoot.dataset.screen = "join";
  const message = h("p", { class: "message", role: "alert" });
  async function join() {
    try {
      const { data } = await api.post("/matches/join/", { code });
      location.replace(`#/match/${data.id}`);
    } catch (err) {
      if (err.status === 401) return signedOut();
      message.textContent = errorText(err);
    }
  }
  function render() {
    fill(screenRoot, h("div", { class: "lobby" },
      h("section", { class: "panel invitation" },
        h("h2", {}, t("join.title")), h("p", {}, t("join.code", { code })), message,
        session.read() ? null : h("p", {}, t("join.sign_in_first")),
        h("p", {}, h("a", { href: "#/" }, t("nav.lobby")))),
      session.read() ? null : signInPanel(() => { renderTop(); render(); })));
    if (session.read()) join();
  }
  render();
  return { relabel: render, close() {} };
}

function route() {
  if (screen) screen.close();
  screen = null;
  // The screen's data-* attributes say what it shows (tests and styles read them).
  for (const key of Object.keys(screenRoot.dataset)) delete screenRoot.dataset[key];
  renderTop();
  const hash = location.hash;
  const match = hash.match(/^#\/match\/(\d+)$/);
  const invite = hash.match(/^#\/join\/([A-Za-z0-9_-]+)$/);
  const replay = hash.match(/^#\/replay\/(\d+)(?:\/(\d+))?$/);
  const board = hash.match(/^#\/leaderboard(?:\/([A-Za-z0-9_-]+))?$/);
  const player = hash.match(/^#\/players\/(\d+)$/);
  if (board) {
    screen = openLeaderboard(screenRoot, board[1] || null);
  } else if (player) {
    screen = openProfile(screenRoot, Number(player[1]));
  } else if (match && session.read()) {
    screen = openTable(screenRoot, Number(match[1]), { onLobby: () => go("#/"), onSignedOut: signedOut });
  } else if (replay && session.read()) {
    screen = openReplay(screenRoot, Number(replay[1]), replay[2] ? Number(replay[2]) : null, { onSignedOut: signedOut });
  } else if (replay) {
    // A shared replay link: sign in (a guest in one click), then the replay opens.
    fill(screenRoot, h("div", { class: "lobby" }, signInPanel(() => { renderTop(); route(); })));
  } else if (invite) {
    screen = openJoin(invite[1]);
  } else {
    screen = openLobby(screenRoot, {
      onOpenMatch: (id) => go(`#/match/${id}`),
      onJoinCode: (code) => go(`#/join/${encodeURIComponent(code)}`),
      onSignedIn: renderTop,
      onSignedOut: signedOut,
    });
    if (notice) {
      screenRoot.prepend(h("p", { class: "message", role: "alert" }, notice));
      notice = "";
    }
  }
}

applyToDocument();
fill(root, top, screenRoot);
window.addEventListener("hashchange", route);
route();
