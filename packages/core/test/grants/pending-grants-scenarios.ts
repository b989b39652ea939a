/**
 * Issue 41, as the attacks: state granted before a claim, a reset or a password change must not
 * work after it (docs/design/pending-grants.md). Each scenario fails without the binding of
 * grants to the account's state: a squatter's pending address change, a half-done enrollment, a
 * confirmed sign-up keeping the squatter's password, an older reset link, a password replaced
 * with a session alone, a squatter's JWT after the claim, and an Auth.js adapter on which no
 * session was ever recent and no passkey squat could be claimed.
 *
 * Run with the memory adapter and store here, with Redis (`store-redis`) and PostgreSQL
 * (`adapter-postgres`) by their packages, for JWT and database sessions.
 */

import {
  PasskeyClient,
  type SoftwareAuthenticator,
  softwareAuthenticator,
} from "@latchkey/adapter-test/webauthn"
import { beforeEach, describe, expect, it } from "vitest"
import { MemoryAdapter } from "../../src/adapters/memory.js"
import { totpCode } from "../../src/features/two-factor/totp.js"
import { Auth, flushDeferred } from "../../src/index.js"
import { MemoryRateLimitStore } from "../../src/kernel/rate-limit/memory-store.js"
import type { Adapter } from "../../src/kernel/types/adapters.js"
import { withPlainProviders } from "../../src/plain-providers.js"
import type { SendVerificationRequestParams } from "../../src/providers/email.js"
import { Nodemailer } from "../../src/providers/nodemailer.js"
import Passkey from "../../src/providers/passkey.js"
import Password, { type SendPasswordMailParams } from "../../src/providers/password.js"
import { MemoryStore, type Store } from "../../src/store.js"
import { TwoFactor } from "../../src/two-factor.js"
import type { AuthConfig, SessionStrategy } from "../../src/types.js"
import { fastHasher } from "../password/helpers.js"

const SECRET = "a-pending-grants-secret-with-32-bytes-or-more!"
const ORIGIN = "http://app.example.com"
export const VICTIM = "victim@example.com"
const MALLORY = "mallory@evil.example"
const OWNER_PASSWORD = "owner-chose-this-one"
const ATTACKER_PASSWORD = "attacker-chose-this-one"

export interface GrantStorage {
  name: string
  /** A fresh, empty adapter per test. */
  adapter: () => Promise<Adapter>
  /** Where the account's state lives (default: a fresh `MemoryStore` per test). */
  store?: () => Promise<Store>
  strategies?: readonly SessionStrategy[]
}

/** The methods an Auth.js adapter has (`@auth/core/adapters`): none of Latchkey's own. */
const AUTHJS_METHODS = [
  "createUser",
  "getUser",
  "getUserByEmail",
  "getUserByAccount",
  "updateUser",
  "deleteUser",
  "linkAccount",
  "unlinkAccount",
  "createSession",
  "getSessionAndUser",
  "updateSession",
  "deleteSession",
  "createVerificationToken",
  "useVerificationToken",
  "getAccount",
  "getAuthenticator",
  "createAuthenticator",
  "listAuthenticatorsByUserId",
  "updateAuthenticatorCounter",
] as const

/** The memory adapter cut down to what an Auth.js adapter (Prisma, Drizzle, …) offers. */
export function authJsShaped(adapter: Adapter = MemoryAdapter()): Adapter {
  const shaped: Record<string, unknown> = {}
  for (const name of AUTHJS_METHODS) {
    const method = adapter[name]
    if (typeof method === "function") shaped[name] = method.bind(adapter)
  }
  return shaped as Adapter
}

/** A browser: a cookie jar over `Auth()`, with passkeys and form/JSON posts. */
class Browser extends PasskeyClient<AuthConfig> {
  /** Every request, and the mails it left for after its answer (sent before the test reads them). */
  override async send(path: string, init: RequestInit = {}): Promise<Response> {
    const res = await super.send(path, init)
    await flushDeferred()
    return res
  }

