/**
 * An app bundles only the features it configures (issue 43). A Worker whose whole config is
 * `providers: [GitHub(…)]` is bundled from the sources as a Worker bundler would, and the modules
 * that reach its output are listed: no other feature's code, and none of the adapter's, may be
 * among them. `npm run bench bundle` gives the sizes; this test fails on the import that would
 * bring a feature back into every app.
 */
import { fileURLToPath } from "node:url"
import { build } from "esbuild"
import { describe, expect, it } from "vitest"

const src = (path: string) => fileURLToPath(new URL(`../../src/${path}`, import.meta.url))

/** A Worker answering every request with `Auth(request, config)`, `options` added to its config. */
function worker(options = "", imports = ""): string {
  return `
import { Auth } from ${JSON.stringify(src("index.ts"))}
import GitHub from ${JSON.stringify(src("providers/github.ts"))}
${imports}
const config = {
  secret: "a-feature-weight-secret-of-32-bytes-or-more",
  trustHost: true,
  providers: [GitHub({ clientId: "id", clientSecret: "secret" })],
  ${options}
}
export default { fetch: (request) => Auth(request, config) }
`
}

/** The modules (relative to the core's `src`, or a package's name) with code in the output. */
async function modulesIn(contents: string): Promise<string[]> {
  const result = await build({
    stdin: { contents, resolveDir: src("."), loader: "ts" },
    bundle: true,
    write: false,
    metafile: true,
    format: "esm",
    platform: "browser",
    conditions: ["latchkey-source", "workerd", "worker"],
    logLevel: "silent",
  })
  const [output] = Object.values(result.metafile.outputs)
  return Object.entries(output!.inputs)
    .filter(([, { bytesInOutput }]) => bytesInOutput > 0)
    .map(([path]) => {
      const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(path)
      return pkg ? pkg[1]! : path.replace(/^.*packages\/core\/src\//, "")
    })
}

const OTHER_FEATURES = [
  "features/adapter/",
  "features/password/",
  "features/passkey/",
  "features/two-factor/",
  "features/email/",
  "features/account-api/",
  "features/organizations/",
  "features/credentials/",
]
const HEAVY_PACKAGES = ["@zxcvbn-ts/core", "@simplewebauthn/server", "otpauth", "hash-wasm", "uqr"]

describe("a GitHub-only Worker carries the OAuth feature and the kernel, nothing else", () => {
  it("no other feature's code, no adapter code (sign-in among rows, claims, database sessions)", async () => {
    const modules = await modulesIn(worker())
    expect(modules.some((m) => m.startsWith("features/oauth/"))).toBe(true)
    for (const feature of OTHER_FEATURES) {
      expect(modules.filter((m) => m.startsWith(feature))).toEqual([])
    }
    expect(modules).not.toContain("kernel/account/claim.ts")
    for (const pkg of HEAVY_PACKAGES) expect(modules).not.toContain(pkg)
  })

  it("an adapter brings the adapter feature, and with it the claim and database sessions", async () => {
    const modules = await modulesIn(
      worker(
        'adapter: withAdapterFeature({}), session: { strategy: "database" },',
        `import { withAdapterFeature } from ${JSON.stringify(src("adapters.ts"))}`,
      ),
    )
    expect(modules).toContain("features/adapter/login.ts")
    expect(modules).toContain("features/adapter/database-session.ts")
    expect(modules).toContain("kernel/account/claim.ts")
    expect(modules.filter((m) => m.startsWith("features/password/"))).toEqual([])
  })
})
