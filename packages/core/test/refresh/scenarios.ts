/**
 * The refresh scenarios of issue 12, against the real OpenID Provider with refresh tokens and
 * rotation on, for one way of keeping tokens (session cookie, or an adapter with a session
 * strategy). The PostgreSQL adapter's tests run the same scenarios.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest"
import { flightKey, rememberOutcome } from "../../src/features/oauth/refresh/coordination.js"
import { getAccessToken, revokeUserSessions } from "../../src/index.js"
import {
  RefreshTokenError,
  TokenEndpointError,
  TokenEndpointTimeout,
} from "../../src/kernel/errors/errors.js"
import { decode } from "../../src/kernel/token/jwt.js"
import type { Adapter } from "../../src/kernel/types/adapters.js"
import { MemoryStore, type Store } from "../../src/store.js"
import type { AuthConfig, SessionStrategy } from "../../src/types.js"
import { type OidcHarness, startOidcServer } from "../oauth/harness/oidc-server.js"
import { type Browser, readSession, refreshConfig, SECRET, signIn, tokenCalls } from "./app.js"

export interface Storage {
  name: string
  strategy: SessionStrategy
  /** A fresh adapter per test, or none (tokens in the session cookie). */
  adapter?: () => Promise<Adapter>
  /** Raw text of the stored account row (to prove tokens are not readable at rest). */
  rawAccount?: () => Promise<string>
  /** A fresh, empty shared store (the lock and grace window live there); default memory. */
  store?: () => Store
}

/** Access tokens shorter than the 60 s skew count as expiring the moment they are issued. */
const EXPIRING_TTL = 30
const FRESH_TTL = 3600

