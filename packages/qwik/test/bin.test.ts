import { execFileSync } from "node:child_process"
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { PGlite } from "@electric-sql/pglite"
import pg from "pg"
import { describe, expect, it } from "vitest"
import { migrate, type Queryable } from "../../adapter-postgres/src/index.js"

const bin = fileURLToPath(new URL("../bin/latchkey.mjs", import.meta.url))

describe("latchkey secret", () => {
  it("prints a new 32-byte base64url secret each time", () => {
    const a = execFileSync(process.execPath, [bin, "secret"], { encoding: "utf8" }).trim()
    const b = execFileSync(process.execPath, [bin, "secret"], { encoding: "utf8" }).trim()
    expect(a).toMatch(/^[A-Za-z0-9_-]{43}$/)
    expect(Buffer.from(a, "base64url")).toHaveLength(32)
    expect(a).not.toBe(b)
  })

  it("fails with usage on an unknown command", () => {
    expect(() => execFileSync(process.execPath, [bin, "nope"], { stdio: "pipe" })).toThrow()
  })
})

describe("latchkey vite", () => {
  const starter = new URL("../../../e2e/fixtures/starter/vite.config.ts", import.meta.url)

  it("adds the plugin to ./vite.config.ts once, then says it is there", () => {
    const dir = mkdtempSync(join(tmpdir(), "latchkey-bin-"))
    try {
      copyFileSync(starter, join(dir, "vite.config.ts"))
      const first = execFileSync(process.execPath, [bin, "vite"], { cwd: dir, encoding: "utf8" })
      expect(first).toContain("added")
      const config = readFileSync(join(dir, "vite.config.ts"), "utf8")
      expect(config).toContain("plugins: [latchkey(), qwikCity()")
      const again = execFileSync(process.execPath, [bin, "vite"], { cwd: dir, encoding: "utf8" })
      expect(again).toContain("already uses latchkey()")
      expect(readFileSync(join(dir, "vite.config.ts"), "utf8")).toBe(config)
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })

  it("fails, printing the line to add, where there is no vite.config.ts", () => {
    const dir = mkdtempSync(join(tmpdir(), "latchkey-bin-"))
    try {
      expect(() =>
        execFileSync(process.execPath, [bin, "vite"], { cwd: dir, stdio: "pipe" }),
      ).toThrow(/import \{ latchkey \} from "@latchkey\/qwik\/vite"/)
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})

describe("latchkey database commands (spawned; @latchkey/adapter-postgres and core built)", () => {
  const databaseUrl = process.env.DATABASE_URL
  const targets: { name: string; create(): Promise<{ url: string; drop(): Promise<void> }> }[] = [
    {
      name: "PGlite directory",
      async create() {
        const dir = mkdtempSync(join(tmpdir(), "latchkey-bin-db-"))
        const db = new PGlite(dir)
        await seed(db)
        await db.close()
        return { url: `file://${dir}`, drop: async () => rmSync(dir, { recursive: true }) }
      },
    },
  ]
  if (databaseUrl) {
    targets.push({
      name: "PostgreSQL",
      async create() {
        const schema = `latchkey_bin_${crypto.randomUUID().replaceAll("-", "")}`
        const options = `-c search_path=${schema}`
        const admin = new pg.Client({ connectionString: databaseUrl })
        await admin.connect()
        await admin.query(`CREATE SCHEMA ${schema}`)
        const pool = new pg.Pool({ connectionString: databaseUrl, options, max: 1 })
        await seed(pool)
        await pool.end()
        return {
          url: `${databaseUrl}?options=${encodeURIComponent(options)}`,
          async drop() {
            await admin.query(`DROP SCHEMA ${schema} CASCADE`)
            await admin.end()
          },
        }
      },
    })
  }

  /** Migrated, with one unproven user created 40 days ago and one created now. */
  async function seed(client: Queryable) {
    await migrate(client)
    await client.query(
      `INSERT INTO users (email, "createdAt") VALUES ('old@example.com', now() - interval '40 days'), ('new@example.com', now())`,
    )
  }

  it.each(targets)(
    "users:unproven --older-than 30d lists, then --remove deletes ($name)",
    async ({ create }) => {
      const { url, drop } = await create()
      try {
        const env = { ...process.env, DATABASE_URL: url }
        const run = (...args: string[]) =>
          execFileSync(process.execPath, [bin, ...args], { env, encoding: "utf8", stdio: "pipe" })
        expect(run("users:unproven", "--older-than", "30d")).toMatch(/^\d+\told@example\.com\n$/)
        expect(run("users:unproven", "--older-than", "30d", "--remove")).toContain(
          "old@example.com",
        )
        expect(run("users:unproven", "--older-than", "30d")).toBe("")
        expect(run("users:unproven", "--older-than", "0m")).toContain("new@example.com")
      } finally {
        await drop()
      }
    },
    // Each spawn opens the PGlite directory afresh (seconds each on a busy machine).
    180_000,
  )

  it("an unknown command fails with the usage, naming the database commands", () => {
    expect(() => execFileSync(process.execPath, [bin, "users:nope"], { stdio: "pipe" })).toThrow(
      /users:unproven --older-than/,
    )
  })
})
