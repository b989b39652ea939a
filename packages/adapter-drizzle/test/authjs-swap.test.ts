/**
 * An Auth.js Drizzle app moves to Latchkey and back without a data migration, on SQLite, on
 * PostgreSQL and on MySQL: rows written by `@auth/drizzle-adapter` on the tables it defines are
 * read by Latchkey after drizzle-kit's migration to Latchkey's tables (what `drizzle-kit
 * generate` writes for the app: columns and tables added, types widened, no table dropped),
 * and rows Latchkey writes there are read by `@auth/drizzle-adapter` again.
 */
import { DrizzleAdapter as AuthJsDrizzleAdapter } from "@auth/drizzle-adapter"
import type { Adapter } from "@latchkey/core/adapters"
import { afterEach, describe, expect, it } from "vitest"
// The tables @auth/drizzle-adapter makes by default (its package exports only the adapter).
import { defineTables as mysqlTables } from "../../../node_modules/@auth/drizzle-adapter/lib/mysql.js"
import { defineTables as pgTables } from "../../../node_modules/@auth/drizzle-adapter/lib/pg.js"
import { defineTables as sqliteTables } from "../../../node_modules/@auth/drizzle-adapter/lib/sqlite.js"
import { DrizzleAdapter } from "../src/index.js"
import {
  betterSqlite3Engine,
  type DialectName,
  type Engine,
  migrateTo,
  migrationFor,
  mysqlEngine,
  mysqlUrl,
  pgliteEngine,
  schemas,
  type TestDatabase,
} from "./engines.js"

const authJsTables: Record<DialectName, () => Record<string, unknown>> = {
  sqlite: () => sqliteTables(),
  pg: () => pgTables(),
  mysql: () => mysqlTables(),
}

const cases: Engine[] = [betterSqlite3Engine, pgliteEngine, ...(mysqlUrl ? [mysqlEngine] : [])]

const inAnHour = () => new Date(Math.floor(Date.now() / 1000 + 3600) * 1000)

