// The lobby: sign in (guest or account), start a game, join with a code, resume a match.

import { api, session } from "./api.js";
import { h, fill } from "./dom.js";
import { t } from "./i18n.js";
import { newGameForm } from "./newgame.js";
import { errorText } from "./words.js";

const PAGE = 10;

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
    { class: `match-item ${match.status}`, dataset: { match: match.id } },
    h("div", {},
      h("strong", {}, title), " ", facts.join(" · "),
      match.your_turn ? h("span", { class: "badge to-act" }, t("lobby.your_turn")) : null,
      h("div", { class: "seat-list" }, match.seats.map(seatLabel).join(", "))),
    h("button", { type: "button", dataset: { action: "resume" }, onclick: () => onOpen(match.id) },
      match.status === "finished" ? t("lobby.open") : t("lobby.resume")),
  );
}

export function openLobby(root, { onOpenMatch, onJoinCode, onSignedIn }) {
  root.dataset.screen = "lobby";
  let rulesets = null;
  const message = h("p", { class: "message", role: "alert" });
  const list = h("ul", { class: "matches" });
  const more = h("button", { type: "button", hidden: true, dataset: { action: "more" } }, t("lobby.more"));
  let before = null;

  async function loadMatches() {
    try {
      const { data } = await api.get(`/matches/?limit=${PAGE}${before ? `&before=${before}` : ""}`);
      if (!before && !data.results.length) list.append(h("li", { class: "empty" }, t("lobby.none")));
      list.append(...data.results.map((m) => matchItem(m, onOpenMatch)));
      before = data.next;
      more.hidden = !before;
    } catch (err) {
      message.textContent = errorText(err);
    }
  }
  more.addEventListener("click", loadMatches);

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
      game,
      join,
      h("section", { class: "panel your-matches" }, h("h2", {}, t("lobby.matches")), list, more)));
    list.replaceChildren();
    before = null;
    loadMatches();
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
  return { relabel: render, close() {} };
}
