// The log: the match's events as lines, the newest last, kept in view while the reader is at the
// bottom.

import { fill, h } from "../dom.js";
import { t } from "../i18n.js";
import { eventText } from "../words.js";

/**
 * @import { View, MatchEvent } from "../api.js"
 * @import { Rules } from "../rules.js"
 */

export const LOG_LINES = 300;

/**
 * The log in `section`.
 * @param {HTMLElement} section
 */
export function eventLog(section) {
  const list = h("ol", { class: "log-lines" });

  /** @param {View} view @param {Rules} rules @param {MatchEvent[]} fresh */
  function add(view, rules, fresh) {
    if (!section.firstChild) fill(section, h("h2", {}, t("log.title")), list);
    const stick = list.scrollTop + list.clientHeight >= list.scrollHeight - 8;
    for (const event of fresh) {
      const text = eventText(view, event, rules);
      if (text === null) continue;
      list.append(h("li", { dataset: { seq: event.seq, type: event.type } },
        event.round ? h("span", { class: "log-round" }, `R${event.round}`) : null, text));
    }
    while (list.children.length > LOG_LINES) list.firstChild.remove();
    if (stick) list.scrollTop = list.scrollHeight;
  }

  return {
    add,
    /** Every line written again (in the other language). @param {View} view @param {Rules} rules @param {MatchEvent[]} events */
    rebuild(view, rules, events) {
      section.replaceChildren();
      list.replaceChildren();
      add(view, rules, events);
    },
  };
}
