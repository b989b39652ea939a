/**
 * Account pre-hijacking, written as the attacks (issue 23 item 1, issue 29 part 2): the attacker
 * sets up an account for the victim's address with a first factor that does not prove the
 * mailbox (a passkey, an OAuth profile whose email the provider does not vouch for), adds what
 * else they can (two-factor, a Latchkey-managed password where the adapter keeps one), then the
 * owner proves the mailbox (email link, a provider that vouches for the email). The proof
 * claims the row (kernel/account/claim.ts): the owner is signed in, with the same user id, and
 * nothing the attacker attached reaches the account any more — their passkey, their linked
 * account, their password, their sessions. The reverse order (owner first) still refuses the
 * attacker.
 *
 * Real parts: the software authenticator (passkeys), the local OpenID Provider (OIDC with a
 * verified and an unverified email claim), the email provider with a capturing sender. The
 * PostgreSQL adapter's tests (PGlite, and the server with DATABASE_URL) and the Redis store's
 * tests (JWT revocation in Redis) run the same scenarios.
 */
import { PasskeyClient, softwareAuthenticator } from "@latchkey/adapter-test/webauthn"
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest"
import { Auth } from "../../src/index.js"
import type { AccountClaimedMessage } from "../../src/kernel/account/claim.js"
import { MemoryRateLimitStore } from "../../src/kernel/rate-limit/memory-store.js"
import type { Adapter } from "../../src/kernel/types/adapters.js"
import type { SendVerificationRequestParams } from "../../src/providers/email.js"
import { Nodemailer } from "../../src/providers/nodemailer.js"
import Passkey from "../../src/providers/passkey.js"
import { MemoryStore, type Store } from "../../src/store.js"
import type { AuthConfig, SessionStrategy } from "../../src/types.js"
import { oidcProvider } from "../oauth/harness/app.js"
import { APP_ORIGIN, type OidcHarness, startOidcServer } from "../oauth/harness/oidc-server.js"

const SECRET = "an-ownership-secret-with-at-least-32-bytes!!"
export const VICTIM = "victim@example.com"

export interface OwnershipStorage {
  name: string
  /** A fresh, empty adapter per test. */
  adapter: () => Promise<Adapter>
  /** Where revocation state lives (default: a fresh `MemoryStore` per test). */
  store?: () => Promise<Store>
  /** The session strategies to run (default both). */
  strategies?: readonly SessionStrategy[]
}

/** The password methods of the password accounts work (issue 28), when the adapter has them. */
interface PasswordMethods {
  getPasswordHash?(userId: string): Promise<string | null> | string | null
  setPasswordHash?(userId: string, hash: string): Promise<void> | void
}

type Browser = PasskeyClient<AuthConfig>

/** The first factors an attacker can use without owning the mailbox. */
type AttackerFactor = "passkey" | "oauth-unverified"
/** The factors that prove the mailbox. */
type OwnerFactor = "email-link" | "oauth-verified"

