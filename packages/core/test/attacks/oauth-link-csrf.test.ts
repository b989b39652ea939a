/**
 * Issue 23 item 2, written as the attack: OAuth account-linking CSRF. The attacker starts a
 * flow in their own browser with their provider account, then tosses the flow's check cookies
 * (state, PKCE, nonce) into the signed-in victim's browser and has it open the callback URL.
 * Without a binding to the browser session this completes as "link to the current user" and
 * the attacker's provider account opens the victim's account.
 */
import { PasskeyClient } from "@latchkey/adapter-test/webauthn"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { MemoryAdapter } from "../../src/adapters/memory.js"
import { Auth } from "../../src/index.js"
import type { Adapter } from "../../src/kernel/types/adapters.js"
import { MemoryStore } from "../../src/store.js"
import type { AuthConfig } from "../../src/types.js"
import { oidcProvider } from "../oauth/harness/app.js"
import { APP_ORIGIN, type OidcHarness, startOidcServer } from "../oauth/harness/oidc-server.js"

const SECRET = "an-oauth-binding-secret-with-32-bytes-or-more!"
type Browser = PasskeyClient<AuthConfig>
const CHECK_COOKIES = ["authjs.state", "authjs.pkce.code_verifier", "authjs.nonce"]

let op: OidcHarness
beforeAll(async () => {
  op = await startOidcServer()
  for (const who of ["victim", "victim-work", "mallory"]) {
    op.accounts.set(who, {
      sub: who,
      email: `${who}@example.com`,
      email_verified: true,
      name: who,
      picture: "https://img.example/p.png",
    })
  }
})
afterAll(() => op.close())

describe.each(["jwt", "database"] as const)(
  "OAuth flows bound to the browser session (%s)",
  (strategy) => {
    function app() {
      const adapter: Adapter = MemoryAdapter()
      const config: AuthConfig = {
        secret: SECRET,
        trustHost: true,
        adapter,
        store: new MemoryStore(),
        session: { strategy },
        providers: [oidcProvider(op)],
        logger: { error: () => {}, warn: () => {}, debug: () => {} },
      }
      const browser = (): Browser => new PasskeyClient({ Auth, config, origin: APP_ORIGIN })
      return { adapter, browser }
    }

    /** The first leg in `b`: the check cookies land in `b`; returns the callback URL's query. */
    async function startFlow(b: Browser, who: string): Promise<string> {
      const start = await b.send("/signin/oidc", {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded", origin: APP_ORIGIN },
        body: new URLSearchParams({ callbackUrl: "/" }).toString(),
      })
      op.accountId = who
      return (await op.authorize(start.headers.get("location")!)).search
    }

    async function finish(b: Browser, query: string): Promise<string | null> {
      const done = await b.send(`/callback/oidc${query}`)
      return new URL(done.headers.get("location")!).searchParams.get("error")
    }

    async function signedIn(b: Browser, who: string) {
      expect(await finish(b, await startFlow(b, who))).toBeNull()
      expect((await b.session())?.user?.email).toBe(`${who}@example.com`)
    }

    function toss(from: Browser, into: Browser) {
      for (const name of CHECK_COOKIES) {
        const value = from.cookies.get(name)
        if (value !== undefined) into.cookies.set(name, value)
      }
    }

    it.each([false, true])(
      "attack: the attacker's flow (attacker signed in: %s) completed in the victim's browser → OAuthSessionMismatch, nothing linked",
      async (attackerSignedIn) => {
        const { adapter, browser } = app()
        const victim = browser()
        await signedIn(victim, "victim")
        const attacker = browser()
        if (attackerSignedIn) await signedIn(attacker, "victim-work")
        const query = await startFlow(attacker, "mallory")

        toss(attacker, victim)
        expect(await finish(victim, query)).toBe("OAuthSessionMismatch")
        expect(
          await adapter.getUserByAccount!({ provider: "oidc", providerAccountId: "mallory" }),
        ).toBeNull()
        expect((await victim.session())?.user?.email).toBe("victim@example.com")
        // The tossed cookies are gone, and the flow cannot be replayed anywhere.
        for (const name of CHECK_COOKIES) expect(victim.cookies.has(name)).toBe(false)
        expect(await finish(attacker, query)).not.toBeNull()
      },
    )

    it("a flow started signed in that comes back signed out is refused too", async () => {
      const { browser } = app()
      const b = browser()
      await signedIn(b, "victim")
      const query = await startFlow(b, "victim-work")
      for (const name of [...b.cookies.keys()])
        if (name.startsWith("authjs.session-token")) b.cookies.delete(name)
      expect(await finish(b, query)).toBe("OAuthSessionMismatch")
    })

    it("owner: a link flow started and finished in the victim's own session links to them", async () => {
      const { adapter, browser } = app()
      const victim = browser()
      await signedIn(victim, "victim")
      const user = await adapter.getUserByAccount!({
        provider: "oidc",
        providerAccountId: "victim",
      })
      expect(await finish(victim, await startFlow(victim, "victim-work"))).toBeNull()
      expect(
        await adapter.getUserByAccount!({ provider: "oidc", providerAccountId: "victim-work" }),
      ).toMatchObject({ id: user!.id })
    })
  },
)
