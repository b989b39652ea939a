/**
 * The claim's own rules (kernel/account/claim.ts), beyond the attack scenarios: what makes it
 * refuse (a password the app keeps, an adapter that cannot remove what the row holds) and
 * then removes nothing; JWT sessions with revocation off; a squatter adding a passkey while
 * the claim runs; a provider linked by a signed-in user claims nothing.
 */
import { PasskeyClient, softwareAuthenticator } from "@latchkey/adapter-test/webauthn"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { MemoryAdapter } from "../../src/adapters/memory.js"
import { Auth } from "../../src/index.js"
import type { AccountClaimedMessage } from "../../src/kernel/account/claim.js"
import type { WarningCode } from "../../src/kernel/errors/warnings.js"
import { createLogger } from "../../src/kernel/logger/logger.js"
import { MemoryRateLimitStore } from "../../src/kernel/rate-limit/memory-store.js"
import type { Adapter, AdapterAuthenticator } from "../../src/kernel/types/adapters.js"
import Credentials from "../../src/providers/credentials.js"
import type { SendVerificationRequestParams } from "../../src/providers/email.js"
import { Nodemailer } from "../../src/providers/nodemailer.js"
import Passkey from "../../src/providers/passkey.js"
import { MemoryStore } from "../../src/store.js"
import type { AuthConfig, SessionOptions } from "../../src/types.js"
import { oidcProvider } from "../oauth/harness/app.js"
import { APP_ORIGIN, type OidcHarness, startOidcServer } from "../oauth/harness/oidc-server.js"

const SECRET = "a-claim-test-secret-with-at-least-32-bytes!!"
const VICTIM = "victim@example.com"

type Browser = PasskeyClient<AuthConfig>

interface Setup {
  adapter?: Adapter
  session?: SessionOptions
  hasCredentials?: boolean
  onClaim?: boolean
}

function harness(setup: Setup = {}) {
  const adapter = setup.adapter ?? MemoryAdapter()
  const mails: SendVerificationRequestParams[] = []
  const claims: AccountClaimedMessage[] = []
  const warnings: { code: WarningCode; message?: string | undefined }[] = []
  const errors: Error[] = []
  const config: AuthConfig = {
    secret: SECRET,
    trustHost: true,
    adapter,
    store: new MemoryStore(),
    session: setup.session ?? { strategy: "database" },
    experimental: { enableWebAuthn: true },
    providers: [
      Passkey(),
      Nodemailer({
        id: "email",
        sendVerificationRequest: (p) => void mails.push(p),
        rateLimit: { store: new MemoryRateLimitStore() },
      }),
      ...(setup.hasCredentials === undefined
        ? []
        : [Credentials({ id: "password", authorize: async () => null })]),
      ...(op ? [oidcProvider(op)] : []),
    ],
    account:
      setup.hasCredentials === undefined ? {} : { hasCredentials: () => setup.hasCredentials! },
    events: setup.onClaim ? { accountClaimed: (m) => void claims.push(m) } : {},
    logger: {
      error: (e) => void errors.push(e),
      warn: (code, message) => void warnings.push({ code, message }),
      debug: () => {},
    },
  }
  const browser = (): Browser => new PasskeyClient({ Auth, config, origin: APP_ORIGIN })

  /** Email sign-in: request the link, then post it as the confirm page does; the `error=`. */
  async function emailSignIn(b: Browser, email = VICTIM): Promise<string | null> {
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

  /** OIDC sign-in as the provider's account `who`; the `error=`. */
  async function oidcSignIn(b: Browser, who: string): Promise<string | null> {
    const start = await b.send("/signin/oidc", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", origin: APP_ORIGIN },
      body: new URLSearchParams({ callbackUrl: "/" }).toString(),
    })
    op!.accountId = who
    const back = await op!.authorize(start.headers.get("location")!)
    const done = await b.send(`/callback/oidc${back.search}`)
    return new URL(done.headers.get("location")!).searchParams.get("error")
  }

  /** The squatter: a passkey sign-up for the victim's address, a second factor of theirs. */
  async function squat() {
    const b = browser()
    const key = softwareAuthenticator()
    expect((await b.register(key, { email: VICTIM })).status).toBe(200)
    const row = (await adapter.getUserByEmail!(VICTIM))!
    await adapter.setTwoFactor!({ userId: row.id, secret: "sealed", enabledAt: new Date() })
    return { browser: b, key, row }
  }

  return {
    adapter,
    config,
    mails,
    claims,
    warnings,
    errors,
    browser,
    emailSignIn,
    oidcSignIn,
    squat,
  }
}

let op: OidcHarness | undefined
beforeAll(async () => {
  op = await startOidcServer()
  op.accounts.set("victim", {
    sub: "victim",
    email: VICTIM,
    email_verified: true,
    name: "Victim",
    picture: "https://img.example/v.png",
  })
  op.accounts.set("other", {
    sub: "other",
    email: "other@example.com",
    email_verified: true,
    name: "Other",
    picture: "https://img.example/o.png",
  })
})
afterAll(() => op?.close())

