import { readFileSync } from "node:fs"
import { createOptimizer } from "@builder.io/qwik/optimizer"
import { describe, expect, it } from "vitest"
import { latchkey, routeAuthImports } from "../src/vite.js"
import { addLatchkeyPlugin } from "../src/vite-setup.js"

const PLUGIN_AUTH = `import { QwikAuth$ } from "@latchkey/qwik"
import Credentials from "@latchkey/qwik/providers/credentials"
import { adapter } from "~/lib/db"

export const { onRequest, useSession } = QwikAuth$(() => ({ adapter, providers: [Credentials({})] }))
`

/** What Qwik's optimizer writes for a client build of `code` (the names `qwikVite` strips). */
async function clientBuildOf(code: string): Promise<string> {
  const optimizer = await createOptimizer()
  const output = optimizer.transformModulesSync({
    input: [{ code, path: "routes/plugin@auth.ts" }],
    srcDir: "/app/src",
    entryStrategy: { type: "smart" },
    minify: "simplify",
    transpileTs: true,
    explicitExtensions: true,
    mode: "prod",
    isServer: false,
    stripCtxName: ["useServer", "route", "server", "action$", "loader$", "zod$", "validator$"],
    stripExports: ["onRequest"],
  })
  return output.modules.map((m) => `// ${m.path}\n${m.code}`).join("\n")
}

describe("routeAuthImports", () => {
  it("imports QwikAuth$ as routeAuth$ under its own name, and changes nothing else", () => {
    const out = routeAuthImports(PLUGIN_AUTH)
    expect(out).toBe(
      PLUGIN_AUTH.replace(
        'import { QwikAuth$ } from "@latchkey/qwik"',
        'import { routeAuth$ as QwikAuth$ } from "@latchkey/qwik"',
      ),
    )
  })

  it("keeps an alias, other specifiers, quotes and line breaks", () => {
    const code =
      "import {\n  type Session,\n  QwikAuth$ as auth$,\n  routeAuth$,\n} from '@latchkey/qwik'\n"
    expect(routeAuthImports(code)).toBe(
      "import {\n  type Session,\n  routeAuth$ as auth$,\n  routeAuth$,\n} from '@latchkey/qwik'\n",
    )
  })

  it("leaves other packages, type-only names and files without QwikAuth$ alone", () => {
    expect(routeAuthImports('import { QwikAuth$ } from "@auth/qwik"\nQwikAuth$(() => ({}))')).toBe(
      null,
    )
    expect(routeAuthImports('import { type QwikAuth$ } from "@latchkey/qwik"')).toBe(null)
    expect(routeAuthImports('import { routeAuth$ } from "@latchkey/qwik"')).toBe(null)
  })

  it("makes Qwik's optimizer strip the config and its imports from the client build", async () => {
    // Without the rewrite: the config is a segment of its own, importing the database module.
    expect(await clientBuildOf(PLUGIN_AUTH)).toContain('from "~/lib/db"')
    const stripped = await clientBuildOf(routeAuthImports(PLUGIN_AUTH) ?? "")
    expect(stripped).not.toContain("~/lib/db")
    expect(stripped).not.toContain("Credentials")
    expect(stripped).toMatch(/routeAuthQrl\(\/\*#__PURE__\*\/ _noopQrl\(/)
  })
})

describe("latchkey() Vite plugin", () => {
  const { handler } = latchkey().transform

  it("rewrites app modules, before Qwik's optimizer", () => {
    expect(latchkey().transform.order).toBe("pre")
    expect(handler(PLUGIN_AUTH, "/app/src/routes/plugin@auth.ts")?.code).toContain(
      "routeAuth$ as QwikAuth$",
    )
    expect(handler(PLUGIN_AUTH, "/app/src/routes/plugin@auth.ts?v=1")).not.toBeNull()
  })

  it("leaves dependencies, virtual modules and other files alone", () => {
    expect(handler(PLUGIN_AUTH, "/app/node_modules/x/index.ts")).toBeNull()
    expect(handler(PLUGIN_AUTH, "\0virtual:plugin@auth.ts")).toBeNull()
    expect(handler(PLUGIN_AUTH, "/app/src/global.css")).toBeNull()
  })
})

describe("addLatchkeyPlugin (npx latchkey vite)", () => {
  const starter = readFileSync(
    new URL("../../../e2e/fixtures/starter/vite.config.ts", import.meta.url),
    "utf8",
  )

  it("adds the import and latchkey() first in plugins to Qwik's starter config", () => {
    const edit = addLatchkeyPlugin(starter)
    if (edit.status !== "added") throw new Error(edit.status)
    expect(edit.source).toContain(
      'import pkg from "./package.json";\nimport { latchkey } from "@latchkey/qwik/vite";\n',
    )
    expect(edit.source).toContain("plugins: [latchkey(), qwikCity(), qwikVite(),")
    expect(addLatchkeyPlugin(edit.source)).toEqual({ status: "present" })
  })

  it("refuses a config without a plugins array instead of guessing", () => {
    expect(addLatchkeyPlugin("export default {}\n")).toEqual({ status: "unrecognised" })
  })
})
