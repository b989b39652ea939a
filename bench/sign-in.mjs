// Credentials sign-in and sign-out with JWT sessions, the app shape users write: one Credentials
// provider, the default store (no `store` option), revocation on its default ("reissue", so every
// sign-in records the session for "your devices"), CSRF double-submit on every POST. Latchkey vs
// @auth/core's Auth() with the same secret, both given the CSRF cookie and token a browser would
// hold. One user signs in again and again: the shape that grew the session list without bound
// before issue 27 (the store now bounds it on write).
import { Auth as AuthJs } from "@auth/core"
import AuthJsCredentials from "@auth/core/providers/credentials"
import { Auth } from "@latchkey/core"
import Credentials from "@latchkey/core/providers/credentials"
import { fmt, printTable, ratio, runScenario } from "./harness.mjs"

const SECRET = "bench-sign-in-secret-0123456789abcdef0123456789"
const ORIGIN = "http://localhost:3000"
const user = { id: "user-1", name: "Ada Lovelace", email: "ada@example.com" }
const authorize = async (c) => (c.password === "right" ? user : null)
const quiet = { error: () => {}, warn: () => {}, debug: () => {} }

/** The CSRF cookie and token of `GET /auth/csrf`, as a browser holds them. */
export async function csrf(auth, config) {
  const res = await auth(new Request(`${ORIGIN}/auth/csrf`), config)
  const { csrfToken } = await res.json()
  const cookie = res.headers
    .getSetCookie()
    .map((line) => line.split(";")[0])
    .join("; ")
  return { csrfToken, cookie }
}

export function post(path, cookie, form) {
  return new Request(`${ORIGIN}${path}`, {
    method: "POST",
    headers: {
      "content-type": "application/x-www-form-urlencoded",
      cookie,
      origin: ORIGIN,
      "sec-fetch-site": "same-origin",
    },
    body: new URLSearchParams(form),
  })
}

export const sessionCookieOf = (res) =>
  res.headers
    .getSetCookie()
    .map((line) => line.split(";")[0])
    .find((pair) => pair.startsWith("authjs.session-token=") && pair.length > 25)

/**
 * The same credentials app, JWT sessions, on Latchkey and on Auth.js: `authorize` for both,
 * `latchkeyExtra` for options only Latchkey has (its store, two-factor).
 */
export function jwtCredentialsApps(secret, authorize, latchkeyExtra = {}) {
  const credentials = { email: {}, password: {} }
  const common = { secret, trustHost: true, logger: quiet, session: { strategy: "jwt" } }
  return {
    latchkey: { ...common, providers: [Credentials({ credentials, authorize })], ...latchkeyExtra },
    authjs: {
      ...common,
      basePath: "/auth",
      providers: [AuthJsCredentials({ credentials, authorize })],
    },
  }
}

export async function benchSignIn() {
  const { latchkey, authjs } = jwtCredentialsApps(SECRET, authorize)
  const lk = await csrf(Auth, latchkey)
  const aj = await csrf(AuthJs, authjs)
  const form = (token) => ({ email: user.email, password: "right", csrfToken: token })

  const signIn = {
    latchkey: async () => {
      const res = await Auth(
        post("/auth/callback/credentials", lk.cookie, form(lk.csrfToken)),
        latchkey,
      )
      if (!sessionCookieOf(res)) throw new Error(`latchkey sign-in: ${res.status}`)
    },
    authjs: async () => {
      const res = await AuthJs(
        post("/auth/callback/credentials", aj.cookie, form(aj.csrfToken)),
        authjs,
      )
      if (!sessionCookieOf(res)) throw new Error(`authjs sign-in: ${res.status}`)
    },
  }
  // A signed-in browser for each: the sign-out posts its session cookie with the CSRF pair.
  const session = async (auth, config, pair) =>
    sessionCookieOf(
      await auth(post("/auth/callback/credentials", pair.cookie, form(pair.csrfToken)), config),
    )
  const lkSession = `${lk.cookie}; ${await session(Auth, latchkey, lk)}`
  const ajSession = `${aj.cookie}; ${await session(AuthJs, authjs, aj)}`
  const signOut = {
    latchkey: async () => {
      const res = await Auth(
        post("/auth/signout", lkSession, { csrfToken: lk.csrfToken }),
        latchkey,
      )
      if (res.status !== 302 && res.status !== 303)
        throw new Error(`latchkey sign-out: ${res.status}`)
    },
    authjs: async () => {
      const res = await AuthJs(
        post("/auth/signout", ajSession, { csrfToken: aj.csrfToken }),
        authjs,
      )
      if (res.status !== 302 && res.status !== 303)
        throw new Error(`authjs sign-out: ${res.status}`)
    },
  }
  const rows = []
  for (const [name, contenders] of [
    ["credentials sign-in, JWT sessions", signIn],
    ["sign-out, JWT sessions", signOut],
  ]) {
    const r = await runScenario(contenders)
    rows.push([name, fmt(r.latchkey), fmt(r.authjs), ratio(r.latchkey, r.authjs)])
  }
  printTable(
    "Sign-in and sign-out, JWT sessions (requests/s, one user again and again)",
    ["operation", "Latchkey", "@auth/core", "Latchkey ÷ Auth.js"],
    rows,
  )
}