describe("claimAddress refuses, and then removes nothing", () => {
  it("a row whose password the app keeps (hasCredentials) and no accountClaimed handler: AccountNotLinked", async () => {
    const h = harness({ hasCredentials: true })
    const squatter = await h.squat()
    expect(await h.emailSignIn(h.browser())).toBe("AccountNotLinked")
    const row = await h.adapter.getUserByEmail!(VICTIM)
    expect(row?.emailVerified ?? null).toBeNull()
    expect(await h.adapter.listAuthenticatorsByUserId!(squatter.row.id)).toHaveLength(1)
    expect(await h.adapter.getTwoFactor!(squatter.row.id)).not.toBeNull()
    expect((await squatter.browser.session())?.user?.email).toBe(VICTIM)
    expect(h.warnings.map((w) => w.code)).not.toContain("account-claimed")
  })

  it("the same row with an accountClaimed handler: claimed (the handler clears the app's password)", async () => {
    const h = harness({ hasCredentials: true, onClaim: true })
    const squatter = await h.squat()
    const owner = h.browser()
    expect(await h.emailSignIn(owner)).toBeNull()
    expect((await owner.session())?.user?.email).toBe(VICTIM)
    expect(h.claims).toHaveLength(1)
    expect(h.claims[0]!.removed).toMatchObject({ passkeys: 1, twoFactor: true, sessions: true })
    expect(await squatter.browser.session()).toBeNull()
  })

  it("hasCredentials false: claimed without a handler", async () => {
    const h = harness({ hasCredentials: false })
    await h.squat()
    expect(await h.emailSignIn(h.browser())).toBeNull()
    expect((await h.adapter.getUserByEmail!(VICTIM))?.emailVerified).toBeInstanceOf(Date)
  })

  it("an adapter that cannot delete the row's passkey (an Auth.js adapter): the claim unlinks the account row it signs in through, and the passkey signs in no more", async () => {
    const { deleteAuthenticator: _, ...withoutDelete } = MemoryAdapter()
    const h = harness({ adapter: withoutDelete, onClaim: true })
    const squatter = await h.squat()
    expect(await h.emailSignIn(h.browser())).toBeNull()
    expect(h.claims[0]!.removed.passkeys).toBe(1)
    expect((await h.adapter.getUserByEmail!(VICTIM))?.emailVerified).toBeInstanceOf(Date)
    expect(await h.adapter.getTwoFactor!(squatter.row.id)).toBeNull()
    expect(await squatter.browser.session()).toBeNull()
    // The authenticator row is left, but without its account row it is nobody's way in.
    expect(await h.adapter.listAuthenticatorsByUserId!(squatter.row.id)).toHaveLength(1)
    const again = h.browser()
    await again.authenticate(squatter.key)
    expect(await again.session()).toBeNull()
    expect(h.errors.at(-1)).toMatchObject({
      type: "WebAuthnVerificationError",
      details: { reason: "no-account" },
    })
  })

  it("an adapter that can neither delete the row's passkey nor unlink its account row: MissingAdapterMethods naming it, nothing removed, no session ended", async () => {
    const { deleteAuthenticator: _, unlinkAccount: __, ...without } = MemoryAdapter()
    const h = harness({ adapter: without })
    const squatter = await h.squat()
    expect(await h.emailSignIn(h.browser())).toBe("Configuration")
    const refusal = h.errors.find((e) => (e as { type?: string }).type === "MissingAdapterMethods")
    expect(refusal?.message).toContain("unlinkAccount()")
    expect((refusal as { details?: unknown }).details).toMatchObject({
      methods: ["unlinkAccount"],
    })
    expect((await h.adapter.getUserByEmail!(VICTIM))?.emailVerified ?? null).toBeNull()
    expect(await h.adapter.listAuthenticatorsByUserId!(squatter.row.id)).toHaveLength(1)
    expect(await h.adapter.getTwoFactor!(squatter.row.id)).not.toBeNull()
    expect((await squatter.browser.session())?.user?.email).toBe(VICTIM)
  })

  it("an adapter that can store accounts but not list them: refused (what the row holds is unknown)", async () => {
    const { listAccountsByUserId: _, ...withoutList } = MemoryAdapter()
    const h = harness({ adapter: withoutList })
    const squatter = await h.squat()
    expect(await h.emailSignIn(h.browser())).toBe("Configuration")
    expect(h.errors.map((e) => e.message).join("\n")).toContain("listAccountsByUserId()")
    expect(await h.adapter.listAuthenticatorsByUserId!(squatter.row.id)).toHaveLength(1)
  })
})