export function refreshScenarios(storage: Storage): void {
  describe(`getAccessToken: ${storage.name}`, () => {
    let op: OidcHarness
    let adapter: Adapter | undefined
    let signedIn: { access?: string; refresh?: string }
    let refused: { provider: string; userId: string; type: string }[]
    /** The shared store: one per test, as if each test ran against its own Redis. */
    let store: Store
    const newStore = storage.store ?? (() => new MemoryStore())

    beforeAll(async () => {
      op = await startOidcServer()
      op.issueRefreshTokens = true
      op.rotateRefreshTokens = true
    })
    afterAll(() => op.close())
    beforeEach(async () => {
      store = newStore()
      op.accessTokenTtl = EXPIRING_TTL
      op.tokenDelayMs = 0
      op.failToken = false
      adapter = storage.adapter ? await storage.adapter() : undefined
      signedIn = {}
      refused = []
    })

    function config(refresh: Parameters<typeof refreshConfig>[1]): AuthConfig {
      return refreshConfig(op, refresh, {
        session: { strategy: storage.strategy },
        store,
        ...(adapter ? { adapter } : {}),
        events: {
          signIn: ({ account }) => {
            signedIn = { access: account?.access_token, refresh: account?.refresh_token }
          },
          refreshTokenError: ({ provider, userId, error }) => {
            refused.push({ provider, userId, type: error.type })
          },
        },
      })
    }

    async function tokenFor(cfg: AuthConfig, browser: Browser) {
      try {
        const result = await getAccessToken(browser.request(), cfg, "oidc")
        if (result) browser.apply(result.cookies)
        return result
      } catch (error) {
        if (error instanceof RefreshTokenError) browser.apply(error.cookies)
        throw error
      }
    }

    it("a fresh token is returned as it is: no token endpoint call, no cookie", async () => {
      op.accessTokenTtl = FRESH_TTL
      const cfg = config(true)
      const browser = await signIn(op, cfg)
      expect(signedIn.access).toBeTruthy()
      const before = tokenCalls(op)
      const result = await getAccessToken(browser.request(), cfg, "oidc")
      expect(result?.accessToken).toBe(signedIn.access)
      expect(result?.expiresAt).toBeGreaterThan(Date.now() / 1000 + 3000)
      expect(result?.cookies).toEqual([])
      expect(tokenCalls(op)).toBe(before)
      // Provider tokens never reach the client's view of the session.
      const session = JSON.stringify(await readSession(cfg, browser))
      expect(session).toContain("alice@example.com")
      expect(session).not.toContain(signedIn.access)
      expect(session).not.toContain(signedIn.refresh)
    })

    it("a jwt callback that builds a new token does not lose the provider tokens", async () => {
      op.accessTokenTtl = FRESH_TTL
      const cfg = {
        ...config(true),
        callbacks: { jwt: ({ token }: { token: { sub?: string } }) => ({ sub: token.sub }) },
      }
      const browser = await signIn(op, cfg)
      await readSession({ ...cfg, session: { strategy: storage.strategy, updateAge: 0 } }, browser)
      expect((await tokenFor(cfg, browser))?.accessToken).toBe(signedIn.access)
    })

    it("20 concurrent calls with an expiring token: one token endpoint call, one new token for all", async () => {
      const cfg = config(true)
      const browser = await signIn(op, cfg)
      // The new token is good for an hour: a call whose read comes after the refresh uses it.
      op.accessTokenTtl = FRESH_TTL
      const before = tokenCalls(op)
      const results = await Promise.all(
        Array.from({ length: 20 }, () => getAccessToken(browser.request(), cfg, "oidc")),
      )
      expect(tokenCalls(op) - before).toBe(1)
      const tokens = new Set(results.map((r) => r?.accessToken))
      expect(tokens.size).toBe(1)
      const [token] = tokens
      expect(token).toBeTruthy()
      expect(token).not.toBe(signedIn.access)
      // The new token works at the provider.
      const me = await fetch(`${op.issuer}/me`, { headers: { authorization: `Bearer ${token}` } })
      expect(me.status).toBe(200)
    })

    it("the rotated refresh token is the one used at the next expiry", async () => {
      const cfg = config(true)
      const browser = await signIn(op, cfg)
      const first = await tokenFor(cfg, browser)
      const before = tokenCalls(op)
      // oidc-provider revokes the whole grant when a spent refresh token comes back, so this
      // only succeeds with the successor.
      const second = await tokenFor(cfg, browser)
      expect(tokenCalls(op) - before).toBe(1)
      expect(second?.accessToken).toBeTruthy()
      expect(second?.accessToken).not.toBe(first?.accessToken)
      const third = await tokenFor(cfg, browser)
      expect(third?.accessToken).not.toBe(second?.accessToken)
      expect(refused).toEqual([])
    })

    it("a request that read the tokens before a refresh sees the persisted successor", async () => {
      const cfg = config(true)
      const browser = await signIn(op, cfg)
      op.accessTokenTtl = FRESH_TTL
      const fresh = await tokenFor(cfg, browser)
      const before = tokenCalls(op)
      // The new token is fresh: whoever asks next gets it as persisted, without a refresh.
      const next = await tokenFor(cfg, browser)
      expect(next?.accessToken).toBe(fresh?.accessToken)
      expect(tokenCalls(op)).toBe(before)
    })

    if (!storage.adapter) {
      // Without an adapter each request carries its own copy of the tokens (its cookie).
      it("a request that still holds the spent refresh token gets the successor (grace window)", async () => {
        const cfg = config(true)
        const browser = await signIn(op, cfg)
        const stale = browser.request()
        op.accessTokenTtl = FRESH_TTL
        const fresh = await tokenFor(cfg, browser)
        const before = tokenCalls(op)
        const late = await getAccessToken(stale, cfg, "oidc")
        expect(late?.accessToken).toBe(fresh?.accessToken)
        expect(tokenCalls(op)).toBe(before)
        // And that request's browser can go on refreshing from there.
        const next = await tokenFor(cfg, browser)
        expect(next?.accessToken).toBeTruthy()
        expect(refused).toEqual([])
      })
    }

    it("a revoked refresh token: RefreshTokenError, session marked, event once, no retry storm", async () => {
      const cfg = config(true)
      const browser = await signIn(op, cfg)
      expect((await readSession(cfg, browser))?.error).toBeUndefined()
      await op.revokeRefreshToken(signedIn.refresh!)
      const before = tokenCalls(op)
      const results = await Promise.allSettled(
        Array.from({ length: 20 }, () => tokenFor(cfg, browser)),
      )
      for (const r of results) {
        expect(r.status).toBe("rejected")
        expect((r as PromiseRejectedResult).reason).toBeInstanceOf(RefreshTokenError)
      }
      expect(tokenCalls(op) - before).toBe(1)
      expect(refused).toEqual([
        { provider: "oidc", userId: expect.any(String), type: "RefreshTokenError" },
      ])
      // Later calls do not ask the provider again, even once the grace window is over.
      store = newStore()
      const later = config(true)
      await expect(tokenFor(later, browser)).rejects.toBeInstanceOf(RefreshTokenError)
      expect(tokenCalls(op) - before).toBe(1)
      expect((await readSession(later, browser))?.error).toBe("RefreshTokenError")

      // Signing in again clears the error and gives working tokens.
      await signIn(op, cfg, browser)
      expect((await readSession(cfg, browser))?.error).toBeUndefined()
      expect((await tokenFor(cfg, browser))?.accessToken).toBeTruthy()
    })

    it("a token endpoint slower than the timeout: TokenEndpointTimeout, tokens kept", async () => {
      const cfg = config({ timeoutMs: 150 })
      const browser = await signIn(op, cfg)
      op.tokenDelayMs = 1500
      await expect(tokenFor(cfg, browser)).rejects.toBeInstanceOf(TokenEndpointTimeout)
      // Let the delayed request reach the provider before the next one.
      await new Promise((resolve) => setTimeout(resolve, 1600))
      op.tokenDelayMs = 0
      expect((await readSession(cfg, browser))?.error).toBeUndefined()
      expect(refused).toEqual([])
    })

    it("a token endpoint that fails (503): TokenEndpointError, tokens kept, the next call works", async () => {
      const cfg = config(true)
      const browser = await signIn(op, cfg)
      op.failToken = true
      const error = await tokenFor(cfg, browser).catch((e: unknown) => e)
      expect(error).toBeInstanceOf(TokenEndpointError)
      expect(error).not.toBeInstanceOf(RefreshTokenError)
      expect((error as TokenEndpointError).details).toMatchObject({ provider: "oidc", status: 503 })
      op.failToken = false
      expect((await readSession(cfg, browser))?.error).toBeUndefined()
      expect((await tokenFor(cfg, browser))?.accessToken).toBeTruthy()
      expect(refused).toEqual([])
    })

    it("another instance holds the refresh lock: its outcome is used, the provider is not called", async () => {
      const cfg = config(true)
      const browser = await signIn(op, cfg)
      const key = await flightKey("oidc", signedIn.refresh!)
      expect(await store.consumeOnce(`latchkey:refresh-lock:${key}`, 10_000)).toBe(true)
      const before = tokenCalls(op)
      const pending = tokenFor(cfg, browser)
      await new Promise((resolve) => setTimeout(resolve, 120))
      const successor = { access_token: "from-another-instance", refresh_token: "rt-2" }
      await rememberOutcome({ store, secret: [SECRET], graceMs: 30_000 }, key, {
        ok: true,
        tokens: { ...successor, expires_at: Math.floor(Date.now() / 1000) + 3600 },
      })
      expect((await pending)?.accessToken).toBe("from-another-instance")
      expect(tokenCalls(op)).toBe(before)
      // What the store holds is sealed: no token in clear.
      expect(JSON.stringify(await store.get(`latchkey:refresh-grace:${key}`))).not.toContain(
        "from-another-instance",
      )
    })

    it("a lock that is never released: TokenEndpointTimeout after timeoutMs, no provider call", async () => {
      const cfg = config({ timeoutMs: 150 })
      const browser = await signIn(op, cfg)
      const key = await flightKey("oidc", signedIn.refresh!)
      await store.consumeOnce(`latchkey:refresh-lock:${key}`, 10_000)
      const before = tokenCalls(op)
      await expect(tokenFor(cfg, browser)).rejects.toBeInstanceOf(TokenEndpointTimeout)
      expect(tokenCalls(op)).toBe(before)
    })

    if (storage.adapter) {
      it("a refusal after another instance rotated the token uses the row's successor, no error", async () => {
        const cfg = config(true)
        const browser = await signIn(op, cfg)
        const userId = (await adapter!.getUserByAccount!({
          provider: "oidc",
          providerAccountId: "alice",
        }))!.id
        const before = (await adapter!.getAccountByUserId!(userId, "oidc"))!
        // "Instance A" (its own store) refreshes and persists the rotated token.
        op.accessTokenTtl = FRESH_TTL
        const fromA = await tokenFor(cfg, browser)
        // "Instance B" (another store) read the row just before A wrote it.
        let stale = true
        const lagging: Adapter = {
          ...adapter!,
          getAccountByUserId: async (id, provider) => {
            if (stale) {
              stale = false
              return before
            }
            return adapter!.getAccountByUserId!(id, provider)
          },
        }
        store = newStore()
        const cfgB = { ...config(true), adapter: lagging }
        const fromB = await getAccessToken(browser.request(), cfgB, "oidc")
        expect(fromB?.accessToken).toBe(fromA?.accessToken)
        expect(refused).toEqual([])
        expect((await readSession(cfgB, browser))?.error).toBeUndefined()
      })
    }

    it('a session that was ended gets no token (revocation "reissue" too), without a provider call', async () => {
      op.accessTokenTtl = FRESH_TTL
      const cfg = refreshConfig(op, true, {
        session: { strategy: storage.strategy, revocation: "reissue" },
        store,
        ...(adapter ? { adapter } : {}),
      })
      const browser = await signIn(op, cfg)
      expect(await getAccessToken(browser.request(), cfg, "oidc")).not.toBeNull()
      const cookie = browser.cookies.get("authjs.session-token")!
      const userId =
        storage.strategy === "jwt"
          ? (await decode({ token: cookie, secret: SECRET, salt: "authjs.session-token" }))!.sub!
          : (await adapter!.getSessionAndUser!(cookie))!.user.id
      await revokeUserSessions(cfg, userId)
      const before = tokenCalls(op)
      expect(await getAccessToken(browser.request(), cfg, "oidc")).toBeNull()
      expect(tokenCalls(op)).toBe(before)
    })

    it("nobody signed in: null, without a provider call", async () => {
      const cfg = config(true)
      const before = tokenCalls(op)
      expect(await getAccessToken(new Request("http://127.0.0.1:3999/"), cfg, "oidc")).toBeNull()
      expect(tokenCalls(op)).toBe(before)
    })

    if (storage.rawAccount) {
      it("tokens at rest are not readable in the database", async () => {
        const cfg = config(true)
        const browser = await signIn(op, cfg)
        let raw = await storage.rawAccount!()
        for (const secret of [signedIn.access!, signedIn.refresh!]) {
          expect(secret.length).toBeGreaterThan(10)
          expect(raw).not.toContain(secret)
        }
        const refreshed = await tokenFor(cfg, browser)
        raw = await storage.rawAccount!()
        expect(raw).not.toContain(refreshed!.accessToken)
        expect(raw).toContain("lk1.")
      })
    }
  })
}
