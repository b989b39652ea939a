/**
 * The built-in sign-in page's only script: the browser half of a passkey ceremony. It is ours,
 * inline, allowed by its SHA-256 hash in the page's CSP (`script-src 'sha256-…'`), and loads
 * nothing: the browser's own WebAuthn JSON methods (`PublicKeyCredential.parse…FromJSON`,
 * `credential.toJSON()`) do the encoding, so no library is fetched from a CDN or anywhere.
 *
 * Flow: `GET` the form's `data-options` URL (with the email when one is typed) → create or get
 * the credential → `POST` it with the form's fields (CSRF token, callback URL) to
 * `data-callback` with `X-Auth-Return-Redirect` → navigate to the answered URL. With
 * `data-conditional`, passkeys are also offered in the email field's autofill.
 *
 * Constant text: URLs come from `data-*` attributes, so one hash covers every configuration.
 */
export const PASSKEY_SCRIPT = `(function () {
  "use strict";
  document.querySelectorAll("form[data-passkey]").forEach(setup);
  function setup(form) {
  var status = form.querySelector("[data-passkey-status]");
  var say = function (text) { status.textContent = text; status.hidden = false; };
  var PKC = window.PublicKeyCredential;
  if (!PKC || !PKC.parseRequestOptionsFromJSON || !PKC.parseCreationOptionsFromJSON) {
    say("This browser does not support passkeys here. Use another sign-in method.");
    form.querySelector("button").disabled = true;
    return;
  }
  var pending = null;
  function ceremony(mediation) {
    var url = new URL(form.dataset.options, location.href);
    var email = form.elements.namedItem("email");
    if (mediation) url.searchParams.set("action", "authenticate");
    else if (email && email.value) url.searchParams.set("email", email.value);
    var abort = new AbortController();
    if (mediation) pending = abort;
    return fetch(url, { credentials: "same-origin", headers: { Accept: "application/json" } })
      .then(function (res) { return res.json().then(function (body) { return { ok: res.ok, body: body }; }); })
      .then(function (answer) {
        if (!answer.ok) throw new Error((answer.body.error && answer.body.error.message) || "Passkeys are not available.");
        var action = answer.body.action;
        var credential = action === "register"
          ? navigator.credentials.create({ publicKey: PKC.parseCreationOptionsFromJSON(answer.body.options) })
          : navigator.credentials.get({ publicKey: PKC.parseRequestOptionsFromJSON(answer.body.options), mediation: mediation || "optional", signal: abort.signal });
        return credential.then(function (c) { return { action: action, credential: c }; });
      })
      .then(function (done) {
        var body = new URLSearchParams(new FormData(form));
        body.set("action", done.action);
        body.set("data", JSON.stringify(done.credential.toJSON()));
        return fetch(form.dataset.callback, {
          method: "POST",
          credentials: "same-origin",
          headers: { "Content-Type": "application/x-www-form-urlencoded", "X-Auth-Return-Redirect": "1" },
          body: body
        });
      })
      .then(function (res) { return res.json(); })
      .then(function (answer) {
        if (answer.url && !answer.error) location.assign(answer.url);
        else throw new Error((answer.error && answer.error.message) || "Passkey sign-in failed.");
      });
  }
  function fail(error) {
    if (error && error.name === "AbortError") return;
    say(error && error.name === "NotAllowedError"
      ? "The passkey request was cancelled or timed out. Try again."
      : (error && error.message) || "Passkey sign-in failed.");
  }
  form.addEventListener("submit", function (event) {
    event.preventDefault();
    if (pending) { pending.abort(); pending = null; }
    status.hidden = true;
    ceremony(null).catch(fail);
  });
  if (form.dataset.conditional !== undefined && PKC.isConditionalMediationAvailable) {
    PKC.isConditionalMediationAvailable().then(function (yes) {
      if (yes) ceremony("conditional").catch(fail);
    });
  }
  }
})();`