  /** POST JSON as a fetch client of the same origin (the CSRF check passes by origin). */
  async post(path: string, body: Record<string, string> = {}) {
    const res = await this.send(path, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json", origin: ORIGIN },
      body: JSON.stringify(body),
    })
    const text = await res.text()
    let json: { error?: string; url?: string; [k: string]: unknown } = {}
    try {
      json = JSON.parse(text)
    } catch {}
    return { status: res.status, body: json, location: res.headers.get("location") }
  }

  /** A form post of a browser without script (Accept: text/html). */
  async form(path: string, fields: Record<string, string>) {
    return this.send(path, {
      method: "POST",
      headers: {
        "content-type": "application/x-www-form-urlencoded",
        accept: "text/html",
        origin: ORIGIN,
      },
      body: new URLSearchParams(fields).toString(),
    })
  }

  async email(): Promise<string | null> {
    return (await this.session())?.user?.email ?? null
  }

  /**
   * Whether the session can still act for its user (the account API): a session ended by a move
   * of the account's state cannot, whatever `revocation` says (a plain JWT read with the default
   * "reissue" notices only at the session's next re-issue).
   */
  async canAct(): Promise<boolean> {
    return (await this.send("/account")).status === 200
  }
}

interface App {
  config: AuthConfig
  adapter: Adapter
  mails: SendPasswordMailParams[]
  links: SendVerificationRequestParams[]
  browser(): Browser
}

function linkOf(mail: { url?: string | undefined }) {
  const url = new URL(mail.url!)
  const fields: Record<string, string> = {}
  for (const name of ["token", "uid", "email", "browser"]) {
    const value = url.searchParams.get(name)
    if (value !== null) fields[name] = value
  }
  return { path: url.pathname.replace(/^\/auth/, ""), fields }
}

/**
 * The flows above that show a move of the account's state voiding each purpose bound to it
 * (`GRANT_PURPOSES`); `purposes.test.ts` fails when a bound purpose has none.
 */
export const SCENARIOS_BY_PURPOSE: Readonly<Record<string, readonly string[]>> = {
  "email-sign-in": ["an email sign-in link mailed before a reset is void after it"],
  "password-verify": ["a sign-up verification link mailed before a reset is void after it"],
  "password-reset": [
    "5. only one reset link works: using a newer one voids the older, and so does a password change",
  ],
  "email-change": [
    "1. a squatter's pending address change cannot move the account its owner claimed",
    "2. a pending address change asked with a phished password dies with the owner's reset",
  ],
  // In test/organizations/organizations-scenarios.ts: the inviter's "sign out everywhere".
  "organization-invitation": [
    "an invitation mailed before the inviter's account state moved is void after it",
  ],
  "two-factor-step": [
    "3. a half-done enrollment started before a claim cannot finish after it",
    "3. a half-done enrollment started with a phished password cannot finish after the owner's reset",
  ],
  "jwt-session": [
    "6. a password is not replaced with a session alone, and replacing it ends the other sessions",
    "7. after a claim the squatter's session reads as nobody on its next request",
  ],
  "database-session": [
    "6. a password is not replaced with a session alone, and replacing it ends the other sessions",
    "7. after a claim the squatter's session reads as nobody on its next request",
  ],
}

