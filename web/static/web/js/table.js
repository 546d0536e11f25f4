// One match at the table: the seats, the trick, your hand and what you may do, the log.
// Every change arrives through the feed (feed.js); actions go to POST /matches/{id}/act/.

import { api } from "./api.js";
import { cardButton, cardRow, cardText, cardView, sortCards } from "./cards.js";
import { h, fill } from "./dom.js";
import { count, t } from "./i18n.js";
import { openFeed } from "./feed.js";
import { evaluate, listedPlays, toBeat } from "./judge.js";
import { showResults } from "./results.js";
import { about, errorText, eventText, readingText, seatDetail, seatName } from "./words.js";

const LOG_LINES = 300;
const EVALUATE_DELAY_MS = 120;
const FEW_CARDS = 9; // a hand this small is laid out without overlapping
const CLOCK_TICK_MS = 250;
const CLOCK_LOW_SECONDS = 5;

export function openTable(root, matchId, { onLobby, onSignedOut }) {
  let view = null;
  let events = [];
  let selected = new Set();
  let verdict = { kind: "empty" };
  let chosenReading = 0;
  let hintIndex = 0;
  let cutPosition = 0;
  let busy = false;
  let message = "";
  let judgeTicket = 0;
  let judgeTimer = null;
  let resultsOpen = false;
  let resultsLoading = false; // a results dialog is on its way: the page is not ready to play
  const pendingResults = [];
  // Server time minus this device's time: deadlines are the server's (its clock may differ).
  let serverOffset = 0;

  const parts = {
    header: h("header", { class: "bar" }),
    status: h("p", { class: "status", role: "status", "aria-live": "polite" }),
    invite: h("section", { class: "invite" }),
    seats: h("section", { class: "seats-area", "aria-label": t("table.turn_order") }),
    felt: h("section", { class: "felt" }),
    me: h("section", { class: "me" }),
    auto: h("div", { class: "autoplay" }),
    judge: h("p", { class: "judge", "aria-live": "polite" }),
    hand: h("div", { class: "hand", role: "group" }),
    actions: h("div", { class: "actions" }),
    listed: h("section", { class: "listed" }),
    scores: h("section", { class: "scores" }),
    log: h("section", { class: "log" }),
  };
  const logList = h("ol", { class: "log-lines" });

  fill(
    root,
    h(
      "div",
      { class: "table-screen" },
      parts.header,
      h(
        "main",
        { class: "table-main" },
        parts.status,
        parts.invite,
        parts.seats,
        parts.felt,
        h("section", { class: "player" }, parts.me, parts.auto, parts.judge, parts.hand, parts.actions, parts.listed),
      ),
      h("aside", { class: "table-side" }, parts.scores, parts.log),
    ),
  );
  root.dataset.screen = "table";
  root.dataset.match = matchId;
  root.dataset.busy = "true";

  const feed = openFeed(matchId, {
    onView: (next, fresh) => receive(next, fresh),
    onError: (err) => {
      if (err.status === 401) return onSignedOut();
      message = errorText(err);
      if (view) renderStatus();
      else fill(parts.status, h("span", { class: "message" }, message));
    },
    onAlive: () => {
      if (message !== t("err.network")) return;
      message = "";
      renderStatus();
    },
  });

  // ---- state ----------------------------------------------------------------------------

  function receive(next, fresh) {
    const first = view === null;
    const roundChanged = view && view.state && next.state && view.state.round !== next.state.round;
    view = next;
    if (view.clock) serverOffset = Date.parse(view.clock.server_time) - Date.now();
    if (message && message !== t("err.stale")) message = "";
    events = events.concat(fresh).slice(-LOG_LINES);
    const hand = new Set((view.state?.hand || []).map((c) => c.id));
    selected = new Set([...selected].filter((id) => hand.has(id)));
    if (roundChanged || !view.your_turn) hintIndex = 0;
    if (view.state && view.state.phase === "cut") cutPosition = Math.min(cutPosition, view.state.cut_positions - 1);
    // A person whose seat the server plays (托管) is not stopped by each round's results, only
    // by the final ones; the others stay behind the Results button.
    const away = view.you !== null && view.you !== undefined && !!view.seats[view.you].autoplay;
    for (const e of fresh) {
      if (first || e.type !== "round_settled") continue;
      if (!away || (view.status === "finished" && e.round === view.state.round)) pendingResults.push(e.round);
    }
    if (first && view.status === "finished" && view.state) pendingResults.push(view.state.round);
    render();
    appendLog(fresh);
    judgeSelection();
    nextResults();
  }

  async function nextResults() {
    if (resultsOpen || !pendingResults.length) return;
    resultsOpen = true;
    resultsLoading = true;
    markBusy();
    const number = pendingResults.shift();
    const shown = () => {
      resultsLoading = false;
      markBusy();
    };
    try {
      await showResults(view, number, { onLobby, onShown: shown });
    } catch (err) {
      message = errorText(err);
      renderStatus();
    }
    resultsOpen = false;
    shown();
    nextResults();
  }

  // ---- clocks ---------------------------------------------------------------------------

  function secondsUntil(iso) {
    return Math.max(0, (Date.parse(iso) - (Date.now() + serverOffset)) / 1000);
  }

  // A countdown to `iso` (server time), kept up to date by tickClocks; `words`: its text. Not
  // read out each second inside the status line's live region.
  function clockView(iso, words = "clock.left", cls = "") {
    const el = h("span", { class: `clock ${cls}`, role: "timer", "aria-live": "off", dataset: { clock: iso, words } });
    showClock(el);
    return el;
  }

  function showClock(el) {
    const left = secondsUntil(el.dataset.clock);
    const seconds = String(Math.ceil(left));
    if (el.dataset.seconds === seconds) return;
    el.textContent = t(el.dataset.words, { n: seconds });
    el.dataset.seconds = seconds;
    el.classList.toggle("low", left <= CLOCK_LOW_SECONDS);
  }

  function tickClocks() {
    for (const el of root.querySelectorAll("[data-clock]")) showClock(el);
  }

  const clockTimer = setInterval(tickClocks, CLOCK_TICK_MS);

  function deadline() {
    return view.status === "active" && view.clock ? view.clock.deadline : null;
  }

  // ---- acting ---------------------------------------------------------------------------

  async function act(action) {
    if (busy || !view || !view.your_turn) return;
    busy = true;
    message = "";
    renderControls();
    try {
      const { data } = await api.post(`/matches/${matchId}/act/`, {
        expected_version: view.version,
        action,
      });
      selected = new Set();
      verdict = { kind: "empty" };
      await feed.accept(data);
    } catch (err) {
      if (err.status === 401) return onSignedOut();
      message = errorText(err);
      if (err.code === "stale_version") feed.refresh();
    } finally {
      busy = false;
      render();
    }
  }

  // 托管: the server plays your seat (on) or you take it back (off). The page is not busy
  // meanwhile: where the server plays its turns within the request (no worker), the answer to
  // "on" may come only after many moves, and taking the seat back must stay possible.
  async function setAutoplay(on) {
    try {
      const { data } = await api.post(`/matches/${matchId}/autoplay/`, { on });
      await feed.accept(data);
    } catch (err) {
      if (err.status === 401) return onSignedOut();
      message = errorText(err);
      renderStatus();
    }
  }

  function playSelected() {
    if (verdict.kind !== "legal") return;
    const play = verdict.plays[Math.min(chosenReading, verdict.plays.length - 1)];
    act(play);
  }

  function canPass() {
    return view && view.your_turn && view.legal_actions.some((a) => a.type === "pass");
  }

  function listed() {
    return view && view.your_turn ? view.legal_actions.filter((a) => a.type === "play") : [];
  }

  function select(ids) {
    selected = new Set(ids);
    chosenReading = 0;
    renderHand();
    judgeSelection();
  }

  function hint() {
    const plays = listed();
    if (!plays.length) return;
    select(plays[hintIndex % plays.length].cards);
    hintIndex += 1;
  }

  function toggle(id) {
    const next = new Set(selected);
    if (next.has(id)) next.delete(id);
    else next.add(id);
    select(next);
  }

  // ---- judging the selection ------------------------------------------------------------

  function judgeSelection() {
    clearTimeout(judgeTimer);
    const ticket = ++judgeTicket;
    const ids = [...selected];
    if (!view || !view.state || view.state.phase !== "play" || !ids.length) {
      verdict = { kind: "empty" };
      return renderJudge();
    }
    const plays = view.your_turn ? listedPlays(view, ids) : [];
    if (plays.length) {
      verdict = { kind: "legal", plays };
      return renderJudge();
    }
    verdict = { kind: "checking" };
    renderJudge();
    judgeTimer = setTimeout(async () => {
      try {
        const answer = await evaluate(view, ids);
        if (ticket !== judgeTicket) return;
        verdict = explain(answer, ids);
      } catch (err) {
        if (ticket !== judgeTicket) return;
        verdict = { kind: "illegal", text: errorText(err) };
      }
      renderJudge();
    }, EVALUATE_DELAY_MS);
  }

  function explain(answer, ids) {
    if (!answer.valid) return { kind: "illegal", text: t("judge.not_combo") };
    const reading = readingText(answer.readings[0]);
    const previous = toBeat(view);
    if (!view.your_turn) return { kind: "info", text: t("judge.waiting", { reading }) };
    if (previous && !answer.beats_previous) {
      return { kind: "illegal", text: t("judge.no_beat", { reading, previous: readingText(previous.reading) }) };
    }
    // Readable and beating, though not listed: the server has the last word when it is sent.
    const readings = previous ? answer.beating_readings : answer.readings;
    return { kind: "legal", plays: readings.map((r) => ({ type: "play", cards: ids, reading: r })) };
  }

  // ---- rendering ------------------------------------------------------------------------

  function render() {
    if (!view) return;
    Object.assign(root.dataset, {
      status: view.status,
      phase: view.state ? view.state.phase : "waiting",
      yourTurn: String(view.your_turn),
      version: String(view.version),
      round: String(view.state ? view.state.round : 0),
    });
    // Until every seat is taken there is nothing to show but the seats and the invitation.
    const dealt = view.status !== "waiting";
    parts.felt.hidden = !dealt;
    parts.hand.parentElement.hidden = !dealt;
    renderHeader();
    renderStatus();
    renderInvite();
    renderSeats();
    renderFelt();
    renderMe();
    renderHand();
    renderJudge();
    renderControls();
    renderScores();
  }

  function markBusy() {
    root.dataset.busy = String(busy || resultsLoading);
  }

  function renderControls() {
    markBusy();
    renderAutoplay();
    renderActions();
    renderListed();
  }

  function renderHeader() {
    const state = view.state;
    const rulesTitle = view.ruleset === "510k" ? "510K · 五十K" : "干瞪眼 · Gandengyan";
    const round = state && state.round
      ? state.rounds
        ? t("table.round_of", { n: state.round, m: state.rounds })
        : t("table.round", { n: state.round })
      : "";
    fill(
      parts.header,
      h("a", { class: "back", href: "#/" }, t("nav.lobby")),
      h("h1", {}, rulesTitle),
      h("span", { class: "bar-facts" }, t("table.match", { id: view.id }), round ? ` · ${round}` : ""),
    );
  }

  function renderStatus() {
    if (!view) return;
    let text;
    if (view.status === "waiting") text = t("table.waiting_players");
    else if (view.status === "finished") text = t("table.finished");
    else if (view.your_turn) text = t("table.your_turn");
    else if (view.to_act !== null) text = t("table.to_act", { name: seatName(view, view.to_act) });
    else text = "";
    const ends = deadline();
    fill(
      parts.status,
      h("span", { class: view.your_turn ? "your-turn" : "" }, text),
      ends ? clockView(ends, view.your_turn ? "clock.you" : "clock.left", "status-clock") : null,
      view.status === "waiting" && view.bots_fill_at ? clockView(view.bots_fill_at, "clock.bots") : null,
      message ? h("span", { class: "message" }, message) : null,
      view.status !== "waiting" && view.state && view.state.round > (view.status === "finished" ? 0 : 1)
        ? h("button", {
            type: "button",
            class: "link",
            dataset: { action: "results" },
            onclick: () => {
              const state = view.state;
              pendingResults.push(view.status === "finished" ? state.round : state.round - 1);
              nextResults();
            },
          }, t("table.results"))
        : null,
    );
  }

  function renderInvite() {
    if (!view.invite_code) {
      parts.invite.hidden = true;
      return;
    }
    parts.invite.hidden = false;
    const link = `${location.origin}${location.pathname}#/join/${view.invite_code}`;
    const input = h("input", { class: "invite-link", readonly: true, value: link, "aria-label": t("table.invite"), onfocus: (e) => e.target.select() });
    const copy = h("button", {
      type: "button",
      dataset: { action: "copy-invite" },
      onclick: async () => {
        input.select();
        try {
          await navigator.clipboard.writeText(link);
          copy.textContent = t("table.copied");
        } catch {
          // Clipboard refused (no permission or not a secure page): the link stays selected.
        }
      },
    }, t("table.copy"));
    fill(parts.invite, h("h2", {}, t("table.invite")), h("p", {}, t("table.share")), h("div", { class: "invite-row" }, input, copy), h("p", { class: "code" }, t("join.code", { code: view.invite_code })));
  }

  function sideOf(seat) {
    const teams = view.state?.teams || [];
    return teams.findIndex((team) => team.includes(seat));
  }

  function badges(seat) {
    const s = view.state;
    if (!s) return [];
    const out = [];
    const badge = (text, cls = "", title = null) => out.push(h("span", { class: `badge ${cls}`, title }, text));
    if (s.to_act === seat && view.status === "active") badge(t("badge.to_act"), "to-act");
    if (s.to_act === seat && deadline()) out.push(clockView(deadline(), "clock.left", "badge"));
    const autoplay = view.seats[seat] && view.seats[seat].autoplay;
    if (autoplay) badge(t("badge.autoplay"), "autoplay", t(`badge.autoplay.${autoplay}`));
    if (s.banker === seat) badge(t("badge.banker"), "banker");
    if (s.face_up && s.face_up.holder === seat) badge(t("badge.face_up"), "face-up");
    const side = sideOf(seat);
    if (side >= 0 && s.banker === null) badge(sideLabel(s.teams[side], side), `side-${side}`);
    const place = (s.finished || []).indexOf(seat);
    if (place === 0) badge(t("badge.first"), "place");
    else if (place > 0) badge(t("badge.place", { n: place + 1 }), "place");
    if (s.eliminated && s.eliminated[seat]) badge(t("badge.eliminated"), "out");
    if (s.forfeited && s.forfeited[seat]) badge(t("badge.forfeited"), "out");
    if (s.played_any && s.phase === "play" && !s.played_any[seat] && !(s.eliminated && s.eliminated[seat])) {
      badge(t("badge.not_played"), "quiet");
    }
    return out;
  }

  function seatBox(seat, tag = "li") {
    const info = view.seats[seat];
    const s = view.state;
    const toAct = s && s.to_act === seat && view.status === "active";
    const side = sideOf(seat);
    return h(
      tag,
      {
        class: `seat${toAct ? " to-act" : ""}${info.you ? " you" : ""}${side >= 0 ? ` side-${side}` : ""}`,
        dataset: { seat },
        "aria-current": toAct ? "true" : null,
      },
      h("div", { class: "seat-name" }, seatName(view, seat), seatDetail(info) ? h("small", {}, ` · ${seatDetail(info)}`) : null),
      h(
        "div",
        { class: "seat-facts" },
        s ? h("span", { class: "count", title: count("seat.cards", s.counts[seat]) }, h("span", { class: "card-back", "aria-hidden": "true" }), count("seat.cards", s.counts[seat])) : null,
        h("span", {}, t("seat.score", { n: info.score })),
        s && s.captured ? h("span", { class: "points" }, t("seat.captured", { n: s.captured[seat] })) : null,
      ),
      h("div", { class: "badges" }, badges(seat)),
    );
  }

  function turnOrder() {
    const seating = view.state ? view.state.seating : view.seats.map((s) => s.seat);
    const mine = seating.indexOf(view.you);
    return mine < 0 ? seating : seating.slice(mine + 1).concat(seating.slice(0, mine));
  }

  function renderSeats() {
    fill(
      parts.seats,
      h("h2", { class: "order-caption" }, `${t("table.turn_order")} →`),
      h("ol", { class: "seats" }, turnOrder().map((seat) => seatBox(seat))),
    );
  }

  function infoItem(label, ...value) {
    return h("div", { class: "info-item" }, h("dt", {}, label), h("dd", {}, value));
  }

  function sideLabel(team, i) {
    const banker = view.state.banker;
    if (banker === null || banker === undefined) return t("badge.side", { x: "AB"[i] });
    return team.includes(banker) ? t("badge.banker") : t("badge.defenders");
  }

  function infoPanel() {
    const s = view.state;
    if (!s) return null;
    const items = [];
    if (s.face_up) {
      items.push(infoItem(t("info.face_up"), cardView(s.face_up.card, "small"), " ", t("info.held_by", { name: seatName(view, s.face_up.holder) })));
    }
    if (s.cut_position !== undefined && s.cut_position !== null) items.push(infoItem(t("info.cut"), String(s.cut_position)));
    if (s.bids && s.bids.length && s.phase === "bid") {
      items.push(infoItem(t("info.bids"), s.bids.map((b) => t(b.solo ? "info.bid_solo" : "info.bid_no", { name: seatName(view, b.seat) })).join(", ")));
    }
    if (s.teams && s.teams.length) {
      items.push(infoItem(
        t("info.sides"),
        h("ul", { class: "sides" }, s.teams.map((team, i) =>
          h("li", { class: `side-${i}` },
            h("span", { class: `badge side-${i}` }, sideLabel(team, i)),
            ` ${team.map((seat) => seatName(view, seat)).join(" & ")}: `,
            h("strong", {}, t("info.side_points", { points: (s.side_captured || [])[i] ?? 0 }))))),
      ));
    }
    if (s.pile !== undefined) items.push(infoItem(t("info.pile"), h("span", { class: "pile" }, h("span", { class: "card-back", "aria-hidden": "true" }), count("info.pile_cards", s.pile))));
    if (s.bombs !== undefined) items.push(infoItem(t("info.bombs"), s.bombs.length ? t("info.bomb_sizes", { n: s.bombs.length, sizes: s.bombs.join(", ") }) : t("info.no_bombs")));
    if (s.dice && s.dice.length && s.round === 1) items.push(infoItem(t("info.dice"), s.dice.join(", ")));
    return items.length ? h("dl", { class: "info" }, items) : null;
  }

  function renderFelt() {
    const s = view.state;
    const trick = s ? s.trick : [];
    fill(
      parts.felt,
      h("h2", { class: "visually-hidden" }, t("trick.title")),
      h(
        "div",
        { class: "trick", dataset: { plays: trick.length } },
        trick.length
          ? trick.map((play) =>
              h(
                "div",
                { class: `play${play.latest ? " latest" : ""}`, dataset: { seat: play.seat } },
                h("span", { class: "who" }, seatName(view, play.seat)),
                cardRow(play.cards, play.latest ? "medium" : "small"),
                h("span", { class: "reading" }, readingText(play.reading)),
                play.latest ? h("span", { class: "badge latest-tag" }, t("trick.latest")) : null,
              ),
            )
          : h(
              "p",
              { class: "empty" },
              s && s.phase === "play" && s.to_act !== null ? about(view, s.to_act, "trick.leads", { name: seatName(view, s.to_act) }) : t("trick.empty"),
            ),
      ),
      infoPanel(),
    );
  }

  function renderAutoplay() {
    const mine = view && view.you !== null && view.you !== undefined ? view.seats[view.you] : null;
    if (!mine || view.status !== "active") return fill(parts.auto);
    if (mine.autoplay) {
      return fill(
        parts.auto,
        h("p", { class: "prompt" }, t(`autoplay.note.${mine.autoplay}`)),
        h("button", { type: "button", class: "primary", dataset: { action: "autoplay-off" }, onclick: () => setAutoplay(false) }, t("action.autoplay_off")),
      );
    }
    fill(parts.auto, h("button", { type: "button", dataset: { action: "autoplay-on" }, onclick: () => setAutoplay(true) }, t("action.autoplay_on")));
  }

  function renderMe() {
    if (view.you === null || view.you === undefined) return fill(parts.me);
    fill(parts.me, seatBox(view.you, "div"));
  }

  function renderHand() {
    const s = view && view.state;
    const hand = s ? sortCards(s.hand) : [];
    const focused = document.activeElement && document.activeElement.dataset ? document.activeElement.dataset.id : null;
    parts.hand.setAttribute("aria-label", `${t("hand.title")} · ${count("hand.count", hand.length)}`);
    const myPlay = view && view.your_turn && s && s.phase === "play";
    parts.hand.dataset.size = hand.length <= FEW_CARDS ? "few" : "many";
    fill(
      parts.hand,
      hand.length
        ? hand.map((card) => cardButton(card, { selected: selected.has(card.id), dimmed: myPlay && !card.playable, onToggle: toggle }))
        : h("p", { class: "empty" }, t("hand.empty")),
    );
    if (focused !== null && focused !== undefined) {
      const again = parts.hand.querySelector(`[data-id="${focused}"]`);
      if (again) again.focus();
    }
  }

  function renderJudge() {
    if (!view) return;
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
              "aria-checked": String(i === chosenReading),
              onclick: () => { chosenReading = i; renderJudge(); },
            }, readingText(p.reading)))),
        ];
      } else {
        const reading = readingText(plays[0].reading);
        content = previous
          ? t("judge.beats", { reading, previous: readingText(previous.reading) })
          : t("judge.legal", { reading });
      }
    } else content = verdict.text;
    parts.judge.className = `judge ${verdict.kind}`;
    parts.judge.dataset.verdict = verdict.kind;
    fill(parts.judge, content);
    updateButtons();
  }

  // The play and clear buttons follow the selection without being rebuilt (focus stays put).
  function updateButtons() {
    const enabled = {
      play: view.your_turn && verdict.kind === "legal",
      clear: selected.size > 0,
    };
    for (const [action, on] of Object.entries(enabled)) {
      const el = parts.actions.querySelector(`[data-action=${action}]`);
      if (el) el.disabled = busy || !on;
    }
  }

  function button(action, label, onclick, { primary = false, disabled = false } = {}) {
    return h("button", { type: "button", class: primary ? "primary" : "", dataset: { action }, disabled: disabled || busy, onclick }, label);
  }

  function renderActions() {
    if (!view) return;
    const s = view.state;
    const mine = view.your_turn && view.status === "active";
    if (s && s.phase === "cut" && mine) {
      const last = s.cut_positions - 1;
      const out = h("output", { class: "cut-value" }, String(cutPosition));
      return fill(
        parts.actions,
        h("p", { class: "prompt" }, t("cut.prompt")),
        h("label", { class: "cut" }, t("cut.position"), " ",
          h("input", {
            type: "range", min: 0, max: last, value: cutPosition, name: "cut-position",
            oninput: (e) => { cutPosition = Number(e.target.value); out.textContent = String(cutPosition); },
          }), " ", out),
        button("cut", t("action.cut"), () => act({ type: "cut", position: cutPosition }), { primary: true }),
        button("cut-random", t("action.cut_random"), () => act({ type: "cut", position: null })),
      );
    }
    if (s && s.phase === "bid" && mine) {
      return fill(
        parts.actions,
        h("p", { class: "prompt" }, t("bid.prompt")),
        button("bid-solo", t("action.bid_solo"), () => act({ type: "bid", solo: true })),
        button("bid-no", t("action.bid_no"), () => act({ type: "bid", solo: false }), { primary: true }),
      );
    }
    if (!s || s.phase !== "play" || view.status !== "active") return fill(parts.actions);
    fill(
      parts.actions,
      button("play", t("action.play"), playSelected, { primary: true }),
      button("pass", t("action.pass"), () => act({ type: "pass" }), { disabled: !canPass() }),
      button("hint", t("action.hint"), hint, { disabled: !listed().length }),
      button("clear", t("action.clear"), () => select([])),
      h("p", { class: "keys" }, t("keys.help")),
    );
    updateButtons();
  }

  function renderListed() {
    const plays = listed();
    if (!plays.length) return fill(parts.listed);
    const byId = new Map(view.state.hand.map((c) => [c.id, c]));
    fill(
      parts.listed,
      h("h2", {}, t("listed.title", { n: plays.length })),
      h("ul", { class: "listed-plays" }, plays.map((play) =>
        h("li", {}, h("button", {
          type: "button",
          class: "chip listed-play",
          dataset: { cards: play.cards.join(",") },
          disabled: busy,
          onclick: () => select(play.cards),
        }, readingText(play.reading), play.extras ? ` (+≤${play.extras})` : "",
        h("small", {}, ` ${play.cards.map((id) => cardText(byId.get(id).code)).join(" ")}`))))),
    );
  }

  function renderScores() {
    fill(
      parts.scores,
      h("h2", {}, t("scores.title")),
      h("ol", { class: "score-list" }, view.seats.map((seat) =>
        h("li", { class: seat.you ? "you" : "" },
          h("span", {}, seatName(view, seat.seat),
            seat.eliminated ? h("small", { class: "out" }, ` · ${t("badge.eliminated")}`) : null),
          h("strong", {}, String(seat.score))))),
    );
  }

  function logLine(event) {
    const text = eventText(view, event);
    return text === null ? null : h("li", { dataset: { seq: event.seq, type: event.type } }, event.round ? h("span", { class: "log-round" }, `R${event.round}`) : null, text);
  }

  function appendLog(fresh) {
    if (!parts.log.firstChild) {
      fill(parts.log, h("h2", {}, t("log.title")), logList);
    }
    const stick = logList.scrollTop + logList.clientHeight >= logList.scrollHeight - 8;
    for (const e of fresh) {
      const line = logLine(e);
      if (line) logList.append(line);
    }
    while (logList.children.length > LOG_LINES) logList.firstChild.remove();
    if (stick) logList.scrollTop = logList.scrollHeight;
  }

  function rebuildLog() {
    parts.log.replaceChildren();
    logList.replaceChildren();
    appendLog(events);
  }

  // ---- keyboard -------------------------------------------------------------------------

  function onKey(e) {
    if (e.ctrlKey || e.metaKey || e.altKey || document.querySelector("dialog[open]")) return;
    if (e.target.closest && e.target.closest("input, select, textarea")) return;
    const cards = [...parts.hand.querySelectorAll("button.card")];
    const at = cards.indexOf(document.activeElement);
    if (e.key === "ArrowRight" || e.key === "ArrowLeft") {
      if (!cards.length) return;
      const step = e.key === "ArrowRight" ? 1 : -1;
      const next = at < 0 ? 0 : (at + step + cards.length) % cards.length;
      cards[next].focus();
      e.preventDefault();
      return;
    }
    const key = e.key.toLowerCase();
    if (key === "p") playSelected();
    else if (key === "x") { if (canPass()) act({ type: "pass" }); }
    else if (key === "h") hint();
    else if (key === "escape" || key === "c") select([]);
    else return;
    e.preventDefault();
  }

  document.addEventListener("keydown", onKey);

  return {
    relabel() {
      render();
      rebuildLog();
      judgeSelection();
    },
    close() {
      feed.stop();
      clearTimeout(judgeTimer);
      clearInterval(clockTimer);
      document.removeEventListener("keydown", onKey);
      for (const dialog of document.querySelectorAll("dialog.results")) dialog.remove();
    },
  };
}
