/**
 * Revocation through the database, no Redis: JWT sessions signed in with Auth() are ended by
 * sign-out (strict: at once) and by revokeUserSessions; database sessions lose their rows.
 */
import { Auth, type AuthConfig, revokeUserSessions } from "@latchkey/core"
import Credentials from "@latchkey/core/providers/credentials"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { req } from "../../core/test/auth/helpers.js"
import { migrate, PostgresAdapter } from "../src/index.js"
import { backends, type TestDatabase } from "./helpers.js"

const SECRET = "a-test-secret-that-is-at-least-32-bytes-long!!"

function cookiesOf(res: Response): string {
  return res.headers
    .getSetCookie()
    .map((c) => c.split(";")[0]!)
    .filter((c) => !c.endsWith("="))
    .join("; ")
}

async function signIn(config: AuthConfig): Promise<string> {
  const res = await Auth(
    req("/auth/callback/credentials", { form: { email: "ann@example.com" } }),
    config,
  )
  return cookiesOf(res)
}

async function session(config: AuthConfig, cookie: string): Promise<unknown> {
  const res = await Auth(req("/auth/session", { headers: { cookie } }), config)
  return res.json()
}

async function signOut(config: AuthConfig, cookie: string): Promise<void> {
  await Auth(req("/auth/signout", { form: {}, headers: { cookie } }), config)
}

for (const backend of backends) {
  describe(`revocation through PostgresAdapter on ${backend.name}`, () => {
    let db: TestDatabase
    let userId: string
    let config: AuthConfig
    beforeAll(async () => {
      db = await backend.create()
      await migrate(db.client)
      const adapter = PostgresAdapter(db.client)
      const user = await adapter.createUser!({
        id: "",
        email: "ann@example.com",
        emailVerified: null,
      })
      userId = user.id
      config = {
        secret: SECRET,
        trustHost: true,
        adapter,
        session: { strategy: "jwt", revocation: "strict" },
        providers: [Credentials({ authorize: () => ({ id: userId, email: "ann@example.com" }) })],
      }
    })
    afterAll(async () => await db?.close())

    it("sign-out stores the sid: a copied cookie is refused on the next read", async () => {
      const cookie = await signIn(config)
      expect(await session(config, cookie)).not.toBeNull()
      await signOut(config, cookie)
      expect(await session(config, cookie)).toBeNull()
      const rows = await db.sql("SELECT count(*)::int AS n FROM revoked_sessions")
      expect(rows).toEqual([{ n: 1 }])
    })

    it("revokeUserSessions raises the version: every older session ends", async () => {
      const [a, b] = [await signIn(config), await signIn(config)]
      await revokeUserSessions(config, userId)
      expect(await session(config, a)).toBeNull()
      expect(await session(config, b)).toBeNull()
      expect(await session(config, await signIn(config))).not.toBeNull()
    })

    it("database sessions: revokeUserSessions deletes the rows", async () => {
      const dbConfig = { ...config, session: { strategy: "database" as const } }
      const cookie = await signIn(dbConfig)
      expect(await session(dbConfig, cookie)).not.toBeNull()
      await revokeUserSessions(dbConfig, userId)
      expect(await session(dbConfig, cookie)).toBeNull()
      expect(await db.sql(`SELECT count(*)::int AS n FROM sessions`)).toEqual([{ n: 0 }])
    })
  })
}