export function pendingGrantScenarios(storage: GrantStorage): void {
  describe.each(storage.strategies ?? (["jwt", "database"] as const))(
    `pending grants: ${storage.name}, %s sessions`,
    (strategy: SessionStrategy) => {
      let adapter: Adapter
      let store: Store

      beforeEach(async () => {
        adapter = await storage.adapter()
        store = (await storage.store?.()) ?? new MemoryStore()
      })

      function app(options: { twoFactorRequired?: boolean; adapter?: Adapter } = {}): App {
        const mails: SendPasswordMailParams[] = []
        const links: SendVerificationRequestParams[] = []
        const used = options.adapter ?? adapter
        const config: AuthConfig = {
          secret: SECRET,
          trustHost: true,
          adapter: used,
          store,
          session: { strategy },
          experimental: { enableWebAuthn: true },
          ...(options.twoFactorRequired
            ? { twoFactor: TwoFactor({ issuer: "Test", required: true }) }
            : {}),
          providers: [
            Password({ hasher: fastHasher(), sendPasswordMail: (m) => void mails.push(m) }),
            // "preferred": the squatter's authenticator skips user verification, so a second
            // factor is due after it (a verified passkey is multi-factor on its own).
            Passkey({ userVerification: "preferred" }),
            Nodemailer({
              id: "email",
              sendVerificationRequest: (p) => void links.push(p),
              rateLimit: { store: new MemoryRateLimitStore() },
            }),
          ],
          logger: { error: () => {}, warn: () => {}, debug: () => {} },
        }
        const browser = () => new Browser({ Auth, config, origin: ORIGIN })
        return { config, adapter: used, mails, links, browser }
      }

      const lastMail = (a: App, purpose: string, to: string) =>
        a.mails.findLast((m) => m.purpose === purpose && m.identifier === to)!

      /** A password account proven from the browser that signed up; returns that browser. */
      async function provenAccount(a: App, email = VICTIM, password = OWNER_PASSWORD) {
        const b = a.browser()
        expect((await b.post("/password/signup", { email, password })).status).toBe(200)
        const { fields } = linkOf(lastMail(a, "verify", email))
        expect((await b.post("/password/verify", fields)).status).toBe(200)
        return b
      }

      async function signIn(a: App, email: string, password: string, b = a.browser()) {
        await b.form("/callback/password", { email, password })
        return b
      }

      /** The squatter: a passkey sign-up for the victim's address (no mailbox needed). */
      async function squat(a: App, userVerified = true) {
        const b = a.browser()
        const key = softwareAuthenticator()
        const done = await b.register(key, { email: VICTIM }, { userVerified })
        expect(done.status).toBe(200)
        const row = (await a.adapter.getUserByEmail!(VICTIM))!
        expect(row.emailVerified ?? null).toBeNull()
        return { browser: b, key, row }
      }

      /** The owner signs up for their own address: the "account exists" mail's reset link claims it. */
      async function ownerClaimsByReset(a: App) {
        const owner = a.browser()
        const signUp = { email: VICTIM, password: OWNER_PASSWORD }
        expect((await owner.post("/password/signup", signUp)).status).toBe(200)
        const { fields } = linkOf(lastMail(a, "account-exists", VICTIM))
        const reset = await owner.post("/password/reset", { ...fields, password: OWNER_PASSWORD })
        expect(reset.status).toBe(200)
        expect(await owner.email()).toBe(VICTIM)
        return owner
      }

      async function ownerResets(a: App, password = "owner-reset-to-this") {
        const owner = a.browser()
        await owner.post("/password/forgot", { email: VICTIM })
        const { fields } = linkOf(lastMail(a, "reset", VICTIM))
        expect((await owner.post("/password/reset", { ...fields, password })).status).toBe(200)
        return owner
      }

      it("1. a squatter's pending address change cannot move the account its owner claimed", async () => {
        const a = app()
        const squatter = await squat(a)
        const asked = await squatter.browser.post("/account/email-change", { email: MALLORY })
        expect(asked.status).toBe(200)
        const change = linkOf(lastMail(a, "email-change", MALLORY))
        await ownerClaimsByReset(a)
        const moved = await squatter.browser.post(change.path, change.fields)
        expect(moved.status).toBe(400)
        expect(moved.body.error).toBe("Verification")
        const row = (await a.adapter.getUserByEmail!(VICTIM))!
        expect(row.id).toBe(squatter.row.id)
        expect(row.emailVerified).toBeInstanceOf(Date)
        expect(await a.adapter.getUserByEmail!(MALLORY)).toBeNull()
      })

      it("2. a pending address change asked with a phished password dies with the owner's reset", async () => {
        const a = app()
        await provenAccount(a)
        const attacker = await signIn(a, VICTIM, OWNER_PASSWORD)
        expect(await attacker.email()).toBe(VICTIM)
        const asked = await attacker.post("/account/email-change", {
          email: MALLORY,
          currentPassword: OWNER_PASSWORD,
        })
        expect(asked.status).toBe(200)
        const change = linkOf(lastMail(a, "email-change", MALLORY))
        await ownerResets(a)
        expect(await attacker.canAct()).toBe(false)
        const moved = await attacker.post(change.path, change.fields)
        expect(moved.status).toBe(400)
        expect(await a.adapter.getUserByEmail!(MALLORY)).toBeNull()
        expect(await a.adapter.getUserByEmail!(VICTIM)).not.toBeNull()
      })

      /** The attacker's half-done enrollment: the page, its secret, and a try to finish it. */
      async function finishEnrollment(b: Browser): Promise<number> {
        const page = await b.send("/two-factor")
        const secret =
          page.status === 200 ? /data-two-factor-secret>([A-Z2-7]+)</.exec(await page.text()) : null
        const code = secret ? totpCode(secret[1]!) : "000000"
        const done = await b.post("/two-factor/confirm", { code })
        return done.status
      }

      it("3. a half-done enrollment started before a claim cannot finish after it", async () => {
        const a = app({ twoFactorRequired: true })
        const b = a.browser()
        const key = softwareAuthenticator()
        const started = await b.register(key, { email: VICTIM }, { userVerified: false })
        expect(new URL(started.url).pathname).toBe("/auth/two-factor")
        const row = (await a.adapter.getUserByEmail!(VICTIM))!
        // The owner proves the mailbox with an email link: the row is claimed.
        const owner = a.browser()
        await owner.send("/signin/email", {
          method: "POST",
          headers: { "content-type": "application/x-www-form-urlencoded", origin: ORIGIN },
          body: new URLSearchParams({ email: VICTIM }).toString(),
        })
        const link = new URL(a.links.at(-1)!.url)
        await owner.form("/callback/email", {
          token: link.searchParams.get("token")!,
          email: VICTIM,
        })
        expect((await a.adapter.getUserByEmail!(VICTIM))!.emailVerified).toBeInstanceOf(Date)
        expect(await finishEnrollment(b)).not.toBe(200)
        expect(await b.session()).toBeNull()
        expect((await a.adapter.getTwoFactor!(row.id))?.enabledAt ?? null).toBeNull()
      })

      it("3. a half-done enrollment started with a phished password cannot finish after the owner's reset", async () => {
        const a = app({ twoFactorRequired: true })
        const owner = a.browser()
        await owner.post("/password/signup", { email: VICTIM, password: OWNER_PASSWORD })
        const { fields } = linkOf(lastMail(a, "verify", VICTIM))
        await owner.post("/password/verify", fields)
        const attacker = await signIn(a, VICTIM, OWNER_PASSWORD)
        expect(await attacker.session()).toBeNull()
        await ownerResets(a)
        expect(await finishEnrollment(attacker)).not.toBe(200)
        expect(await attacker.session()).toBeNull()
      })

      it("4. a sign-up confirmed from another browser keeps nothing of the signer-up: the owner sets their own password", async () => {
        const a = app()
        const attacker = a.browser()
        const signUp = { email: VICTIM, password: ATTACKER_PASSWORD }
        expect((await attacker.post("/password/signup", signUp)).status).toBe(200)
        const link = linkOf(lastMail(a, "verify", VICTIM))
        const owner = a.browser()
        const page = await owner.send(`${link.path}?${new URLSearchParams(link.fields)}`)
        const html = await page.text()
        expect(html).toContain('name="password"')
        const bare = await owner.post(link.path, link.fields)
        expect(bare.status).toBe(400)
        expect(bare.body).toMatchObject({ error: "InvalidRequest" })
        const confirmed = await owner.post(link.path, { ...link.fields, password: OWNER_PASSWORD })
        expect(confirmed.status).toBe(200)
        expect(await owner.email()).toBe(VICTIM)
        expect(await (await signIn(a, VICTIM, ATTACKER_PASSWORD)).session()).toBeNull()
        expect(await (await signIn(a, VICTIM, OWNER_PASSWORD)).email()).toBe(VICTIM)
      })

      it("4. from the browser that signed up, the link stays the one-click confirmation", async () => {
        const a = app()
        const b = a.browser()
        await b.post("/password/signup", { email: VICTIM, password: OWNER_PASSWORD })
        const link = linkOf(lastMail(a, "verify", VICTIM))
        const page = await b.send(`${link.path}?${new URLSearchParams(link.fields)}`)
        expect(await page.text()).not.toContain('name="password"')
        expect((await b.post(link.path, link.fields)).status).toBe(200)
        expect(await (await signIn(a, VICTIM, OWNER_PASSWORD)).email()).toBe(VICTIM)
      })

      it("4. a browser signed in as the account confirms its address with one click too (ownership rule 3)", async () => {
        const a = app()
        const me = await squat(a)
        // "Send the link again" from a browser that never signed up: the link names no browser.
        const set = await me.browser.post("/account/password-set", { password: OWNER_PASSWORD })
        expect(set.status).toBe(200)
        await a.browser().post("/password/resend", { email: VICTIM })
        const link = linkOf(lastMail(a, "verify", VICTIM))
        expect(link.fields.browser).toBeUndefined()
        const page = await me.browser.send(`${link.path}?${new URLSearchParams(link.fields)}`)
        expect(await page.text()).not.toContain('name="password"')
        expect((await me.browser.post(link.path, link.fields)).status).toBe(200)
        expect((await a.adapter.getUserByEmail!(VICTIM))!.emailVerified).toBeInstanceOf(Date)
        expect(await a.adapter.listAuthenticatorsByUserId!(me.row.id)).toHaveLength(1)
        expect(await (await signIn(a, VICTIM, OWNER_PASSWORD)).email()).toBe(VICTIM)
      })

      it("5. only one reset link works: using a newer one voids the older, and so does a password change", async () => {
        const a = app()
        const b = await provenAccount(a)
        await b.post("/password/forgot", { email: VICTIM })
        const older = linkOf(lastMail(a, "reset", VICTIM))
        await b.post("/password/forgot", { email: VICTIM })
        const newer = linkOf(lastMail(a, "reset", VICTIM))
        expect(
          (await b.post(newer.path, { ...newer.fields, password: "the-newer-one" })).status,
        ).toBe(200)
        const late = await a
          .browser()
          .post(older.path, { ...older.fields, password: "too-late-one" })
        expect(late.status).toBe(400)

        await b.post("/password/forgot", { email: VICTIM })
        const pending = linkOf(lastMail(a, "reset", VICTIM))
        const me = await signIn(a, VICTIM, "the-newer-one")
        const changed = await me.post("/account/password-change", {
          currentPassword: "the-newer-one",
          password: "changed-since-then",
        })
        expect(changed.status).toBe(200)
        const after = await a
          .browser()
          .post(pending.path, { ...pending.fields, password: "nope-nope" })
        expect(after.status).toBe(400)
      })

      it("6. a password is not replaced with a session alone, and replacing it ends the other sessions", async () => {
        const a = app()
        await provenAccount(a)
        const user = (await a.adapter.getUserByEmail!(VICTIM))!
        const me = await signIn(a, VICTIM, OWNER_PASSWORD)
        const key = softwareAuthenticator()
        expect((await me.register(key, {})).status).toBe(200)
        const other = await signIn(a, VICTIM, OWNER_PASSWORD)
        // A stolen, recent session: remove then set would replace the password unknown.
        const removed = await me.post("/account/password-remove", {})
        expect(removed.status).toBe(403)
        const hash = (adapter: Adapter) =>
          (adapter as { getPasswordHash?: (id: string) => unknown }).getPasswordHash?.(user.id)
        expect(await hash(a.adapter)).not.toBeNull()
        const withPassword = await me.post("/account/password-remove", {
          currentPassword: OWNER_PASSWORD,
        })
        expect(withPassword.status).toBe(200)
        expect(await other.canAct()).toBe(false)
        expect(await me.canAct()).toBe(true)
        const again = await signIn(a, VICTIM, OWNER_PASSWORD)
        expect(await again.session()).toBeNull()
      })

      it("an email sign-in link mailed before a reset is void after it", async () => {
        const a = app()
        await provenAccount(a)
        const b = a.browser()
        await b.send("/signin/email", {
          method: "POST",
          headers: { "content-type": "application/x-www-form-urlencoded", origin: ORIGIN },
          body: new URLSearchParams({ email: VICTIM }).toString(),
        })
        const link = new URL(a.links.at(-1)!.url)
        await ownerResets(a)
        const done = await b.form("/callback/email", {
          token: link.searchParams.get("token")!,
          email: VICTIM,
        })
        expect(new URL(done.headers.get("location")!).searchParams.get("error")).toBe(
          "Verification",
        )
        expect(await b.session()).toBeNull()
      })

      it("a sign-up verification link mailed before a reset is void after it", async () => {
        const a = app()
        const b = a.browser()
        await b.post("/password/signup", { email: VICTIM, password: OWNER_PASSWORD })
        const link = linkOf(lastMail(a, "verify", VICTIM))
        await ownerResets(a)
        const late = await b.post(link.path, link.fields)
        expect(late.status).toBe(400)
        expect(late.body.error).toBe("Verification")
      })

      it("7. after a claim the squatter's session reads as nobody on its next request", async () => {
        const a = app()
        const squatter = await squat(a)
        expect(await squatter.browser.email()).toBe(VICTIM)
        await ownerClaimsByReset(a)
        expect(await squatter.browser.session()).toBeNull()
        const account = await squatter.browser.send("/account")
        expect(account.status).toBe(401)
      })
    },
  )
}

