/**
 * A local OpenID Provider for the demo (`oidc-provider`, OpenID-certified), on loopback with a
 * random port, so "Continue with Local OpenID Provider" runs a real OIDC round trip (discovery,
 * PKCE, state, nonce, signed ID token) with no account anywhere. Its sign-in page asks for a
 * name and an email and believes them: it is a development stand-in, never a real identity.
 */
import { generateKeyPairSync, randomBytes } from "node:crypto"
import { createServer } from "node:http"
import Provider from "oidc-provider"
import { MemoryAdapter } from "./oidc-memory-adapter.mjs"

const CLIENT_ID = "latchkey-demo"

function escapeHtml(value) {
  return String(value).replace(
    /[&<>"']/g,
    (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c],
  )
}

function page(uid, clientName, error = "") {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Local OpenID Provider</title>
<style>
  body { margin: 0; min-height: 100vh; display: grid; place-items: center; background: #101828;
    font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: #1c2030; }
  main { background: #fff; border-radius: 14px; padding: 2rem 2.25rem; width: min(24rem, 90vw); }
  .tag { color: #7a5af8; font-size: .75rem; font-weight: 700; letter-spacing: .08em; text-transform: uppercase; margin: 0; }
  h1 { font-size: 1.4rem; margin: .25rem 0 .5rem; }
  p { color: #5d6479; margin: 0 0 1.25rem; }
  form { display: flex; flex-direction: column; gap: .9rem; }
  label { display: flex; flex-direction: column; gap: .3rem; font-weight: 600; font-size: .9rem; }
  input { font: inherit; font-weight: 400; padding: .6rem .75rem; border: 1px solid #d0d5dd; border-radius: 8px; }
  .row { display: flex; gap: .75rem; }
  button { flex: 1; font: inherit; font-weight: 600; padding: .6rem 1rem; border-radius: 8px; cursor: pointer;
    border: 1px solid #7a5af8; background: #7a5af8; color: #fff; }
  button.secondary { background: #fff; color: #7a5af8; }
  .error { background: #fdecea; color: #b42318; padding: .6rem .8rem; border-radius: 8px; }
</style></head>
<body><main>
  <p class="tag">Local OpenID Provider</p>
  <h1>Sign in to continue to ${escapeHtml(clientName)}</h1>
  <p>A development identity provider started by the demo. Any name and email work.</p>
  ${error ? `<p class="error" role="alert">${escapeHtml(error)}</p>` : ""}
  <form method="post" action="/interaction/${escapeHtml(uid)}">
    <label>Name <input name="name" required maxlength="80" autocomplete="name"></label>
    <label>Email <input name="email" type="email" required maxlength="254" autocomplete="email"></label>
    <div class="row">
      <button type="submit" name="action" value="cancel" class="secondary" formnovalidate>Cancel</button>
      <button type="submit" name="action" value="login">Sign in</button>
    </div>
  </form>
</main></body></html>`
}

async function readForm(req) {
  let body = ""
  for await (const chunk of req) {
    body += chunk
    if (body.length > 10_000) throw new Error("form too large")
  }
  return new URLSearchParams(body)
}

/**
 * Start the provider. `redirectUris` are the app's callback URLs for this provider. Resolves to
 * the issuer URL and client credentials (a fresh secret every start).
 */
export async function startLocalOidc({ redirectUris }) {
  const server = createServer()
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve))
  const issuer = `http://127.0.0.1:${server.address().port}`
  const clientSecret = randomBytes(24).toString("base64url")
  const { privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 })
  const jwk = { ...privateKey.export({ format: "jwk" }), kid: "demo", alg: "RS256", use: "sig" }
  /** Accounts by id (the lower-cased email), as people declared them on the sign-in page. */
  const accounts = new Map()

  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: CLIENT_ID,
        client_secret: clientSecret,
        client_name: "the Latchkey demo",
        redirect_uris: redirectUris,
        grant_types: ["authorization_code", "refresh_token"],
        response_types: ["code"],
        token_endpoint_auth_method: "client_secret_basic",
      },
    ],
    jwks: { keys: [jwk] },
    // Refresh tokens with every sign-in, rotated at each use, and access tokens of 10 s: shorter
    // than Latchkey's 60 s refresh skew, so every visit to /provider/ runs a refresh.
    issueRefreshToken: async () => true,
    rotateRefreshToken: () => true,
    // The rest are explicit so the provider uses no default it warns about: ten minutes to
    // sign in, and a day for the provider's own session, grants and ID tokens.
    ttl: {
      AccessToken: 10,
      RefreshToken: 24 * 60 * 60,
      Interaction: 10 * 60,
      Session: 24 * 60 * 60,
      Grant: 24 * 60 * 60,
      IdToken: 60 * 60,
    },
    adapter: MemoryAdapter,
    cookies: { keys: [randomBytes(32).toString("base64url")] },
    features: { devInteractions: { enabled: false } },
    conformIdTokenClaims: false,
    claims: { openid: ["sub"], email: ["email", "email_verified"], profile: ["name"] },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    findAccount: async (_ctx, id) => {
      const account = accounts.get(id)
      return account && { accountId: id, claims: async () => ({ sub: id, ...account }) }
    },
  })
  provider.on("server_error", (_ctx, error) => console.error("[local-oidc]", error))
  const callback = provider.callback()

  async function interaction(req, res) {
    const details = await provider.interactionDetails(req, res)
    const { uid, prompt, params, session } = details
    if (prompt.name === "login") {
      if (req.method !== "POST") {
        res.setHeader("content-type", "text/html; charset=utf-8")
        return res.end(page(uid, "the Latchkey demo"))
      }
      const form = await readForm(req)
      if (form.get("action") === "cancel") {
        const result = { error: "access_denied", error_description: "The user cancelled" }
        return provider.interactionFinished(req, res, result, { mergeWithLastSubmission: false })
      }
      const email = (form.get("email") ?? "").trim().toLowerCase()
      const name = (form.get("name") ?? "").trim().slice(0, 80)
      if (!/^[^\s@]+@[^\s@]+$/.test(email) || !name) {
        res.statusCode = 400
        res.setHeader("content-type", "text/html; charset=utf-8")
        return res.end(page(uid, "the Latchkey demo", "Enter a name and an email address."))
      }
      accounts.set(email, { email, email_verified: true, name })
      const result = { login: { accountId: email } }
      return provider.interactionFinished(req, res, result, { mergeWithLastSubmission: false })
    }
    // Consent: the demo app is the only client, so every requested scope is granted.
    const grant = details.grantId
      ? await provider.Grant.find(details.grantId)
      : new provider.Grant({ accountId: session.accountId, clientId: params.client_id })
    const missing = prompt.details
    if (missing.missingOIDCScope) grant.addOIDCScope(missing.missingOIDCScope.join(" "))
    if (missing.missingOIDCClaims) grant.addOIDCClaims(missing.missingOIDCClaims)
    const grantId = await grant.save()
    return provider.interactionFinished(
      req,
      res,
      { consent: { grantId } },
      { mergeWithLastSubmission: true },
    )
  }

  server.on("request", (req, res) => {
    if ((req.url ?? "").startsWith("/interaction/")) {
      interaction(req, res).catch((error) => {
        console.error("[local-oidc]", error)
        res.statusCode = 400
        res.end("This sign-in attempt expired. Go back to the app and try again.")
      })
      return
    }
    callback(req, res)
  })

  return {
    issuer,
    clientId: CLIENT_ID,
    clientSecret,
    close: () => new Promise((resolve) => server.close(resolve)),
  }
}
