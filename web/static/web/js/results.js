// A round's itemised settlement (GET /matches/{id}/rounds/{n}/) and the standings, in a dialog.

import { api } from "./api.js";
import { cardText } from "./cards.js";
import { append, fill, h } from "./dom.js";
import { t } from "./i18n.js";
import { about, seatName } from "./words.js";

function signed(n) {
  return n > 0 ? `+${n}` : String(n);
}

function xiBombs(bombs) {
  return (bombs || [])
    .map((b) => t("results.xi_bomb", { count: b.count, rank: b.rank }) + (b.played ? "" : ` (${t("results.held")})`))
    .join(", ");
}

// Per ruleset: the breakdown's columns, and the lines above the table.
const BREAKDOWN = {
  gandengyan: {
    columns: [
      ["results.cards_left", (b) => b.cards_left],
      ["results.doubled", (b) => (b.doubled ? t("results.yes") : "")],
      ["results.bomb_factor", (b) => `×${b.bomb_factor}`],
    ],
    summary(view, detail) {
      const result = detail.result || {};
      const lines = [];
      if (result.winner !== undefined && result.winner !== null) {
        lines.push(about(view, result.winner, "results.winner", {
          name: seatName(view, result.winner),
          reason: t(`results.reason.${result.reason}`),
        }));
      }
      if (result.bombs && result.bombs.length) {
        lines.push(t("results.bombs", { list: result.bombs.join(", ") }));
      }
      return lines;
    },
  },
  "510k": {
    columns: [
      ["results.captured", (b) => b.captured],
      ["results.place", (b) => b.place ?? "–"],
      ["results.settlement", (b) => signed(b.settlement)],
      ["results.xi", (b) => `${signed(b.xi)}${b.xi_bombs && b.xi_bombs.length ? ` (${xiBombs(b.xi_bombs)})` : ""}`],
    ],
    summary(view, detail) {
      const result = detail.result || {};
      const summary = result.summary || {};
      const lines = [];
      if (summary.banker !== null && summary.banker !== undefined) {
        lines.push(about(view, summary.banker, "results.banker", { name: seatName(view, summary.banker) }));
      }
      (summary.teams || []).forEach((team, i) => {
        lines.push(t("results.side_line", {
          names: team.map((s) => seatName(view, s)).join(" & "),
          captured: (summary.side_captured || [])[i],
          score: (summary.side_scores || [])[i],
        }));
      });
      if (summary.level) {
        lines.push(t("results.level", {
          level: t(`results.level.${summary.level}`),
          stake: (result.settlement || {}).stake ?? "",
        }));
      }
      return lines;
    },
  },
};

function scoresAfter(view, rounds, number) {
  // Scores change only when a round is settled: today's score less every later round's delta.
  return view.seats.map((seat) => {
    let score = seat.score;
    for (const r of rounds) {
      if (r.number > number && r.deltas) score -= r.deltas[seat.seat];
    }
    return score;
  });
}

function roundTable(view, detail, rounds) {
  const rules = BREAKDOWN[view.ruleset] || { columns: [], summary: () => [] };
  const scores = scoresAfter(view, rounds, detail.number);
  const hands = detail.hands || [];
  return [
    h("ul", { class: "results-summary" }, rules.summary(view, detail).map((line) => h("li", {}, line))),
    h(
      "div",
      { class: "table-wrap" },
      h(
        "table",
        { class: "results-table" },
        h(
          "thead",
          {},
          h(
            "tr",
            {},
            h("th", { scope: "col" }, t("results.seat")),
            rules.columns.map(([key]) => h("th", { scope: "col" }, t(key))),
            h("th", { scope: "col" }, t("results.delta")),
            h("th", { scope: "col" }, t("results.score")),
          ),
        ),
        h(
          "tbody",
          {},
          (detail.settlement || []).map((entry) =>
            h(
              "tr",
              { class: view.seats[entry.seat]?.you ? "you" : "" },
              h(
                "th",
                { scope: "row" },
                seatName(view, entry.seat),
                hands[entry.seat] && hands[entry.seat].length
                  ? h("small", { class: "left-cards" }, hands[entry.seat].map((c) => cardText(c.code)).join(" "))
                  : null,
              ),
              rules.columns.map(([, cell]) => h("td", {}, cell(entry.breakdown))),
              h("td", { class: entry.delta >= 0 ? "gain" : "loss" }, signed(entry.delta)),
              h("td", {}, scores[entry.seat]),
            ),
          ),
        ),
      ),
    ),
  ];
}

function standingsTable(view) {
  return h(
    "table",
    { class: "results-table standings" },
    h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("results.rank")), h("th", { scope: "col" }, t("results.seat")), h("th", { scope: "col" }, t("results.score")))),
    h(
      "tbody",
      {},
      (view.standings || []).map((s) =>
        h(
          "tr",
          { class: view.seats[s.seat]?.you ? "you" : "" },
          h("td", {}, s.rank),
          h("th", { scope: "row" }, seatName(view, s.seat), s.eliminated ? h("small", {}, ` ${t("results.eliminated")}`) : null),
          h("td", {}, s.score),
        ),
      ),
    ),
  );
}

// Shows round `number` (and the final standings once the match is over); calls `onShown()` once
// it is open and resolves when it is closed.
export async function showResults(view, number, { onLobby, onShown }) {
  const [{ data: detail }, { data: rounds }] = await Promise.all([
    api.get(`/matches/${view.id}/rounds/${number}/`),
    api.get(`/matches/${view.id}/rounds/`),
  ]);
  const over = rounds.filter((r) => r.over).map((r) => r.number);
  const dialog = h("dialog", { class: "results", "aria-labelledby": "results-title" });
  const body = h("div", { class: "results-body" });
  const show = async (n) => {
    const { data } = n === detail.number ? { data: detail } : await api.get(`/matches/${view.id}/rounds/${n}/`);
    fill(
      body,
      h("h2", { id: "results-title" }, view.status === "finished" && n === number ? t("results.match") : t("results.round", { n })),
      view.status === "finished" && n === number ? standingsTable(view) : null,
      view.status === "finished" && n === number ? h("h3", {}, t("results.round", { n })) : null,
      roundTable(view, data, rounds),
    );
  };
  await show(number);
  const close = h("button", { type: "button", class: "primary", dataset: { action: "continue" }, onclick: () => dialog.close() }, t("results.continue"));
  append(dialog, [
    body,
    over.length > 1
      ? h("nav", { class: "round-picker", "aria-label": t("results.past") }, over.map((n) =>
          h("button", { type: "button", class: "chip", onclick: () => show(n) }, t("table.round", { n }))))
      : null,
    h(
      "div",
      { class: "dialog-actions" },
      view.status === "finished"
        ? h("button", { type: "button", dataset: { action: "lobby" }, onclick: () => { dialog.close(); onLobby(); } }, t("results.lobby"))
        : null,
      close,
    ),
  ]);
  document.body.append(dialog);
  return new Promise((resolve) => {
    dialog.addEventListener("close", () => {
      dialog.remove();
      resolve();
    });
    dialog.showModal();
    close.focus();
    onShown();
  });
}
