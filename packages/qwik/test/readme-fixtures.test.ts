/**
 * The quick starts in the documentation site's pages and the packages' READMEs are the fixture
 * apps the browser tests run (`e2e/fixtures/*`): every code block marked
 * `<!-- fixture: <path> -->` must equal that file, and every file of the quick start's fixtures
 * must be shown somewhere.
 */
import { readdirSync, readFileSync, statSync } from "node:fs"
import { join, relative } from "node:path"
import { fileURLToPath } from "node:url"
import { describe, expect, it } from "vitest"

const root = fileURLToPath(new URL("../../..", import.meta.url))
const fixtures = join(root, "e2e", "fixtures")
/** The documentation site's pages, as paths from the repository's root. */
function sitePages(dir = "docs/site/pages"): string[] {
  return readdirSync(join(root, dir)).flatMap((entry) => {
    const path = `${dir}/${entry}`
    if (statSync(join(root, path)).isDirectory()) return sitePages(path)
    return path.endsWith(".md") ? [path] : []
  })
}
const gettingStarted = "docs/site/pages/getting-started.md"
const readmes = [
  gettingStarted,
  "docs/site/pages/guides/credentials.md",
  "docs/site/pages/databases/sqlite.md",
  "packages/qwik/README.md",
  "packages/adapter-postgres/README.md",
]
const marked = /<!-- fixture: (\S+) -->\n```\w*\n([\s\S]*?)\n```/g

function blocks(readme: string): { path: string; code: string }[] {
  const text = readFileSync(join(root, readme), "utf8")
  return [...text.matchAll(marked)].map(([, path, code]) => ({ path: path!, code: code! }))
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const path = join(dir, entry)
    return statSync(path).isDirectory() ? filesUnder(path) : [relative(fixtures, path)]
  })
}

describe.each(readmes)("%s", (readme) => {
  const shown = blocks(readme)

  it("shows at least one fixture file", () => {
    expect(shown.length).toBeGreaterThan(0)
  })

  it.each(shown.map((b) => [b.path, b.code]))(
    "shows %s exactly as the fixture has it",
    (path, code) => {
      expect(code).toBe(readFileSync(join(fixtures, path), "utf8").trimEnd())
    },
  )
})

it("the getting-started page shows every file the quick start adds to the starter", () => {
  const shown = new Set(blocks(gettingStarted).map((b) => b.path))
  for (const file of filesUnder(join(fixtures, "quickstart"))) expect(shown).toContain(file)
})

/** Names the READMEs' snippets use from packages: a snippet that uses one must import it. */
const IMPORTED_NAMES = [
  "routeAuth$",
  "QwikAuth$",
  "getToken",
  "encode",
  "decode",
  "PostgresAdapter",
  "migrate",
  "RedisStore",
  "createClient",
  "PGlite",
  "Credentials",
  "Password",
  "Passkey",
  "GitHub",
  "Keycloak",
  "Nodemailer",
  "getAccessToken",
  "getSessionData",
  "registerPasskey",
  "signInWithPasskey",
  "requireRecentAuth",
  "setEnvDefaults",
  "Auth",
  "routeLoader$",
  "component$",
]

/** The TypeScript snippets of a README, each with the heading of the section it sits in. */
function snippets(readme: string): { section: string; code: string }[] {
  const text = readFileSync(join(root, readme), "utf8")
  const found: { section: string; code: string }[] = []
  let section = ""
  for (const part of text.split(/^(#{1,3} .*)$/m)) {
    if (/^#{1,3} /.test(part)) section = part
    else
      for (const m of part.matchAll(/```tsx?\n([\s\S]*?)\n```/g))
        found.push({ section, code: m[1]! })
  }
  return found
}

const allReadmes = [
  ...new Set([...sitePages(), ...readmes]),
  "README.md",
  "packages/core/README.md",
  "packages/store-redis/README.md",
  "packages/store-upstash/README.md",
  "packages/store-durable-object/README.md",
]

describe.each(allReadmes)("snippets of %s", (readme) => {
  it("import every package name they use", () => {
    const missing: string[] = []
    for (const { code } of snippets(readme)) {
      if (/^(interface|type) /m.test(code) && !/^import /m.test(code)) continue // type sketches
      const imported = [...code.matchAll(/^import\s+(?:type\s+)?(\w+)?[\s,]*(?:\{([^}]*)\})?/gm)]
        .flatMap((m) => [m[1] ?? "", ...(m[2] ?? "").split(",")])
        .map((name) =>
          name
            .replace(/^\s*type\s+/, "")
            .trim()
            .split(/\s+as\s+/)
            .pop(),
        )
      for (const name of IMPORTED_NAMES) {
        const call = new RegExp(`(?<![\\w$.])${name.replace("$", "\\$")}[(<]`)
        if (call.test(code) && !imported.includes(name)) {
          missing.push(`${name} in: ${code.split("\n").slice(0, 3).join(" ⏎ ")}`)
        }
      }
    }
    expect(missing).toEqual([])
  })

  it("use routeAuth$ unless they are about migrating from @auth/qwik", () => {
    for (const { section, code } of snippets(readme)) {
      if (/migrat/i.test(section)) continue
      expect({ section, code }).not.toMatchObject({ code: expect.stringMatching(/QwikAuth\$\(/) })
    }
  })
})
