// A small DOM builder: h("button", {class: "x", onclick: f}, "text", child, [more]).
// Attributes that are null, undefined or false are left out; `true` sets an empty one.

/**
 * What an element may hold: nodes, text, numbers, nothing, or lists of them.
 * @typedef {Node|string|number|null|undefined|false|ChildList} Child
 * @typedef {Child[]} ChildList
 */

/**
 * @param {string} tag
 * @param {Record<string, any>|null} attrs  `on…` listeners, `class`, `dataset`, `value`, others
 * @param {...Child} children
 * @returns {HTMLElement & {[key: string]: any}}
 */
export function h(tag, attrs, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key.startsWith("on")) el.addEventListener(key.slice(2), value);
    else if (key === "class") el.className = value;
    else if (key === "dataset") Object.assign(el.dataset, value);
    else if (key === "value") /** @type {HTMLInputElement} */ (el).value = value;
    else el.setAttribute(key, value === true ? "" : String(value));
  }
  append(el, children);
  return el;
}

/**
 * @param {Element} el
 * @param {Child[]} children
 */
export function append(el, children) {
  // The depth is any: TypeScript cannot type `flat(Infinity)` of a recursive type.
  const flat = /** @type {any[]} */ (children).flat(Infinity);
  for (const child of /** @type {(Node|string|number|null|undefined|false)[]} */ (flat)) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : String(child));
  }
  return el;
}

/**
 * @param {Element} el
 * @param {...Child} children
 */
export function fill(el, ...children) {
  el.replaceChildren();
  return append(el, children);
}
