// The lobby: sign in (signin.js), a quick match at one of the house's tables, watch a match
// (watch.js), start a game, join with a code, resume or replay a match. The list of your matches follows your account's live
// stream (GET /stream/): your turn (and its end), a match that starts or ends, shows without a
// reload.

import { api, session } from "./api.js";
import { h, fill } from "./dom.js";
import { local, t } from "./i18n.js";
import { accountPanel } from "./account.js";
import { newGameForm } from "./newgame.js";
import { rematchOffer } from "./rematch.js";
import { rulesets, title } from "./rules.js";
import { signInPanel } from "./signin.js";
import { openStream } from "./stream.js";
import { watchPanel } from "./watch.js";
import { errorText } from "./words.js";

/**
 * @import { SeatSummary, RulesetInfo, Rematch } from "./api.js"
 */

/**
 * @typedef {{id: number, ruleset: string, status: string, round: number|null,
 *   your_turn: boolean, seats: SeatSummary[], rematch: Rematch|null}} MatchSummary  a match as
 *   GET /matches/ lists it
 * @typedef {{slug: string, name: string, ruleset_title: {en: string, zh: string},
 *   options_described: {label: {en: string, zh: string}, text: {en: string, zh: string}}[],
 *   turn_seconds: number|null, bots_after: number}} HouseTable  a table as GET /tables/ lists it
 */

const PAGE = 10;
const MAX_PAGE = 100;
const LIST_REFRESH_MS = 200; // a burst of stream messages reloads the list once
const ACCOUNT_EVENTS = ["seated", "player_joined", "match_started", "your_turn",
  "turn_passed", "match_finished", "rematch_offered", "match_paused", "match_resumed"];

/** @param {SeatSummary} seat */
function seatLabel(seat) {
  if (seat.you) return t("seat.you");
  if (seat.kind === "bot") return `${t("seat.bot", { n: seat.seat })} · ${t(`level.${seat.level}`)}`;
  return seat.player || t("seat.open");
}

/**
 * @param {MatchSummary} match
 * @param {RulesetInfo[]} infos
 * @param {(id: number) => void} onOpen
 * @param {() => void} onChanged  the list is to be read again
 */
function matchItem(match, infos, onOpen, onChanged) {
  const game = title(infos.find((r) => r.name === match.ruleset), match.ruleset);
  const facts = [t("table.match", { id: match.id }), t(`status.${match.status}`)];
  if (match.round) facts.push(t("lobby.round", { n: match.round }));
  return h(
    "li",
    { class: `match-item ${match.status}`, dataset: { match: match.id, status: match.status, yourTurn: String(match.your_turn) } },
    h("div", {},
      h("strong", {}, game), " ", facts.join(" · "),
      match.your_turn ? h("span", { class: "badge to-act" }, t("lobby.your_turn")) : null,
      h("div", { class: "seat-list" }, match.seats.map(seatLabel).join(", ")),
      rematchOffer(match, onChanged)),
    resumeButton(match, onOpen),
  );
}

/**
 * Resume a match in play; open one over; take your seat back in a paused one (the server plays on).
 * @param {MatchSummary} match
 * @param {(id: number) => void} onOpen
 */
function resumeButton(match, onOpen) {
  if (match.status === "paused") {
    return h("button", {
      type: "button",
      class: "primary",
      dataset: { action: "take-seat" },
      // The table tells what happened if the server refused: it opens either way.
      onclick: async () => {
        await api.post(`/matches/${match.id}/autoplay/`, { on: false }).catch(() => {});
        onOpen(match.id);
      },
    }, t("action.autoplay_off"));
  }
  const over = match.status === "finished" || match.status === "aborted";
  const resume = h("button", { type: "button", dataset: { action: "resume" }, onclick: () => onOpen(match.id) },
    over ? t("lobby.open") : t("lobby.resume"));
  if (!over) return resume;
  return h("span", { class: "buttons" }, resume,
    h("a", { class: "button", href: `#/replay/${match.id}`, dataset: { action: "replay" } }, t("lobby.replay")));
}

/** @param {HouseTable} table */
function tableFacts(table) {
  const facts = table.options_described.map((o) => `${local(o.label)} ${local(o.text)}`);
  // null: the server's default (a clock only when people share the table).
  if (table.turn_seconds !== null) {
    facts.push(table.turn_seconds ? t("tables.clock", { n: table.turn_seconds }) : t("tables.no_clock"));
  }
  facts.push(table.bots_after ? t("tables.bots_after", { n: table.bots_after }) : t("tables.bots_now"));
  return facts.join(" · ");
}

/**
 * @param {HouseTable} table
 * @param {(slug: string) => Promise<void>} onPlay
 */
function tableItem(table, onPlay) {
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
    h("div", {}, h("strong", {}, table.name), " ", h("span", { class: "ruleset" }, local(table.ruleset_title)),
      h("div", { class: "table-facts" }, tableFacts(table))),
    play);
}

/**
 * The games the server plays, by title: "A, B and C".
 * @param {RulesetInfo[]} infos
 */