/**
 * Items 8 and 9: what an app keeps when it keeps its Auth.js adapter. No session was ever recent
 * (so a user could not add a second passkey), and a passkey squat could not be claimed (the
 * claim needed `deleteAuthenticator`).
 */
export function authJsAdapterScenarios(
  name: string,
  make: () => Promise<{ adapter: Adapter; close?: () => Promise<void> }>,
): void {
  describe.each(["jwt", "database"] as const)(`${name}: %s sessions`, (strategy) => {
    async function setup() {
      const { adapter, close } = await make()
      const links: SendVerificationRequestParams[] = []
      // As an app hands Latchkey an Auth.js adapter: through `withPlainProviders` (which the
      // Qwik bindings call), which gives it the code that serves it.
      const config: AuthConfig = await withPlainProviders({
        secret: SECRET,
        trustHost: true,
        adapter,
        store: new MemoryStore(),
        session: { strategy },
        experimental: { enableWebAuthn: true },
        providers: [
          Passkey(),
          Nodemailer({
            id: "email",
            sendVerificationRequest: (p) => void links.push(p),
            rateLimit: { store: new MemoryRateLimitStore() },
          }),
        ],
        logger: { error: () => {}, warn: () => {}, debug: () => {} },
      })
      const browser = () => new Browser({ Auth, config, origin: ORIGIN })
      return { adapter, config, links, browser, close: close ?? (async () => {}) }
    }

    it("8. a user who just signed up with a passkey can add a second one (the sign-in is recent)", async () => {
      const s = await setup()
      try {
        const b = s.browser()
        expect(
          (await b.register(softwareAuthenticator(), { email: "ann@example.com" })).status,
        ).toBe(200)
        const second = await b.options({ action: "register" })
        expect(second.status).toBe(200)
        const key2: SoftwareAuthenticator = softwareAuthenticator()
        const added = key2.register(second.body.options, { origin: ORIGIN })
        expect((await b.callback("register", added)).status).toBe(200)
        const user = (await s.adapter.getUserByEmail!("ann@example.com"))!
        expect(await s.adapter.listAuthenticatorsByUserId!(user.id)).toHaveLength(2)
      } finally {
        await s.close()
      }
    })

    it("9. the owner's email link claims an address squatted with a passkey", async () => {
      const s = await setup()
      try {
        const squatter = s.browser()
        const key = softwareAuthenticator()
        expect((await squatter.register(key, { email: VICTIM })).status).toBe(200)
        const owner = s.browser()
        await owner.send("/signin/email", {
          method: "POST",
          headers: { "content-type": "application/x-www-form-urlencoded", origin: ORIGIN },
          body: new URLSearchParams({ email: VICTIM }).toString(),
        })
        const link = new URL(s.links.at(-1)!.url)
        const done = await owner.form("/callback/email", {
          token: link.searchParams.get("token")!,
          email: VICTIM,
        })
        expect(new URL(done.headers.get("location")!).searchParams.get("error")).toBeNull()
        expect(await owner.email()).toBe(VICTIM)
        expect((await s.adapter.getUserByEmail!(VICTIM))!.emailVerified).toBeInstanceOf(Date)
        expect(await squatter.session()).toBeNull()
        const again = s.browser()
        await again.authenticate(key)
        expect(await again.session()).toBeNull()
      } finally {
        await s.close()
      }
    })
  })
}