describe("claimAddress and a Latchkey-managed password", () => {
  it("deletes the password the squatter set (deletePasswordHash), and reports it", async () => {
    const passwords = new Map<string, string>()
    const adapter: Adapter = {
      ...MemoryAdapter(),
      deletePasswordHash: (userId) => passwords.delete(userId),
    }
    const h = harness({ adapter, onClaim: true })
    const squatter = await h.squat()
    passwords.set(squatter.row.id, "squatter-hash")
    expect(await h.emailSignIn(h.browser())).toBeNull()
    expect(passwords.has(squatter.row.id)).toBe(false)
    expect(h.claims[0]!.removed.password).toBe(true)
  })
})

describe("claimAddress with JWT sessions", () => {
  it('revocation "off": the claim proceeds, says the JWT sessions were not ended, and warns', async () => {
    const h = harness({ session: { strategy: "jwt", revocation: "off" }, onClaim: true })
    const squatter = await h.squat()
    expect(await h.emailSignIn(h.browser())).toBeNull()
    expect(h.claims[0]!.removed.sessions).toBe(false)
    expect(h.warnings.map((w) => w.code)).toContain("claim-sessions-not-ended")
    // The squatter's passkey is gone even though their cookie lives on until it expires.
    expect(await h.adapter.listAuthenticatorsByUserId!(squatter.row.id)).toEqual([])
    const again = h.browser()
    await again.authenticate(squatter.key)
    expect(await again.session()).toBeNull()
  })

  it('revocation "strict": the squatter\'s JWT stops at once, the log line names counts, not the address', async () => {
    const h = harness({ session: { strategy: "jwt", revocation: "strict" } })
    const squatter = await h.squat()
    expect(await h.emailSignIn(h.browser())).toBeNull()
    expect(await squatter.browser.session()).toBeNull()
    const line = h.warnings.find((w) => w.code === "account-claimed")?.message ?? ""
    expect(line).toContain(`user ${squatter.row.id}`)
    expect(line).toContain("1 passkey(s)")
    expect(line).not.toContain(VICTIM)
  })
})

describe("claimAddress against a squatter racing it", () => {
  it("a passkey added while the first one is being deleted is found and deleted too", async () => {
    const inner = MemoryAdapter()
    let planted: AdapterAuthenticator | undefined
    const racing: Adapter = {
      ...inner,
      async deleteAuthenticator(userId, credentialID) {
        if (!planted) {
          // The squatter's still-live session registers another passkey at this moment.
          const [existing] = await inner.listAuthenticatorsByUserId!(userId)
          planted = { ...existing!, credentialID: "raced-in", providerAccountId: "raced-in" }
          await inner.createAuthenticator!(planted)
        }
        return inner.deleteAuthenticator!(userId, credentialID)
      },
    }
    const h = harness({ adapter: racing, onClaim: true })
    const squatter = await h.squat()
    expect(await h.emailSignIn(h.browser())).toBeNull()
    expect(planted).toBeDefined()
    expect(await inner.listAuthenticatorsByUserId!(squatter.row.id)).toEqual([])
    expect(h.claims[0]!.removed.passkeys).toBe(2)
  })
})

describe("what does not claim", () => {
  it("a signed-in user linking a provider that vouches for an unproven row's address: linked to them, the row untouched", async () => {
    const h = harness()
    const squatter = await h.squat()
    // Someone else, signed in by their own email link, links the "victim" provider account.
    const other = h.browser()
    expect(await h.emailSignIn(other, "other@example.com")).toBeNull()
    expect(await h.oidcSignIn(other, "victim")).toBeNull()
    const otherRow = await h.adapter.getUserByEmail!("other@example.com")
    expect(
      (await h.adapter.getUserByAccount!({ provider: "oidc", providerAccountId: "victim" }))?.id,
    ).toBe(otherRow?.id)
    // The unproven row is as the squatter left it: this was a link, not a sign-in by email.
    expect((await h.adapter.getUserByEmail!(VICTIM))?.emailVerified ?? null).toBeNull()
    expect(await h.adapter.listAuthenticatorsByUserId!(squatter.row.id)).toHaveLength(1)
  })

  it("a proof from the row itself (passkey session, then the email link in the same browser) removes nothing", async () => {
    const h = harness({ onClaim: true })
    const squatter = await h.squat()
    expect(await h.emailSignIn(squatter.browser)).toBeNull()
    expect(h.claims).toEqual([])
    expect(await h.adapter.listAuthenticatorsByUserId!(squatter.row.id)).toHaveLength(1)
    expect(await h.adapter.getTwoFactor!(squatter.row.id)).not.toBeNull()
  })
})

describe("the account-claimed log line", () => {
  it("is logged for every claim, never folded into one line per process like other warnings", () => {
    const lines: string[] = []
    const logger = createLogger({ logger: { warn: (code) => void lines.push(code) } })
    for (let i = 0; i < 30; i++) logger.warn("account-claimed", `(user ${i}, …)`)
    expect(lines).toHaveLength(30)
  })
})
