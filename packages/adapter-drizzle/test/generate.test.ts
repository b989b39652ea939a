/**
 * `latchkey generate --drizzle <dialect>`: the schema file for the features a config enables,
 * written once (a second run changes nothing; a changed file is kept unless --force), and what
 * drizzle-kit makes of it: every table with its primary key (Auth.js's documented PostgreSQL
 * schema leaves `account` and `verificationToken` without one under drizzle 0.45).
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import { runGenerate } from "../src/cli/index.js"
import { detectFeatures, schemaFile } from "../src/generate/index.js"
import { migrationFor } from "./engines.js"

// Inside the package, so the file's import of @latchkey/adapter-drizzle resolves as in an app.
const scratch = mkdtempSync(join(import.meta.dirname, ".generate-"))
afterAll(() => rmSync(scratch, { recursive: true, force: true }))

function run(args: string[], cwd: string) {
  const out: string[] = []
  const err: string[] = []
  const code = runGenerate(args, { cwd, out: (l) => out.push(l), err: (l) => err.push(l) })
  return { code, out: out.join("\n"), err: err.join("\n") }
}

function app(config?: string) {
  const dir = mkdtempSync(join(scratch, "app-"))
  if (config !== undefined) {
    mkdirSync(join(dir, "src/routes"), { recursive: true })
    writeFileSync(join(dir, "src/routes/plugin@auth.ts"), config)
  }
  return dir
}

const passwordConfig = `import Password from "@latchkey/core/providers/password"
export const { onRequest } = routeAuth$(() => ({ providers: [Password({})] }))`

describe("features from the config", () => {
  it("finds the providers and options that need tables; revocation always", () => {
    expect(detectFeatures(passwordConfig)).toEqual(["password", "revocation"])
    expect(
      detectFeatures(`import Passkey from "@latchkey/core/providers/passkey"
        ({ providers: [Passkey()], twoFactor: { issuer: "Acme" } })`),
    ).toEqual(["passkeys", "two-factor", "revocation"])
    expect(detectFeatures("({ providers: [GitHub] })")).toEqual(["revocation"])
    expect(
      detectFeatures(`import { Organizations } from "@latchkey/core/organizations"
        ({ organizations: Organizations({ maxPerUser: 5 }) })`),
    ).toEqual(["organizations", "revocation"])
    // The Qwik bindings take the plain options object too.
    expect(detectFeatures("({ organizations: { maxPerUser: 5 } })")).toEqual([
      "organizations",
      "revocation",
    ])
  })
})

describe("latchkey generate", () => {
  it("writes src/db/auth-schema.ts for the config's features, and a second run changes nothing", () => {
    const dir = app(passwordConfig)
    const first = run(["--drizzle", "sqlite"], dir)
    expect(first).toMatchObject({ code: 0 })
    expect(first.out).toContain(
      "Wrote src/db/auth-schema.ts (sqlite; features: password, revocation)",
    )
    const text = readFileSync(join(dir, "src/db/auth-schema.ts"), "utf8")
    expect(text).toBe(schemaFile("sqlite", ["password", "revocation"]))
    expect(text).toContain('from "@latchkey/adapter-drizzle/sqlite"')
    expect(text).toContain("passwordHashes,")
    expect(text).not.toContain("authenticators")
    expect(run(["--drizzle", "sqlite"], dir).code).toBe(0)
    expect(readFileSync(join(dir, "src/db/auth-schema.ts"), "utf8")).toBe(text)
  })

  it("keeps a file that differs unless --force, and shows what it would write", () => {
    const dir = app(passwordConfig)
    mkdirSync(join(dir, "src/db"), { recursive: true })
    writeFileSync(join(dir, "src/db/auth-schema.ts"), "// mine\n")
    const kept = run(["--drizzle", "pg"], dir)
    expect(kept.code).toBe(1)
    expect(kept.err).toContain("--force")
    expect(readFileSync(join(dir, "src/db/auth-schema.ts"), "utf8")).toBe("// mine\n")
    expect(run(["--drizzle", "pg", "--force"], dir).code).toBe(0)
    expect(readFileSync(join(dir, "src/db/auth-schema.ts"), "utf8")).toContain("adapter-drizzle/pg")
  })

  it("takes --out and --features; refuses a wrong command line with the usage", () => {
    const dir = app()
    const done = run(["--drizzle", "mysql", "--out", "db/auth.ts", "--features", "passkeys"], dir)
    expect(done.code).toBe(0)
    expect(readFileSync(join(dir, "db/auth.ts"), "utf8")).toContain("authenticators,")
    for (const args of [
      [],
      ["--drizzle", "oracle"],
      ["--drizzle", "pg", "--features", "sms"],
      ["--nope"],
    ]) {
      const refused = run(args, dir)
      expect(refused.code).toBe(2)
      expect(refused.err).toContain("Usage: latchkey generate")
    }
  })

  for (const dialect of ["pg", "mysql", "sqlite"] as const) {
    it(`drizzle-kit makes every table of the ${dialect} file, each with its primary key`, async () => {
      const dir = app()
      expect(
        run(
          [
            "--drizzle",
            dialect,
            "--features",
            "passkeys,password,two-factor,organizations,revocation",
          ],
          dir,
        ).code,
      ).toBe(0)
      const schema = await import(join(dir, "src/db/auth-schema.ts"))
      const ddl = (await migrationFor(dialect, schema)).join("\n")
      const tables = [...ddl.matchAll(/CREATE TABLE [`"](\w+)[`"] \(([\s\S]*?)\n\);/g)]
      expect(tables.map((t) => t[1]).sort()).toEqual(
        [
          "account",
          "authenticator",
          "invitation",
          "member",
          "organization",
          "passwordHash",
          "revokedSession",
          "session",
          "sessionRecord",
          "twoFactor",
          "twoFactorRecoveryCode",
          "user",
          "userSessionVersion",
          "verificationToken",
        ].sort(),
      )
      for (const [, name, body] of tables) expect(body, name).toMatch(/PRIMARY KEY/)
    })
  }
})
