/**
 * The build-time warnings of `latchkey()` (`src/vite-checks.ts`), through the plugin's own hooks
 * as Vite calls them: `configResolved`, `transform` on sample sources, and `closeBundle` of a
 * server build whose client output holds prerendered pages.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { dirname, join } from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import { accountPage, pluginAuth } from "../bin/init/templates.mjs"
import { latchkey } from "../src/vite.js"

const root = "/app"
const scratch = mkdtempSync(join(tmpdir(), "latchkey-vite-checks-"))
afterAll(() => rmSync(scratch, { recursive: true, force: true }))

/** A plugin as Vite runs it in a build of the app at `root`; `warnings` collects its logger's. */
function build(options: { ssr?: boolean; clientOutDir?: string } = {}) {
  const plugin = latchkey()
  const warnings: string[] = []
  const api = options.clientOutDir ? { getClientPublicOutDir: () => options.clientOutDir } : {}
  plugin.configResolved({
    root,
    build: { ssr: options.ssr ?? false },
    logger: { warn: (line) => warnings.push(line) },
    plugins: [{ name: "vite-plugin-qwik", api }],
  })
  return {
    warnings,
    transform(path: string, code: string) {
      plugin.transform.handler(code, `${root}/${path}`)
    },
    close() {
      plugin.closeBundle.handler()
    },
  }
}

const AUTH_CONFIG = `routeAuth$(() => ({ adapter, providers: [Password({ server: "smtp://x" })] }))`

describe("vite-loader-in-plugin", () => {
  it("warns once when plugin@auth.ts exports useAccount or useTwoFactorStatus, naming both", () => {
    const b = build()
    const code = `import { routeAuth$ } from "@latchkey/qwik"
export const { onRequest, useSession, useAccount } = ${AUTH_CONFIG}
export const { useTwoFactorStatus, useEnrollTwoFactor } = twoFactorActions()
`
    b.transform("src/routes/plugin@auth.ts", code)
    b.transform("src/routes/plugin@auth.ts", code) // dev transforms again on every change
    expect(b.warnings).toEqual([
      expect.stringMatching(
        /^\[latchkey\]\[warn\]\[vite-loader-in-plugin\] src\/routes\/plugin@auth\.ts exports useAccount: .*every page.*Export it from the page that shows it/,
      ),
      expect.stringContaining(
        "[vite-loader-in-plugin] src/routes/plugin@auth.ts exports useTwoFactorStatus",
      ),
    ])
    for (const line of b.warnings) expect(line).not.toContain("\n")
  })

  it("sees the loader under another name, as a re-export, or assigned from the auth object", () => {
    for (const code of [
      `export const { onRequest, useAccount: useMyAccount } = ${AUTH_CONFIG}`,
      "const auth = routeAuth$(() => config)\nexport { auth as default, useAccount } from './x'",
      "const auth = routeAuth$(() => config)\nexport const useMine = auth.useAccount",
    ]) {
      const b = build()
      b.transform("src/routes/plugin@auth.ts", code)
      expect(b.warnings, code).toEqual([expect.stringContaining("exports useAccount")])
    }
  })

  it("stays quiet for the README's pattern, other route files and init's own files", () => {
    const b = build()
    b.transform(
      "src/routes/plugin@auth.ts",
      `const auth = routeAuth$(() => config)
export const { onRequest, useSession, useSignIn, useSignOut, useRevokeSession } = auth
export const accountLoaders = { useAccount: auth.useAccount }
`,
    )
    b.transform(
      "src/routes/account/index.tsx",
      "import { accountLoaders } from '../plugin@auth'\nexport const useAccount = accountLoaders.useAccount\n",
    )
    const project = {
      qwik: 1,
      binding: "@latchkey/qwik",
      core: "@builder.io/qwik",
      router: "@builder.io/qwik-city",
      packageManager: "npm",
      packageJson: {},
    } as const
    const choice = { methods: ["password", "passkey"], sessions: "pglite", project }
    b.transform("src/routes/plugin@auth.ts", pluginAuth(choice))
    b.transform("src/routes/account/index.tsx", accountPage(choice))
    expect(b.warnings).toEqual([])
  })
})

