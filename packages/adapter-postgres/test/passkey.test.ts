/**
 * Passkeys through `Auth()` on PostgreSQL (PGlite always, the server when DATABASE_URL is set):
 * register, sign out, sign in, with the rows checked in SQL as Auth.js stores them.
 */
import { PasskeyClient, softwareAuthenticator } from "@latchkey/adapter-test/webauthn"
import type { AuthConfig } from "@latchkey/core"
import { Auth } from "@latchkey/core"
import Passkey from "@latchkey/core/providers/passkey"
import { MemoryStore } from "@latchkey/core/store"
import { afterEach, describe, expect, it } from "vitest"
import { migrate, PostgresAdapter } from "../src/index.js"
import { backends, type TestDatabase } from "./helpers.js"

const ORIGIN = "http://app.example.com"
const SECRET = "a-test-secret-that-is-at-least-32-bytes-long!!"

for (const backend of backends) {
  describe.each(["jwt", "database"] as const)(
    `passkeys on ${backend.name}, %s sessions`,
    (strategy) => {
      let db: TestDatabase | undefined
      afterEach(async () => await db?.close())

      async function setup() {
        db = await backend.create()
        await migrate(db.client)
        const config: AuthConfig = {
          providers: [Passkey()],
          adapter: PostgresAdapter(db.client),
          secret: SECRET,
          trustHost: true,
          session: { strategy },
          experimental: { enableWebAuthn: true },
          // A store per test: the passkey options limit (10 per address) must not carry over
          // from the other backends' runs of the same addresses.
          store: new MemoryStore(),
          logger: { error: () => {}, warn: () => {} },
        }
        return { db, client: () => new PasskeyClient({ Auth, config, origin: ORIGIN }) }
      }

      it("register, sign out, sign in with the passkey; rows as Auth.js stores them", async () => {
        const { db, client } = await setup()
        const key = softwareAuthenticator()
        const first = client()
        expect((await first.register(key, { email: "ann@example.com" })).url).toBe(`${ORIGIN}/`)
        expect((await first.session())?.user?.email).toBe("ann@example.com")

        const later = client()
        expect(await later.session()).toBeNull()
        expect((await later.authenticate(key, { counter: 4 })).url).toBe(`${ORIGIN}/`)
        expect((await later.session())?.user?.email).toBe("ann@example.com")

        const standard = Buffer.from(key.credentialId, "base64url").toString("base64")
        const [row] = await db.sql(
          `SELECT a."credentialID", a."providerAccountId", a.counter, a."credentialBackedUp",
                a."credentialDeviceType", a.transports, a."credentialPublicKey",
                acc.provider, acc.type, u.email
           FROM authenticators a
           JOIN accounts acc ON acc."providerAccountId" = a."providerAccountId"
           JOIN users u ON u.id = a."userId" AND u.id = acc."userId"`,
        )
        expect(row).toMatchObject({
          credentialID: standard,
          providerAccountId: standard,
          credentialBackedUp: true,
          credentialDeviceType: "multiDevice",
          transports: "hybrid,internal",
          provider: "passkey",
          type: "webauthn",
          email: "ann@example.com",
        })
        expect(Number(row!.counter)).toBe(4)
        expect(String(row!.credentialPublicKey)).toMatch(/^[A-Za-z0-9+/]+={0,2}$/)
      })

      it("a refused registration (wrong origin; email of another user) writes no row", async () => {
        const { db, client } = await setup()
        await client().register(softwareAuthenticator(), { email: "ann@example.com" })
        const evil = await client().register(
          softwareAuthenticator(),
          { email: "eve@example.com" },
          { origin: "http://evil.example" },
        )
        expect(new URL(evil.url).searchParams.get("error")).toBe("WebAuthnVerificationError")
        // A known email gets options like any other (no enumeration); the callback refuses it.
        const taken = await client().register(softwareAuthenticator(), { email: "ann@example.com" })
        expect(new URL(taken.url).searchParams.get("error")).toBe("AccountNotLinked")
        const [counts] = await db.sql(
          `SELECT (SELECT count(*) FROM users) AS users, (SELECT count(*) FROM accounts) AS accounts,
                (SELECT count(*) FROM authenticators) AS keys`,
        )
        expect([counts!.users, counts!.accounts, counts!.keys].map(Number)).toEqual([1, 1, 1])
      })
    },
  )
}
