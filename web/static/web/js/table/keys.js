// The keyboard at the table: ←/→ move along the hand (Space selects, as on any button), P play,
// X pass, H hint, Esc or C clear. Keys meant for a form field or a dialog are left alone.

/**
 * @typedef {{playSelected: () => void, pass: () => void, hint: () => void,
 *   select: (ids: number[]) => void}} KeyActions
 */

/**
 * @param {KeyboardEvent} e
 * @param {HTMLElement} hand
 * @param {KeyActions} on
 */
export function onKey(e, hand, on) {
  if (e.ctrlKey || e.metaKey || e.altKey || document.querySelector("dialog[open]")) return;
  if (e.target instanceof Element && e.target.closest("input, select, textarea")) return;
  const cards = /** @type {HTMLElement[]} */ ([...hand.querySelectorAll("button.card")]);
  const at = cards.indexOf(/** @type {HTMLElement} */ (document.activeElement));
  if (e.key === "ArrowRight" || e.key === "ArrowLeft") {
    if (!cards.length) return;
    const step = e.key === "ArrowRight" ? 1 : -1;
    const next = at < 0 ? 0 : (at + step + cards.length) % cards.length;
    cards[next].focus();
    e.preventDefault();
    return;
  }
  const key = e.key.toLowerCase();
  if (key === "p") on.playSelected();
  else if (key === "x") on.pass();
  else if (key === "h") on.hint();
  else if (key === "escape" || key === "c") on.select([]);
  else return;
  e.preventDefault();
}
