/**
 * The adapter contract on Bun's own SQLite (`bun:sqlite`, `drizzle-orm/bun-sqlite`), which only
 * Bun has: under Node this file runs itself again in Bun (the registry's Bun of
 * e2e/runtime-tools, Vitest under `bun --bun`) and passes when every test there does.
 */
import { spawnSync } from "node:child_process"
import { fileURLToPath } from "node:url"
import { runAdapterContract } from "@latchkey/adapter-test"
import { sql } from "drizzle-orm"
import { expect, it } from "vitest"
import { installRuntimeTools, toolBin } from "../../../e2e/runtime-tools/install.mjs"
import { DrizzleAdapter } from "../src/index.js"
import { migrationFor, schemas } from "./engines.js"

const bun = (globalThis as { Bun?: unknown }).Bun !== undefined

if (bun) {
  let close: (() => void) | undefined
  runAdapterContract({
    name: "drizzle on Bun's SQLite (bun:sqlite)",
    async adapter() {
      const { Database } = await import("bun:sqlite" as string)
      const { drizzle } = await import("drizzle-orm/bun-sqlite")
      const client = new Database(":memory:")
      close = () => client.close()
      const db = drizzle(client, { schema: schemas.sqlite })
      for (const statement of await migrationFor("sqlite", schemas.sqlite))
        db.run(sql.raw(statement))
      return DrizzleAdapter(db, { schema: schemas.sqlite })
    },
    teardown: async () => close?.(),
    capabilities: { authenticators: true },
  })
} else {
  it("passes the adapter contract on Bun's SQLite, run in Bun", async () => {
    await installRuntimeTools()
    const root = fileURLToPath(new URL("../../..", import.meta.url))
    const vitest = fileURLToPath(
      new URL("../../../node_modules/vitest/vitest.mjs", import.meta.url),
    )
    const run = spawnSync(
      toolBin("bun"),
      ["--bun", vitest, "run", fileURLToPath(import.meta.url)],
      { cwd: root, encoding: "utf8", env: { ...process.env, NO_COLOR: "1" }, timeout: 280_000 },
    )
    const output = `${run.stdout}${run.stderr}`
    expect(run.status, output).toBe(0)
    expect(output).toMatch(/Tests\s+\d+ passed/)
    expect(output).not.toMatch(/failed/)
  }, 300_000)
}
