/**
 * The provider presets page against the presets themselves: every module of
 * `packages/core/src/providers/` that makes a provider has a row on `reference/providers.md`
 * with its callback URL and the variables it reads, and no row names a preset that is gone.
 * Each preset is made as an app makes it, so its id, kind and built-in issuer come from the
 * code, not from a list kept here.
 */
import { readdirSync, readFileSync } from "node:fs"
import { fileURLToPath } from "node:url"
import { describe, expect, it } from "vitest"
import { envKey } from "../../../packages/core/src/kernel/config/env.ts"

const presetsDir = fileURLToPath(new URL("../../../packages/core/src/providers/", import.meta.url))
const page = readFileSync(new URL("../pages/reference/providers.md", import.meta.url), "utf8")

/** Modules of the folder that are not presets: the shared types, the generic OAuth factory. */
const NOT_PRESETS = new Set(["index.ts", "oauth.ts"])
const modules = readdirSync(presetsDir)
  .filter((file) => file.endsWith(".ts") && !NOT_PRESETS.has(file))
  .map((file) => file.replace(/\.ts$/, ""))

/** Options every kind accepts; SMTP and `authorize` for the kinds that need them to be made. */
const OPTIONS = { server: "smtp://mail.example:587", authorize: async () => null }

interface Made {
  id: string
  type: string
  issuer?: unknown
}

async function make(module: string): Promise<Made> {
  const mod = (await import(`${presetsDir}${module}.ts`)) as { default: (o: object) => Made }
  return mod.default(OPTIONS)
}

/** The table row whose import cell is the module's, or undefined. */
function rowOf(module: string): string | undefined {
  const cell = `\`@latchkey/core/providers/${module}\``
  return page.split("\n").find((line) => line.startsWith("|") && line.includes(` ${cell} `))
}

/** What a row must name for `made`: the callback, and the variables that preset reads. */
function expectedIn(made: Made): string[] {
  const ID = envKey(made.id)
  const wanted = [`\`/auth/callback/${made.id}\``]
  if (made.type === "oauth" || made.type === "oidc") {
    wanted.push(`AUTH_${ID}_ID`, `AUTH_${ID}_SECRET`)
    // No built-in issuer: the app names its own (a tenant, a realm, an instance).
    if (made.type === "oidc" && made.issuer === undefined) wanted.push(`AUTH_${ID}_ISSUER`)
  }
  return wanted
}

it("finds the presets (the folder has not moved)", () => {
  expect(modules).toEqual(expect.arrayContaining(["github", "google", "keycloak", "resend"]))
  expect(modules.length).toBeGreaterThan(20)
})

describe.each(modules)("preset %s", (module) => {
  it("has a row with its callback URL and the variables it reads", async () => {
    const made = await make(module)
    const row = rowOf(module)
    expect(
      row,
      `no row on reference/providers.md imports @latchkey/core/providers/${module}`,
    ).toBeDefined()
    expect(row!.startsWith(`| \`${made.id}\``), `the row starts with the id ${made.id}`).toBe(true)
    for (const name of expectedIn(made)) expect(row, `${module}: ${name}`).toContain(name)
  })
})

it("email presets say where their mail goes: an SMTP server, or the HTTP API's key", async () => {
  for (const module of modules) {
    const made = await make(module)
    if (made.type !== "email") continue
    const row = rowOf(module)!
    expect(
      row.includes("`EMAIL_SERVER`") || row.includes(`AUTH_${envKey(made.id)}_KEY`),
      module,
    ).toBe(true)
  }
})

it("no row names a preset that does not exist", () => {
  const rows = page.split("\n").filter((line) => line.startsWith("|"))
  const named = rows.flatMap((row) =>
    [...row.matchAll(/`@latchkey\/core\/providers\/([a-z0-9-]+)`/g)].map((m) => m[1]),
  )
  expect(named.length).toBeGreaterThan(20)
  for (const module of named) expect(modules, `${module} is on the page`).toContain(module)
})
