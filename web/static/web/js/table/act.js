// Sending an act: with an Idempotency-Key, the same for each try. When the answer is lost (a
// network error: the act may or may not have counted), the same request goes again with the same
// key, and the server either applies it once or answers with the view as it is now.

import { api, newKey } from "../api.js";

/**
 * @import { Action } from "../api.js"
 */

const TRIES = 4;
const FIRST_PAUSE_MS = 500;

/** @param {number} ms */
function pause(ms) {
  return new Promise((resolve) => { setTimeout(resolve, ms); });
}

/**
 * POST /matches/{id}/act/; resolves with the answer's view, or rejects with the last refusal.
 * @param {number} matchId
 * @param {number} version  the view's version the action answers
 * @param {Action} action
 */
export async function sendAct(matchId, version, action) {
  const key = newKey();
  for (let tried = 1; ; tried += 1) {
    try {
      const { data } = await api.post(`/matches/${matchId}/act/`, { expected_version: version, action }, { key });
      return data;
    } catch (err) {
      if (err.status !== 0 || tried >= TRIES) throw err;
      await pause(FIRST_PAUSE_MS * 2 ** (tried - 1));
    }
  }
}
