/**
 * What the adapter offers follows the tables it is given, a wrong first argument or a schema
 * without Latchkey's tables is refused at once with a message naming the fix, and a database
 * error reaches the log as the method and the driver's code only, never a value.
 */
import { Auth } from "@latchkey/core"
import { organizationAdapterMethods } from "@latchkey/core/adapters"
import { AdapterError } from "@latchkey/core/errors"
import Password from "@latchkey/core/providers/password"
import Database from "better-sqlite3"
import { drizzle } from "drizzle-orm/better-sqlite3"
import { describe, expect, it } from "vitest"
import { defineTables as authJsSqliteTables } from "../../../node_modules/@auth/drizzle-adapter/lib/sqlite.js"
import { DrizzleAdapter, MissingTablesError } from "../src/index.js"
import * as sqlite from "../src/schema/sqlite.js"
import { betterSqlite3Engine, schemas } from "./engines.js"

describe("what the adapter is given", () => {
  it("refuses what is not a Drizzle database, naming the drivers", () => {
    expect(() => DrizzleAdapter({ query: () => {} })).toThrow(TypeError)
    expect(() => DrizzleAdapter(null)).toThrow(/drizzle-orm\/d1/)
  })

  it("refuses a schema without the four tables every sign-in needs, naming them and the fix", () => {
    const db = drizzle(new Database(":memory:"))
    expect(() => DrizzleAdapter(db)).toThrow(MissingTablesError)
    expect(() => DrizzleAdapter(db, { schema: { users: sqlite.users } })).toThrow(
      /no table "account", "session", "verificationToken".*npx latchkey generate/,
    )
  })

  it("finds the tables in the schema the database was made with", () => {
    const adapter = DrizzleAdapter(drizzle(new Database(":memory:"), { schema: sqlite }))
    expect(typeof adapter.getPasswordHash).toBe("function")
    expect(typeof adapter.listSessionsByUserId).toBe("function")
    expect(typeof adapter.acceptInvitation).toBe("function")
  })

  it("offers the organizations methods only with all three of their tables", () => {
    const { organizations: _, ...withoutOrganizations } = sqlite
    const adapter = DrizzleAdapter(drizzle(new Database(":memory:")), {
      schema: withoutOrganizations,
    })
    for (const name of organizationAdapterMethods) expect(adapter[name]).toBeUndefined()
    expect(typeof adapter.getPasswordHash).toBe("function")
  })

  it("offers only the methods its tables back: Auth.js's tables have no passwords, no account API", async () => {
    const adapter = DrizzleAdapter(drizzle(new Database(":memory:")), {
      schema: authJsSqliteTables(),
    })
    expect(adapter.getPasswordHash).toBeUndefined()
    expect(adapter.getTwoFactor).toBeUndefined()
    expect(adapter.listSessionsByUserId).toBeUndefined()
    expect(adapter.revokeSession).toBeUndefined()
    expect(adapter.createOrganization).toBeUndefined()
    expect(typeof adapter.createAuthenticator).toBe("function")
    // A Password provider on it is refused at start-up, naming the methods.
    const errors: Error[] = []
    const res = await Auth(new Request("http://localhost/auth/session"), {
      secret: "a-test-secret-that-is-at-least-32-bytes-long!!",
      trustHost: true,
      adapter,
      providers: [Password({ sendPasswordMail: () => {} })],
      logger: { error: (e) => void errors.push(e), warn: () => {}, debug: () => {} },
    })
    expect(res.status).toBe(500)
    expect(errors.map((e) => e.message).join("\n")).toContain(
      "getPasswordHash, setPasswordHash, deletePasswordHash",
    )
  })
})

describe("failures", () => {
  it("are AdapterErrors with the method and the driver's code, no value and no cause", async () => {
    const database = await betterSqlite3Engine.create()
    try {
      const adapter = DrizzleAdapter(database.db, {
        schema: schemas.sqlite,
        hashSessionTokens: false,
      })
      const user = await adapter.createUser!({
        id: "",
        email: "ann@example.com",
        emailVerified: null,
      })
      const session = {
        sessionToken: "raw-token-that-must-not-be-logged",
        userId: user.id,
        expires: new Date(),
      }
      await adapter.createSession!(session)
      const failure = await Promise.resolve(adapter.createSession!(session)).catch(
        (e: unknown) => e,
      )
      expect(failure).toBeInstanceOf(AdapterError)
      const error = failure as AdapterError
      expect(error.message).toBe(
        "DrizzleAdapter.createSession failed: database error SQLITE_CONSTRAINT_PRIMARYKEY",
      )
      expect(error.details).toEqual({
        adapter: "drizzle",
        method: "createSession",
        code: "SQLITE_CONSTRAINT_PRIMARYKEY",
      })
      expect(error.cause).toBeUndefined()
      expect(JSON.stringify({ ...error, message: error.message })).not.toContain("raw-token")
    } finally {
      await database.close()
    }
  })
})
