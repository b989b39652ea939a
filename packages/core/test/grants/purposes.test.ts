/**
 * Every grant the core mints is in the list (`GRANT_PURPOSES`, docs/design/pending-grants.md),
 * and every purpose bound to the account's state has a flow showing that a move of the state
 * voids it. A new way of minting something redeemable later fails here until it is listed, and
 * bound, and shown.
 */
import { readdirSync, readFileSync, statSync } from "node:fs"
import { join, relative } from "node:path"
import { fileURLToPath } from "node:url"
import { describe, expect, it } from "vitest"
import { GRANT_PURPOSES } from "../../src/kernel/grants/purposes.js"
import { SCENARIOS_BY_PURPOSE } from "./pending-grants-scenarios.js"

const LIB = fileURLToPath(new URL("../../src/", import.meta.url))

/**
 * What mints something a person presents later: a sealed token (the token module's `encode`,
 * the config's `jwt.encode`), a verification-token row, a database session row, and the grant
 * module's own minting functions.
 */
const MINTS = [
  /(?<![.\w])encode(<[^>]*>)?\(/,
  /\bjwt\.encode\(/,
  /\.createVerificationToken[!?]?\(|createVerificationToken\.bind\(/,
  /\.createSession[!?]?\(/,
  /\bmintLinkGrant\(/,
  /\bsealGrant(<[^>]*>)?\(/,
]

/** Modules that mint with these but produce no grant, and why. */
const NOT_GRANTS: Readonly<Record<string, string>> = {
  "kernel/grants/link.ts": "the mailed-link primitive itself (binds every link it stores)",
  "kernel/grants/sealed.ts": "the sealed-cookie primitive itself (binds every cookie it seals)",
  "kernel/token/jwt.ts": "the token module itself: what it seals is minted by its callers",
  "features/oauth/refresh/at-rest.ts":
    "provider tokens encrypted at rest in the database: nobody presents them",
  "features/two-factor/secret-at-rest.ts": "the TOTP secret encrypted at rest: nobody presents it",
}

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    if (statSync(path).isDirectory()) return sources(path)
    return path.endsWith(".ts") ? [path] : []
  })
}

/** Modules under `src` whose code (not comments) calls a minting function. */
function mintingModules(): string[] {
  return sources(LIB)
    .filter((path) => {
      const code = readFileSync(path, "utf8")
        .replace(/\/\*[\s\S]*?\*\//g, "")
        .replace(/^\s*\/\/.*$/gm, "")
      return MINTS.some((pattern) => pattern.test(code))
    })
    .map((path) => relative(LIB, path).replaceAll("\\", "/"))
    .sort()
}

describe("the grants the core mints", () => {
  it("every module that mints one is listed in GRANT_PURPOSES (or says why it mints no grant)", () => {
    const listed = new Set<string>([
      ...Object.values(GRANT_PURPOSES).flatMap((p) => p.mintedIn),
      ...Object.keys(NOT_GRANTS),
    ])
    const unlisted = mintingModules().filter((module) => !listed.has(module))
    expect(unlisted).toEqual([])
  })

  it("every module GRANT_PURPOSES names still mints (the list is not stale)", () => {
    const minting = new Set(mintingModules())
    const named = Object.values(GRANT_PURPOSES).flatMap((p) => p.mintedIn)
    expect(named.filter((module) => !minting.has(module))).toEqual([])
  })

  it("every purpose bound to the account's state has a flow showing a move of the state voids it", () => {
    const bound = Object.entries(GRANT_PURPOSES)
      .filter(([, purpose]) => purpose.binding === "account-state")
      .map(([name]) => name)
    expect(bound.filter((name) => (SCENARIOS_BY_PURPOSE[name]?.length ?? 0) === 0)).toEqual([])
  })
})
