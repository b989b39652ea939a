/**
 * The operator commands (`@latchkey/adapter-postgres/cli`, run by `npx latchkey`) against a
 * PGlite data directory (always) and the PostgreSQL server (DATABASE_URL): unproven accounts by
 * age, listed then removed; a user's sessions ended; two-factor reset; usage errors.
 */
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { PGlite } from "@electric-sql/pglite"
import type { Adapter, AdapterUser } from "@latchkey/core/adapters"
import pg from "pg"
import { afterEach, describe, expect, it } from "vitest"
import { type CliIo, runCli } from "../src/cli/index.js"
import { migrate, PostgresAdapter, type Queryable } from "../src/index.js"
import { databaseUrl } from "./helpers.js"

interface Target {
  /** DATABASE_URL for the command. */
  url: string
  /** Opens the database for the test's own reads and writes. */
  open(): Promise<{ client: Queryable; close(): Promise<void> }>
  drop(): Promise<void>
}

const targets: { name: string; create(): Promise<Target> }[] = [
  {
    name: "pglite directory",
    async create() {
      const dir = mkdtempSync(join(tmpdir(), "latchkey-cli-"))
      return {
        url: `file://${dir}`,
        async open() {
          const db = new PGlite(dir)
          await db.waitReady
          return { client: db, close: () => db.close() }
        },
        drop: async () => rmSync(dir, { recursive: true, force: true }),
      }
    },
  },
]
if (databaseUrl) {
  targets.push({
    name: "postgres",
    async create() {
      const schema = `latchkey_cli_${crypto.randomUUID().replaceAll("-", "")}`
      const admin = new pg.Client({ connectionString: databaseUrl })
      await admin.connect()
      await admin.query(`CREATE SCHEMA ${schema}`)
      await admin.end()
      const options = `-c search_path=${schema}`
      return {
        url: `${databaseUrl}?options=${encodeURIComponent(options)}`,
        async open() {
          const pool = new pg.Pool({ connectionString: databaseUrl, options, max: 2 })
          return { client: pool, close: () => pool.end() }
        },
        async drop() {
          const client = new pg.Client({ connectionString: databaseUrl })
          await client.connect()
          await client.query(`DROP SCHEMA ${schema} CASCADE`)
          await client.end()
        },
      }
    },
  })
}

async function cli(url: string, ...argv: string[]) {
  const out: string[] = []
  const err: string[] = []
  const io: CliIo = {
    env: { DATABASE_URL: url },
    out: (l) => void out.push(l),
    err: (l) => void err.push(l),
  }
  const code = await runCli(argv, io)
  return { code, out, err: err.join("\n") }
}

describe.each(targets)("npx latchkey operator commands: $name", (kind) => {
  let target: Target
  afterEach(async () => {
    await target?.drop()
  })

  /** A migrated database with an old unproven user, a young one, an old proven one. */
  async function seed() {
    target = await kind.create()
    const { client, close } = await target.open()
    await migrate(client)
    const adapter: Adapter = PostgresAdapter(client)
    const add = (email: string, proven: boolean) =>
      adapter.createUser!({
        id: "",
        email,
        emailVerified: proven ? new Date() : null,
      } as AdapterUser) as Promise<AdapterUser>
    const old = await add("squatted@example.com", false)
    const young = await add("young@example.com", false)
    const proven = await add("owner@example.com", true)
    const ago = new Date(Date.now() - 40 * 86_400_000)
    await client.query(`UPDATE users SET "createdAt" = $1 WHERE id = ANY($2)`, [
      ago,
      [Number(old.id), Number(proven.id)],
    ])
    await adapter.createSession!({
      sessionToken: "squatter-session",
      userId: old.id,
      expires: new Date(Date.now() + 86_400_000),
    })
    await adapter.setTwoFactor!({ userId: proven.id, secret: "sealed", enabledAt: new Date() })
    await close()
    return { old, young, proven }
  }

  async function withAdapter<T>(fn: (adapter: Adapter) => Promise<T>): Promise<T> {
    const { client, close } = await target.open()
    try {
      return await fn(PostgresAdapter(client))
    } finally {
      await close()
    }
  }

  it("users:unproven lists the old unproven accounts; --remove deletes them and nothing else", async () => {
    const { old, young, proven } = await seed()
    const listed = await cli(target.url, "users:unproven", "--older-than", "30d")
    expect(listed.code).toBe(0)
    expect(listed.out).toEqual([`${old.id}\tsquatted@example.com`])
    expect(listed.err).toContain("Add --remove")
    await withAdapter(async (a) => expect(await a.getUser!(old.id)).not.toBeNull())

    const removed = await cli(target.url, "users:unproven", "--older-than=30d", "--remove")
    expect(removed.code).toBe(0)
    expect(removed.out).toEqual([`${old.id}\tsquatted@example.com`])
    await withAdapter(async (a) => {
      expect(await a.getUser!(old.id)).toBeNull()
      expect(await a.getSessionAndUser!("squatter-session")).toBeNull()
      expect(await a.getUser!(young.id)).not.toBeNull()
      expect(await a.getUser!(proven.id)).not.toBeNull()
    })
  })

  it("sessions:end ends the user's database sessions and raises their JWT session version", async () => {
    const { old } = await seed()
    const ended = await cli(target.url, "sessions:end", old.id)
    expect(ended.code).toBe(0)
    await withAdapter(async (a) => {
      expect(await a.getSessionAndUser!("squatter-session")).toBeNull()
      expect((await a.getSessionRevocation!({ userId: old.id })).version).toBe(1)
    })
  })

  it("two-factor:reset removes the enrollment (exit 1 when there was none)", async () => {
    const { proven, young } = await seed()
    expect((await cli(target.url, "two-factor:reset", proven.id)).code).toBe(0)
    await withAdapter(async (a) => expect(await a.getTwoFactor!(proven.id)).toBeNull())
    expect((await cli(target.url, "two-factor:reset", young.id)).code).toBe(1)
  })
})

describe("npx latchkey operator commands: usage", () => {
  it("answers exit 2 with the usage for an unknown command, a bad duration, a missing argument", async () => {
    const unknown = await cli("file:///nowhere", "users:nope")
    expect([unknown.code, unknown.err]).toEqual([2, expect.stringContaining("users:unproven")])
    const bad = await cli("file:///nowhere", "users:unproven", "--older-than", "soon")
    expect([bad.code, bad.err]).toEqual([2, expect.stringContaining("not a duration")])
    const missing = await cli("file:///nowhere", "sessions:end")
    expect([missing.code, missing.err]).toEqual([2, expect.stringContaining("one user id")])
  })

  it("fails with exit 1 and says what to set when DATABASE_URL is missing or unknown", async () => {
    expect(await runCli(["sessions:end", "1"], { env: {}, out: () => {}, err: () => {} })).toBe(1)
    const wrong = await cli("mysql://x", "sessions:end", "1")
    expect([wrong.code, wrong.err]).toEqual([1, expect.stringContaining("postgres://")])
  })
})