function games(infos) {
  const titles = infos.map((info) => title(info, info.name));
  if (titles.length < 2) return titles.join("");
  return t("list.and", { rest: titles.slice(0, -1).join(t("list.comma")), last: titles[titles.length - 1] });
}

/**
 * @param {HTMLElement} root
 * @param {{onOpenMatch: (id: number) => void, onJoinCode: (code: string) => void,
 *   onSignedIn: () => void, onSignedOut: () => void}} how
 */
export function openLobby(root, { onOpenMatch, onJoinCode, onSignedIn, onSignedOut }) {
  root.dataset.screen = "lobby";
  /** @type {HouseTable[]|null} */
  let tables = null;
  /** @type {{stop: () => void}|null} */
  let stream = null;
  /** @type {ReturnType<typeof setTimeout>|undefined} */
  let refreshTimer;
  const message = h("p", { class: "message", role: "alert" });
  const list = h("ul", { class: "matches" });
  const more = h("button", { type: "button", hidden: true, dataset: { action: "more" } }, t("lobby.more"));
  /** @type {string|null} */
  let before = null;
  let shown = 0;
  let reading = Promise.resolve();

  // The next page of your matches (`more`), or those shown read again (at least a page): one
  // read at a time, so that an older answer never lands after a newer one. Without the
  // rulesets' titles, the list names each game by its ruleset.
  /** @param {boolean} more */
  function loadMatches(more) {
    reading = reading.then(async () => {
      const limit = more ? PAGE : Math.min(MAX_PAGE, Math.max(PAGE, shown));
      try {
        const [{ data }, infos] = await Promise.all([
          api.get(`/matches/?limit=${limit}${more ? `&before=${before}` : ""}`),
          rulesets().catch(() => /** @type {RulesetInfo[]} */ ([])),
        ]);
        showMatches(data, more, infos);
      } catch (err) {
        message.textContent = errorText(err);
      }
    });
  }
  more.addEventListener("click", () => loadMatches(true));

  /**
   * @param {{results: MatchSummary[], next: string|null}} data
   * @param {boolean} adding
   * @param {RulesetInfo[]} infos
   */
  function showMatches(data, adding, infos) {
    if (!adding) list.replaceChildren();
    if (!list.children.length && !data.results.length) list.append(h("li", { class: "empty" }, t("lobby.none")));
    list.append(...data.results.map((m) => matchItem(m, infos, onOpenMatch, () => loadMatches(false))));
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
    const differs = (/** @type {{match: number, status: string, your_turn: boolean}} */ m) => {
      const item = /** @type {HTMLElement|null} */ (list.querySelector(`.match-item[data-match="${m.match}"]`));
      return !item || item.dataset.status !== m.status || item.dataset.yourTurn !== String(m.your_turn);
    };
    stream = openStream("/stream/", {
      on: {
        ...Object.fromEntries(ACCOUNT_EVENTS.map((name) => [name, later])),
        matches: (/** @type {Parameters<typeof differs>[0][]} */ open) => { if (open.some(differs)) later(); },
      },
      onRefused: onSignedOut, // the token was logged out, revoked or expired
      onUnsupported: () => {}, // the list is read when the lobby opens, as before streams
    });
  }

  /** @param {string} slug */
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
      const welcome = h("p", { class: "welcome" });
      fill(root, h("div", { class: "lobby" },
        welcome,
        signInPanel(() => { onSignedIn(); render(); })));
      rulesets().then((infos) => { welcome.textContent = t("lobby.welcome", { games: games(infos) }); },
        (err) => { welcome.textContent = errorText(err); });
      return;
    }
    const game = h("section", { class: "panel new-game" }, h("h2", {}, t("lobby.new")));
    const code = h("input", { name: "code", autocomplete: "off", required: true, maxlength: 32, "aria-label": t("lobby.code"), placeholder: t("lobby.code") });
    const join = h("form", {
      class: "panel join",
      onsubmit: (/** @type {SubmitEvent} */ e) => {
        e.preventDefault();
        onJoinCode(code.value.trim());
      },
    }, h("h2", {}, t("lobby.join")), h("div", { class: "row" }, code, h("button", { type: "submit", dataset: { action: "join" } }, t("lobby.join_button"))));
    const me = session.read();
    fill(root, h("div", { class: "lobby" },
      message,
      h("nav", { class: "lobby-links" },
        h("a", { href: "#/leaderboard", dataset: { link: "leaderboard" } }, t("board.link")),
        me ? h("a", { href: `#/players/${me.user.id}`, dataset: { link: "profile" } }, t("profile.link")) : null),
      accountPanel(onSignedIn),
      tablesPanel(),
      watchPanel(onOpenMatch),
      game,
      join,
      h("section", { class: "panel your-matches" }, h("h2", {}, t("lobby.matches")), list, more)));
    loadMatches(false);
    follow();
    rulesets().then((infos) => {
      game.append(newGameForm(infos, {
        onCreate: async (body) => {
          const { data } = await api.post("/matches/", body);
          onOpenMatch(data.id);
        },
        onError: (err) => { message.textContent = errorText(err); },
      }));
    }, (err) => { message.textContent = errorText(err); });
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
