// How to play a ruleset, in a dialog: its `how_to_play` from GET /rules/ (plain text: blocks apart
// by a blank line, a "## " line a heading, "- " lines a list), then what 托管 is, which every
// table has. Text only: nothing the server sends becomes markup.

import { h, openDialog } from "./dom.js";
import { dictionary, local } from "./i18n.js";
import { title } from "./rules.js";

/**
 * @import { RulesetInfo } from "./api.js"
 * @import { Child } from "./dom.js"
 */

const { t } = dictionary({
  en: {
    "guide.open": "How to play",
    "guide.title": "How to play {game}",
    "guide.close": "Close",
    "guide.autoplay": "托管 (tuō guǎn): the server plays your seat for you, when you ask or when your turn clock runs out. \"Take my seat back\" ends it, as does playing on your turn.",
    "guide.none": "The server says nothing of how to play this game.",
  },
  zh: {
    "guide.open": "玩法说明",
    "guide.title": "{game}玩法",
    "guide.close": "关闭",
    "guide.autoplay": "托管：系统替你出牌，你要求时或超时后开始。点“取消托管”或者轮到你时自己出牌就结束。",
    "guide.none": "服务器没有这个玩法的说明。",
  },
});

/**
 * The text as headings, lists and paragraphs.
 * @param {string} text
 * @returns {Child[]}
 */
export function guideBlocks(text) {
  return text.split(/\n\s*\n/).map((block) => {
    const lines = block.split("\n").map((line) => line.trim()).filter(Boolean);
    /** @type {Child[]} */
    const out = [];
    /** @type {string[]} */
    let items = [];
    /** @type {string[]} */
    let words = [];
    const flush = () => {
      if (words.length) out.push(h("p", {}, words.join(" ")));
      if (items.length) out.push(h("ul", {}, items.map((item) => h("li", {}, item))));
      words = [];
      items = [];
    };
    for (const line of lines) {
      if (line.startsWith("## ")) {
        flush();
        out.push(h("h3", {}, line.slice(3)));
      } else if (line.startsWith("- ")) {
        if (words.length) flush();
        items.push(line.slice(2));
      } else {
        if (items.length) flush();
        words.push(line);
      }
    }
    flush();
    return out;
  });
}

/**
 * Opens How to play `info`'s game; resolves when it is closed.
 * @param {RulesetInfo} info
 * @returns {Promise<void>}
 */
export function showGuide(info) {
  const text = info.how_to_play ? local(info.how_to_play) : "";
  const close = h("button", { type: "button", class: "primary", dataset: { action: "close-guide" } }, t("guide.close"));
  const dialog = /** @type {HTMLDialogElement} */ (h("dialog", { class: "guide", "aria-labelledby": "guide-title", dataset: { ruleset: info.name } },
    h("div", { class: "guide-body" },
      h("h2", { id: "guide-title" }, t("guide.title", { game: title(info, info.name) })),
      text ? guideBlocks(text) : h("p", {}, t("guide.none")),
      h("p", { class: "glossary-autoplay" }, t("guide.autoplay"))),
    h("div", { class: "dialog-actions" }, close)));
  close.addEventListener("click", () => dialog.close());
  return openDialog(dialog, close);
}

/**
 * A button that opens How to play the ruleset `info()` names at the time of the click.
 * @param {() => RulesetInfo|undefined} info
 */
export function guideButton(info) {
  return h("button", {
    type: "button",
    class: "link",
    dataset: { action: "guide" },
    onclick: () => {
      const shown = info();
      if (shown) showGuide(shown);
    },
  }, t("guide.open"));
}
