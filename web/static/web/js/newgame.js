// The new-game form, built from GET /rules/ (each ruleset's options as a JSON schema: choices,
// bounds, defaults; their labels), so a new option or ruleset needs no change here. Seats: you at seat 0, then
// bots of a level or friends who join with the invite link. The turn clock (`turn_seconds`,
// none or 5..300) is the service's, not a ruleset's option: its choices are listed here.

import { h } from "./dom.js";
import { guideButton } from "./guide.js";
import { language, t } from "./i18n.js";
import { optionLabel, valueLabel } from "./rules.js";

/**
 * @import { RulesetInfo } from "./api.js"
 */

/** @typedef {RulesetInfo} RulesetInfo */

const SEAT_KINDS = ["bot:normal", "bot:random", "bot:hard", "human"];
// "" leaves the choice to the server (none against bots, 30 s when people share the table).
const CLOCK_CHOICES = ["", "none", 5, 10, 15, 20, 30, 45, 60, 90, 120, 180, 300];

/** The value of the field an event happened on. @param {Event} e */
function valueOf(e) {
  return /** @type {HTMLInputElement|HTMLSelectElement} */ (e.target).value;
}

/** @param {RulesetInfo} ruleset */
function defaults(ruleset) {
  /** @type {Record<string, any>} */
  const values = {};
  for (const [name, prop] of Object.entries(ruleset.options.properties)) values[name] = prop.default;
  if (values.players === undefined) values.players = ruleset.players[0];
  return values;
}

/**
 * @param {RulesetInfo[]} rulesets
 * @param {{onCreate: (body: Record<string, any>) => Promise<void>, onError: (err: any) => void}} how
 */
export function newGameForm(rulesets, { onCreate, onError }) {
  /** @type {{ruleset: string, options: Record<string, any>, seats: string[], clock: string, watchable: boolean}} */
  const state = { ruleset: rulesets[0].name, options: defaults(rulesets[0]), seats: [], clock: "", watchable: false };
  const form = h("form", { id: "new-game", class: "new-game-form" });

  function current() {
    return rulesets.find((r) => r.name === state.ruleset);
  }

  /** @param {RulesetInfo} ruleset @param {string} name @param {Record<string, any>} prop */
  function field(ruleset, name, prop) {
    const value = state.options[name];
    const set = (/** @type {string} */ raw) => {
      state.options[name] = prop.type === "integer" ? Number(raw) : raw;
      if (name === "players") render();
    };
    let input;
    if (prop.enum) {
      input = h("select", { name, onchange: (/** @type {Event} */ e) => set(valueOf(e)) },
        prop.enum.map((/** @type {string|number} */ v) => h("option", { value: v, selected: v === value }, valueLabel(ruleset, name, v))));
    } else if (prop.type === "integer") {
      input = h("input", { name, type: "number", min: prop.minimum, max: prop.maximum, value, required: true, oninput: (/** @type {Event} */ e) => set(valueOf(e)) });
    } else {
      input = h("input", { name, value, oninput: (/** @type {Event} */ e) => set(valueOf(e)) });
    }
    return h("label", { class: "option", title: prop.description || null }, h("span", {}, optionLabel(ruleset, name)), input);
  }

  function clockField() {
    const label = (/** @type {string|number} */ choice) => {
      if (choice === "") return t("opt.turn_seconds.default");
      if (choice === "none") return t("opt.turn_seconds.none");
      return t("opt.turn_seconds.n", { n: choice });
    };
    return h("label", { class: "option" }, h("span", {}, t("opt.turn_seconds")),
      h("select", { name: "turn_seconds", onchange: (/** @type {Event} */ e) => { state.clock = valueOf(e); } },
        CLOCK_CHOICES.map((c) => h("option", { value: c, selected: String(c) === state.clock }, label(c)))));
  }

  function clockOption() {
    if (state.clock === "") return {};
    return { turn_seconds: state.clock === "none" ? null : Number(state.clock) };
  }

  function seatsFieldset() {
    const players = Number(state.options.players);
    state.seats = Array.from({ length: players - 1 }, (_, i) => state.seats[i] || "bot:normal");
    return h("fieldset", { class: "seats-choice" }, h("legend", {}, t("lobby.seats")),
      h("p", { class: "seat-you" }, t("lobby.seat_you")),
      state.seats.map((kind, i) =>
        h("label", { class: "option" }, h("span", {}, t("lobby.seat_n", { n: i + 1 })),
          h("select", { name: `seat-${i + 1}`, onchange: (/** @type {Event} */ e) => { state.seats[i] = valueOf(e); } },
            SEAT_KINDS.map((k) => h("option", { value: k, selected: k === kind }, t(`seatkind.${k}`)))))));
  }

  function render() {
    const ruleset = current();
    form.replaceChildren(
      h("fieldset", { class: "ruleset-choice" }, h("legend", {}, t("lobby.game"), " ", guideButton(current)),
        rulesets.map((r) => h("label", { class: "radio" },
          h("input", {
            type: "radio", name: "ruleset", value: r.name, checked: r.name === state.ruleset,
            onchange: () => {
              state.ruleset = r.name;
              state.options = defaults(r);
              render();
            },
          }),
          ` ${r.title[language()] || r.title.en}${language() === "zh" ? "" : ` · ${r.title.zh}`}`))),
      h("fieldset", { class: "options" }, h("legend", {}, t("lobby.options")),
        Object.entries(ruleset.options.properties).map(([name, prop]) => field(ruleset, name, prop)),
        clockField()),
      seatsFieldset(),
      h("label", { class: "option watchable" },
        h("input", { type: "checkbox", name: "watchable", checked: state.watchable, onchange: (/** @type {Event} */ e) => { state.watchable = /** @type {HTMLInputElement} */ (e.target).checked; } }),
        " ", t("lobby.watchable")),
      h("button", { type: "submit", class: "primary big", dataset: { action: "create" } }, t("lobby.start")),
    );
  }

  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    const submit = /** @type {HTMLButtonElement} */ (form.querySelector("[data-action=create]"));
    submit.disabled = true;
    const seats = [{ type: "human" }].concat(state.seats.map((kind) => {
      const [type, level] = kind.split(":");
      return level ? { type, level } : { type };
    }));
    try {
      await onCreate({ ruleset: state.ruleset, options: { ...state.options, ...clockOption() }, seats, watchable: state.watchable });
    } catch (err) {
      onError(err);
      submit.disabled = false;
    }
  });

  render();
  return form;
}