describe("vite-namespace-import", () => {
  it("warns when QwikAuth$ is called through a namespace import the rewrite cannot reach", () => {
    const b = build()
    const code = `import * as latchkey from "@latchkey/qwik"
export const { onRequest, useSession } = latchkey.QwikAuth$(() => config)
`
    b.transform("src/routes/plugin@auth.ts", code)
    expect(b.warnings).toEqual([
      expect.stringMatching(
        /^\[latchkey\]\[warn\]\[vite-namespace-import\] src\/routes\/plugin@auth\.ts calls latchkey\.QwikAuth\$ .*client build.*import \{ routeAuth\$ \} from "@latchkey\/qwik"\.$/,
      ),
    ])
  })

  it("stays quiet for named imports, namespaces of other packages and a namespace used otherwise", () => {
    const b = build()
    b.transform(
      "src/routes/plugin@auth.ts",
      'import { QwikAuth$ } from "@latchkey/qwik"\nexport const a = QwikAuth$(() => config)',
    )
    b.transform(
      "src/routes/other.ts",
      'import * as auth from "@auth/qwik"\nexport const b = auth.QwikAuth$(() => config)',
    )
    b.transform(
      "src/routes/types.ts",
      'import * as lk from "@latchkey/qwik"\nexport const c = lk.routeAuth$(() => config)',
    )
    expect(b.warnings).toEqual([])
  })
})

describe("vite-session-prerendered", () => {
  /** A client output directory with these prerendered pages (and the build's own files). */
  function clientOut(pages: string[]): string {
    const dir = mkdtempSync(join(scratch, "dist-"))
    mkdirSync(join(dir, "build"))
    writeFileSync(join(dir, "build", "q-abc.js"), "")
    writeFileSync(join(dir, "404.html"), "")
    for (const page of pages) {
      mkdirSync(dirname(join(dir, page)), { recursive: true })
      writeFileSync(join(dir, page), "<html></html>")
    }
    return dir
  }

  const home = `import { component$ } from "@builder.io/qwik"
import { useSession } from "./plugin@auth"
export default component$(() => <p>{useSession().value?.user?.email}</p>)
`

  it("warns for each prerendered page a session-reading page or layout renders", () => {
    const dir = clientOut([
      "index.html",
      "about/index.html",
      "blog/post-1/index.html",
      "docs/index.html",
    ])
    const b = build({ ssr: true, clientOutDir: dir })
    b.transform("src/routes/index.tsx", home)
    b.transform(
      "src/routes/blog/layout.tsx",
      'export const onGet = ({ sharedMap }) => { sharedMap.get("session") }',
    )
    b.transform("src/routes/about/index.tsx", "export default () => <p>About</p>")
    b.transform(
      "src/routes/(app)/docs/index.tsx",
      "import { useAccount as u } from '../../plugin@auth'\nexport default () => u()",
    )
    b.close()
    expect(b.warnings).toEqual([
      expect.stringMatching(
        /^\[latchkey\]\[warn\]\[vite-session-prerendered\] \/ was prerendered \(SSG\) but src\/routes\/index\.tsx reads the session: .*signed out at build time.*exclude: \["\/"\]/,
      ),
      expect.stringContaining("/blog/post-1/ was prerendered (SSG) but src/routes/blog/layout.tsx"),
      expect.stringContaining("/docs/ was prerendered (SSG) but src/routes/(app)/docs/index.tsx"),
    ])
  })

  it("stays quiet without prerendered pages, in the client build and with no reader", () => {
    const none = build({ ssr: true, clientOutDir: clientOut([]) })
    none.transform("src/routes/index.tsx", home)
    none.close()
    const client = build({ ssr: false, clientOutDir: clientOut(["index.html"]) })
    client.transform("src/routes/index.tsx", home)
    client.close()
    const noReader = build({ ssr: true, clientOutDir: clientOut(["index.html"]) })
    noReader.transform("src/routes/index.tsx", "export default () => <p>Hi</p>")
    noReader.close()
    expect([...none.warnings, ...client.warnings, ...noReader.warnings]).toEqual([])
  })
})
