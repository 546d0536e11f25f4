// What the table says in words: seat names, readings, events as log lines, refusals.

import { RANKS, cardText } from "./cards.js";
import { has, t } from "./i18n.js";

export function seatName(view, seat) {
  const info = view.seats[seat];
  if (!info) return `#${seat}`;
  if (info.you) return t("seat.you");
  if (info.kind === "bot") return t("seat.bot", { n: seat });
  return info.player || t("seat.open");
}

export function seatDetail(info) {
  if (info.kind === "bot") return t(`level.${info.level}`);
  return null;
}

function span(from, units) {
  const start = RANKS.indexOf(from);
  return RANKS[start + units - 1] || from;
}

// {type, rank, length, triples?} as words: "pair of 8s", "straight 8–Q", "three 5s + 2".
export function readingText(reading) {
  if (!reading) return "";
  const r = reading.rank;
  switch (reading.type) {
    case "single":
    case "pair":
      return t(`reading.${reading.type}`, { r });
    case "straight":
      return t("reading.straight", { from: r, to: span(r, reading.length) });
    case "pair_chain":
      return t("reading.pair_chain", { from: r, to: span(r, reading.length / 2) });
    case "bomb":
      return t("reading.bomb", { n: reading.length, count: numberWord(reading.length), r });
    case "triple":
      return withExtras(t("reading.triple", { r }), reading.length - 3);
    case "plane": {
      const triples = reading.triples || Math.floor(reading.length / 3);
      const low = RANKS[RANKS.indexOf(r) - triples + 1] || r;
      return withExtras(t("reading.plane", { from: low, to: r }), reading.length - 3 * triples);
    }
    default:
      return `${reading.type} ${r}`;
  }
}

function numberWord(n) {
  return has(`count.${n}`) ? t(`count.${n}`) : String(n);
}

function withExtras(base, extras) {
  return extras > 0 ? t("reading.extras", { base, n: extras }) : base;
}

function signed(n) {
  return n > 0 ? `+${n}` : String(n);
}

function names(view, seats) {
  return seats.map((s) => seatName(view, s)).join(" & ");
}

// `key`, or its `.you` form when the sentence is about the reader ("You pass", not "You passes").
export function about(view, seat, key, params) {
  const mine = seat !== undefined && seat !== null && view.seats[seat] && view.seats[seat].you;
  return t(mine && has(`${key}.you`) ? `${key}.you` : key, params);
}

// Why the server moved for a seat: its clock ran out, the seat is in 托管, or no other move.
function autoText(reason) {
  return has(`ev.auto.${reason}`) ? t(`ev.auto.${reason}`) : t("ev.auto");
}

// One event as a line of the log; null for events a reader need not see.
export function eventText(view, event) {
  const name = event.seat === undefined ? "" : seatName(view, event.seat);
  const auto = event.actor === "auto" ? ` ${autoText(event.reason)}` : "";
  const say = (key, params) => about(view, event.seat, key, params);
  switch (event.type) {
    case "play":
      return say("ev.play", { name, reading: readingText(event.reading) }) + auto;
    case "pass":
      return say("ev.pass", { name }) + auto;
    case "draw":
      return say("ev.draw", { name, pile: event.pile });
    case "trick_won":
      return event.points
        ? say("ev.trick_won_points", { name, points: event.points })
        : say("ev.trick_won", { name });
    case "cut":
      return say("ev.cut", {
        name,
        position: event.position,
        card: cardText(event.face_up.code),
        holder: seatName(view, event.holder),
      }) + auto;
    case "bid":
      return say(event.solo ? "ev.bid_solo" : "ev.bid_no", { name }) + auto;
    case "teams": {
      if (event.banker !== null && event.banker !== undefined) {
        return about(view, event.banker, "ev.teams_banker", { name: seatName(view, event.banker) });
      }
      const line = say("ev.teams", { a: names(view, event.teams[0]), b: names(view, event.teams[1]) });
      if (!event.swapped) return line;
      const [a, b] = event.swapped;
      return `${line}; ${say("ev.swapped", { a: seatName(view, a), b: seatName(view, b) })}`;
    }
    case "round_started":
    case "round_settled":
      return say(`ev.${event.type}`, {
        round: event.round,
        deltas: (event.deltas || []).map((d, s) => `${seatName(view, s)} ${signed(d)}`).join(", "),
      });
    case "finished":
      return say("ev.finished", { name, place: event.place });
    case "match_finished":
      return say("ev.match_finished", {
        standings: (event.standings || [])
          .map((s) => `${s.rank}. ${seatName(view, s.seat)} ${s.score}`)
          .join(", "),
      });
    case "match_created":
    case "match_started":
    case "player_joined":
    case "player_left":
    case "forfeit":
    case "eliminated":
      return say(`ev.${event.type}`, { name });
    case "autoplay_on":
      return say(`ev.autoplay_on.${event.reason === "timeout" ? "timeout" : "asked"}`, { name });
    case "autoplay_off":
      return say("ev.autoplay_off", { name });
    case "bots_joined":
      return say("ev.bots_joined", {});
    case "match_aborted":
      return say("ev.match_aborted", { reason: event.reason });
    case "round_end":
    case "match_end":
      return null; // round_settled and match_finished say the same, with names
    default:
      return event.type;
  }
}

// A refusal of the API for people: our words for the codes we know, else the server's message.
export function errorText(err) {
  if (err.code === "network") return t("err.network");
  if (err.code === "stale_version") return t("err.stale");
  if (err.code === "not_found") return t("err.not_found");
  return has(`err.code.${err.code}`) ? t(`err.code.${err.code}`) : err.message;
}
