// The lobby: sign in (guest or account), a quick match at one of the house's tables, start a
// game, join with a code, resume a match. The list of your matches follows your account's live
// stream (GET /stream/): your turn (and its end), a match that starts or ends, shows without a
// reload.

import { api, session } from "./api.js";
import { h, fill } from "./dom.js";
import { language, t } from "./i18n.js";
import { newGameForm } from "./newgame.js";
import { openStream } from "./stream.js";
import { errorText } from "./words.js";

const PAGE = 10;
const MAX_PAGE = 100;
const LIST_REFRESH_MS = 200; // a burst of stream messages reloads the list once
const ACCOUNT_EVENTS = ["seated", "player_joined", "match_started", "your_turn",
  "turn_passed", "match_finished"];

// Guest, log in or sign up; `done()` once a token is kept.
export function signInPanel(done) {
  const note = h("p", { class: "message", role: "alert" });
  const guest = h("button", {
    type: "button",
    class: "primary big",
    dataset: { action: "guest" },
    onclick: async () => {
      guest.disabled = true;
      try {
        const { data } = await api.post("/auth/guest/");
        session.save(data);
        done();
      } catch (err) {
        note.textContent = errorText(err);
        guest.disabled = false;
      }
    },
  }, t("auth.guest"));
  const form = h(
    "form",
    {
      class: "login",
      onsubmit: async (e) => {
        e.preventDefault();
        const register = e.submitter && e.submitter.dataset.action === "register";
        const body = { username: form.elements.username.value, password: form.elements.password.value };
        try {
          const { data } = await api.post(register ? "/auth/register/" : "/auth/login/", body);
          session.save(data);
          done();
        } catch (err) {
          const fields = Object.values(err.details || {}).flat().join(" ");
          note.textContent = fields || errorText(err);
        }
      },
    },
    h("p", {}, t("auth.have_account")),
    h("label", {}, t("auth.username"), h("input", { name: "username", autocomplete: "username", required: true, maxlength: 150 })),
    h("label", {}, t("auth.password"), h("input", { name: "password", type: "password", autocomplete: "current-password", required: true })),
    h("div", { class: "row" },
      h("button", { type: "submit", dataset: { action: "login" } }, t("auth.login")),
      h("button", { type: "submit", dataset: { action: "register" } }, t("auth.register"))),
  );
  return h("section", { class: "panel sign-in" }, guest, h("p", { class: "hint" }, t("auth.guest_note")), form, note);
}

function seatLabel(seat) {
  if (seat.you) return t("seat.you");
  if (seat.kind === "bot") return `${t("seat.bot", { n: seat.seat })} · ${t(`level.${seat.level}`)}`;
  return seat.player || t("seat.open");
}

function matchItem(match, onOpen) {
  const title = match.ruleset === "510k" ? "510K" : "干瞪眼";
  const facts = [t("table.match", { id: match.id }), t(`status.${match.status}`)];
  if (match.round) facts.push(t("lobby.round", { n: match.round }));
  return h(
    "li",
    { class: `match-item ${match.status}`, dataset: { match: match.id, status: match.status, yourTurn: String(match.your_turn) } },
    h("div", {},
      h("strong", {}, title), " ", facts.join(" · "),
      match.your_turn ? h("span", { class: "badge to-act" }, t("lobby.your_turn")) : null,
      h("div", { class: "seat-list" }, match.seats.map(seatLabel).join(", "))),
    h("button", { type: "button", dataset: { action: "resume" }, onclick: () => onOpen(match.id) },
      match.status === "finished" ? t("lobby.open") : t("lobby.resume")),
  );
}

function tableFacts(table) {
  const lang = language();
  const facts = table.options_described.map((o) => `${o.label[lang] || o.label.en} ${o.text[lang] || o.text.en}`);
  // null: the server's default (a clock only when people share the table).
  if (table.turn_seconds !== null) {
    facts.push(table.turn_seconds ? t("tables.clock", { n: table.turn_seconds }) : t("tables.no_clock"));
  }
  facts.push(table.bots_after ? t("tables.bots_after", { n: table.bots_after }) : t("tables.bots_now"));
  return facts.join(" · ");
}

function tableItem(table, onPlay) {
  const title = table.ruleset_title[language()] || table.ruleset_title.en;
  const play = h("button", {
    type: "button",
    class: "primary",
    dataset: { action: "quick-play", table: table.slug },
    onclick: async () => {
      play.disabled = true;
      await onPlay(table.slug);
      play.disabled = false;
    },
  }, t("tables.play"));
  return h("li", { class: "table-item", dataset: { table: table.slug } },
    h("div", {}, h("strong", {}, table.name), " ", h("span", { class: "ruleset" }, title),
      h("div", { class: "table-facts" }, tableFacts(table))),
    play);
}

