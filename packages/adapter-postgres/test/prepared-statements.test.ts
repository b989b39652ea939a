import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { migrate, PostgresAdapter } from "../src/index.js"
import { organizationSql } from "../src/organizations-sql.js"
import { sql } from "../src/sql.js"
import { statementNames } from "../src/statement-names.js"
import { databaseUrl, serverBackend, type TestDatabase } from "./helpers.js"

describe("statement names", () => {
  it("give every statement its own name, which changes with its text", () => {
    const names = [...statementNames.values()]
    expect(new Set(names).size).toBe(Object.keys(sql).length + Object.keys(organizationSql).length)
    expect(statementNames.get(sql.getSessionAndUser)).toMatch(
      /^latchkey_getSessionAndUser_[0-9a-f]{8}$/,
    )
  })
})

describe.skipIf(!databaseUrl)("a session read on the PostgreSQL server", () => {
  let db: TestDatabase
  beforeAll(async () => {
    db = await serverBackend.create()
    await migrate(db.client)
  })
  afterAll(async () => await db?.close())

  it("is one prepared statement, parsed once per connection and reused", async () => {
    await db.oneConnection(async (connection) => {
      const adapter = PostgresAdapter(connection)
      const user = await adapter.createUser!({
        id: "",
        email: `${crypto.randomUUID()}@example.com`,
        emailVerified: null,
      })
      const sessionToken = crypto.randomUUID()
      const expires = new Date(Date.now() + 60_000)
      await adapter.createSession!({ sessionToken, userId: user.id, expires })
      for (let i = 0; i < 3; i++) {
        expect((await adapter.getSessionAndUser!(sessionToken))?.user.id).toBe(user.id)
      }
      const { rows } = await connection.query(
        "SELECT name, statement FROM pg_prepared_statements WHERE name LIKE 'latchkey_getSessionAndUser_%'",
      )
      expect(rows).toHaveLength(1)
      // With migration 0009's column: the session's active organization is in the same read.
      expect((rows[0] as { statement: string }).statement).toBe(sql.getSessionAndUserOrganizations)
    })
  })
})
