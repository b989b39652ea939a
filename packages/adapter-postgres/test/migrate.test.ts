import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { PGlite } from "@electric-sql/pglite"
import { AdapterError } from "@latchkey/core/errors"
import { afterEach, describe, expect, it } from "vitest"
import { loadMigrations, migrate, PostgresAdapter } from "../src/index.js"
import { authJsSchema, backends, runSql, type TestDatabase } from "./helpers.js"

const tablesOf = async (db: TestDatabase) =>
  (
    await db.sql(
      `SELECT table_name FROM information_schema.tables
       WHERE table_schema = current_schema() ORDER BY table_name`,
    )
  ).map((row) => row.table_name)

for (const backend of backends) {
  describe(`migrate on ${backend.name}`, () => {
    let db: TestDatabase
    afterEach(async () => await db?.close())

    it("creates the Auth.js tables, the authenticators and revocation tables, and records the versions", async () => {
      db = await backend.create()
      expect(await migrate(db.client)).toEqual({ applied: [1, 2, 4, 5, 6, 7, 8, 9] })
      expect(await tablesOf(db)).toEqual([
        "accounts",
        "authenticators",
        "invitations",
        "latchkey_migrations",
        "members",
        "organizations",
        "password_hashes",
        "revoked_sessions",
        "session_records",
        "sessions",
        "two_factor",
        "two_factor_recovery_codes",
        "user_session_versions",
        "users",
        "verification_token",
      ])
      const recorded = await db.sql("SELECT version, name FROM latchkey_migrations ORDER BY 1")
      expect(recorded).toEqual([
        { version: 1, name: "init" },
        { version: 2, name: "authenticators" },
        { version: 4, name: "revocation" },
        { version: 5, name: "account" },
        { version: 6, name: "two_factor" },
        { version: 7, name: "password" },
        { version: 8, name: "user_created_at" },
        { version: 9, name: "organizations" },
      ])
    })

    it("has the Auth.js columns, in order, with their types", async () => {
      db = await backend.create()
      await migrate(db.client)
      const columns = await db.sql(
        `SELECT table_name, column_name, data_type FROM information_schema.columns
         WHERE table_schema = current_schema()
           AND table_name IN ('users', 'accounts', 'sessions', 'verification_token')
         ORDER BY table_name, ordinal_position`,
      )
      const describe = (table: string) =>
        columns.filter((c) => c.table_name === table).map((c) => `${c.column_name}:${c.data_type}`)
      expect(describe("users")).toEqual([
        "id:integer",
        "name:text", // Auth.js: character varying(255) — widened on purpose (see 0001_init.sql)
        "email:character varying",
        "emailVerified:timestamp with time zone",
        "image:text",
        "createdAt:timestamp with time zone", // 0008: unknown (NULL) for rows made before it
      ])
      expect(describe("accounts")).toEqual([
        "id:integer",
        "userId:integer",
        "type:character varying",
        "provider:character varying",
        "providerAccountId:character varying",
        "refresh_token:text",
        "access_token:text",
        "expires_at:bigint",
        "id_token:text",
        "scope:text",
        "session_state:text",
        "token_type:text",
      ])
      expect(describe("sessions")).toEqual([
        "id:integer",
        "userId:integer",
        "expires:timestamp with time zone",
        "sessionToken:character varying",
        // Migration 0005 (the account API), after the Auth.js columns.
        "publicId:uuid",
        "createdAt:timestamp with time zone",
        "lastSeenAt:timestamp with time zone",
        "userAgent:text",
        "authTime:timestamp with time zone",
        "amr:ARRAY",
        // Migration 0009 (organizations).
        "activeOrganizationId:uuid",
      ])
      expect(describe("verification_token")).toEqual([
        "identifier:text",
        "expires:timestamp with time zone",
        "token:text",
      ])
    })

    it("a second run is a no-op", async () => {
      db = await backend.create()
      await migrate(db.client)
      const adapter = PostgresAdapter(db.client)
      const user = await adapter.createUser!({
        id: "",
        email: "keep@example.com",
        emailVerified: null,
      })
      expect(await migrate(db.client)).toEqual({ applied: [] })
      expect(await adapter.getUser!(user.id)).toEqual(user)
      expect(await db.sql("SELECT count(*)::int AS n FROM latchkey_migrations")).toEqual([{ n: 8 }])
    })

    it("three instances migrating at once end with one schema and no error", async () => {
      db = await backend.create()
      const clients = [db.client, db.another(), db.another()]
      const results = await Promise.all(clients.map((client) => migrate(client)))
      // Exactly one instance applied the migrations; the others waited on the lock, then saw them.
      expect(results.filter((r) => r.applied.length > 0)).toEqual([
        { applied: [1, 2, 4, 5, 6, 7, 8, 9] },
      ])
      expect(results.filter((r) => r.applied.length === 0)).toHaveLength(2)
      expect(await db.sql("SELECT count(*)::int AS n FROM latchkey_migrations")).toEqual([{ n: 8 }])
      expect(await tablesOf(db)).toHaveLength(15)
    })

    it("works on a single connection (a pg Client), not only on a pool", async () => {
      db = await backend.create()
      const results = await db.oneConnection(async (connection) => [
        await migrate(connection),
        await migrate(connection),
      ])
      expect(results).toEqual([{ applied: [1, 2, 4, 5, 6, 7, 8, 9] }, { applied: [] }])
      expect(await tablesOf(db)).toHaveLength(15)
    })

    it("looks session tokens up through a unique index", async () => {
      db = await backend.create()
      await migrate(db.client)
      const indexes = await db.sql(
        `SELECT indexname, indexdef FROM pg_indexes
         WHERE schemaname = current_schema() AND tablename IN ('sessions', 'accounts')`,
      )
      const defs = indexes.map((i) => String(i.indexdef))
      expect(defs).toContainEqual(
        expect.stringMatching(/UNIQUE INDEX .* ON .*sessions .*\("sessionToken"\)/),
      )
      expect(defs).toContainEqual(
        expect.stringMatching(/UNIQUE INDEX .* ON .*accounts .*\(provider, "providerAccountId"\)/),
      )
      // The planner uses it for the session lookup (sequential scans off: the table is tiny).
      const plan = await db.oneConnection(async (connection) => {
        await connection.query("SET enable_seqscan = off")
        const { rows } = await connection.query(
          `EXPLAIN SELECT s.expires, u.id FROM sessions s JOIN users u ON u.id = s."userId"
           WHERE s."sessionToken" = $1`,
          ["x"],
        )
        return rows.map((r) => Object.values(r as object).join("")).join("\n")
      })
      expect(plan).toMatch(/Index (Only )?Scan using "?sessions_sessionToken_key"?/)
    })

    it("adopts an existing Auth.js database: data kept, indexes and authenticators added", async () => {
      db = await backend.create()
      await runSql(db, authJsSchema)
      await db.sql(`INSERT INTO users (name, email) VALUES ('Old', 'old@example.com')`)
      await db.sql(
        `INSERT INTO sessions ("userId", expires, "sessionToken")
         VALUES (1, now() + interval '1 day', 'plain-token')`,
      )
      expect(await migrate(db.client)).toEqual({ applied: [1, 2, 4, 5, 6, 7, 8, 9] })
      expect(await tablesOf(db)).toContain("authenticators")
      const adapter = PostgresAdapter(db.client, { hashSessionTokens: false })
      const found = await adapter.getSessionAndUser!("plain-token")
      expect(found?.user).toMatchObject({ id: "1", name: "Old", email: "old@example.com" })
    })

    it("fails with AdapterError naming migrate when the database is gone", async () => {
      db = await backend.create()
      const client = db.another()
      if (client === db.client) {
        await db.close()
      } else {
        await (client as unknown as { end(): Promise<void> }).end()
      }
      const error = await migrate(client).catch((e: unknown) => e)
      expect(error).toBeInstanceOf(AdapterError)
      expect((error as AdapterError).message).toMatch(/^PostgresAdapter\.migrate failed/)
    })

    it("ships the migrations as numbered SQL files", async () => {
      const migrations = await loadMigrations()
      expect(migrations.map((m) => [m.version, m.name])).toEqual([
        [1, "init"],
        [2, "authenticators"],
        [4, "revocation"],
        [5, "account"],
        [6, "two_factor"],
        [7, "password"],
        [8, "user_created_at"],
        [9, "organizations"],
      ])
      for (const m of migrations) expect(m.sql).toMatch(/(CREATE TABLE|ADD COLUMN) IF NOT EXISTS/)
    })
  })
}

describe("migrate where PGlite cannot open its files", () => {
  it("says what the file-system code means and what to use on a runtime without a filesystem", async () => {
    const dir = mkdtempSync(join(tmpdir(), "latchkey-pglite-"))
    // A regular file where the data directory's parent should be: PGlite fails with ENOTDIR.
    writeFileSync(join(dir, "file"), "")
    try {
      const client = new PGlite(join(dir, "file", "data"))
      // PGlite rejects its own readiness promise too; the test reads the failure from migrate.
      client.waitReady.catch(() => {})
      const failure = await migrate(client).catch((e) => e)
      expect(failure).toBeInstanceOf(AdapterError)
      expect(failure.message).toMatch(/^PostgresAdapter\.migrate failed: database error ENOTDIR: /)
      expect(failure.message).toContain("PGlite needs a writable data directory")
      expect(failure.message).toContain("@latchkey/adapter-drizzle over D1")
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
