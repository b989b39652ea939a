/**
 * Password accounts through the binding: the per-IP sign-in limit counts `clientConn.ip` when no
 * proxy header is there, and the core's built-in password pages are served under the base path.
 */

import { MemoryAdapter } from "@latchkey/core/adapters/memory"
import Credentials from "@latchkey/core/providers/credentials"
import Password from "@latchkey/core/providers/password"
import { MemoryStore } from "@latchkey/core/store"
import { describe, expect, it } from "vitest"
import { handleRequest } from "../src/on-request.js"
import type { QwikAuthConfig } from "../src/types.js"
import { fakeEvent, outcome, Redirect, Sent } from "./fake-event.js"

const SECRET = "a-test-secret-that-is-at-least-32-bytes-long!!"

function config(): QwikAuthConfig {
  return {
    secret: SECRET,
    trustHost: true,
    store: new MemoryStore(),
    logger: { error: () => {}, warn: () => {}, debug: () => {} },
    providers: [
      Credentials({
        credentials: { username: {}, password: { type: "password" } },
        // Per-IP only: each attempt names another account.
        rateLimit: { perIp: { limit: 2, windowMs: 60_000 }, perAccount: false },
        authorize: () => null,
      }),
    ],
  }
}

async function attempt(c: QwikAuthConfig, n: number, ip: string | undefined) {
  const { event } = fakeEvent("/auth/callback/credentials", {
    headers: {
      origin: "http://127.0.0.1:5173",
      "sec-fetch-site": "same-origin",
      "content-type": "application/x-www-form-urlencoded",
    },
  })
  const request = new Request(event.request.url, {
    method: "POST",
    headers: event.request.headers,
    body: new URLSearchParams({ username: `user-${n}`, password: "x" }).toString(),
  })
  Object.assign(event, { request, clientConn: { ip } })
  const thrown = await outcome(handleRequest(event, c))
  if (thrown instanceof Redirect) return thrown.location
  if (thrown instanceof Sent) return `status ${thrown.response.status}`
  throw thrown
}

describe("per-IP limit without a proxy", () => {
  it("counts attempts by clientConn.ip", async () => {
    const c = config()
    expect(await attempt(c, 1, "203.0.113.9")).toContain("error=CredentialsSignin")
    expect(await attempt(c, 2, "203.0.113.9")).toContain("error=CredentialsSignin")
    expect(await attempt(c, 3, "203.0.113.9")).toContain("error=RateLimited")
    // Another client is not charged for them.
    expect(await attempt(c, 4, "203.0.113.10")).toContain("error=CredentialsSignin")
  })
})

describe("password pages through onRequest", () => {
  it("serves the core's built-in sign-up page under the base path", async () => {
    const c: QwikAuthConfig = {
      ...config(),
      adapter: MemoryAdapter(),
      providers: [Password({ sendPasswordMail: () => {} })],
    }
    const { event } = fakeEvent("/auth/password/signup", { method: "GET" })
    const thrown = await outcome(handleRequest(event, c))
    expect(thrown).toBeInstanceOf(Sent)
    const page = await (thrown as Sent).response.text()
    expect(page).toContain('action="http://127.0.0.1:5173/auth/password/signup"')
    expect(page).toContain('name="csrfToken"')
  })
})
