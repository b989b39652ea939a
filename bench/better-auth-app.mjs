// Better Auth 1.7 apps for the peer bench, in-process through `auth.handler(Request)` (the same
// Request → Response work as Latchkey's and Auth.js's `Auth()`): on the PostgreSQL server through
// its built-in Kysely/pg support (database sessions), or on its memory adapter with the signed
// cookie cache (`session.cookieCache`, strategy "jwe": its stateless session read).
import { betterAuth } from "better-auth"
import { memoryAdapter } from "better-auth/adapters/memory"
import { getMigrations } from "better-auth/db/migration"

export const BA_ORIGIN = "http://localhost:3000"

/**
 * `database`: a pg Pool (sessions rows) or undefined (memory adapter, JWE cookie cache).
 * `password`: `{ hash, verify }` — the same hasher Latchkey is given, for equal hash cost.
 */
export async function betterAuthApp({ pool, password, secret }) {
  const memory = { user: [], session: [], account: [], verification: [], rateLimit: [] }
  const options = {
    secret,
    baseURL: BA_ORIGIN,
    trustedOrigins: [BA_ORIGIN],
    database: pool ?? memoryAdapter(memory),
    emailAndPassword: { enabled: true, requireEmailVerification: false, password },
    // Its rate limiter on (off by default outside production), counting every request as in
    // production, with limits the bench's one client never reaches.
    rateLimit: {
      enabled: true,
      window: 60,
      max: 1e9,
      customRules: {
        "/sign-in/email": { window: 10, max: 1e9 },
        "/sign-up/email": { window: 10, max: 1e9 },
      },
    },
    advanced: { ipAddress: { ipAddressHeaders: ["x-forwarded-for"] } },
    ...(pool
      ? {}
      : { session: { cookieCache: { enabled: true, strategy: "jwe", maxAge: 60 * 60 } } }),
    logger: { disabled: true },
  }
  if (pool) {
    const { runMigrations } = await getMigrations(options)
    await runMigrations()
  }
  return betterAuth(options)
}

export function baRequest(path, { method = "GET", cookie, json } = {}) {
  const headers = { origin: BA_ORIGIN, "x-forwarded-for": "203.0.113.7" }
  if (cookie) headers.cookie = cookie
  if (json) headers["content-type"] = "application/json"
  return new Request(`${BA_ORIGIN}/api/auth${path}`, {
    method,
    headers,
    body: json ? JSON.stringify(json) : undefined,
  })
}

export const signUpRequest = (email, password, name) =>
  baRequest("/sign-up/email", { method: "POST", json: { email, password, name } })
export const signInRequest = (email, password) =>
  baRequest("/sign-in/email", { method: "POST", json: { email, password } })
export const signOutRequest = (cookie) =>
  baRequest("/sign-out", { method: "POST", cookie, json: {} })

export const cookiesOf = (res) =>
  res.headers
    .getSetCookie()
    .map((line) => line.split(";")[0])
    .filter((pair) => !pair.endsWith("="))
    .join("; ")