export function openLobby(root, { onOpenMatch, onJoinCode, onSignedIn }) {
  root.dataset.screen = "lobby";
  let rulesets = null;
  let tables = null;
  let stream = null;
  let refreshTimer = null;
  const message = h("p", { class: "message", role: "alert" });
  const list = h("ul", { class: "matches" });
  const more = h("button", { type: "button", hidden: true, dataset: { action: "more" } }, t("lobby.more"));
  let before = null;
  let shown = 0;
  let reading = Promise.resolve();

  // The next page of your matches (`more`), or those shown read again (at least a page): one
  // read at a time, so that an older answer never lands after a newer one.
  function loadMatches(more) {
    reading = reading.then(async () => {
      const limit = more ? PAGE : Math.min(MAX_PAGE, Math.max(PAGE, shown));
      try {
        const { data } = await api.get(`/matches/?limit=${limit}${more ? `&before=${before}` : ""}`);
        showMatches(data, more);
      } catch (err) {
        message.textContent = errorText(err);
      }
    });
  }
  more.addEventListener("click", () => loadMatches(true));

  function showMatches(data, adding) {
    if (!adding) list.replaceChildren();
    if (!list.children.length && !data.results.length) list.append(h("li", { class: "empty" }, t("lobby.none")));
    list.append(...data.results.map((m) => matchItem(m, onOpenMatch)));
    shown = list.querySelectorAll(".match-item").length;
    before = data.next;
    more.hidden = !before;
  }

  function follow() {
    if (stream) return;
    const later = () => {
      clearTimeout(refreshTimer);
      refreshTimer = setTimeout(() => loadMatches(false), LIST_REFRESH_MS);
    };
    // `matches` (every open match of yours) comes first on each connection: read the list
    // again only where it says something else than the list shows.
    const differs = (m) => {
      const item = list.querySelector(`.match-item[data-match="${m.match}"]`);
      return !item || item.dataset.status !== m.status || item.dataset.yourTurn !== String(m.your_turn);
    };
    stream = openStream("/stream/", {
      on: {
        ...Object.fromEntries(ACCOUNT_EVENTS.map((name) => [name, later])),
        matches: (open) => { if (open.some(differs)) later(); },
      },
      onRefused: () => {},
      onUnsupported: () => {}, // the list is read when the lobby opens, as before streams
    });
  }

  async function quickPlay(slug) {
    try {
      const { data } = await api.post(`/tables/${encodeURIComponent(slug)}/play/`);
      onOpenMatch(data.id);
    } catch (err) {
      message.textContent = errorText(err);
    }
  }

  function tablesPanel() {
    const panel = h("section", { class: "panel tables", hidden: true }, h("h2", {}, t("tables.title")));
    const show = () => {
      if (!tables.length) return;
      panel.append(h("ul", { class: "table-list" }, tables.map((table) => tableItem(table, quickPlay))));
      panel.hidden = false;
    };
    if (tables) show();
    else {
      api.get("/tables/").then(({ data }) => {
        tables = data.results;
        show();
      }, (err) => { message.textContent = errorText(err); });
    }
    return panel;
  }

  function render() {
    if (!session.read()) {
      fill(root, h("div", { class: "lobby" },
        h("p", { class: "welcome" }, t("lobby.welcome")),
        signInPanel(() => { onSignedIn(); render(); })));
      return;
    }
    const game = h("section", { class: "panel new-game" }, h("h2", {}, t("lobby.new")));
    const code = h("input", { name: "code", autocomplete: "off", required: true, maxlength: 32, "aria-label": t("lobby.code"), placeholder: t("lobby.code") });
    const join = h("form", {
      class: "panel join",
      onsubmit: (e) => {
        e.preventDefault();
        onJoinCode(code.value.trim());
      },
    }, h("h2", {}, t("lobby.join")), h("div", { class: "row" }, code, h("button", { type: "submit", dataset: { action: "join" } }, t("lobby.join_button"))));
    fill(root, h("div", { class: "lobby" },
      message,
      tablesPanel(),
      game,
      join,
      h("section", { class: "panel your-matches" }, h("h2", {}, t("lobby.matches")), list, more)));
    loadMatches(false);
    follow();
    const form = () => newGameForm(rulesets, {
      onCreate: async (body) => {
        const { data } = await api.post("/matches/", body);
        onOpenMatch(data.id);
      },
      onError: (err) => { message.textContent = errorText(err); },
    });
    if (rulesets) game.append(form());
    else {
      api.get("/rules/").then(({ data }) => {
        rulesets = data;
        game.append(form());
      }, (err) => { message.textContent = errorText(err); });
    }
  }

  render();
  return {
    relabel: render,
    close() {
      if (stream) stream.stop();
      clearTimeout(refreshTimer);
    },
  };
}
