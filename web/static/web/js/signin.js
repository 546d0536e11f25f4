// Signing in: as a guest in one click, or with an account (log in, or sign up).

import { api, session } from "./api.js";
import { h } from "./dom.js";
import { t } from "./i18n.js";
import { refusalText } from "./words.js";

/**
 * Guest, log in or sign up; `done()` once a token is kept.
 * @param {() => void} done
 */
export function signInPanel(done) {
  const note = h("p", { class: "message", role: "alert" });
  const name = /** @type {HTMLInputElement} */ (h("input", { name: "display_name", autocomplete: "nickname", maxlength: 24, placeholder: t("auth.guest_name_hint") }));
  const guest = h("button", {
    type: "button",
    class: "primary big",
    dataset: { action: "guest" },
    onclick: async () => {
      guest.disabled = true;
      const named = name.value.trim();
      try {
        const { data } = await api.post("/auth/guest/", named ? { display_name: named } : {});
        session.save(data);
        done();
      } catch (err) {
        note.textContent = refusalText(err);
        guest.disabled = false;
      }
    },
  }, t("auth.guest"));
  const form = h(
    "form",
    {
      class: "login",
      onsubmit: async (/** @type {SubmitEvent} */ e) => {
        e.preventDefault();
        const register = e.submitter instanceof HTMLElement && e.submitter.dataset.action === "register";
        const body = { username: form.elements.username.value, password: form.elements.password.value };
        try {
          const { data } = await api.post(register ? "/auth/register/" : "/auth/login/", body);
          session.save(data);
          done();
        } catch (err) {
          note.textContent = refusalText(err);
        }
      },
    },
    h("p", {}, t("auth.have_account")),
    h("label", {}, t("auth.username"), h("input", { name: "username", autocomplete: "username", required: true, maxlength: 150 })),
    h("label", {}, t("auth.password"), h("input", { name: "password", type: "password", autocomplete: "current-password", required: true })),
    h("div", { class: "row" },
      h("button", { type: "submit", dataset: { action: "login" } }, t("auth.login")),
      h("button", { type: "submit", dataset: { action: "register" } }, t("auth.register"))),
  );
  return h("section", { class: "panel sign-in" },
    h("label", { class: "guest-name" }, t("auth.guest_name"), name), guest,
    h("p", { class: "hint" }, t("auth.guest_note")), form, note);
}
