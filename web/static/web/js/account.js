// Who you are to the others: your display name (PATCH /auth/me/), and for a guest an account of
// its own that keeps the same matches (POST /auth/upgrade/), and a warning before signing out,
// which loses a guest's matches for good (a guest has no password to come back with).

import { api, session } from "./api.js";
import { fill, h } from "./dom.js";
import { dictionary } from "./i18n.js";
import { refusalText } from "./words.js";

/**
 * @import { Session } from "./api.js"
 */

const words = dictionary({
  en: {
    "account.title": "You",
    "account.name": "Your name at the tables",
    "account.save": "Save",
    "account.saved": "Saved.",
    "account.keep": "Keep your matches: make this guest an account",
    "account.keep_note": "Your matches stay yours. A guest lives in this browser only.",
    "account.create": "Create the account",
    "account.created": "Your account is ready: log in with it anywhere.",
    "signout.title": "Sign out of a guest account?",
    "signout.warning": "A guest has no password: once you sign out, this guest and its matches are lost to you for good. Create an account first to keep them.",
    "signout.keep": "Create an account",
    "signout.anyway": "Sign out anyway",
    "signout.cancel": "Cancel",
  },
  zh: {
    "account.title": "我",
    "account.name": "牌桌上的名字",
    "account.save": "保存",
    "account.saved": "已保存。",
    "account.keep": "保留你的牌局：把游客升级为正式账号",
    "account.keep_note": "牌局仍然是你的。游客账号只保存在这个浏览器里。",
    "account.create": "创建账号",
    "account.created": "账号已创建：在任何地方都可以用它登录。",
    "signout.title": "退出游客账号？",
    "signout.warning": "游客没有密码：退出后，这个游客账号和它的牌局就再也找不回来了。先创建账号就能保留它们。",
    "signout.keep": "创建账号",
    "signout.anyway": "仍然退出",
    "signout.cancel": "取消",
  },
});

/**
 * What the others read for an account.
 * @param {Session["user"]} user
 */
export function nameOf(user) {
  return user.name || user.display_name || user.username;
}

/**
 * A form that sends its fields and says how it went.
 * @param {string} name  its data-form
 * @param {string} label  its button's
 * @param {HTMLElement[]} fields
 * @param {(values: Record<string, string>) => Promise<string>} submit  the words once done
 */
function form(name, label, fields, submit) {
  const note = h("p", { class: "message", role: "status" });
  const button = h("button", { type: "submit" }, label);
  const el = h("form", {
    class: "account-form",
    dataset: { form: name },
    onsubmit: async (/** @type {SubmitEvent} */ e) => {
      e.preventDefault();
      const values = Object.fromEntries(new FormData(/** @type {HTMLFormElement} */ (el)));
      button.disabled = true;
      try {
        note.textContent = await submit(/** @type {Record<string, string>} */ (values));
      } catch (err) {
        note.textContent = refusalText(err);
      }
      button.disabled = false;
    },
  }, fields, button, note);
  return el;
}

/**
 * The lobby's panel: your name and, for a guest, an account that keeps its matches.
 * `onChanged()` after either changed the session.
 * @param {() => void} onChanged
 */
export function accountPanel(onChanged) {
  const current = session.read();
  const user = current.user;
  const rename = form("name", words.t("account.save"), [
    h("label", {}, words.t("account.name"),
      h("input", { name: "display_name", value: user.display_name || "", maxlength: 24, required: true, autocomplete: "nickname" })),
  ], async ({ display_name }) => {
    const { data } = await api.patch("/auth/me/", { display_name });
    session.save({ token: session.read().token, user: data });
    onChanged();
    return words.t("account.saved");
  });
  const keep = h("div", { class: "keep" });
  const upgrade = user.is_guest ? form("upgrade", words.t("account.create"), [
    h("p", { class: "hint" }, words.t("account.keep_note")),
    h("label", {}, words.t("auth.username"),
      h("input", { name: "username", autocomplete: "username", required: true, maxlength: 150 })),
    h("label", {}, words.t("auth.password"),
      h("input", { name: "password", type: "password", autocomplete: "new-password", required: true })),
  ], async (body) => {
    const { data } = await api.post("/auth/upgrade/", body);
    session.save(data);
    onChanged();
    fill(keep, h("p", { class: "message", role: "status" }, words.t("account.created")));
    return "";
  }) : null;
  if (upgrade) fill(keep, h("h3", {}, words.t("account.keep")), upgrade);
  return h("section", { class: "panel account", dataset: { panel: "account" } },
    h("h2", {}, words.t("account.title")), rename, keep);
}

/**
 * Sign out: at once for an account, after a warning for a guest, who may choose to keep their
 * matches instead (`toAccount()`: show the lobby's account panel).
 * @param {() => void} done
 * @param {() => void} toAccount
 */
export function signOut(done, toAccount) {
  const current = session.read();
  if (!current || !current.user.is_guest) return done();
  const dialog = /** @type {HTMLDialogElement} */ (h("dialog", { class: "confirm", dataset: { dialog: "signout" }, "aria-labelledby": "signout-title" },
    h("h2", { id: "signout-title" }, words.t("signout.title")),
    h("p", {}, words.t("signout.warning")),
    h("div", { class: "dialog-actions" },
      h("button", { type: "button", dataset: { action: "signout-anyway" }, onclick: () => { dialog.close(); done(); } }, words.t("signout.anyway")),
      h("button", { type: "button", dataset: { action: "signout-cancel" }, onclick: () => dialog.close() }, words.t("signout.cancel")),
      h("button", { type: "button", class: "primary", dataset: { action: "keep-matches" }, onclick: () => { dialog.close(); toAccount(); } }, words.t("signout.keep")))));
  dialog.addEventListener("close", () => dialog.remove());
  document.body.append(dialog);
  dialog.showModal();
}
