/**
 * Two-factor sign-in on PostgreSQL (PGlite always; the server at DATABASE_URL when set):
 * migration 0006, the whole flow through `Auth()`, the secret and the recovery codes unreadable
 * in the tables, single use of a code under concurrency, and the cascade on user deletion.
 */

import { Auth, type AuthConfig } from "@latchkey/core"
import Credentials from "@latchkey/core/providers/credentials"
import { MemoryStore } from "@latchkey/core/store"
import { TwoFactor } from "@latchkey/core/two-factor"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { totpCode } from "../../core/src/features/two-factor/totp.js"
import { req } from "../../core/test/auth/helpers.js"
import {
  enrollAlice,
  locationOf,
  passwordStep,
  post,
  SESSION,
} from "../../core/test/two-factor/helpers.js"
import { migrate, PostgresAdapter } from "../src/index.js"
import { backends, type TestDatabase } from "./helpers.js"

const SECRET = "a-test-secret-that-is-at-least-32-bytes-long!!"

for (const backend of backends) {
  for (const strategy of ["jwt", "database"] as const) {
    describe(`two-factor on PostgresAdapter (${backend.name}, ${strategy} sessions)`, () => {
      let db: TestDatabase
      let config: AuthConfig
      let userId: string

      beforeAll(async () => {
        db = await backend.create()
        const { applied } = await migrate(db.client)
        expect(applied).toContain(6)
        const adapter = PostgresAdapter(db.client)
        const user = await adapter.createUser!({
          id: "",
          email: "alice@example.com",
          name: "Alice",
          emailVerified: null,
        })
        userId = user.id
        config = {
          secret: SECRET,
          trustHost: true,
          adapter,
          store: new MemoryStore(),
          session: { strategy },
          logger: { error: () => {}, warn: () => {}, debug: () => {} },
          twoFactor: TwoFactor({ issuer: "Latchkey Test" }),
          providers: [
            Credentials({
              credentials: { username: {}, password: { type: "password" } },
              authorize: (c) =>
                c.username === "alice" && c.password === "wonderland" ? user : null,
            }),
          ],
        }
      })
      afterAll(() => db?.close())

      it("enrolls, then signs in with password and code, and with a recovery code once", async () => {
        // Enrolling needs a recent sign-in. A database session's sign-in time lives in the
        // columns of migration 0005 (the account API's); without them it is unknown, so the
        // enrollment goes through a JWT session of the same app and database.
        const enrolling =
          strategy === "jwt" ? config : { ...config, session: { strategy: "jwt" as const } }
        const { secret, recoveryCodes } = await enrollAlice(enrolling)

        // What the database holds: a sealed secret and hashes, nothing an attacker can use.
        const [stored] = await db.sql(
          `SELECT secret, "enabledAt" FROM two_factor WHERE "userId" = $1`,
          [Number(userId)],
        )
        expect(stored?.enabledAt).toBeInstanceOf(Date)
        expect(String(stored?.secret)).not.toContain(secret)
        expect(String(stored?.secret).startsWith("lk2fa1.")).toBe(true)
        const hashes = await db.sql(
          `SELECT "codeHash" FROM two_factor_recovery_codes WHERE "userId" = $1`,
          [Number(userId)],
        )
        expect(hashes).toHaveLength(10)
        const dump = JSON.stringify(hashes)
        for (const code of recoveryCodes) {
          expect(dump).not.toContain(code)
          expect(dump).not.toContain(code.replace("-", ""))
        }

        const { res, jar } = await passwordStep(config)
        expect(locationOf(res).pathname).toBe("/auth/two-factor")
        expect(jar.get(SESSION)).toBeUndefined()
        await post(config, "/auth/two-factor/verify", jar, {
          code: totpCode(secret, Date.now() + 30_000),
        })
        expect(jar.get(SESSION)).toBeDefined()
        const session = await (await Auth(req("/auth/session", { jar }), config)).json()
        expect(session).toMatchObject({ user: { email: "alice@example.com" } })

        const { jar: withCode } = await passwordStep(config)
        await post(config, "/auth/two-factor/verify", withCode, { recoveryCode: recoveryCodes[0]! })
        expect(withCode.get(SESSION)).toBeDefined()
        const { jar: again } = await passwordStep(config)
        const reused = await post(config, "/auth/two-factor/verify", again, {
          recoveryCode: recoveryCodes[0]!,
        })
        expect(locationOf(reused).searchParams.get("error")).toBe("InvalidTwoFactorCode")
        expect(again.get(SESSION)).toBeUndefined()
      })

      it("a recovery code used twice at once is accepted once", async () => {
        const adapter = config.adapter!
        await adapter.replaceRecoveryCodes!(userId, ["h1", "h2"])
        const results = await Promise.all([
          adapter.useRecoveryCode!(userId, "h1"),
          adapter.useRecoveryCode!(userId, "h1"),
          adapter.useRecoveryCode!(userId, "h1"),
        ])
        expect(results.filter(Boolean)).toHaveLength(1)
        expect(await adapter.countRecoveryCodes!(userId)).toBe(1)
        await adapter.replaceRecoveryCodes!(userId, ["h3"])
        expect(await adapter.useRecoveryCode!(userId, "h2")).toBe(false)
        expect(await adapter.countRecoveryCodes!(userId)).toBe(1)
      })

      it("an id that is no user of this database has no enrollment; deleting the user deletes it", async () => {
        const adapter = config.adapter!
        expect(await adapter.getTwoFactor!("user-alice")).toBeNull()
        expect(await adapter.useRecoveryCode!("not-a-number", "h")).toBe(false)
        const bob = await adapter.createUser!({
          id: "",
          email: "bob@example.com",
          emailVerified: null,
        })
        await adapter.setTwoFactor!({ userId: bob.id, secret: "lk2fa1.x", enabledAt: null })
        await adapter.replaceRecoveryCodes!(bob.id, ["a", "b"])
        await adapter.deleteUser!(bob.id)
        const left = await db.sql(
          `SELECT count(*)::int AS n FROM two_factor_recovery_codes WHERE "userId" = $1`,
          [Number(bob.id)],
        )
        expect(left[0]?.n).toBe(0)
        expect(await adapter.getTwoFactor!(bob.id)).toBeNull()
      })
    })
  }
}

describe("PostgresAdapter without the two-factor tables", () => {
  it("offers no two-factor methods, and a twoFactor config names them", async () => {
    const adapter = PostgresAdapter({ query: async () => ({ rows: [] }) } as never, {
      twoFactor: false,
    })
    expect(adapter.getTwoFactor).toBeUndefined()
    const errors: Error[] = []
    const res = await Auth(req("/auth/session"), {
      secret: SECRET,
      trustHost: true,
      adapter,
      providers: [],
      twoFactor: TwoFactor({ issuer: "x" }),
      logger: { error: (e) => void errors.push(e), warn: () => {}, debug: () => {} },
    })
    expect(res.status).toBe(500)
    expect(errors.map((e) => e.message).join("\n")).toContain("getTwoFactor, setTwoFactor")
  })
})