for (const engine of cases) {
  describe(`Auth.js Drizzle tables ⇄ Latchkey on ${engine.name}`, () => {
    let database: TestDatabase | undefined
    afterEach(async () => await database?.close())

    /** A database as an Auth.js app has it: Auth.js's tables, rows written by Auth.js. */
    async function authJsDatabase() {
      database = await engine.create({ tables: false })
      const tables = authJsTables[engine.dialect]()
      await migrateTo(database, await migrationFor(engine.dialect, tables))
      return { database, tables, authjs: AuthJsDrizzleAdapter(database.db as never) as Adapter }
    }

    it("Auth.js's rows are Latchkey's after drizzle-kit's migration, and Latchkey's are Auth.js's", async () => {
      const { database, tables, authjs } = await authJsDatabase()
      // Written by Auth.js: a user with an OAuth account, a passkey, a session, an email link.
      const ann = await authjs.createUser!({
        id: "",
        email: "ann@example.com",
        name: "Ann",
        image: null,
        emailVerified: new Date("2025-01-02T03:04:05.000Z"),
      })
      await authjs.linkAccount!({
        userId: ann.id,
        type: "oidc",
        provider: "google",
        providerAccountId: "g-1",
        access_token: "at",
        expires_at: 1_900_000_000,
        token_type: "bearer",
      })
      await authjs.linkAccount!({
        userId: ann.id,
        type: "webauthn",
        provider: "passkey",
        providerAccountId: "cred-1",
      })
      await authjs.createAuthenticator!({
        credentialID: "cred-1",
        userId: ann.id,
        providerAccountId: "cred-1",
        credentialPublicKey: "pQECAyYgASFYIA",
        counter: 3,
        credentialDeviceType: "singleDevice",
        credentialBackedUp: false,
        transports: "internal",
      })
      const expires = inAnHour()
      await authjs.createSession!({ sessionToken: "authjs-token", userId: ann.id, expires })
      await authjs.createVerificationToken!({ identifier: "ann@example.com", token: "h", expires })

      // The app replaces Auth.js's tables with Latchkey's in its schema: drizzle-kit's migration.
      const migration = await migrationFor(engine.dialect, schemas[engine.dialect], tables)
      expect(migration.join("\n")).not.toMatch(
        /drop table [`"]?(user|account|session|verificationToken|authenticator)[`"]?;?\s*$/im,
      )
      await migrateTo(database, migration)

      const latchkey = DrizzleAdapter(database.db, {
        schema: schemas[engine.dialect],
        hashSessionTokens: false,
      })
      expect(await latchkey.getUser!(ann.id)).toEqual(ann)
      expect(await latchkey.getUserByEmail!("ann@example.com")).toEqual(ann)
      expect(
        await latchkey.getUserByAccount!({ provider: "google", providerAccountId: "g-1" }),
      ).toEqual(ann)
      expect(await latchkey.getAccount!("g-1", "google")).toMatchObject({
        access_token: "at",
        expires_at: 1_900_000_000,
      })
      const read = await latchkey.getSessionAndUser!("authjs-token")
      expect(read?.user).toEqual(ann)
      expect(read?.session.expires.getTime()).toBe(expires.getTime())
      expect(await latchkey.getAuthenticator!("cred-1")).toMatchObject({
        counter: 3,
        userId: ann.id,
      })
      // The account API names the session Auth.js wrote (a public id, given when first listed).
      const [listed] = await latchkey.listSessionsByUserId!(ann.id)
      expect(listed?.id).toMatch(/^[0-9a-f-]{36}$/)
      expect((await latchkey.listSessionsByUserId!(ann.id))[0]?.id).toBe(listed?.id)
      expect(
        await latchkey.useVerificationToken!({ identifier: "ann@example.com", token: "h" }),
      ).toEqual({
        identifier: "ann@example.com",
        token: "h",
        expires,
      })

      // Written by Latchkey, read by Auth.js (the app moved back).
      const bob = await latchkey.createUser!({
        id: crypto.randomUUID(),
        email: "bob@example.com",
        name: "Bob",
        image: null,
        emailVerified: null,
      })
      await latchkey.linkAccount!({
        userId: bob.id,
        type: "oauth",
        provider: "github",
        providerAccountId: "gh-2",
        refresh_token: "rt",
      })
      await latchkey.createSession!(
        {
          sessionToken: "latchkey-token",
          userId: bob.id,
          expires,
          createdAt: new Date(),
          amr: ["pwd"],
        },
        { maxPerUser: 50 },
      )
      await latchkey.createVerificationToken!({
        identifier: "bob@example.com",
        token: "k",
        expires,
      })
      await latchkey.setPasswordHash!(bob.id, "$argon2id$v=19$m=19456,t=2,p=1$c2FsdA$aGFzaA")

      const back = AuthJsDrizzleAdapter(database.db as never) as Adapter
      expect(await back.getUser!(bob.id)).toMatchObject({ email: "bob@example.com", name: "Bob" })
      expect(
        await back.getUserByAccount!({ provider: "github", providerAccountId: "gh-2" }),
      ).toMatchObject({
        id: bob.id,
      })
      const session = await back.getSessionAndUser!("latchkey-token")
      expect(session?.user).toMatchObject({ id: bob.id })
      expect(new Date(session!.session.expires).getTime()).toBe(expires.getTime())
      expect(
        await back.useVerificationToken!({ identifier: "bob@example.com", token: "k" }),
      ).toMatchObject({
        token: "k",
      })
      // Auth.js's own session and account, still there for it.
      expect((await back.getSessionAndUser!("authjs-token"))?.user).toMatchObject({ id: ann.id })
      await back.deleteUser!(bob.id)
      expect(await latchkey.getUser!(bob.id)).toBeNull()
    })
  })
}