export function ownershipScenarios(storage: OwnershipStorage): void {
  describe.each(storage.strategies ?? (["jwt", "database"] as const))(
    `email ownership: ${storage.name}, %s sessions`,
    (strategy: SessionStrategy) => {
      let op: OidcHarness
      let adapter: Adapter
      let mails: SendVerificationRequestParams[]
      let store: Store
      let claims: AccountClaimedMessage[]

      beforeAll(async () => {
        op = await startOidcServer()
        op.accounts.set("mallory", {
          sub: "mallory",
          email: VICTIM,
          email_verified: false,
          name: "Mallory",
          picture: "https://img.example/m.png",
        })
        op.accounts.set("victim", {
          sub: "victim",
          email: VICTIM,
          email_verified: true,
          name: "Victim",
          picture: "https://img.example/v.png",
        })
      })
      afterAll(() => op.close())
      beforeEach(async () => {
        adapter = await storage.adapter()
        store = (await storage.store?.()) ?? new MemoryStore()
        mails = []
        claims = []
      })

      function config(overrides: { dangerousLinking?: boolean } = {}): AuthConfig {
        return {
          secret: SECRET,
          trustHost: true,
          adapter,
          store,
          // Strict: the attacker's JWT copy must stop at once (with "reissue" it stops at its next
          // re-issue; the README's security model says so).
          session: { strategy, revocation: "strict" },
          experimental: { enableWebAuthn: true },
          providers: [
            Passkey(),
            Nodemailer({
              id: "email",
              sendVerificationRequest: (p) => void mails.push(p),
              rateLimit: { store: new MemoryRateLimitStore() },
            }),
            oidcProvider(op, {
              allowDangerousEmailAccountLinking: overrides.dangerousLinking === true,
            }),
          ],
          events: { accountClaimed: (message) => void claims.push(message) },
          logger: { error: () => {}, warn: () => {}, debug: () => {} },
        }
      }

      function browser(cfg: AuthConfig): Browser {
        return new PasskeyClient({ Auth, config: cfg, origin: APP_ORIGIN })
      }

      /** OIDC sign-in as the provider's account `who`; the error type when it was refused. */
      async function oidcSignIn(b: Browser, who: string): Promise<string | null> {
        const start = await b.send("/signin/oidc", {
          method: "POST",
          headers: { "content-type": "application/x-www-form-urlencoded", origin: APP_ORIGIN },
          body: new URLSearchParams({ callbackUrl: "/" }).toString(),
        })
        op.accountId = who
        const back = await op.authorize(start.headers.get("location")!)
        const done = await b.send(`/callback/oidc${back.search}`)
        return new URL(done.headers.get("location")!).searchParams.get("error")
      }

      /** Email sign-in: request the link, then post it as the confirm page does. */
      async function emailSignIn(b: Browser, email: string): Promise<string | null> {
        await b.send("/signin/email", {
          method: "POST",
          headers: { "content-type": "application/x-www-form-urlencoded", origin: APP_ORIGIN },
          body: new URLSearchParams({ email, callbackUrl: "/" }).toString(),
        })
        const link = new URL(mails.at(-1)!.url)
        const done = await b.send("/callback/email", {
          method: "POST",
          headers: { "content-type": "application/x-www-form-urlencoded", origin: APP_ORIGIN },
          body: new URLSearchParams({
            token: link.searchParams.get("token")!,
            email: link.searchParams.get("email")!,
          }).toString(),
        })
        return new URL(done.headers.get("location")!).searchParams.get("error")
      }

      /** The attacker's way in, set up for the victim's address; returns how to try it again. */
      async function attack(cfg: AuthConfig, factor: AttackerFactor) {
        const b = browser(cfg)
        const key = softwareAuthenticator()
        if (factor === "passkey") {
          expect((await b.register(key, { email: VICTIM })).status).toBe(200)
        } else {
          expect(await oidcSignIn(b, "mallory")).toBeNull()
        }
        const row = await adapter.getUserByEmail!(VICTIM)
        expect(row?.emailVerified ?? null).toBeNull()
        expect((await b.session())?.user?.email).toBe(VICTIM)
        // What else the attacker can attach to the row: a second factor of their own, and a
        // password where the adapter keeps one (the password sign-up of issue 28).
        await adapter.setTwoFactor?.({ userId: row!.id, secret: "sealed", enabledAt: new Date() })
        await adapter.replaceRecoveryCodes?.(row!.id, ["hash-1", "hash-2"])
        await (adapter as PasswordMethods).setPasswordHash?.(row!.id, "attacker-hash")
        return {
          row: row!,
          session: b,
          /** The attacker signs in again with their factor, from a fresh browser. */
          async retry(): Promise<Browser> {
            const again = browser(cfg)
            if (factor === "passkey") await again.authenticate(key)
            else await oidcSignIn(again, "mallory")
            return again
          },
        }
      }

      /** The owner signs in with a factor that proves the mailbox; the error type, if refused. */
      async function owner(cfg: AuthConfig, factor: OwnerFactor) {
        const b = browser(cfg)
        const error =
          factor === "email-link" ? await emailSignIn(b, VICTIM) : await oidcSignIn(b, "victim")
        return { browser: b, error }
      }

      const pairs: [AttackerFactor, OwnerFactor, boolean][] = [
        ["passkey", "email-link", false],
        ["passkey", "oauth-verified", false],
        ["oauth-unverified", "email-link", false],
        ["oauth-unverified", "oauth-verified", false],
        // allowDangerousEmailAccountLinking changes nothing: the claim leaves the row empty.
        ["passkey", "oauth-verified", true],
        ["oauth-unverified", "oauth-verified", true],
      ]
      it.each(pairs)(
        "attacker first with %s, owner second by %s (dangerous linking: %s): the proof claims the row, the owner is signed in and nothing of the attacker's reaches it",
        async (attackerFactor, ownerFactor, dangerousLinking) => {
          const cfg = config({ dangerousLinking })
          const attacker = await attack(cfg, attackerFactor)
          const id = attacker.row.id

          const victim = await owner(cfg, ownerFactor)
          expect(victim.error).toBeNull()
          expect((await victim.browser.session())?.user?.email).toBe(VICTIM)
          // The same row (same user id: the app's data keyed by it stays), now proven.
          const row = await adapter.getUserByEmail!(VICTIM)
          expect(row?.id).toBe(id)
          expect(row?.emailVerified).toBeInstanceOf(Date)

          // Everything the attacker attached is gone.
          expect(await adapter.listAuthenticatorsByUserId!(id)).toEqual([])
          const linked = (await adapter.listAccountsByUserId!(id)).map((a) => a.providerAccountId)
          expect(linked).toEqual(ownerFactor === "oauth-verified" ? ["victim"] : [])
          expect(
            await adapter.getUserByAccount!({ provider: "oidc", providerAccountId: "mallory" }),
          ).toBeNull()
          expect(await adapter.getTwoFactor!(id)).toBeNull()
          expect(await adapter.countRecoveryCodes!(id)).toBe(0)
          const password = adapter as PasswordMethods
          if (password.getPasswordHash) expect(await password.getPasswordHash(id)).toBeNull()

          // The attacker's session is over, and their factor no longer opens the account.
          expect(await attacker.session.session()).toBeNull()
          const retried = await attacker.retry()
          expect(await retried.session()).toBeNull()
          // The owner's session survives the attacker's attempts.
          expect((await victim.browser.session())?.user?.email).toBe(VICTIM)

          // The app was told, with what was removed (counts and provider ids only).
          expect(claims).toHaveLength(1)
          expect(claims[0]!.user.id).toBe(id)
          expect(claims[0]!.via.proof).toBe(
            ownerFactor === "email-link" ? "email-link" : "provider",
          )
          expect(claims[0]!.removed).toEqual({
            passkeys: attackerFactor === "passkey" ? 1 : 0,
            accounts: [attackerFactor === "passkey" ? "passkey" : "oidc"],
            password: password.setPasswordHash !== undefined,
            twoFactor: adapter.setTwoFactor !== undefined,
            sessions: true,
          })
        },
      )

      it.each(["passkey", "oauth-unverified"] as const)(
        "owner first (email link), attacker second with %s: refused, nothing joins the owner's account",
        async (attackerFactor) => {
          const cfg = config({ dangerousLinking: true })
          await owner(cfg, "email-link")
          const row = await adapter.getUserByEmail!(VICTIM)
          const b = browser(cfg)
          if (attackerFactor === "passkey") {
            const answer = await b.register(softwareAuthenticator(), { email: VICTIM })
            expect(new URL(answer.url).searchParams.get("error")).toBe("AccountNotLinked")
          } else {
            expect(await oidcSignIn(b, "mallory")).toBe("OAuthAccountNotLinked")
          }
          expect(await b.session()).toBeNull()
          expect(await adapter.getUserByEmail!(VICTIM)).toEqual(row)
          expect(
            await adapter.getUserByAccount!({ provider: "oidc", providerAccountId: "mallory" }),
          ).toBeNull()
        },
      )

      it("a proof made from the account itself confirms it: passkey sign-up, then the email link in the same browser", async () => {
        const cfg = config()
        const b = browser(cfg)
        const key = softwareAuthenticator()
        await b.register(key, { email: VICTIM })
        const row = await adapter.getUserByEmail!(VICTIM)
        expect(await emailSignIn(b, VICTIM)).toBeNull()
        const after = await adapter.getUserByEmail!(VICTIM)
        expect(after?.id).toBe(row?.id)
        expect(after?.emailVerified).toBeInstanceOf(Date)
        const later = browser(cfg)
        await later.authenticate(key)
        expect((await later.session())?.user?.email).toBe(VICTIM)
        // Confirmed: the address's later email links land in it.
        expect((await owner(cfg, "email-link")).error).toBeNull()
      })

      it("an OAuth account whose provider later vouches for the email confirms its own row", async () => {
        const cfg = config()
        op.accounts.set("late", {
          sub: "late",
          email: "late@example.com",
          email_verified: false,
          name: "Late",
          picture: "https://img.example/l.png",
        })
        expect(await oidcSignIn(browser(cfg), "late")).toBeNull()
        expect(
          (await adapter.getUserByEmail!("late@example.com"))?.emailVerified ?? null,
        ).toBeNull()
        op.accounts.set("late", { ...op.accounts.get("late")!, email_verified: true })
        expect(await oidcSignIn(browser(cfg), "late")).toBeNull()
        expect((await adapter.getUserByEmail!("late@example.com"))?.emailVerified).toBeInstanceOf(
          Date,
        )
      })

      it("an OAuth sign-up with a verified email is proven at once (a later email link lands in it)", async () => {
        const cfg = config()
        expect((await owner(cfg, "oauth-verified")).error).toBeNull()
        const row = await adapter.getUserByEmail!(VICTIM)
        expect(row?.emailVerified).toBeInstanceOf(Date)
        expect((await owner(cfg, "email-link")).error).toBeNull()
        expect((await adapter.getUserByEmail!(VICTIM))?.id).toBe(row?.id)
      })
    },
  )
}
